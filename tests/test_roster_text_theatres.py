"""roster.txt across the real Bolt Action data: every unit of several nations' theatre lists, with options,
comes back from the plain list as the same roster; every unit of every army has a name of its own there."""

import pytest

from lists.cards import roster_text
from lists.gamedata.loading import game_data
from lists.models import GameSystem
from lists.rosters.files import export_roster, load_roster_file, resolve
from lists.rosters.parsing import check_document
from lists.rosters.plain_names import plain_unit_names
from lists.rosters.resolving import _normal
from lists.rules.validation import open_options, open_qualities
from lists.rules.verdict import judge

pytestmark = [pytest.mark.usefixtures("real_packs"), pytest.mark.django_db]

THEATRES = [
    "germany-1944-normandy",
    "united-states-1944-normandy",
    "great-britain-1944-normandy",
    "soviet-union-1944-operation-bagration",
    "italy-generic-reinforced-platoon",
    "imperial-japan-generic-reinforced-platoon",
]


def _bolt_action():
    return game_data(GameSystem.objects.get(key="bolt-action-2e"))


def _every_unit_of(data, army_key: str) -> dict:
    """A roster of every unit the list fields, each at its first quality with its first two options."""
    army = next(a for a in data.armies.values() if a.key == army_key)
    units = []
    for unit_id in dict.fromkeys(unit_id for _, unit_id in data.available_units(army.id)):
        unit_type = data.unit_types[unit_id]
        qualities = open_qualities(unit_type, army_key)
        quality = qualities[0] if qualities else None
        offered = {_normal(o.name): o.key for o in reversed(open_options(unit_type, army_key, quality))}
        options = list(offered.values())[-2:]  # two of its options, of names of their own
        entry = {"unit": unit_type.key, "options": options}
        if quality:
            entry["quality"] = quality
        units.append(entry)
    forces = [{"units": units[start : start + 40]} for start in range(0, len(units), 40)]
    return {"game": "bolt-action-2e", "army": army_key, "name": f"All of {army.name}", "forces": forces[:20]}


def _named(unit) -> list[tuple[str, int]]:
    return sorted((option.name, count) for option, count in unit.chosen_options)


@pytest.mark.parametrize("army_key", THEATRES)
def test_every_unit_of_a_theatre_list_comes_back_from_the_plain_list(army_key):
    data = _bolt_action()
    if not any(a.key == army_key for a in data.armies.values()):
        pytest.fail(f"{army_key} is no longer a theatre list of the data: choose another")
    first = resolve(check_document(_every_unit_of(data, army_key)))
    snapshot = first.snapshot()
    before = judge(snapshot)
    text = roster_text(snapshot, first.data, before)
    assert "[" not in text
    second = load_roster_file(text.encode()).snapshot()
    after = judge(second)
    # Options by name and count, as the player reads them (a few units list two options of one name and price).
    assert [(u.unit_type.key, u.label, u.quality, _named(u), u.men) for u in second.units] == [
        (u.unit_type.key, u.label, u.quality, _named(u), u.men) for u in snapshot.units
    ]
    assert (after.points, after.unit_points, after.valid) == (before.points, before.unit_points, before.valid)
    assert [f.message for f in after.findings] == [f.message for f in before.findings]
    assert export_roster(second) == export_roster(snapshot)


def test_every_unit_of_every_army_has_a_plain_name_no_other_unit_of_it_has():
    data = _bolt_action()
    qualified = 0
    for army in data.armies.values():
        names = plain_unit_names(data, army.key)
        normal = [_normal(name) for name in names.values()]
        assert len(set(normal)) == len(normal), army.key
        qualified += sum(name != data.unit_types[unit_id].name for unit_id, name in names.items())
    assert qualified > 50  # the data lists many units twice: the check above is not empty
