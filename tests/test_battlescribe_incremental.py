"""One action, one evaluation: the BattleScribe engine evaluates a roster once per action, however many steps
the action takes (a count set to 100, a selection of number 10,000 removed, a .ros read, a JSON export
rebuilt), and what it then shows (points, errors) is what evaluating after every step showed.

Rosters are built from the real data in ../shared (Konflikt '47's Finland from bsdata, the players' Bolt
Action 3rd edition Soviet Union from community-data; skipped where absent), by the entries' names.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.battlescribe.engine import Roster, load_data_folder
from lists.battlescribe.engine.elements import Force, Selection
from lists.battlescribe.engine.roster_files import read_roster_xml, write_roster_xml
from lists.battlescribe.engine.validation import roster_errors
from lists.models import BattleScribeDataSet
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.battlescribe_data_json import read_document, roster_document

SHARED = Path(__file__).resolve().parents[2] / "shared"
# folder, catalogue, force entry (None: the first), units selected, and the squad's men whose count is set.
ARMIES = [
    ("bsdata/konflikt47", "Finland.cat", "Reinforced Platoon", ["Officer", "Rifle Squad"], "Soldier with Rifle"),
    ("community-data/ba3-soviet-union", "Armies of the soviet union.cat", None, ["Rifle Squad"], "Rifleman"),
]


def data_of(folder: str, catalogue: str):
    if not (SHARED / folder / catalogue).exists():
        pytest.skip(f"no data at {SHARED / folder}")
    return load_data_folder(SHARED / folder, [catalogue])


def named(options, name: str):
    return next(o for o in options if o.name == name)


def army(data, force_name: str | None, units: list[str]) -> tuple[Roster, Force, Selection]:
    """A roster with a force of the data and the units named selected (each one action); the last unit."""
    roster = Roster(data, "Test")
    entry = next(e for e in data.force_entries.values() if force_name is None or e.name == force_name)
    force = roster.add_force(entry.id, data.catalogues[0].id)
    unit = None
    for name in units:
        unit = roster.select(force, named(force.options, name))
    return roster, force, unit


def men_of(unit: Selection, name: str) -> Selection:
    return next(c for c in unit.children if c.name == name)


def verdict(roster: Roster) -> tuple[dict, list[tuple]]:
    """What a player sees: the totals, and each error's message and what it is about."""
    errors = [(e.message, e.owner_type, e.entry_id, e.constraint_id) for e in roster_errors(roster)]
    return dict(roster.totals), errors


@pytest.fixture
def evaluations(monkeypatch) -> list[Roster]:
    """The rosters evaluated, once per evaluation."""
    seen: list[Roster] = []
    evaluate = Roster.evaluate

    def counted(roster: Roster) -> None:
        seen.append(roster)
        evaluate(roster)

    monkeypatch.setattr(Roster, "evaluate", counted)
    return seen


@pytest.mark.parametrize(("folder", "catalogue", "force", "units", "men"), ARMIES)
def test_setting_a_count_to_100_is_one_evaluation_with_the_points_of_100_steps(
    evaluations, folder, catalogue, force, units, men
):
    data = data_of(folder, catalogue)
    stepped, _, unit = army(data, force, units)
    held = men_of(unit, men)
    for _ in range(100 - held.number):  # the old way: one evaluation per man added
        stepped.select(unit, held.option)
    batched, _, unit = army(data, force, units)
    held = men_of(unit, men)
    evaluations.clear()
    batched.set_count(held, 100)
    assert evaluations == [batched]
    assert held.number == 100
    assert verdict(batched) == verdict(stepped)
    assert batched.totals != army(data, force, units)[0].totals  # 100 men do not cost what 4 do


@pytest.mark.parametrize(("folder", "catalogue", "force", "units", "men"), ARMIES)
def test_removing_men_of_number_10000_is_one_evaluation_leaving_what_removing_them_one_by_one_leaves(
    evaluations, folder, catalogue, force, units, men
):
    data = data_of(folder, catalogue)
    stepped, _, unit = army(data, force, units)
    held = men_of(unit, men)
    stepped.set_count(held, 40)
    while any(c is held for c in unit.children):  # the old way: one deselection (and evaluation) at a time
        stepped.deselect(held)
    batched, _, unit = army(data, force, units)
    held = men_of(unit, men)
    batched.set_count(held, 10_000)
    assert held.number == 10_000
    evaluations.clear()
    editing.apply(batched, "remove", {"target": held.id})
    assert evaluations == [batched]
    assert all(c.name != men for c in unit.children)
    assert verdict(batched) == verdict(stepped)


