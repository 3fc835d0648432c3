"""The editor's unit controls in Chromium at a desktop's and a phone's width: a Lieutenant's weapon chosen with
the arrow keys among radio buttons, an M3 Half-track shown armed, the Men stepper stepping one man at a time."""

# ruff: noqa: F811 - the browser suite's fixtures (browser, site) are imported by name
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.test_browser import browser, import_roster, open_unit, settled, site, watched_page  # noqa: F401
from tests.test_browser_editor import SCREENS

# Where screenshots are written, if anywhere (`EDITOR_SHOTS=dir`): for people to look at.
SHOTS = os.environ.get("EDITOR_SHOTS")
ROSTER = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: united-states-1944-normandy
name: Controls
points_limit: 1000
forces:
  - name: First Platoon
    units:
      - {unit: united-states-second-lieutenant, label: Lieutenant, quality: Regular}
      - {unit: united-states-infantry-squad-early-mid-war, label: First Squad, quality: Regular}
      - {unit: united-states-m3-half-track, label: Half-track, quality: Regular}
"""


@pytest.fixture(params=sorted(SCREENS), ids=lambda width: f"{width}px")
def page(browser, request):
    with watched_page(browser, viewport=SCREENS[request.param]) as page:
        yield page


def shoot(page, card, name: str) -> None:
    if SHOTS:
        # caret="initial": hiding the caret takes an inline style, which the Content-Security-Policy refuses.
        card.screenshot(path=str(Path(SHOTS) / f"{name}-{page.viewport_size['width']}.png"), caret="initial")


def test_a_weapon_is_chosen_with_the_arrow_keys_and_the_half_track_shows_its_hmg(page, site):
    import_roster(page, site, ROSTER)
    lieutenant = open_unit(page, "Lieutenant")
    radios = lieutenant.locator("fieldset.one-of input[type=radio]")
    expect(radios).to_have_count(3)  # as listed (a pistol), SMG, M1 Carbine
    expect(radios.first).to_be_checked()
    shoot(page, lieutenant, "one-of")

    radios.first.focus()
    page.keyboard.press("ArrowDown")  # the browser moves the choice; the form sends it
    settled(page)
    lieutenant = open_unit(page, "Lieutenant")
    expect(lieutenant.locator("fieldset.one-of input[type=radio]").nth(1)).to_be_checked()
    # Regular 50; his SMG costs nothing (3df39ff5)
    expect(lieutenant.locator("summary.unit-row")).to_contain_text("50 pts")
    expect(lieutenant.locator("fieldset.one-of input:checked")).to_have_count(1)

    half_track = open_unit(page, "Half-track")
    expect(half_track.locator("input[name=option-pintle-mounted-hmg-360]")).to_be_checked()
    expect(half_track.locator("input[name=option-pintle-mounted-hmg-360]")).to_be_disabled()
    expect(half_track).to_contain_text("Pintle-Mounted HMG (360) (compulsory, +0 pts)")
    expect(half_track).to_contain_text("Heavy machine gun (HMG)")
    shoot(page, half_track, "half-track")


def test_the_men_stepper_steps_one_man_with_a_bar_gunner(page, site):
    import_roster(page, site, ROSTER)
    squad = open_unit(page, "First Squad")
    squad.locator("input[name=option-regular-soldier-with-bar-m1918a2]").check()
    settled(page)
    squad = open_unit(page, "First Squad")
    expect(squad.locator("summary .men")).to_have_text("6 men")
    squad.locator("button.step[data-step='1']").first.click()
    settled(page)
    squad = open_unit(page, "First Squad")
    expect(squad.locator("summary .men")).to_have_text("7 men")
    expect(squad.locator("input[name=size]")).to_have_value("7")
    expect(squad.locator("summary.unit-row")).to_contain_text("75 pts")
    shoot(page, squad, "men-stepper")
