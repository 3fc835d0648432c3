"""A Flames of War list built in headless Chromium from the home page, as its players would: the game found by
search, a list made legal by clicking, broken by removing a compulsory entry, shared, exported and imported back;
and a stored roster's cards downloaded from its share page once the background worker has rendered them.

The data is ../shared/bsdata/flamesofwar (BSData/flamesofwar, see its README), loaded with `load_battlescribe`;
skipped where absent. The same journey for all six data sets runs through Django's test client in
tests/test_battlescribe_games.py; this one checks what only a browser shows (htmx swaps, the search box, focus).
"""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from playwright.sync_api import expect

from lists.models import BattleScribeRoster
from tests.test_battlescribe_pdf_delivery import stored_roster
from tests.test_browser import browser, page, settled  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_pdf import run_the_worker_when_a_render_is_queued

FLAMES_OF_WAR = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "flamesofwar"


@pytest.fixture
def site(live_server, transactional_db):
    if not FLAMES_OF_WAR.is_dir():
        pytest.skip(f"no data at {FLAMES_OF_WAR}")
    call_command("load_battlescribe", str(FLAMES_OF_WAR), stdout=StringIO())
    return live_server.url


def offer(page, name):  # noqa: F811 - the fixture, passed on
    """The picker's button for an entry, by its exact name."""
    exactly = re.compile(f"^{re.escape(name)}$")
    return page.locator("button.offer").filter(has=page.locator(".name", has_text=exactly)).first


def test_a_flames_of_war_list_is_built_broken_shared_and_brought_back(page, site, tmp_path):  # noqa: F811
    page.goto(f"{site}/")
    expect(page.locator("#bs-game-list")).to_contain_text("Flames of War v4")
    page.fill("#bs-army-filter", "bulge american")
    expect(page.locator("#bs-army")).to_have_value(
        page.locator("#bs-army option:not([hidden])").first.get_attribute("value")
    )
    page.select_option("#bs-army", label="Late-War - Bulge: American")
    page.select_option("#bs-force", label="Standard")
    page.fill("#bs-name", "Bulge tanks")
    page.fill("#bs-limit", "100")
    page.click("form[action='/bs/new/'] button")
    page.wait_for_url("**/bs/e/**")

    page.fill("#search-force-1", "sherman tank company")
    expect(offer(page, "M18 Tank Destroyer Company")).to_be_hidden()
    offer(page, "M4 Sherman (Late) Tank Company").click()
    settled(page)
    page.fill("#search-force-1", "")
    page.dispatch_event("#search-force-1", "input")
    offer(page, "M18 Tank Destroyer Company").click()
    settled(page)
    totals = page.locator("#bs-totals")
    expect(totals).to_have_text("51 / 100 pts · Legal")

    headquarters = 'article.bs-selection:has(> form > header h3:text-is("M4 Sherman (Late) Tank Company HQ (LU181)"))'
    page.locator(f"{headquarters} > form button[value=remove]").click()
    settled(page)
    expect(totals).to_contain_text("42 / 100 pts · Not legal")
    expect(page.locator(".finding.error").first).to_contain_text(
        "must have 1 more selections of 01. Formation HQ (Compulsory) (minimum 1)"
    )

    page.click("#open-share")
    page.wait_for_url("**/bs/r/**")
    expect(page.locator("#bs-totals")).to_have_text("42 / 100 pts · Not legal")
    with page.expect_download() as download:
        page.click("#download-ros")
    path = tmp_path / "bulge.ros"
    download.value.save_as(path)

    page.goto(f"{site}/")
    page.set_input_files("form[action='/rosters/import/'] input[type=file]", str(path))
    page.click("form[action='/rosters/import/'] button")
    page.wait_for_url("**/bs/e/**")
    expect(page.locator("#bs-totals")).to_have_text("42 / 100 pts · Not legal (1 problem)")
    assert BattleScribeRoster.objects.count() == 2


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_a_flames_of_war_rosters_cards_download_from_its_share_page_once_the_worker_renders_them(
    page,  # noqa: F811
    site,
    worker_signals,
    empty_cache,
):
    kept, _ = stored_roster()
    page.goto(f"{site}/bs/r/{kept.share_id}/")
    # On a device's first page a PDF link waits for the offline worker to start (static/js/offline.js): as a player
    # does, let it start first.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")

    with page.expect_download(timeout=60_000) as download_info:
        page.get_by_role("link", name="unit cards (PDF)").click()
        expect(page.locator("[data-pdf-status]")).to_have_text("Preparing the PDF…")
        run_the_worker_when_a_render_is_queued()

    download = download_info.value
    assert download.suggested_filename == "bulge-breakout-cards.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF")
    expect(page.locator("[data-pdf-status]")).to_have_text("Downloaded bulge-breakout-cards.pdf.")
