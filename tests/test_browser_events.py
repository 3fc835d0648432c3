"""An organiser's tournament in headless Chromium: create, three players submit, check, lock, print."""

import io
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from lists.event_models import Submission
from tests.event_rosters import GERMAN_POINTS, british, german
from tests.test_browser import browser, import_roster, open_unit, page, settled, site  # noqa: F401 - the browser suite's fixtures


def create_event(tab, address) -> tuple[str, str]:
    """The organiser runs an event from the home page; returns the organiser's and the public address."""
    tab.goto(f"{address}/")
    tab.click("#run-event")
    tab.fill("input[name=name]", "Spring Offensive")
    tab.fill("input[name=date]", "2027-04-10")
    tab.select_option("select[name=game]", label="Bolt Action (2nd edition)")
    # The armies allowed follow the game (htmx), grouped by nation and searchable.
    tab.wait_for_selector("#id_allowed_armies optgroup[label^='Bolt Action']", state="attached")
    tab.fill("#allowed-armies-filter", "armies of germany")
    tab.select_option("select[name=allowed_armies]", label="Armies of Germany")
    tab.fill("input[name=points_limit]", "500")
    tab.fill("input[name=max_order_dice]", "8")
    tab.fill("input[name=deadline]", (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"))
    tab.click("#create-event")
    tab.wait_for_url("**/events/o/**")
    expect(tab.locator("#created")).to_contain_text("Your event is ready")
    return tab.url.split("?")[0], tab.inner_text("#public-url")


def submit_file(tab, public, player, text):
    tab.goto(public)
    tab.fill("input[name=player]", player)
    tab.set_input_files("input[name=file]", {"name": "list.yaml", "mimeType": "text/yaml", "buffer": text.encode()})
    tab.click("form[action$='/submit/'] button")


def test_an_organiser_collects_checks_locks_and_prints_three_lists(page, site):  # noqa: F811
    organiser, public = create_event(page, site)

    # Anna submits from her roster's editor by pasting the event's link.
    import_roster(page, site, german("Anna's grenadiers"))
    editor = page.url
    page.click("#submit-to-event summary")
    page.fill("#submit-to-event input[name=event_link]", public)
    page.fill("#submit-to-event input[name=player]", "Anna")
    page.click("#submit-to-event button")
    expect(page.locator("#submitted")).to_contain_text("Anna's list is submitted")
    expect(page.locator("#verdict")).to_contain_text("Legal")
    expect(page.locator("#submission-link")).to_contain_text("/events/mine/")
    # Ben's list is over the points; Cleo's is British.
    submit_file(page, public, "Ben", german("Ben's panzers", panzer=True))
    expect(page.locator("#submitted")).to_contain_text("Ben's list is submitted")
    expect(page.locator("#verdict")).to_contain_text("Not legal")
    expect(page.locator("#verdict-findings")).to_contain_text("over its limit of")
    submit_file(page, public, "Cleo", british("Cleo's tommies"))
    expect(page.locator("#submitted")).to_contain_text("Cleo's list is submitted")

    page.goto(organiser)
    rows = page.locator("table.submissions tbody tr")
    expect(rows).to_have_count(3)
    anna, ben, cleo = (rows.filter(has_text=name) for name in ("Anna", "Ben", "Cleo"))
    expect(anna.locator(".verdict")).to_have_text("Legal")
    expect(anna).to_contain_text(str(GERMAN_POINTS))
    expect(ben.locator(".verdict")).to_have_text("Not legal")
    expect(ben.locator('[data-code="points.over_limit"]')).to_have_count(1)
    expect(ben).not_to_contain_text("points.over_limit")  # the message and the rule's name, not the code
    expect(cleo.locator(".verdict")).to_have_text("Not legal")
    expect(cleo.locator('[data-code="event.army_not_allowed"]')).to_have_count(1)
    page.click("#filter-not-legal")
    expect(rows).to_have_count(2)

    # Anna removes a unit from her roster afterwards: her submission stays as it was.
    page.goto(editor)
    open_unit(page, "Medium Mortar Team").locator(".remove button").click()
    expect(page.locator("article.unit")).to_have_count(4)
    settled(page)
    page.goto(organiser)
    expect(rows.filter(has_text="Anna")).to_contain_text(str(GERMAN_POINTS))

    # Locked: a fourth player is refused, with a message saying so.
    page.click("text=Lock the event")
    expect(page.locator("#event-state")).to_contain_text("Locked")
    page.goto(public)
    expect(page.locator("#closed")).to_contain_text("locked by its organiser")
    assert Submission.objects.count() == 3

    # The print pack: a cover with the table, then the three lists.
    from pypdf import PdfReader

    response = page.request.get(f"{organiser}pack.pdf")
    assert response.status == 200
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages]
    assert "3 lists" in pages[0]
    for heading in ("Anna: Anna's grenadiers", "Ben: Ben's panzers", "Cleo: Cleo's tommies"):
        assert sum(heading in text for text in pages[1:]) == 1
