"""A new player builds a 1,000-point "1944: Normandy" list from the home page in Chromium, at a desktop's and a
phone's width, and every click is counted: the German two-platoon list of the example, and a US platoon.

Every click counts (a drop-down is two: open it, pick); typing counts as keystrokes, reported beside. The list
built must be legal and cost what the same list costs as a roster file (the example's own for the German list).
"""

# ruff: noqa: F811 - the browser suite's fixtures (browser, site) are imported by name
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from lists.models import Roster
from lists.rosters.files import load_roster_file
from lists.rules.verdict import judge
from tests.test_browser import browser, settled, site, watched_page  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_editor import SCREENS, Player, pick

CLICK_BUDGET = 35
HANOMAG = "SdKfz 251/1 Half-Track 'Hanomag'"
GERMAN_EXAMPLE = settings.BASE_DIR / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml"
# The US list the test builds, as a roster file: what it must cost.
US_PLATOON = """\
format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: united-states-1944-normandy
name: Easy Company
points_limit: 1000
forces:
  - name: Platoon 1
    organisation: Reinforced Platoon
    units:
      - {unit: united-states-second-lieutenant, quality: Regular}
      - {unit: united-states-armoured-rifle-squad, quality: Regular, size: 10, options: [NCO SMG], transport: M3 Half-track}
      - {unit: united-states-armoured-rifle-squad, quality: Regular, size: 10, options: [NCO SMG]}
      - {unit: united-states-medium-machine-gun-team, quality: Regular}
      - {unit: united-states-m4-sherman-75mm, quality: Regular}
      - {unit: united-states-m3-half-track, quality: Regular}
"""


@pytest.fixture(params=sorted(SCREENS), ids=lambda width: f"{width}px")
def page(browser, request):  # noqa: F811
    with watched_page(browser, console_error_counts=None, viewport=SCREENS[request.param]) as page:
        yield page


def points_of(roster_file: str) -> int:
    """What the list costs as a roster file, priced by the same rules as the editor."""
    return judge(load_roster_file(roster_file.encode(), "list.yaml").snapshot()).points


class NewPlayer(Player):
    """Drives the page as a new player would; every click, pick and keystroke goes through here and is counted."""

    def __init__(self, page):
        super().__init__(page)
        self.quality_clicks = 0  # of them, those changing a new unit's quality to Regular

    def choose(self, select, text):
        """Open a drop-down and pick the entry holding the text: two clicks."""
        value = select.locator("option", has_text=text).first.get_attribute("value")
        select.select_option(value=value)
        self.clicks += 2
        settled(self.page)

    def start(self, site, army, name):
        self.page.goto(f"{site}/")
        self.choose(self.page.locator("select[name=army]"), army)
        self.type(self.page.locator("input[name=name]"), name)
        self.type(self.page.locator("input[name=points_limit]"), "1000")
        year = self.page.locator("input[name=year]")
        if year.count():
            self.type(year, "1944")
        self.click(self.page.locator("form[action='/rosters/new/'] button[type=submit]"))
        self.page.wait_for_url("**/e/**")

    def add(self, search, name, group=None):
        """Find a unit in the picker by what a player types and add it (its exact name, or a pattern of it); it
        comes in open. Returns its card."""
        before = self.page.locator("article.unit").count()
        self.type(self.page.locator("#unit-search"), search, replace=True)
        button = pick(self.page, name, group).first
        expect(button).to_be_visible()
        self.click(button)
        expect(self.page.locator("article.unit")).to_have_count(before + 1)
        settled(self.page)
        unit = self.page.locator(f"#{self.page.locator('article.unit').last.get_attribute('id')}")
        self.make_regular(unit)
        return unit

    def make_regular(self, unit):
        """The list is Regular throughout: where a unit does not start Regular, the player changes it."""
        select = unit.locator("select[name=quality]")
        radio = unit.locator("input[name=quality][value=regular]")
        before = self.clicks
        if select.count() and select.locator("option:checked").inner_text().strip() != "Regular":
            self.choose(select, "Regular")
        elif not select.count() and radio.count() and not radio.is_checked():
            self.click(radio)
            settled(self.page)
        self.quality_clicks += self.clicks - before

    def men(self, unit, count):
        self.type(unit.locator("input[name=size]"), str(count), replace=True)
        self.press("Tab")
        expect(unit.locator("summary.unit-row")).to_contain_text(f"{count} men")
        settled(self.page)

    def tick(self, unit, option):
        box = unit.locator(f"input[name=option-{option}]")
        self.click(box)
        expect(box).to_be_checked()
        settled(self.page)

    def duplicate(self, unit):
        before = self.page.locator("article.unit").count()
        self.click(unit.locator(".duplicate button"))
        expect(self.page.locator("article.unit")).to_have_count(before + 1)
        settled(self.page)

    def new_platoon(self):
        self.click(self.page.locator("#forces-end button[type=submit]"))
        expect(self.page.locator("#picker-heading")).to_contain_text("Platoon 2")
        settled(self.page)


