"""Every text on a card stays inside the card and clear of every other text, and a rule continued on another card
is cut at a sentence's end, for the Bolt Action units a player
fields most (the staple units, below) and every example roster, on poker and A6 cards.

Staple units: every unit of the "1944: Normandy" theatre lists of Germany, the United States and Great Britain
(the lists players build first, converted from BattleScribe: officers, forward observers, squads, teams, guns and
howitzers, tanks, armoured cars, transports) and of the generic army, each as added to a roster (Regular where
offered, no options bought); and every roster in examples/, with its options. The cards are laid out by the
renderer the PDFs use (`lists.cards._lay_out`: one card to a page, with its frame) and read from WeasyPrint's
layout boxes: each line of text is a box with its place on the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache

from lists import cards
from lists.cards import Layout, card_groups, roster_cards
from lists.cards.packing import _body_key
from lists.gamedata.loading import game_data
from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.models import GameSystem
from lists.rosters.files import load_roster_file

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

STAPLE_ARMIES = ["germany-1944-normandy", "united-states-1944-normandy", "great-britain-1944-normandy", "generic"]
MM_PER_PX = 25.4 / 96
SLACK_MM = 0.05  # rounding of the renderer's positions


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def text_lines(page) -> list[tuple[float, float, float, float, str]]:
    """Each piece of text laid out on the page: (left, top, right, bottom) in mm from the page's top left, and it."""
    from weasyprint.formatting_structure.boxes import TextBox

    found = []
    for box in cards._boxes(page._page_box):
        if isinstance(box, TextBox) and box.text.strip():
            left, top = box.position_x * MM_PER_PX, box.position_y * MM_PER_PX
            found.append((left, top, left + box.width * MM_PER_PX, top + box.height * MM_PER_PX, box.text))
    return found


def misplaced_text(page, layout: Layout) -> list[str]:
    """What lies outside the card's padding, or over another text, on a laid-out card."""
    width, height = layout.card_mm
    inner = layout.padding_mm - SLACK_MM
    lines = text_lines(page)
    faults = [
        f"outside the card: {text!r}"
        for left, top, right, bottom, text in lines
        if left < inner or top < inner or right > width - inner or bottom > height - inner
    ]
    lines.sort(key=lambda line: line[1])
    for i, (left, _top, right, bottom, text) in enumerate(lines):
        for other in lines[i + 1 :]:
            if other[1] >= bottom - SLACK_MM:
                break
            if other[0] < right - SLACK_MM and left < other[2] - SLACK_MM:
                faults.append(f"{text!r} overlaps {other[4]!r}")
    return faults


def roster_of(data, army_id: int, unit_types: list) -> RosterSnapshot:
    army = data.armies[army_id]
    units = [
        UnitChoice(
            index=index,
            label=unit_type.name,
            unit_type=unit_type,
            quality="regular" if "regular" in unit_type.quality_prices else next(iter(unit_type.quality_prices), None),
        )
        for index, unit_type in enumerate(unit_types)
    ]
    return RosterSnapshot(system=data.system, army_key=army.key, army_name=army.name, name="Staples", units=units)


def staple_rosters(data, layout: Layout) -> list[RosterSnapshot]:
    """A roster of each staple army's units; a unit whose card is another's (same name, same content: the data
    lists many units twice, under two categories) is laid out once."""
    armies = {army.key: army_id for army_id, army in data.armies.items()}
    seen: set[tuple[str, str]] = set()
    rosters = []
    for key in STAPLE_ARMIES:
        every = roster_of(data, armies[key], list(data.unit_types_of(armies[key])))
        kept = []
        for unit, group in zip(every.units, card_groups(every, data, layout), strict=False):
            if (unit.label, _body_key(group)) not in seen:
                seen.add((unit.label, _body_key(group)))
                kept.append(unit.unit_type)
        rosters.append(roster_of(data, armies[key], kept))
    return rosters


def card_faults(roster: RosterSnapshot, data, layout: Layout) -> list[str]:
    made = roster_cards(roster, data, layout)
    document = cards._lay_out(made, layout)
    # A rule too long for the room left is cut at a sentence's end: a part ending " …" was cut between words.
    cut = [
        f"{card.title} (card {card.part} of {card.parts}): {block.data['name']} cut mid-sentence"
        for card in made
        for block in card.blocks
        if block.kind == "rule" and block.data["text"].endswith(" …")
    ]
    return cut + [
        f"{card.title} (card {card.part} of {card.parts}): {fault}"
        for card, page in zip(made, document.pages, strict=True)
        for fault in misplaced_text(page, layout)
    ]


@pytest.mark.timeout(300)  # every staple unit card of every army laid out and measured
@pytest.mark.parametrize("card", ["poker", "a6"])
def test_every_text_of_every_staple_unit_card_lies_inside_its_card_and_clear_of_the_others(card):
    data = game_data(GameSystem.objects.get(key="bolt-action-2e"))
    layout = Layout(card=card)

    faults = [fault for roster in staple_rosters(data, layout) for fault in card_faults(roster, data, layout)]

    assert faults == []


@pytest.mark.parametrize("card", ["poker", "a6"])
@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda path: path.stem)
def test_every_text_of_every_example_card_lies_inside_its_card_and_clear_of_the_others(path, card):
    resolved = load_roster_file(path.read_bytes(), path.name)

    assert card_faults(resolved.snapshot(), resolved.data, Layout(card=card)) == []