def test_an_editor_count_action_is_one_evaluation(evaluations):
    folder, catalogue, force, units, men = ARMIES[0]
    roster, _, unit = army(data_of(folder, catalogue), force, units)
    held = men_of(unit, men)
    before = roster.totals.copy()
    evaluations.clear()
    editing.apply(roster, "count", {"selection": unit.id, "entry": held.option.id, "count": "9"})
    assert evaluations == [roster]
    assert held.number == 9
    assert roster.totals != before


@pytest.mark.parametrize(("folder", "catalogue", "force", "units", "men"), ARMIES)
def test_a_ros_file_is_read_with_one_evaluation_and_the_verdict_of_the_roster_built_step_by_step(
    evaluations, folder, catalogue, force, units, men
):
    data = data_of(folder, catalogue)
    built, first, unit = army(data, force, units + units)
    built.set_count(men_of(unit, men), 7)
    xml = write_roster_xml(built, with_info=False)
    evaluations.clear()
    read = read_roster_xml(data, xml)
    assert evaluations == [read]
    assert verdict(read) == verdict(built)
    assert len(list(read.all_selections())) == len(list(built.all_selections()))


@pytest.fixture(scope="module")
def konflikt(django_db_setup, django_db_blocker):
    """Konflikt '47's data loaded as a data set, once for the module."""
    folder = SHARED / ARMIES[0][0]
    if not folder.is_dir():
        pytest.skip(f"no data at {folder}")
    with django_db_blocker.unblock():
        call_command("load_battlescribe", str(folder), stdout=StringIO())
        yield BattleScribeDataSet.objects.get(source_folder__endswith=folder.name)
        BattleScribeDataSet.objects.all().delete()


@pytest.mark.django_db
def test_a_json_export_is_rebuilt_with_one_evaluation_and_the_verdict_of_the_roster_built_step_by_step(
    evaluations, konflikt
):
    from lists.gamedata.battlescribe_cache import battlescribe_game_data

    data = battlescribe_game_data(konflikt)
    _, catalogue, force, units, men = ARMIES[0]
    finland = next(c for c in data.catalogues if c.name == "Finland")
    built = Roster(data, "Test")
    entry = next(e for e in data.force_entries.values() if e.name == force)
    platoon = built.add_force(entry.id, finland.id)
    for name in units + ["Rifle Squad"]:
        unit = built.select(platoon, named(platoon.options, name))
    built.set_count(men_of(unit, men), 11)
    document = json.loads(json.dumps(roster_document(built, konflikt, with_ids=True)))
    evaluations.clear()
    rebuilt = read_document(document).roster
    assert evaluations == [rebuilt]
    assert verdict(rebuilt) == verdict(built)
    assert men_of(rebuilt.forces[0].selections[-1], men).number == 11


def test_units_of_one_name_are_labelled_in_turn_past_a_players_own_name_taken_first():
    from lists.rosters.battlescribe_data_rosters import DataSetRoster

    folder, catalogue, force, _units, _men = ARMIES[0]
    roster, platoon, _ = army(data_of(folder, catalogue), force, [])
    with roster.action():
        squads = [roster.select(platoon, named(platoon.options, "Rifle Squad")) for _ in range(300)]
    squads[0].custom_name = "Rifle Squad (3)"
    found = DataSetRoster(roster, None, None, None)
    found.label_units()
    labels = [found.labels[id(squad)] for squad in squads]
    assert labels[:4] == ["Rifle Squad (3)", "Rifle Squad", "Rifle Squad (2)", "Rifle Squad (4)"]
    assert labels[-1] == "Rifle Squad (300)" and len(set(labels)) == 300


def test_a_count_of_zero_at_a_forces_root_removes_every_unit_of_the_entry():
    folder, catalogue, force, units, _men = ARMIES[0]
    data = data_of(folder, catalogue)
    roster, platoon, squad = army(data, force, units + ["Rifle Squad"])
    officer_only = army(data, force, units[:1])[0]
    assert sum(s.name == "Rifle Squad" for s in platoon.selections) == 2
    roster.set_count(squad, 0)
    assert not any(s.name == "Rifle Squad" for s in platoon.selections)
    assert verdict(roster) == verdict(officer_only)
