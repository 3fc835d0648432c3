"""What Bolt Action cards converted from BattleScribe name: a forward observer's call for fire, and never a note the
data keeps about a unit ("Crew: label: crewmen in brackets", "Extra Selection") as if it were a rule."""

import io

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from lists.cards import Layout, cards_pdf, roster_rules, unit_blocks
from lists.gamedata.loading import game_data
from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.models import GameSystem
from lists.rosters.files import load_roster_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

ROSTER = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: {army}
name: Card check
forces:
  - name: Platoon
    organisation: {organisation}
    units:
"""
# Texts of the data's notes: what each printed on every card of its units before they were kept off.
DATA_NOTES = (
    "crewmen in brackets",
    "label:",
    "Extra Selection",
    "sidecar motorcycles per selection",
    "Gebirgsjäger Support",
)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def card_text(army: str, *units: str, card: str = "poker", organisation: str = "Reinforced Platoon") -> str:
    text = ROSTER.format(army=army, organisation=organisation) + "".join(
        f"      - {{unit: {unit}, quality: Regular}}\n" for unit in units
    )
    resolved = load_roster_file(text.encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data, Layout(card=card))
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("card", ["poker", "a6"])
def test_an_artillery_forward_observer_card_names_his_barrage_and_the_reference_explains_it(card):
    text = card_text("germany-1944-normandy", "germany-artillery-forward-observer", card=card)

    assert "Artillery Forward Observer: on a Fire order, calls an artillery or smoke barrage" in text
    # The rules reference says how the barrage lands, with its source.
    assert "on 4-6 it lands" in text and "artillery/smoke barrage chart" in text
    assert "Bolt Action 2nd edition quick reference sheet" in text


def test_an_air_observer_card_names_his_air_strike_and_the_generic_observer_his_barrage():
    us = card_text("united-states-1944-normandy", "united-states-air-forward-observer")
    generic = card_text("generic", "forward-observer", organisation="Generic Reinforced Platoon")

    assert "Air Forward Observer: on a Fire order, calls an air strike on a target he sees" in us
    assert "a fighter-bomber (3-inch template, +3 Pen, D2 pins)" in us
    assert "calls an artillery or smoke barrage" in generic


def test_machine_gun_team_cards_name_their_rules_but_no_note_of_the_data():
    """The US MMG team carries the data's "Crew" label and a French "Extra Selection" list-building rule."""
    us = card_text("united-states-1944-normandy", "united-states-medium-machine-gun-team")
    german = card_text("germany-1944-normandy", "germany-medium-machine-gun-team")

    for text in (us, german):
        assert "Team: two crew for full effect" in text and "Fixed:" in text
        assert [note for note in DATA_NOTES if note in text] == []


def test_no_bolt_action_unit_card_nor_rules_reference_prints_a_note_of_the_data():
    """Every unit of every Bolt Action army, as its card would print it (no layout needed to know the text)."""
    data = game_data(GameSystem.objects.get(key="bolt-action-2e"))
    layout = Layout()
    printed = []
    for army_id, army in data.armies.items():
        units = [
            UnitChoice(index=index, label=unit_type.name, unit_type=unit_type)
            for index, unit_type in enumerate(data.unit_types_of(army_id))
        ]
        roster = RosterSnapshot(system=data.system, army_key=army.key, army_name=army.name, name="All", units=units)
        for unit in units:
            for block in unit_blocks(roster, data, unit, layout):
                if block.kind == "reminder":
                    printed.append((unit.label, f"{block.data['name']}: {block.data['text']}"))
        printed += [("Rules reference", f"{rule.name}: {rule.summary}") for rule in roster_rules(roster, data)]

    assert len(printed) > 10_000  # every army's units were read
    assert [(unit, line) for unit, line in printed if any(note in line for note in DATA_NOTES)] == []
