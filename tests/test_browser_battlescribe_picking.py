"""In headless Chromium, at 1280 and 390 px: a Flames of War company's HQ unfolds its tank and weapon profiles
and rules in the editor in one click (fetched by htmx), the HQ is marked compulsory, nothing scrolls sideways;
and the start form's force list follows the chosen army.

Flames of War and Konflikt '47 from ../shared, loaded with `load_battlescribe` (skipped, naming the folder, where
absent). With PICKING_SHOTS=dir the editor with the profile unfolded is written there at each width, to look at.
"""

import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from lists.models import BattleScribeDataSet
from tests.test_battlescribe_games import SHARED
from tests.test_browser import browser, settled, watched_page  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_battlescribe import offer, selection
from tests.test_browser_editor import no_sideways_scroll

SHOTS = os.environ.get("PICKING_SHOTS")
WIDTHS = {1280: {"width": 1280, "height": 900}, 390: {"width": 390, "height": 844}}
HQ = "M4 Sherman (Late) Tank Company HQ (LU181)"


@pytest.fixture
def site(live_server, transactional_db, transactions_in_turn):
    return live_server.url


def loaded(folder: str) -> BattleScribeDataSet:
    if not (SHARED / folder).is_dir():
        pytest.skip(f"no data at {SHARED / folder}")
    call_command("load_battlescribe", str(SHARED / folder), stdout=StringIO())
    return BattleScribeDataSet.objects.get(source_folder__endswith=folder.split("/")[1])


def test_a_companys_hq_unfolds_its_profiles_in_one_click_at_each_width(browser, site):  # noqa: F811
    data_set = loaded("bsdata/flamesofwar")
    for width, viewport in WIDTHS.items():
        with watched_page(browser, viewport=viewport) as page:
            page.goto(f"{site}/games/data/{data_set.pk}/")
            page.select_option("#bs-army", label="Late-War - Bulge: American")
            expect(page.locator("#bs-force option:checked")).to_have_text("Standard")
            page.fill("#bs-limit", "100")
            page.click("form[action='/bs/new/'] button")
            page.wait_for_url("**/bs/e/**")
            offer(page, "M4 Sherman (Late) Tank Company").click()
            settled(page)

            hq = selection(page, HQ)
            expect(hq.locator("> form > header .badge.compulsory")).to_have_text("compulsory")
            fold = hq.locator("> details.bs-info")
            fold.locator("summary").click()
            table = fold.locator("table.bs-profile").filter(has=page.locator("caption", has_text="Tank Unit"))
            expect(table.locator("thead th")).to_contain_text(["Tank Unit", "Motivation", "Skill", "Is Hit On"])
            expect(table.locator("tbody th").first).to_be_visible()
            expect(fold.locator("dl.bs-rules dt").first).to_be_visible()
            fold.scroll_into_view_if_needed()
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{SHOTS}/editor-profile-{width}.png", full_page=True)
                fold.screenshot(path=f"{SHOTS}/editor-profile-fold-{width}.png")
            assert no_sideways_scroll(page), f"the editor scrolls sideways at {width} px"


def test_the_force_list_follows_the_chosen_army(browser, site):  # noqa: F811
    data_set = loaded("bsdata/konflikt47")
    with watched_page(browser) as page:
        page.goto(f"{site}/games/data/{data_set.pk}/")
        shown = page.locator("#bs-force optgroup:not([hidden])")
        expect(shown).to_have_count(1)
        expect(shown).to_have_attribute("label", page.locator("#bs-army option:checked").inner_text())
        page.select_option("#bs-army", label="Germany")
        expect(shown).to_have_attribute("label", "Germany")
        expect(page.locator("#bs-force option:checked")).to_have_text(re.compile(r"\S"))
        assert "German Infantry Platoon" in shown.inner_text()
        page.select_option("#bs-force", label="German Infantry Platoon")
        page.select_option("#bs-army", label="Finland")
        expect(shown).to_have_attribute("label", "Finland")
        assert "German Infantry Platoon" not in shown.inner_text()
        assert page.locator("#bs-force option:checked").evaluate("o => o.parentElement.label") == "Finland"
        page.click("form[action='/bs/new/'] button")
        page.wait_for_url("**/bs/e/**")
        expect(page.locator("section.bs-force .force-head > .meta").first).to_have_text("Finland")


def test_a_choice_under_a_squad_unfolds_its_weapon_at_each_width(browser, site):  # noqa: F811
    data_set = loaded("bsdata/konflikt47")
    for width, viewport in WIDTHS.items():
        with watched_page(browser, viewport=viewport) as page:
            page.goto(f"{site}/games/data/{data_set.pk}/")
            page.select_option("#bs-army", label="Finland")
            page.select_option("#bs-force", label="Reinforced Platoon")
            page.click("form[action='/bs/new/'] button")
            page.wait_for_url("**/bs/e/**")
            offer(page, "Rifle Squad").click()
            settled(page)

            choice = selection(page, "Rifle Squad").locator("> form .bs-count").filter(has_text="Soldier with LMG")
            fold = choice.locator("details.bs-info")
            fold.locator("summary").click()
            expect(fold.locator("table.bs-profile tbody th")).to_have_text(["LMG"])  # before any is taken
            fold.scroll_into_view_if_needed()
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{SHOTS}/editor-choice-{width}.png")
            assert no_sideways_scroll(page), f"the editor scrolls sideways at {width} px"
