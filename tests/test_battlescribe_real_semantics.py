"""Hidden entries, groups and categories judged as BattleScribe judges them, on the real data's entries.

Each case is a list a player builds from the community data in ../shared/bsdata (skipped, naming the
folder, where it is absent), with the entries named by the data: a hidden group link's minimum
(Konflikt '47), a group's maximum raised by its modifier counted in the selection holding the group
(Flames of War, Afrika Korps), a hidden group neither filled by default nor asking for its minimum
(Flames of War, D-Day Waffen-SS), and a selection in a force category hidden by its modifier
(Battlegroup). The errors asserted are the messages a player reads beside the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lists.battlescribe.engine import Roster, load_data_folder
from lists.battlescribe.engine.elements import Force, Selection
from lists.battlescribe.engine.options import Option, find_option
from lists.battlescribe.engine.validation import roster_errors
from lists.roster_kinds.data_set_shape import roster_shape

BSDATA = Path(__file__).resolve().parents[2] / "shared" / "bsdata"

GERMAN_INFANTRY_PLATOON = "dcdb-84be-21e2-f025"
COMMAND_VEHICLE_GROUP = "eae5-2f4c-8ee8-b193"
TIGER_OR_DIANA_PLATOON = "4a4d-6e94-b13e-dcec"
ONE_TIGER = "bb00-b9ad-5a28-7aac"
TWO_TIGERS = "f863-23a1-02dd-f83b"
PANZER_III = "4f90-567f-a09c-2c12"
TIGER_ACE_CARD = "131a-8e0c-ba4d-cec8"
BATTLEGROUP_FORCE = "9853-94ea-4f1e-0cab"
DEFENSES = "b6a3-9f91-0350-5714"

NO_FORMATION = "must have 1 more selections of Formations (minimum 1)"


def game_data(folder: str, catalogue: str):
    """One catalogue of a game's data with its game system (the test is skipped where it is absent)."""
    path = BSDATA / folder
    if not (path / catalogue).exists():
        pytest.skip(f"no {folder} data at {path}")
    return load_data_folder(path, [catalogue])


@pytest.fixture(scope="module")
def konflikt_germany():
    return game_data("konflikt47", "Germany.cat")


@pytest.fixture(scope="module")
def afrika_korps():
    return game_data("flamesofwar", "MW - Afrika Korps.cat")


@pytest.fixture(scope="module")
def waffen_ss():
    return game_data("flamesofwar", "LW - D-Day_Waffen-SS.cat")


@pytest.fixture(scope="module")
def kursk_infantry():
    return game_data("battlegroup", "Kursk - German - Infantry Division.cat")


def new_force(data, force_entry_id: str | None = None) -> tuple[Roster, Force]:
    """A roster with one force of the data's only catalogue."""
    roster = Roster(data, "Test")
    entry_id = force_entry_id or next(iter(data.force_entries))
    return roster, roster.add_force(entry_id, data.catalogues[-1].id)


def root(force: Force, name: str) -> Option:
    """The root entry of a force named so in the data."""
    return next(o for o in force.options if o.name == name and o.group is None)


def child(selection: Selection, entry_id: str) -> Option:
    """The entry (by its id in the data) that may be selected under a selection."""
    found = find_option(selection.option.children, entry_id)
    assert found is not None, entry_id
    return found


def editor_controls(roster: Roster, selection: Selection) -> dict[str, str]:
    """The choices the editor shows under a selection: each control's name and kind."""
    shapes = [shape for force in roster_shape(roster).forces for shape in walk_shapes(force.selections)]
    [shape] = [shape for shape in shapes if shape.id == selection.id]
    return {control.name: control.kind for control in shape.controls}


def walk_shapes(shapes):
    for shape in shapes:
        yield shape
        yield from walk_shapes(shape.children)


def messages(roster: Roster) -> list[str]:
    """The errors a player reads beside the list."""
    return [error.message for error in roster_errors(roster)]


def test_infantry_platoon_with_a_puma_does_not_need_the_hidden_command_vehicle(konflikt_germany):
    roster, platoon = new_force(konflikt_germany, GERMAN_INFANTRY_PLATOON)
    for name in ("Officer", "Wehrmacht Infantry Squad", "Wehrmacht Infantry Squad", "SdKfz 234/X Puma"):
        roster.select(platoon, root(platoon, name))
    puma = platoon.selections[-1]
    [command_vehicle] = [g for g in puma.option.groups if g.entry.id == COMMAND_VEHICLE_GROUP]
    assert roster.view_option(command_vehicle, puma).hidden

    assert messages(roster) == []
    assert roster.totals == {"d66a-aa5a-74b9-e93a": 295.0}


