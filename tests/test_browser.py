"""End-to-end in headless Chromium (Debian's package, driven by Playwright) against the live server."""

import os
import re
import shutil
from contextlib import contextmanager

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
def site(live_server, packs_in_database, transactions_in_turn):
    return live_server.url


@contextmanager
def watched_page(browser, console_error_counts=lambda text: True, **context_options):
    """A page in a fresh browser context (`context_options`: its viewport...). Once left, it must have thrown no
    script error and logged no console error that `console_error_counts` counts (a Content-Security-Policy
    violation is one; None: console errors are not watched)."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if console_error_counts is not None:
        page.on(
            "console",
            lambda message: (
                message.type == "error" and console_error_counts(message.text) and errors.append(message.text)
            ),
        )
    yield page
    context.close()
    assert errors == []


@pytest.fixture
def page(browser):
    with watched_page(browser) as page:
        yield page


SECTION = "Regular Infantry Section (Mid-/ Late-War)"


def start_roster(page, site, name="Browser platoon", limit="1000"):
    page.goto(f"{site}/")
    page.select_option("select[name=army]", label="Generic army")
    page.fill("input[name=name]", name)
    page.fill("input[name=points_limit]", limit)
    page.click("form[action='/rosters/new/'] button")
    page.wait_for_url("**/e/**")


def pick(page, name):
    """The add-unit list's button for a unit, by its exact name."""
    return page.locator(".add-unit button.pick").filter(
        has=page.locator(".name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


def add_unit(page, name):
    """Add a unit and wait until htmx has swapped the new roster in."""
    before = page.locator("article.unit").count()
    pick(page, name).first.click()
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

    add_unit(page, "Second Lieutenant")
    add_unit(page, SECTION)
    add_unit(page, SECTION)

    totals = page.inner_text(".totals")
    # The Lieutenant starts Regular (50, not Inexperienced 35): pack.yaml's default_quality.
    assert "150 / 1000 pts" in totals
    assert "Legal" in totals and "Not legal" not in totals
    assert Roster.objects.get().units.count() == 3


def test_a_finding_appears_and_disappears_as_the_player_edits(page, site):
    start_roster(page, site, limit="150")
    add_unit(page, "Second Lieutenant")
    add_unit(page, SECTION)
    add_unit(page, SECTION)
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
    expect(page.locator("article.unit")).to_have_count(2)
    expect(page.locator(".totals")).to_contain_text("115 / 150 pts")
    assert page.url == url  # no page load: the fragment was swapped in


def test_the_cards_pdf_downloads(page, site, tmp_path):
    start_roster(page, site)
    add_unit(page, "Medium Mortar Team")
    page.select_option("select[name=card]", label="A6 (105 × 148 mm)")

    with page.expect_download() as download_info, page.expect_request(lambda r: "cards.pdf" in r.url) as asked:
        page.click("text=Unit cards (PDF)")

    download = download_info.value
    target = tmp_path / "download.pdf"
    download.save_as(target)
    assert download.suggested_filename == "browser-platoon-cards-a6.pdf"  # named after the roster
    assert target.read_bytes().startswith(b"%PDF")
    assert "card=a6" in asked.value.url  # the script asks for the size chosen


def test_the_share_link_is_read_only_in_a_fresh_browser(page, site, browser):
    start_roster(page, site)
    add_unit(page, "Second Lieutenant")
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
    add_unit(page, "Second Lieutenant")
    roster = Roster.objects.get()

    visitor = browser.new_context().new_page()
    visitor.goto(f"{site}/r/{roster.share_id}/")
    visitor.click("text=Copy into a new roster of my own")
    visitor.wait_for_url("**/e/**")

    assert "Copy of Original" in visitor.inner_text("h1")
    assert visitor.locator("article.unit").count() == 1
    assert Roster.objects.count() == 2
    visitor.context.close()


EXAMPLE = (settings.BASE_DIR / "examples" / "bolt-action-2e.yaml").read_text()
# The example platoon with more units: a long roster over a 500-point limit, so it has findings.
LONG_ROSTER = EXAMPLE.replace("points_limit: 1000", "points_limit: 500") + "".join(
    f"  - unit: {SECTION}\n    label: {n}th Section\n    quality: Regular\n" for n in range(4, 10)
)


def import_roster(page, site, text=LONG_ROSTER):
    page.goto(f"{site}/")
    page.click("text=or paste it")
    page.fill("#import-text", text)
    page.click("form[action='/rosters/import/'] button")
    page.wait_for_url("**/e/**")
    settled(page)


def unit_card(page, label):
    return page.locator("article.unit").filter(has=page.locator("h2", has_text=re.compile(f"^{re.escape(label)}$")))


def open_unit(page, label):
    """A unit is one line until it is opened to its form; open it (a click on its line) and return it."""
    card = unit_card(page, label)
    if card.locator(":scope > details[open]").count() == 0:
        card.locator("summary.unit-row").click()
    expect(card.locator(":scope > details")).to_have_attribute("open", "")
    return card


def scroll_y(page) -> float:
    return page.evaluate("window.scrollY")


def test_ticking_an_option_mid_page_keeps_the_scroll_position_and_the_focus(page, site):
    import_roster(page, site)
    section = open_unit(page, "5th Section")
    box = section.locator("input[name=option-lmg]")
    box.evaluate("element => element.scrollIntoView({block: 'center'})")
    before = scroll_y(page)
    assert before > 500  # well down the page (units are one line each until opened)

    box.focus()
    box.check()

    expect(section.locator(".points")).to_have_text("70 pts")  # 50 + 20 for the light machine gun
    settled(page)
    assert abs(scroll_y(page) - before) <= 4
    assert page.evaluate("document.activeElement.name") == "option-lmg"
    assert page.evaluate("document.activeElement.closest('article').id") == section.get_attribute("id")
    expect(page.locator("#summary .totals")).to_contain_text("/ 500 pts")


def test_a_refused_value_is_flagged_on_its_field_with_a_message(page, site):
    import_roster(page, site)
    grenades = open_unit(page, "1st Section").locator("input[name=option-anti-tank-grenades]")
    assert grenades.get_attribute("max") == "10"  # the browser is told the server's limit

    grenades.fill("50")
    grenades.press("Tab")

    expect(grenades).to_have_attribute("aria-invalid", "true")
    message = page.locator(f"#{grenades.get_attribute('aria-describedby')}")
    expect(message).to_have_text("Anti-tank grenades may be taken at most 10 times, not 50.")
    expect(grenades).to_have_value("50")
    assert (
        not Roster.objects.get()
        .units.get(label="1st Section")
        .chosen_options.filter(option__key="anti-tank-grenades")
        .exists()
    )


def test_the_summary_stays_in_view_and_links_each_finding_to_its_unit(page, site):
    import_roster(page, site)
    summary = page.locator("#summary")

    for label in ("Lt. Harris", "9th Section"):  # the top and the bottom of a long roster
        unit_card(page, label).scroll_into_view_if_needed()
        box = summary.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
        expect(summary).to_contain_text("/ 500 pts")
        expect(summary).to_contain_text("Not legal")

    summary.locator("details.issues summary").click()
    link = summary.locator("li.error a").first
    expect(summary.locator("details.issues summary")).to_contain_text("error")
    href = link.get_attribute("href")
    link.click()
    assert page.url.endswith(href)


def test_typing_part_of_a_name_filters_the_unit_list(page, site):
    start_roster(page, site)
    visible = page.locator(".add-unit li:visible")
    everything = visible.count()

    page.fill("#unit-search", "snip")

    expect(visible).to_have_count(1)
    expect(visible.first).to_contain_text("Sniper Team")
    expect(page.locator("#unit-matches")).to_have_text("1 unit match")
    page.fill("#unit-search", "")
    expect(visible).to_have_count(everything)
    assert everything > 10


def test_undo_brings_a_removed_unit_back_and_duplicate_copies_one(page, site):
    import_roster(page, site)
    count = page.locator("article.unit").count()

    open_unit(page, "Medic").locator(".remove button").click()
    expect(page.locator("article.unit")).to_have_count(count - 1)
    settled(page)
    page.locator("form.undo button").first.click()

    expect(unit_card(page, "Medic")).to_have_count(1)
    expect(page.locator("article.unit")).to_have_count(count)
    settled(page)
    open_unit(page, "1st Section").locator(".duplicate button").click()
    expect(page.locator("article.unit")).to_have_count(count + 1)
    labels = [label for label in page.locator("article.unit h2").all_inner_texts()]
    assert labels[labels.index("1st Section") + 1] == "1st Section 2"  # the copy, just after it
    assert Roster.objects.get().units.count() == count + 1


def test_no_page_scrolls_sideways_on_a_phone(browser, site):
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    page = phone.new_page()
    import_roster(page, site)
    roster = Roster.objects.get()
    open_unit(page, "1st Section").locator("details.lookup summary").click()
    pages = [page.url, f"{site}/", f"{site}/r/{roster.share_id}/", f"{site}/games/bolt-action-2e/armies/generic/"]
    pages += [f"{site}/games/{key}/" for key in ("bolt-action-2e", "action-all-fronts", "heroes-all")]

    for url in pages:
        if url != page.url:
            page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
    # The weapons table scrolls inside its own box instead.
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("element => element.scrollWidth > element.clientWidth")
    phone.close()


def test_a_player_adds_a_second_platoon_and_fills_it_from_the_picker(page, site):
    import_roster(page, site, EXAMPLE)
    page.click("#forces-end button[type=submit]")
    second = page.locator("section.force").filter(has=page.locator("h2", has_text=re.compile("^Platoon 2$")))
    expect(second).to_have_count(1)
    settled(page)

    second.locator("a", has_text="Add units to Platoon 2").click()
    expect(page.locator("#picker-heading")).to_have_text("Add a unit to Platoon 2")
    settled(page)
    pick(page, "Second Lieutenant").click()

    expect(second.locator("article.unit")).to_have_count(1)
    expect(second.locator("article.unit h2")).to_have_text("Second Lieutenant")
    # Platoon 2 has its officer but not its two compulsory sections: the finding names it.
    expect(page.locator("#summary")).to_contain_text("Platoon 2 (Generic Reinforced Platoon) needs at least 2")
    assert [force.units.count() for force in Roster.objects.get().forces.all()] == [10, 1]