def assert_legal_at(page, points):
    totals = page.locator("#summary .totals")
    expect(totals).to_contain_text(f"{points} / 1000 pts")
    expect(totals).to_contain_text("Legal")
    expect(totals).not_to_contain_text("Not legal")


def report(player, what):
    width = player.page.viewport_size["width"]
    print(
        f"\n{what} at {width} px: {player.clicks} clicks ({player.quality_clicks} of them setting quality), {player.keys} keystrokes"
    )


def test_a_new_player_builds_the_german_two_platoon_list_in_at_most_35_clicks(page, site):
    player = NewPlayer(page)
    player.start(site, "1944: Normandy (Armies of Germany)", "Kampfgruppe")
    for platoon in (1, 2):
        player.add("leutnant", "Leutnant (Second Lieutenant)")
        squad = player.add("grenadier", "Heer Grenadier Squad")
        player.men(squad, 10)
        player.tick(squad, "lmg")
        if platoon == 1:
            player.tick(squad, "nco-smg")
        player.duplicate(squad)  # the second squad, options and all
        if platoon == 1:
            player.add("mmg", "Medium Machine Gun Team")
            player.add("panzer iv", "Panzer IV AUSF G, H, J")
            player.new_platoon()
        else:
            player.add("hanomag", HANOMAG)
            player.choose(squad.locator("select[name=transport]"), "Hanomag")

    report(player, "German two-platoon list")
    assert_legal_at(page, points_of(GERMAN_EXAMPLE.read_text()))
    roster = Roster.objects.get()
    assert [force.units.count() for force in roster.forces.all()] == [5, 4]
    assert roster.units.filter(transport__isnull=False).count() == 1
    assert player.clicks <= CLICK_BUDGET


def test_a_new_player_builds_a_us_normandy_platoon_in_at_most_35_clicks(page, site):
    player = NewPlayer(page)
    player.start(site, "1944: Normandy (Armies of the United States)", "Easy Company")
    player.add("lieutenant", "Second Lieutenant")
    squad = player.add("armoured rifle", "Armoured Rifle Squad")
    player.men(squad, 10)
    player.tick(squad, "nco-smg")
    player.duplicate(squad)
    player.add("mmg", "Medium Machine Gun Team")
    player.add("sherman 75", "M4 Sherman 75MM")
    player.add("half-track", "M3 Half-track")
    player.choose(squad.locator("select[name=transport]"), "M3 Half-track")

    report(player, "US platoon")
    assert_legal_at(page, points_of(US_PLATOON))
    roster = Roster.objects.get()
    assert roster.units.count() == 6
    assert roster.units.filter(transport__isnull=False).count() == 1
    assert player.clicks <= CLICK_BUDGET


def test_the_picker_finds_units_by_abbreviation_role_and_without_accents(page, site):
    player = NewPlayer(page)
    player.start(site, "1944: Normandy (Armies of Germany)", "Suche")
    shown = page.locator(".add-unit li:visible .name")
    for typed, found in [
        ("mmg", "Medium Machine Gun Team"),
        ("howitzer", "Medium Artillery"),
        ("spotter", "Forward Observer"),
        ("FO", "Artillery Forward Observer"),
        ("half-track", "Hanomag"),
        ("halftrack", "Hanomag"),
        ("brummbär", "Brummbar"),  # accents typed or not, in the data or not
    ]:
        page.fill("#unit-search", typed)
        expect(shown.filter(has_text=found).first).to_be_visible()
        assert shown.count() < page.locator(".add-unit li .name").count(), f"{typed!r} hides nothing"
    page.fill("#unit-search", "mmg")
    assert not any(re.search(r"Leutnant|Sniper", name) for name in shown.all_inner_texts())
    # Each unit once: the squad the data lists under two categories stands under the first.
    page.fill("#unit-search", "heer grenadier squad")
    expect(shown.filter(has_text=re.compile(r"^Heer Grenadier Squad$"))).to_have_count(1)
