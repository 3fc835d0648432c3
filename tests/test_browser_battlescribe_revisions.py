"""In headless Chromium: a Konflikt '47 roster built on one revision of the data sees the next revision's
dearer Officer, keeps its points, and takes the new price only when the player clicks "Move to revision 4".

The data is ../shared/bsdata/konflikt47 copied and edited as in tests/test_battlescribe_revisions.py; skipped
where absent.
"""

import shutil

import pytest
from playwright.sync_api import expect

from tests.test_battlescribe_revisions import SOURCE, dearer_leutnant, load, next_revision
from tests.test_browser import browser, page, settled  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_battlescribe import offer


@pytest.fixture
def site(live_server, transactional_db, tmp_path, transactions_in_turn):
    if not SOURCE.is_dir():
        pytest.skip(f"no data at {SOURCE}")
    return live_server.url


def test_a_roster_moves_to_a_dearer_revision_only_when_asked(page, site, tmp_path):  # noqa: F811
    folder = tmp_path / "konflikt47"
    shutil.copytree(SOURCE, folder)
    first = load(folder)
    page.goto(f"{site}/")
    page.select_option("#bs-army", label="Finland")
    page.select_option("#bs-force", label="Reinforced Platoon")
    page.fill("#bs-name", "Finnish platoon")
    page.fill("#bs-limit", "1000")
    page.click("form[action='/bs/new/'] button")
    page.wait_for_url("**/bs/e/**")
    for name in ("Officer", "Rifle Squad"):
        offer(page, name).click()
        settled(page)
    totals = page.locator("#bs-totals")
    before = totals.inner_text().split()[0]

    next_revision(folder, dearer_leutnant)
    second = load(folder)
    assert (first.revision, second.revision) == (3, 4)
    page.reload()
    notice = page.locator("#newer-data")
    expect(notice.locator("h2")).to_have_text(f"Newer data loaded: {second.name} revision 4 (was 3)")
    expect(notice.locator("#revision-changes li")).to_have_text("Officer (Reinforced Platoon): 50 → 60 points")
    expect(totals).to_contain_text(f"{before} / 1000 points")

    page.click("#move-form button")
    page.wait_for_load_state()
    expect(page.locator("#newer-data")).to_have_count(0)
    expect(totals).to_contain_text(f"{int(before) + 10} / 1000 points")
    expect(page.locator(".roster-head p.meta")).to_contain_text("revision 4")
