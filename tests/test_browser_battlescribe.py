"""Each game of BattleScribe data built in headless Chromium from the home page, as its players would: the army
found by search, a small list made legal by clicking, broken by removing a compulsory entry, shared, its unit
cards downloaded once the background worker has rendered them, its .ros exported and imported back.

The games are tests/test_battlescribe_games.py's six (Flames of War, Team Yankee, Konflikt '47, Battlegroup and
the two Bolt Action 3rd edition sets of ../shared, each README naming its repository and commit), loaded with
`load_battlescribe`; a game whose folder is absent is skipped. That module runs the same journeys through
Django's test client; this one checks what only a browser shows (htmx swaps, the search box, the downloads).
"""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from playwright.sync_api import expect

from lists.models import BattleScribeDataSet, BattleScribeRoster
from tests.test_battlescribe_games import GAMES, IDS, SHARED
from tests.test_browser import browser, page, settled  # noqa: F401 - the browser suite's fixtures
from tests.test_browser_pdf import run_the_worker_when_a_render_is_queued


@pytest.fixture
def site(live_server, transactional_db, transactions_in_turn):
    return live_server.url


def offer(page, name):  # noqa: F811 - the fixture, passed on
    """The picker's button for an entry, by its exact name."""
    exactly = re.compile(f"^{re.escape(name)}$")
    return page.locator("button.offer").filter(has=page.locator(".name", has_text=exactly)).first


def selection(page, name):  # noqa: F811
    """A selection's article, by the exact name on its head."""
    return page.locator(f'article.bs-selection:has(> form > header h3:text-is("{name}"))').first


def start(page, site, game: str, army: str, force: str, limit: int) -> None:  # noqa: F811
    """The army found with the home page's search box, its force picked, the roster started."""
    page.goto(f"{site}/")
    expect(page.locator("#bs-game-list")).to_contain_text(game)
    group = page.locator("#bs-army optgroup").filter(has=page.locator("option", has_text=army)).first
    label = group.get_attribute("label")
    page.fill("#bs-army-filter", army.lower())
    shown = page.locator(f'#bs-army optgroup[label="{label}"] option:not([hidden])')
    expect(shown.filter(has_text=re.compile(f"^{re.escape(army)}$"))).to_have_count(1)
    page.select_option(
        "#bs-army", value=shown.filter(has_text=re.compile(f"^{re.escape(army)}$")).get_attribute("value")
    )
    # Only the chosen army's forces are left to pick from, one of them already chosen.
    army_value = page.input_value("#bs-army")
    expect(page.locator("#bs-force optgroup:not([hidden])")).to_have_count(1)
    expect(page.locator("#bs-force optgroup:not([hidden])")).to_have_attribute("data-army", army_value)
    force_option = page.locator(f'#bs-force optgroup[data-army="{army_value}"] option').filter(
        has_text=re.compile(f"^{re.escape(force)}$")
    )
    # By its place: the game system's forces (Flames of War's one "Standard") are in every army's group.
    page.select_option("#bs-force", index=force_option.evaluate("option => option.index"))
    page.fill("#bs-name", f"{army} in the browser")
    page.fill("#bs-limit", str(limit))
    page.click("form[action='/bs/new/'] button")
    page.wait_for_url("**/bs/e/**")


def take(page, kind: str, *names: str) -> None:  # noqa: F811
    """One of the games' steps: an entry added from the picker, or a one-of choice made on a selection."""
    if kind == "add":
        offer(page, names[0]).click()
    else:
        holder, legend, label = names
        fieldset = (
            selection(page, holder)
            .locator("fieldset.one-of")
            .filter(has=page.locator("legend", has_text=re.compile(f"^{re.escape(legend)}$")))
        )
        fieldset.locator("label").filter(has_text=re.compile(f"^\\s*{re.escape(label)} ")).locator("input").check()
    settled(page)


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
@pytest.mark.parametrize(("folder", "army", "force", "limit", "steps", "compulsory", "missing"), GAMES, ids=IDS)
def test_a_list_is_built_broken_printed_shared_and_brought_back(
    page,  # noqa: F811
    site,
    worker_signals,
    empty_cache,
    tmp_path,
    folder,
    army,
    force,
    limit,
    steps,
    compulsory,
    missing,
):
    if not (SHARED / folder).is_dir():
        pytest.skip(f"no data at {SHARED / folder}")
    call_command("load_battlescribe", str(SHARED / folder), stdout=StringIO())
    start(page, site, BattleScribeDataSet.objects.get().name, army, force, limit)
    for kind, *names in steps:
        take(page, kind, *names)
    totals = page.locator("#bs-totals")
    expect(totals).to_have_text(re.compile(rf"^\d+(\.\d+)? / {limit} \S+ ·(\s.*)?\s+Legal\s*$", re.DOTALL))
    legal_points = float(totals.inner_text().split()[0])
    assert legal_points > 0

    selection(page, compulsory).locator("> form button[value=remove]").click()
    settled(page)
    expect(totals).to_contain_text("Not legal")
    expect(page.locator("li.finding.error").filter(has_text=missing)).to_have_count(1)
    verdict = " ".join(totals.inner_text().split())

    page.click("#open-share")
    page.wait_for_url("**/bs/r/**")
    expect(page.locator("#bs-totals")).to_have_text(re.sub(r" \(\d+ problems?\)$", "", verdict))
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # as a player's page, the offline worker first
    with page.expect_download(timeout=60_000) as cards:
        page.get_by_role("link", name="unit cards (PDF)").click()
        run_the_worker_when_a_render_is_queued()
    cards_pdf = Path(cards.value.path()).read_bytes()
    assert cards_pdf.startswith(b"%PDF") and cards.value.suggested_filename.endswith("-cards.pdf")
    cards.value.save_as(tmp_path / "cards.pdf")  # to look at: pytest --basetemp=FOLDER, then pdftoppm -png

    with page.expect_download() as ros:
        page.click("#download-ros")
    path = tmp_path / "exported.ros"
    ros.value.save_as(path)
    page.goto(f"{site}/")
    page.set_input_files("form[action='/rosters/import/'] input[type=file]", str(path))
    page.click("form[action='/rosters/import/'] button")
    page.wait_for_url("**/bs/e/**")
    expect(page.locator("#bs-totals")).to_have_text(verdict)
    assert BattleScribeRoster.objects.count() == 2
