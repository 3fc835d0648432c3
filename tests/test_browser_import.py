"""Importing a text roster in headless Chromium on a phone: it round-trips, and a mistake is shown where the eye is."""

from playwright.sync_api import expect

from lists.models import Roster
from tests.test_browser import browser, import_roster, page, settled, site  # noqa: F401 - the browser suite's fixtures

TEXT = """Rangers
Bolt Action (2nd edition) · Generic army [bolt-action-2e/generic]
Points limit: 1000

Platoon 1 (Generic Reinforced Platoon)
   60 pts  Lt. Harris (Second Lieutenant) [second-lieutenant]
           Regular
   50 pts  Medium Mortar Team
           Regular; Spotter
"""


def phone(browser):  # noqa: F811 - the fixture, passed on
    return browser.new_context(viewport={"width": 390, "height": 844})


def test_a_pasted_text_roster_opens_in_the_editor(page, site):  # noqa: F811
    import_roster(page, site, TEXT)
    roster = Roster.objects.get()
    assert roster.name == "Rangers" and roster.points_limit == 1000
    assert list(roster.units.values_list("label", flat=True)) == ["Lt. Harris", "Medium Mortar Team"]


def test_a_mistake_in_pasted_text_is_in_view_and_focused_at_390_px(browser, site):  # noqa: F811
    context = phone(browser)
    tab = context.new_page()
    tab.goto(f"{site}/")
    tab.click("text=or paste it")
    tab.fill("#import-text", TEXT.replace("Regular; Spotter", "Regular; Spotter; Flamethrower of doom"))
    tab.click("form[action='/rosters/import/'] button")
    tab.wait_for_load_state("load")
    problems = tab.locator("#import-problems")
    expect(problems).to_contain_text(
        "line 9: unknown option of Medium Mortar Team 'Flamethrower of doom'. Correct its spelling"
    )
    expect(problems).to_be_focused()
    expect(problems).to_be_in_viewport()
    assert Roster.objects.count() == 0
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_the_import_form_links_the_roster_format_page(page, site):  # noqa: F811
    page.goto(f"{site}/")
    page.click("#roster-format-help")
    settled(page)
    expect(page.locator("h1")).to_have_text("Roster file format")
    expect(page.locator("h2#text-rosters-rostertxt")).to_be_visible()
    assert "Points limit: 1000" in page.locator("article.help").inner_text()
