"""An event of a loaded BattleScribe data set in headless Chromium: the organiser picks the game and its revision
(our packs' settings leave the form), a player submits a roster's share link, the organiser's table shows it.

Konflikt '47 from ../shared (skipped where absent); the player's roster is built with the editor's own forms
(tests/test_battlescribe_games.py) in the same database the live server reads.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from lists.models import BattleScribeDataSet, BattleScribeRoster
from tests.test_battlescribe_games import SHARED, start
from tests.test_browser import browser, page, site  # noqa: F401 - the browser suite's fixtures

KONFLIKT = SHARED / "bsdata" / "konflikt47"


def run_event(tab, address: str, shoot=lambda name: None) -> BattleScribeRoster:
    """Create the event, submit a legal Finnish platoon by its share link, open the table; `shoot` names each page."""
    if not KONFLIKT.is_dir():
        pytest.skip(f"no data at {KONFLIKT}")
    call_command("load_battlescribe", str(KONFLIKT), stdout=StringIO())
    data_set = BattleScribeDataSet.objects.get()
    tab.goto(f"{address}/events/new/")
    expect(tab.locator("input[name=max_order_dice]")).to_be_visible()
    tab.select_option("select[name=game]", label=f"{data_set.name} revision {data_set.revision}")
    expect(tab.locator("#data-set-rules")).to_contain_text(f"checked against revision {data_set.revision}")
    expect(tab.locator("input[name=max_order_dice], select[name=period], input[name=year]")).to_have_count(0)
    tab.fill("input[name=name]", "Winter Offensive")
    tab.fill("input[name=date]", "2027-01-16")
    tab.fill("input[name=points_limit]", "1000")
    tab.fill("input[name=deadline]", (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"))
    shoot("event-new")
    tab.click("#create-event")
    tab.wait_for_url("**/events/o/**")
    organiser, public = tab.url.split("?")[0], tab.inner_text("#public-url")
    expect(tab.locator("#event-game")).to_contain_text(f"{data_set.name}, lists checked against revision")

    player = start(Client(), data_set, "Finland", "Reinforced Platoon", 1000)
    for name in ("Officer", "Rifle Squad", "Rifle Squad"):
        player.add(name)
    kept = BattleScribeRoster.objects.get()
    tab.goto(public)
    tab.fill("input[name=player]", "Aino")
    tab.fill("input[name=share_link]", f"{address}/bs/r/{kept.share_id}/")
    tab.click("form[action$='/submit/'] button")
    expect(tab.locator("#verdict")).to_contain_text(f"{kept.points:g} / 1000 pts · Legal")
    shoot("event-public-submitted")
    tab.goto(organiser)
    row = tab.locator("table.submissions tbody tr")
    expect(row).to_contain_text("Aino")
    expect(row.locator("td[data-label=Points]")).to_have_text(f"{kept.points:g}")
    expect(row.locator("td[data-label=Verdict]")).to_have_text("Legal")
    shoot("event-organiser")
    row.locator("th a").first.click()
    expect(tab.locator("#bs-totals")).to_contain_text("Legal under Winter Offensive's rules")
    shoot("event-submission")
    return kept


def test_an_organiser_runs_an_event_of_a_data_set_and_sees_a_players_list(page, site):  # noqa: F811
    run_event(page, site)
