"""In Chromium: a BattleScribe data set's roster kept at the table without a signal, as our own rosters are
(tests/test_browser_offline.py): the share page's "keep offline" switch keeps the page with the unit cards and
organiser's list it links, the kept "my rosters" lists the player's own, unticking releases the PDFs, and an edit
fetches them again or, without a signal, says the kept ones are of an earlier version.

The roster is the engine's, from the real Flames of War data in ../shared (tests/test_battlescribe_pdf_delivery.py's
`stored_roster`); skipped where absent.
"""

import re
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from playwright.sync_api import expect

from tests.test_battlescribe_pdf_delivery import FLAMES_OF_WAR, pdf_text, stored_roster
from tests.test_browser import browser  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_offline import (  # noqa: F401 - the offline suite's fixtures and helpers
    context,
    fetch_in_page,
    kept_urls,
    page,
    renders_in_this_process,
    wait_for_worker,
    wait_until_kept,
)
from tests.test_browser_pdf import run_the_worker_once

KEEP = "text=Keep offline on this device"


@pytest.fixture
def site(live_server, transactional_db, transactions_in_turn):
    """The live site with the Flames of War data loaded, or a skip where ../shared lacks it."""
    if not FLAMES_OF_WAR.is_dir():
        pytest.skip(f"no data at {FLAMES_OF_WAR}")
    call_command("load_battlescribe", str(FLAMES_OF_WAR), stdout=StringIO())
    return live_server.url


def downloaded_cards(page) -> tuple[str, str]:  # noqa: F811
    """The unit cards as the share page's link downloads them: the file's name and its text."""
    with page.expect_download() as download_info:
        page.get_by_role("link", name="unit cards (PDF)").click()
    download = download_info.value
    assert download.failure() is None
    return download.suggested_filename, pdf_text(Path(download.path()).read_bytes())


def render_until_both_are_kept(status) -> None:
    """The background worker's passes while the switch fetches the PDFs, until both are kept."""
    for _ in range(240):
        text = status.text_content()
        if "organiser's list (" in text and "earlier version" not in text:
            return
        run_the_worker_once()
        time.sleep(0.25)
    raise AssertionError(f"the PDFs were never kept: {status.text_content()}")


def test_a_battlescribe_roster_kept_offline_shows_its_verdict_and_downloads_its_cards_until_released(
    page,  # noqa: F811
    context,  # noqa: F811
    site,  # noqa: F811
    empty_cache,
):
    kept, _ = stored_roster()
    share = f"/bs/r/{kept.share_id}/"
    page.goto(f"{site}{share}")
    wait_for_worker(page)
    wait_until_kept(page, share)  # the first page a device opens is kept once the worker has started
    page.reload()
    status = page.locator("[data-keep-status]")
    expect(status).to_contain_text("Kept on this device: this page")
    expect(status).not_to_contain_text("unit cards")
    totals = page.locator("#bs-totals").text_content()
    assert re.fullmatch(rf"{kept.points:g}\b.* pts · Legal", " ".join(totals.split()))

    page.check(KEEP)
    expect(status).to_contain_text("unit cards (", timeout=60_000)
    expect(status).to_contain_text("organiser's list (", timeout=60_000)
    page.click("text=Copy into a new roster of my own")  # the player's own copy, for "my rosters"
    page.wait_for_url("**/bs/e/**")
    page.click("#open-share")  # its share page, opened once online, is kept
    page.wait_for_url("**/bs/r/**")
    page.goto(f"{site}/rosters/mine/")
    page.wait_for_function(
        "async () => { const kept = await caches.match('/rosters/mine/'); return kept && (await kept.text()).includes('Copy of Bulge breakout'); }"
    )

    context.set_offline(True)
    page.goto(f"{site}{share}")
    expect(page.locator("h1")).to_have_text("Bulge breakout")
    expect(page.locator("#bs-totals")).to_have_text(totals)
    expect(page.locator("main")).to_contain_text("M18 Tank Destroyer Company")
    expect(page.locator("[data-keep-switch]")).to_be_checked()
    expect(status).to_contain_text("Offline: this is the copy kept on this device")
    expect(status).to_contain_text("organiser's list (")
    filename, text = downloaded_cards(page)
    assert filename == "bulge-breakout-cards.pdf"
    assert "Bulge breakout" in text and "M18 Tank Destroyer Company" in text
    organisers = fetch_in_page(page, f"{share}list.pdf")
    assert (organisers["status"], organisers["type"], organisers["start"]) == (200, "application/pdf", "%PDF-")
    page.goto(f"{site}/rosters/mine/")
    expect(page.locator("h1")).to_have_text("My rosters")
    own = page.locator("main a", has_text="Copy of Bulge breakout")
    expect(own).to_have_attribute("href", re.compile(r"^/bs/r/[\w-]+/$"))
    own.click()
    expect(page.locator("h1")).to_have_text("Copy of Bulge breakout")
    expect(page.locator("#bs-totals")).to_have_text(totals)

    context.set_offline(False)
    page.goto(f"{site}{share}")
    page.uncheck(KEEP)
    expect(status).not_to_contain_text("unit cards")
    assert not [url for url in kept_urls(page) if url.startswith(f"{site}{share}") and ".pdf" in url]
    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-keep-switch]")).not_to_be_checked()
    expect(status).to_contain_text("Kept on this device: this page")
    expect(status).not_to_contain_text("unit cards")


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_an_edited_battlescribe_roster_s_kept_pdfs_are_fetched_again_or_said_to_be_older(
    page,  # noqa: F811
    context,  # noqa: F811
    site,  # noqa: F811
    worker_signals,
    empty_cache,
):
    kept, secret = stored_roster()
    share = f"/bs/r/{kept.share_id}/"
    page.goto(f"{site}{share}")
    wait_for_worker(page)
    status = page.locator("[data-keep-status]")
    page.check(KEEP)
    render_until_both_are_kept(status)

    # Meanwhile the roster is renamed in its editor.
    renamed = Client().post(
        f"/bs/e/{secret}/change/",
        {"action": "settings", "name": "Bulge counter-attack", "points_limit": "100", "version": kept.version},
    )
    assert renamed.status_code == 302

    page.reload()  # online: the newer page, and the switch asks for the newer PDFs, which are rendering
    expect(page.locator("h1")).to_have_text("Bulge counter-attack")
    expect(status).to_contain_text("The unit cards is being prepared", timeout=15_000)
    context.set_offline(True)  # the signal is lost before they are ready
    expect(status).to_contain_text("earlier version of this roster", timeout=15_000)
    page.reload()
    expect(page.locator("h1")).to_have_text("Bulge counter-attack")  # the page kept is the newer one
    expect(status).to_contain_text("Offline: this is the copy kept on this device")
    expect(status).to_contain_text(
        "Its unit cards and organiser's list are of an earlier version of this roster: "
        "open this page with a connection to fetch them again."
    )
    filename, text = downloaded_cards(page)  # an older copy beats none at the table
    assert filename == "bulge-breakout-cards.pdf" and "Bulge breakout" in text

    context.set_offline(False)
    page.reload()
    render_until_both_are_kept(status)
    context.set_offline(True)
    page.reload()
    expect(status).not_to_contain_text("earlier version")
    filename, text = downloaded_cards(page)
    assert filename == "bulge-counter-attack-cards.pdf" and "Bulge counter-attack" in text
    organisers = fetch_in_page(page, f"{share}list.pdf")
    assert (organisers["status"], organisers["start"]) == (200, "%PDF-")