def tiger_platoon(data, tiger: str, escorts: int) -> Roster:
    """A Tiger Heavy Tank Platoon of `tiger` with `escorts` Panzer III (7.5cm)."""
    roster, force = new_force(data)
    holder = roster.select(force, find_option(force.options, TIGER_OR_DIANA_PLATOON))
    [platoon] = holder.children
    assert platoon.name == "Tiger Heavy Tank Platoon"
    if platoon.children[0].option.entry.id != tiger:
        roster.deselect(platoon.children[0])
        roster.select(platoon, child(platoon, tiger))
    for _ in range(escorts):
        roster.select(platoon, child(platoon, PANZER_III))
    return roster


def test_one_tiger_takes_one_escort_tank(afrika_korps):
    assert messages(tiger_platoon(afrika_korps, ONE_TIGER, 1)) == [NO_FORMATION]


def test_one_tiger_refuses_a_second_escort_tank(afrika_korps):
    assert messages(tiger_platoon(afrika_korps, ONE_TIGER, 2)) == [
        NO_FORMATION,
        "has too many selections of Escort Tanks (maximum 1)",
    ]


def test_two_tigers_take_two_escort_tanks(afrika_korps):
    assert messages(tiger_platoon(afrika_korps, TWO_TIGERS, 2)) == [NO_FORMATION]


def test_the_editor_offers_one_tigers_escort_as_a_one_of_choice(afrika_korps):
    roster = tiger_platoon(afrika_korps, ONE_TIGER, 0)
    [platoon] = roster.forces[0].selections[0].children
    assert editor_controls(roster, platoon)["Escort Tanks"] == "one-of"

    roster = tiger_platoon(afrika_korps, TWO_TIGERS, 0)
    [platoon] = roster.forces[0].selections[0].children
    assert editor_controls(roster, platoon)["Escort Tanks"] == "group"


def test_a_platoon_gets_nothing_from_the_hidden_tiger_ace_ability_group(waffen_ss):
    roster, force = new_force(waffen_ss)
    platoon = roster.select(force, root(force, "Panther SS Tank Platoon"))

    assert [c.name for c in platoon.children] == ["3x Panther (7.5cm)"]
    assert messages(roster) == [NO_FORMATION]
    assert "Tiger Ace Ability" not in editor_controls(roster, platoon)


def test_the_tiger_ace_card_shows_the_ability_group_and_asks_for_one(waffen_ss):
    roster, force = new_force(waffen_ss)
    platoon = roster.select(force, root(force, "Tiger SS Tank Platoon"))
    assert messages(roster) == [NO_FORMATION]

    roster.select(platoon, child(platoon, TIGER_ACE_CARD))

    assert messages(roster) == [NO_FORMATION, "must have 1 more selections of Tiger Ace Ability (minimum 1)"]
    assert editor_controls(roster, platoon)["Tiger Ace Ability"] == "one-of"


def test_defenses_without_an_attack_defence_scenario_are_reported_hidden(kursk_infantry):
    roster, force = new_force(kursk_infantry, BATTLEGROUP_FORCE)
    roster.select(force, root(force, "Attack/Counter-Attack"))
    roster.select(force, root(force, "Minefield"))

    [error] = roster_errors(roster)
    assert error.message == "cannot have any selections of Defenses (hidden)"
    assert (error.owner_type, error.owner_id, error.entry_id) == ("force", force.id, DEFENSES)
    [shown] = roster_shape(roster).forces
    assert shown.errors == ["cannot have any selections of Defenses (hidden)"]
    assert "Defenses" not in dict(shown.offers)


def test_defenses_in_an_attack_defence_scenario_are_legal(kursk_infantry):
    roster, force = new_force(kursk_infantry, BATTLEGROUP_FORCE)
    roster.select(force, root(force, "Stadtkampf"))
    roster.select(force, root(force, "Minefield"))

    assert messages(roster) == []
    offers = dict(roster_shape(roster).forces[0].offers)
    assert "Minefield" in [offer.name for offer in offers["Defenses"]]
