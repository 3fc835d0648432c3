"""End-to-end in headless Chromium (Debian's package, driven by Playwright) against the live server."""

import os
import shutil

import pytest
from django.conf import settings
from playwright.sync_api import expect

from lists.models import Roster

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Playwright's sync API runs an event loop in this thread; the ORM calls made here are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def site(live_server, transactional_db):
    from lists.packs import load_all

    load_all(settings.PACKS_DIR)
    return live_server.url


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    yield page
    context.close()
    # No script errors and no Content-Security-Policy violations on any page.
    assert errors == []


def start_roster(page, site, name="Browser platoon", limit="1000"):
    page.goto(f"{site}/")
    page.select_option("select[name=army]", label="Generic army")
    page.fill("input[name=name]", name)
    page.fill("input[name=points_limit]", limit)
    page.click("form[action='/rosters/new/'] button")
    page.wait_for_url("**/e/**")


def add_unit(page, label):
    """Add a unit and wait until htmx has swapped the new roster in."""
    before = page.locator("article.unit").count()
    page.select_option(".add-unit select[name=unit_type]", label=label)
    page.click(".add-unit button")
    expect(page.locator("article.unit")).to_have_count(before + 1)
    settled(page)


def settled(page):
    """Wait until htmx has finished swapping and settling, so the new forms listen for changes."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def test_a_player_builds_a_legal_roster_by_clicking(page, site):
    start_roster(page, site)
    assert "Not legal" in page.inner_text(".totals")

    add_unit(page, "Second Lieutenant – from 35 pts")
    add_unit(page, "Regular Infantry Section (Mid-/ Late-War) – from 50 pts")
    add_unit(page, "Regular Infantry Section (Mid-/ Late-War) – from 50 pts")

    totals = page.inner_text(".totals")
    assert "135 / 1000 pts" in totals
    assert "Legal" in totals and "Not legal" not in totals
    assert Roster.objects.get().units.count() == 3


def test_a_finding_appears_and_disappears_as_the_player_edits(page, site):
    start_roster(page, site, limit="150")
    add_unit(page, "Second Lieutenant – from 35 pts")
    add_unit(page, "Regular Infantry Section (Mid-/ Late-War) – from 50 pts")
    add_unit(page, "Regular Infantry Section (Mid-/ Late-War) – from 50 pts")
    assert page.locator("[data-code='points.over_limit']").count() == 0
    url = page.url

    # Changing the officer's quality posts by itself (htmx, on change) and the page updates in place.
    page.locator("article.unit").first.locator("select[name=quality]").select_option(label="Veteran")
    finding = page.locator("[data-code='points.over_limit']")
    expect(finding).to_have_count(1)
    expect(finding).to_contain_text("165 points, 15 over its limit of 150")
    settled(page)

    page.locator("article.unit").nth(2).locator(".remove button").click()

    expect(page.locator("[data-code='points.over_limit']")).to_have_count(0)
    expect(page.locator(".totals")).to_contain_text("115 / 150 pts")
    assert page.url == url  # no page load: the fragment was swapped in


def test_the_cards_pdf_downloads(page, site, tmp_path):
    start_roster(page, site)
    add_unit(page, "Medium Mortar Team – from 35 pts")
    page.select_option("select[name=card]", label="A6 (105 × 148 mm)")

    with page.expect_download() as download_info:
        page.click("text=Unit cards (PDF)")

    download = download_info.value
    target = tmp_path / "download.pdf"
    download.save_as(target)
    assert download.suggested_filename == "browser-platoon-cards.pdf"  # named after the roster
    assert target.read_bytes().startswith(b"%PDF")
    assert "card=a6" in download.url


def test_the_share_link_is_read_only_in_a_fresh_browser(page, site, browser):
    start_roster(page, site)
    add_unit(page, "Second Lieutenant – from 35 pts")
    roster = Roster.objects.get()

    stranger = browser.new_context().new_page()
    stranger.goto(f"{site}/r/{roster.share_id}/")

    assert "Second Lieutenant" in stranger.inner_text("main")
    assert stranger.locator("form.add-unit").count() == 0
    assert stranger.locator("select[name=quality]").count() == 0
    assert stranger.locator("text=Remove").count() == 0
    stranger.context.close()


def test_a_visitor_copies_a_shared_roster_into_one_of_their_own(page, site, browser):
    start_roster(page, site, name="Original")
    add_unit(page, "Second Lieutenant – from 35 pts")
    roster = Roster.objects.get()

    visitor = browser.new_context().new_page()
    visitor.goto(f"{site}/r/{roster.share_id}/")
    visitor.click("text=Copy into a new roster of my own")
    visitor.wait_for_url("**/e/**")

    assert "Copy of Original" in visitor.inner_text("h1")
    assert visitor.locator("article.unit").count() == 1
    assert Roster.objects.count() == 2
    visitor.context.close()
