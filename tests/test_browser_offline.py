"""In Chromium: rosters and their PDFs at the table without a signal (the service worker, offline mode)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from lists.models import Roster
from lists.rosters.files import load_roster_file, save_new_roster
from lists.rosters.sharing import hash_secret
from tests.test_browser import SECTION, add_unit, browser, site, start_roster  # noqa: F401 - the browser suite's fixtures

ROOT = Path(__file__).resolve().parents[1]
# Chromium reports each request the network refused while offline; the pages themselves must still load.
OFFLINE_NOISE = re.compile(r"ERR_INTERNET_DISCONNECTED|Failed to load resource|An unknown error occurred when fetching")


@pytest.fixture(autouse=True)
def renders_in_this_process(settings):
    """The live server renders PDFs in its own thread: no render helpers forked beside the browser."""
    settings.PDF_RENDER_PROCESSES = 1


@pytest.fixture
def context(browser):  # noqa: F811
    context = browser.new_context()
    errors = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    context.on(
        "console",
        lambda message: (
            message.type == "error" and not OFFLINE_NOISE.search(message.text) and errors.append(message.text)
        ),
    )
    yield context
    context.close()
    # No script errors and no Content-Security-Policy violations on any page.
    assert errors == []


@pytest.fixture
def page(context):
    return context.new_page()


def wait_for_worker(page):
    """Until the service worker is in charge of the page. It claims the open pages as it starts; a page whose
    load was under way while it claimed them stays out of its charge, so that page is loaded again, through it."""
    wait_until_installed(page)
    try:
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=5_000)
    except PlaywrightTimeoutError:
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def wait_until_installed(page):
    """Until the service worker has started (a page loading while it installs is not in its charge)."""
    page.wait_for_function("async () => (await navigator.serviceWorker.ready).active.state === 'activated'")


def wait_until_kept(page, path: str):
    page.wait_for_function("async (path) => (await caches.match(path)) !== undefined", arg=path)


def kept_urls(page) -> list[str]:
    return page.evaluate(
        """async () => {
            const urls = [];
            for (const name of await caches.keys()) {
                for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
            }
            return urls;
        }"""
    )


def fetch_in_page(page, path: str) -> dict:
    """A request made by the page, so through its service worker: status, type and the first bytes."""
    return page.evaluate(
        """async (path) => {
            const response = await fetch(path);
            const bytes = new Uint8Array(await response.arrayBuffer());
            return {status: response.status, type: response.headers.get("Content-Type"),
                    start: String.fromCharCode(...bytes.slice(0, 5)), size: bytes.length};
        }""",
        path,
    )


def a_roster_with_a_lieutenant(page, site) -> tuple[Roster, str]:  # noqa: F811
    start_roster(page, site, name="Table platoon")
    add_unit(page, "Second Lieutenant")
    return Roster.objects.get(), page.url


def test_a_roster_opened_online_shows_offline_with_its_cards_and_an_edit_shows_back_online(
    page,
    context,
    browser,  # noqa: F811
    site,  # noqa: F811
    empty_cache,
):
    roster, editor_url = a_roster_with_a_lieutenant(page, site)
    share = f"{site}/r/{roster.share_id}/"
    page.goto(share)
    wait_for_worker(page)
    with page.expect_download() as download_info:
        page.click("text=Unit cards (PDF)")
    assert download_info.value.suggested_filename == "table-platoon-cards-poker.pdf"
    page.goto(f"{site}/rosters/mine/")
    wait_until_kept(page, f"/r/{roster.share_id}/roster.yaml")
    wait_until_kept(page, f"/r/{roster.share_id}/cards.pdf?card=poker&paper=a4")

    context.set_offline(True)
    page.goto(share)
    expect(page.locator("h1")).to_have_text("Table platoon")
    expect(page.locator("article.unit")).to_have_count(1)
    expect(page.locator("article.unit h2")).to_have_text("Second Lieutenant")
    expect(page.locator("[data-keep-status]")).to_contain_text("Offline: this is the copy kept on this device")
    expect(page.locator("[data-keep-status]")).to_contain_text("unit cards")
    cards = fetch_in_page(page, f"/r/{roster.share_id}/cards.pdf?card=poker&paper=a4")
    assert (cards["status"], cards["type"], cards["start"]) == (200, "application/pdf", "%PDF-")
    # A6 cards were never kept: not the poker ones in their place, but a page saying so and linking those.
    a6 = fetch_in_page(page, f"/r/{roster.share_id}/cards.pdf?card=a6&paper=a4")
    assert (a6["status"], a6["type"]) == (404, "text/html; charset=utf-8")
    page.goto(f"{site}/r/{roster.share_id}/cards.pdf?card=a6&paper=a4")
    expect(page.locator("h1")).to_have_text("Not kept on this device")
    kept_link = page.locator("main a", has_text="card poker, paper a4")
    expect(kept_link).to_have_attribute("href", f"/r/{roster.share_id}/cards.pdf?card=poker&paper=a4")
    page.goto(share)
    with page.expect_download() as download_info:  # the button works too: the kept file downloads
        page.click("text=Unit cards (PDF)")
    assert download_info.value.failure() is None
    roster_file = fetch_in_page(page, f"/r/{roster.share_id}/roster.yaml")
    assert roster_file["status"] == 200 and roster_file["type"].startswith("application/yaml")

    page.goto(f"{site}/rosters/mine/")
    expect(page.locator("h1")).to_have_text("My rosters")
    expect(page.locator("main a", has_text="Table platoon")).to_have_attribute("href", f"/r/{roster.share_id}/")
    page.goto(f"{site}/games/bolt-action-2e/")  # a page this device never kept
    expect(page.locator("h1")).to_have_text("This page needs a connection")
    page.goto(editor_url)  # the editor is never kept: offline it is our page, not the browser's error
    expect(page.locator("h1")).to_have_text("This page needs a connection")

    # Meanwhile, on another device, the roster gains a unit.
    other = browser.new_context()
    editor = other.new_page()
    editor.goto(editor_url)
    add_unit(editor, SECTION)
    other.close()

    context.set_offline(False)
    page.goto(share)
    expect(page.locator("article.unit")).to_have_count(2)
    expect(page.locator("article.unit h2").nth(1)).to_have_text(SECTION)
    context.set_offline(True)  # and the kept copy is the newest one
    page.reload()
    expect(page.locator("article.unit")).to_have_count(2)


def test_a_share_page_opened_first_on_a_new_device_keeps_it_and_the_pdf_downloaded_at_once(page, context, site):  # noqa: F811
    resolved = load_roster_file((ROOT / "examples" / "bolt-action-2e.yaml").read_bytes())
    roster = save_new_roster(resolved, "firstvisitroster", hash_secret("first-visit-secret"))
    page.goto(f"{site}/r/{roster.share_id}/")
    with page.expect_download() as download_info:  # at once: the worker may still be starting
        page.click("text=Unit cards (PDF)")
    assert download_info.value.failure() is None
    wait_until_kept(page, f"/r/{roster.share_id}/")

    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text(roster.name)
    expect(page.locator("article.unit")).to_have_count(roster.units.count())
    cards = fetch_in_page(page, f"/r/{roster.share_id}/cards.pdf?card=poker&paper=a4")
    assert (cards["status"], cards["type"], cards["start"]) == (200, "application/pdf", "%PDF-")
    page.goto(f"{site}/rosters/mine/")
    expect(page.locator("h1")).to_have_text("My rosters")
    page.goto(f"{site}/nowhere/")
    expect(page.locator("h1")).to_have_text("This page needs a connection")


def test_the_editor_and_its_secret_are_never_kept_and_it_says_when_offline(page, context, site, empty_cache):  # noqa: F811
    roster, editor_url = a_roster_with_a_lieutenant(page, site)
    secret = editor_url.rstrip("/").rsplit("/", 1)[1]
    wait_for_worker(page)
    page.reload()
    add_unit(page, SECTION)  # the editor's own requests pass the worker by
    page.goto(f"{site}/r/{roster.share_id}/")
    page.goto(f"{site}/rosters/mine/")
    expect(page.locator("main a", has_text="Table platoon")).to_have_attribute("href", re.compile("/e/"))
    page.goto(f"{site}/")
    wait_until_kept(page, "/rosters/mine/")

    urls = kept_urls(page)
    assert f"{site}/r/{roster.share_id}/" in urls
    assert not [url for url in urls if "/e/" in url or secret in url]
    bodies = page.evaluate(
        """async () => {
            const texts = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const request of await cache.keys()) {
                    const response = await cache.match(request);
                    if (!(response.headers.get("Content-Type") || "").includes("pdf")) texts.push(await response.text());
                }
            }
            return texts;
        }"""
    )
    assert bodies and not [body for body in bodies if secret in body or "/e/" in body]

    page.goto(editor_url)
    notice = page.locator("[data-offline-notice]")
    expect(notice).to_be_hidden()
    context.set_offline(True)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("editing needs one")
    assert page.evaluate("[...document.querySelectorAll('main form')].every((form) => form.inert)")
    context.set_offline(False)
    expect(notice).to_be_hidden()
    assert page.evaluate("[...document.querySelectorAll('main form')].every((form) => !form.inert)")


def test_the_keep_offline_switch_keeps_both_pdfs_before_they_were_opened(page, context, site, empty_cache):  # noqa: F811
    roster, _ = a_roster_with_a_lieutenant(page, site)
    page.goto(f"{site}/r/{roster.share_id}/")
    wait_for_worker(page)
    status = page.locator("[data-keep-status]")
    expect(status).to_contain_text("this page")
    expect(status).not_to_contain_text("unit cards")

    page.check("text=Keep offline on this device")
    expect(status).to_contain_text("unit cards (", timeout=30_000)
    expect(status).to_contain_text("organiser's list (")

    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-keep-switch]")).to_be_checked()
    for pdf in ("cards.pdf?card=poker&paper=a4", "list.pdf"):
        kept = fetch_in_page(page, f"/r/{roster.share_id}/{pdf}")
        assert (kept["status"], kept["type"], kept["start"]) == (200, "application/pdf", "%PDF-")
    context.set_offline(False)
    page.uncheck("text=Keep offline on this device")
    expect(status).not_to_contain_text("unit cards")


def test_the_app_is_installable(page, context, site, empty_cache):  # noqa: F811
    """What Lighthouse asks of an installable app: a manifest with a name, 192 and 512 px icons, a start
    URL and standalone display, and a service worker in charge of the start URL, which loads offline."""
    page.goto(f"{site}/")
    wait_until_installed(page)
    manifest_url = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate("async (url) => (await fetch(url)).json()", manifest_url)
    assert manifest["name"] == "Army builder" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/rosters/mine/" and manifest["theme_color"]
    sizes = page.evaluate(
        """async (icons) => Promise.all(icons.map(async (icon) => {
            const image = await createImageBitmap(await (await fetch(icon.src)).blob());
            return [icon.sizes, icon.type, `${image.width}x${image.height}`];
        }))""",
        manifest["icons"],
    )
    assert {"192x192", "512x512"} <= {declared for declared, _, _ in sizes}
    assert all(declared == drawn and kind == "image/png" for declared, kind, drawn in sizes)

    page.goto(f"{site}{manifest['start_url']}")
    wait_for_worker(page)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{site}/sw.js"
    # Chromium's own verdict, the one its install prompt goes by (a test browser's profile is an
    # incognito one, where nothing installs: that is the one objection left).
    verdict = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    assert [error["errorId"] for error in verdict["installabilityErrors"]] == ["in-incognito"]
    context.set_offline(True)
    response = page.goto(f"{site}{manifest['start_url']}")
    assert response.status == 200
    expect(page.locator("h1")).to_have_text("My rosters")


def test_a_new_version_replaces_what_was_kept(page, context, site, empty_cache, settings):  # noqa: F811
    roster, _ = a_roster_with_a_lieutenant(page, site)
    page.goto(f"{site}/r/{roster.share_id}/")
    wait_for_worker(page)
    wait_until_kept(page, f"/r/{roster.share_id}/roster.yaml")
    before = page.evaluate("caches.keys()")
    assert len(before) == 1

    from lists.web import offline_views

    offline_views.static_files_digest.cache_clear()
    original = offline_views.static_files_digest
    offline_views.static_files_digest = lambda: "a deploy changed the static files"
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then((registration) => registration.update())")
        page.wait_for_function(
            "async (before) => { const names = await caches.keys(); return names.length === 1 && names[0] !== before; }",
            arg=before[0],
        )
    finally:
        offline_views.static_files_digest = original
    assert f"{site}/r/{roster.share_id}/" in kept_urls(page)  # fetched again into the new version
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("Table platoon")
