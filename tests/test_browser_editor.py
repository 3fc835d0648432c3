"""The editor in Chromium at a desktop's and a phone's width: building a list in few clicks, edits that keep
the player's place, refused values and stale tabs shown where the player is looking."""

# ruff: noqa: F811 - the browser suite's fixtures (browser, site) are imported by name
import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from lists.models import Roster
from tests.test_browser import (  # noqa: F401 - the browser suite's fixtures
    browser,
    import_roster,
    open_unit,
    settled,
    site,
    unit_card,
    watched_page,
)

SCREENS = {1280: {"width": 1280, "height": 800}, 390: {"width": 390, "height": 844}}
ARMY = "1944: Normandy (Armies of Germany)"
NORMANDY = (settings.BASE_DIR / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml").read_text()
# The example's two platoons with three units more: twelve units.
TWELVE_UNITS = NORMANDY.replace(
    "      - {unit: germany-panzer-iv-ausf-g-h-j, label: Panzer IV, quality: Regular}\n",
    "      - {unit: germany-panzer-iv-ausf-g-h-j, label: Panzer IV, quality: Regular}\n"
    "      - {unit: germany-heer-grenadier-squad-2, label: 5. Gruppe, quality: Regular, size: 8}\n",
).replace(
    "      - {unit: germany-sdkfz-251-1-half-track-hanomag, label: Hanomag, quality: Regular}\n",
    "      - {unit: germany-sdkfz-251-1-half-track-hanomag, label: Hanomag, quality: Regular}\n"
    "      - {unit: germany-medium-machine-gun-team, label: MG-Trupp 2, quality: Regular}\n"
    "      - {unit: germany-heer-grenadier-squad-2, label: 6. Gruppe, quality: Regular, size: 6}\n",
)
# Where screenshots of the editor are written, if anywhere (`EDITOR_SHOTS=dir`): for people to look at.
SHOTS = os.environ.get("EDITOR_SHOTS")


@pytest.fixture(params=sorted(SCREENS), ids=lambda width: f"{width}px")
def screen(request):
    return SCREENS[request.param]


@pytest.fixture
def page(browser, screen):  # noqa: F811
    # A 409 (a stale version, refused) is logged by the browser and answered by the page: not an error here.
    with watched_page(browser, console_error_counts=lambda text: "409" not in text, viewport=screen) as page:
        yield page


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    viewport = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= viewport["height"]


def pick(page, name, group=None):
    """The picker's button for a unit by its exact name or a pattern (in one group of the picker, if given)."""
    scope = page.locator(".pick-group").filter(has=page.locator("h3", has_text=group)) if group else page
    pattern = name if isinstance(name, re.Pattern) else re.compile(f"^{re.escape(name)}$")
    return scope.locator("button.pick").filter(has=page.locator(".name", has_text=pattern))


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


class Player:
    """Drives the page as a player would, counting the clicks and keystrokes it takes."""

    def __init__(self, page):
        self.page, self.clicks, self.keys = page, 0, 0

    def click(self, locator):
        locator.click()
        self.clicks += 1

    def type(self, locator, text, replace=False):
        """Click into a box, select what is there if it is replaced, and type."""
        self.click(locator)
        if replace:
            self.page.keyboard.press("Control+a")
            self.keys += 1
        self.page.keyboard.type(text)
        self.keys += len(text)

    def press(self, key):
        self.page.keyboard.press(key)
        self.keys += 1

    def choose(self, select, label):
        """Open a drop-down and pick an entry: two clicks."""
        select.select_option(label=label)
        self.clicks += 2

    def add(self, search, name, group=None):
        """Find a unit in the picker and add it; it comes into view, open."""
        before = self.page.locator("article.unit").count()
        self.type(self.page.locator("#unit-search"), search, replace=True)
        self.click(pick(self.page, name, group).first)
        expect(self.page.locator("article.unit")).to_have_count(before + 1)
        settled(self.page)


def test_a_two_platoon_1000_point_list_takes_at_most_half_the_clicks_it_took(page, site):
    """Issue 21: 68 clicks and 171 keystrokes before; at most 34 clicks now, to a legal list."""
    player = Player(page)
    page.goto(f"{site}/")
    player.choose(page.locator("select[name=army]"), ARMY)
    player.type(page.locator("input[name=name]"), "Kampfgruppe")
    player.type(page.locator("input[name=points_limit]"), "1000")
    player.type(page.locator("input[name=year]"), "1944")
    player.click(page.locator("form[action='/rosters/new/'] button[type=submit]"))
    page.wait_for_url("**/e/**")

    for platoon in (1, 2):
        player.add("leutnant", "Leutnant (Second Lieutenant)")
        player.add("grenadier", "Heer Grenadier Squad", group="Compulsory")
        squad = page.locator(f"#{page.locator('article.unit').last.get_attribute('id')}")
        player.type(squad.locator("input[name=size]"), "10", replace=True)
        player.press("Tab")
        expect(squad.locator(".unit-status .points")).not_to_have_text(re.compile("^50 pts"))
        settled(page)
        player.click(squad.locator("input[name=option-lmg]"))
        expect(squad.locator("input[name=option-lmg]")).to_be_checked()
        settled(page)
        before = page.locator("article.unit").count()
        player.click(squad.locator(".duplicate button"))  # the second squad, options and all
        expect(page.locator("article.unit")).to_have_count(before + 1)
        settled(page)
        if platoon == 1:
            player.add("machine gun", "Medium Machine Gun Team")
            player.add("panzer iv", "Panzer IV AUSF G, H, J", group="Tanks")
            player.click(page.locator("#forces-end button[type=submit]"))  # a second platoon: the picker turns to it
            expect(page.locator("#picker-heading")).to_have_text("Add a unit to Platoon 2")
            settled(page)
        else:
            player.add("hanomag", "SdKfz 251/1 Half-Track 'Hanomag'")
            player.choose(squad.locator("select[name=transport]"), "SdKfz 251/1 Half-Track 'Hanomag'")
            settled(page)

    totals = page.locator("#summary .totals")
    expect(totals).to_contain_text("/ 1000 pts")
    expect(totals).to_contain_text("Legal")
    expect(totals).not_to_contain_text("Not legal")
    roster = Roster.objects.get()
    assert [force.units.count() for force in roster.forces.all()] == [5, 4]
    assert roster.units.filter(transport__isnull=False).count() == 1
    print(f"\nbuilt in {player.clicks} clicks and {player.keys} keystrokes at {page.viewport_size['width']} px")
    assert player.clicks <= 34


def test_twelve_units_fit_in_two_screens_on_a_desktop_and_never_scroll_sideways(page, site):
    import_roster(page, site, TWELVE_UNITS)
    expect(page.locator("article.unit")).to_have_count(12)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page_height = page.evaluate("document.documentElement.scrollHeight")
    print(f"\n12 units: {page_height} px tall at {width} px")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/editor-12-units-{width}.png", full_page=True)
    assert no_sideways_scroll(page)
    # About two screens on a desktop (6,531 px before units were one line each), under a third on a phone (11,680).
    assert page_height <= (1700 if width >= 1280 else 3400)
    assert height >= 800
    # Each unit is one line: its name, quality, men, points and status.
    row = unit_card(page, "1. Gruppe").locator("summary.unit-row")
    expect(row).to_contain_text("Regular")
    expect(row).to_contain_text("10 men")
    expect(row).to_contain_text(re.compile(r"\d+ pts"))
    assert row.bounding_box()["height"] <= (70 if width < 600 else 40)


def test_an_edit_keeps_the_scroll_position_and_the_focus(page, site):
    import_roster(page, site, TWELVE_UNITS)
    squad = open_unit(page, "4. Gruppe")
    box = squad.locator("input[name=option-nco-smg]")
    box.evaluate("element => element.scrollIntoView({block: 'center'})")
    before = page.evaluate("window.scrollY")
    points = squad.locator(".unit-status .points").inner_text()

    box.focus()
    box.check()

    expect(squad.locator(".unit-status .points")).not_to_have_text(points)
    settled(page)
    assert abs(page.evaluate("window.scrollY") - before) <= 4
    assert page.evaluate("document.activeElement.name") == "option-nco-smg"
    assert page.evaluate("document.activeElement.closest('article').id") == squad.get_attribute("id")
    assert in_view(page, page.locator("#summary"))


def test_a_refused_count_is_flagged_in_place_with_one_request(page, site):
    import_roster(page, site, TWELVE_UNITS)
    url = page.url
    squad = open_unit(page, "2. Gruppe")
    posts = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    men = squad.locator("input[name=size]")
    men.fill("0")

    squad.locator("button.save").click()

    expect(men).to_have_attribute("aria-invalid", "true")
    expect(page.locator(f"#{men.get_attribute('aria-describedby')}")).to_contain_text("not 0")
    settled(page)
    assert len(posts) == 1  # the change, sent once: no second, whole-page post
    assert page.url == url
    assert in_view(page, men)
    expect(men).to_have_value("0")
    assert Roster.objects.get().units.get(label="2. Gruppe").size == 10


def test_steppers_change_a_count_by_one(page, site):
    import_roster(page, site, TWELVE_UNITS)
    squad = open_unit(page, "5. Gruppe")
    points = squad.locator(".unit-status .points").inner_text()

    squad.get_by_role("button", name="One more: Men").click()

    expect(squad.locator("input[name=size]")).to_have_value("9")
    expect(squad.locator(".unit-status .points")).not_to_have_text(points)
    expect(squad.locator("summary.unit-row")).to_contain_text("9 men")
    assert Roster.objects.get().units.get(label="5. Gruppe").size == 9


def test_the_summary_stays_in_view_and_leads_to_the_downloads(page, site):
    import_roster(page, site, TWELVE_UNITS)
    summary = page.locator("#summary")
    for label in ("Leutnant Adler", "6. Gruppe"):
        unit_card(page, label).scroll_into_view_if_needed()
        assert in_view(page, summary)
        expect(summary).to_contain_text("/ 1000 pts")

    summary.get_by_role("link", name="Print & download").click()

    assert in_view(page, page.get_by_role("button", name="Unit cards (PDF)"))


def test_the_unit_search_finds_units_and_is_kept_after_an_add(page, site):
    import_roster(page, site, NORMANDY)
    page.fill("#unit-search", "panzer iv")
    visible = page.locator(".add-unit li:visible")
    expect(page.locator("#unit-matches")).to_contain_text("match")
    assert 1 <= visible.count() < 10
    assert all("panzer iv" in text.lower() for text in visible.all_inner_texts())

    pick(page, "Panzer IV AUSF G, H, J", group="Tanks").click()

    expect(page.locator("article.unit")).to_have_count(10)
    settled(page)
    expect(page.locator("#unit-search")).to_have_value("panzer iv")
    assert visible.count() == len([t for t in visible.all_inner_texts() if "panzer iv" in t.lower()])


def test_the_year_is_asked_when_a_roster_is_started(page, site):
    page.goto(f"{site}/")
    year = page.get_by_label("Year")
    expect(year).to_be_visible()
    page.select_option("select[name=army]", label=ARMY)
    page.fill("input[name=name]", "Normandy")
    year.fill("1944")
    assert no_sideways_scroll(page)
    page.click("form[action='/rosters/new/'] button[type=submit]")
    page.wait_for_url("**/e/**")

    assert Roster.objects.get().year == 1944
    assert no_sideways_scroll(page)


def test_an_added_unit_comes_into_view_highlighted_and_each_add_is_one_click(page, site):
    import_roster(page, site, TWELVE_UNITS)
    page.fill("#unit-search", "grenadier")
    button = pick(page, "Heer Grenadier Squad", group="Infantry")

    for count in (13, 14):
        button.click()
        expect(page.locator("article.unit")).to_have_count(count)
        added = page.locator("article.unit.added")
        expect(added).to_have_count(1)
        settled(page)
        assert in_view(page, added.locator("summary.unit-row"))
        expect(added.locator(":scope > details")).to_have_attribute("open", "")
        expect(page.locator("#editor-status")).to_contain_text(f"Added {added.locator('h2').inner_text()}")
        expect(page.locator("#unit-search")).to_have_value("grenadier")
        assert page.evaluate("document.activeElement.classList.contains('pick')")
    assert no_sideways_scroll(page)


def test_duplicate_adds_one_unit_for_a_squad_and_a_tank(page, site):
    import_roster(page, site, TWELVE_UNITS)
    roster = Roster.objects.get()
    # Units named after their type, as the picker names them.
    page.fill("#unit-search", "panzer iv")
    pick(page, "Panzer IV AUSF G, H, J", group="Tanks").click()
    expect(page.locator("article.unit")).to_have_count(13)
    settled(page)

    for label, count in (("Panzer IV AUSF G, H, J", 14), ("1. Gruppe", 15)):
        open_unit(page, label).locator(".duplicate button").click()
        expect(page.locator("article.unit")).to_have_count(count)
        settled(page)
    labels = page.locator("article.unit h2").all_inner_texts()
    assert labels[labels.index("Panzer IV AUSF G, H, J") + 1] == "Panzer IV AUSF G, H, J 2"
    assert labels[labels.index("1. Gruppe") + 1] == "1. Gruppe 2"
    copy = roster.units.get(label="1. Gruppe 2")
    assert sorted(copy.chosen_options.values_list("option__key", flat=True)) == ["lmg", "nco-smg"]


def test_a_stale_tabs_edit_is_refused_with_a_notice_in_view(page, site):
    import_roster(page, site, TWELVE_UNITS)
    other = page.context.new_page()
    other.goto(page.url)
    settled(other)
    open_unit(other, "Leutnant Adler").locator("select[name=quality]").select_option(label="Veteran")
    expect(unit_card(other, "Leutnant Adler").locator("summary.unit-row")).to_contain_text("Veteran")
    settled(other)
    other.close()

    squad = open_unit(page, "6. Gruppe")
    squad.scroll_into_view_if_needed()
    squad.locator("input[name=option-lmg]").check()

    notice = page.locator("#conflict")
    expect(notice).to_be_focused()  # once the new roster is settled, the notice is fixed in view and focused
    assert in_view(page, notice)
    expect(notice).to_contain_text("changed elsewhere since you opened this page")
    expect(notice).to_contain_text("Not applied: your change to 6. Gruppe")
    expect(notice).to_contain_text("LMG: ticked")
    # The newer state is shown: the other tab's change.
    expect(unit_card(page, "Leutnant Adler").locator("summary.unit-row")).to_contain_text("Veteran")
    assert not Roster.objects.get().units.get(label="6. Gruppe").chosen_options.exists()
    notice.get_by_role("button", name="OK").click()
    expect(notice).to_have_count(0)


def test_what_is_typed_but_not_saved_survives_a_reload(page, site):
    import_roster(page, site, NORMANDY)
    squad = open_unit(page, "3. Gruppe")
    squad.locator("input[name=label]").fill("Gruppe Weiss")  # typed, not yet saved (no change event)

    page.reload()

    expect(unit_card(page, "Gruppe Weiss")).to_have_count(1)
    expect(page.locator("#editor-status")).to_contain_text("Gruppe Weiss")
    settled(page)
    assert Roster.objects.get().units.filter(label="Gruppe Weiss").count() == 1
