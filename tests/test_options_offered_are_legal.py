"""Every option a unit offers can be bought: bought alone, it never adds an error finding by its presence.

Runs over every loaded pack, every army and every option of its units (issue: the Bolt Action
Medium artillery offered a Spotter, then judged it illegal).
"""

import pytest

from lists.gamedata.loading import game_data
from lists.gamedata.snapshot import ForceInfo, RosterSnapshot, UnitChoice
from lists.models import GameSystem, UnitOption
from lists.rules import check_roster

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def _errors(roster: RosterSnapshot) -> set[str]:
    return {finding.code for finding in check_roster(roster) if finding.severity == "error"}


def _offers():
    """(game key, army key, unit type, option) for every option of every unit an army fields."""
    for system in GameSystem.objects.filter(kind="game").order_by("key"):
        data = game_data(system)
        for army in data.armies.values():
            for _, unit_id in data.available_units(army.id):
                unit_type = data.unit_types[unit_id]
                for option in unit_type.options.values():
                    if not option.armies or army.key in option.armies:
                        yield data, army, unit_type, option


def _roster(data, army, unit_type, options: dict[str, int], year: int | None, beside=()) -> RosterSnapshot:
    """The unit alone in a force, or beside one of the units an option needs there (`needs_units`)."""
    quality = next(iter(unit_type.quality_prices), None)
    unit = UnitChoice(0, unit_type.name, unit_type, quality=quality, options=options)
    others = [
        UnitChoice(1, needed.name, needed, quality=next(iter(needed.quality_prices), None)) for needed in beside[:1]
    ]
    organisation = next(iter(data.organisations_for(army.id)), None)
    return RosterSnapshot(
        system=data.system,
        army_key=army.key,
        army_name=army.name,
        year=year,
        forces=[ForceInfo(0, "Platoon 1", data.organisations.get(organisation))],
        units=[unit, *others],
    )


@pytest.mark.timeout(300)  # every option of every unit bought alone and judged
def test_every_offered_option_bought_alone_adds_no_error():
    checked = set()
    failures = []
    for data, army, unit_type, option in _offers():
        # A year in which both the unit and the option are in service, where the game dates them.
        starts = [s for s in (unit_type.service_start, option.service_start) if s is not None]
        year = max(starts) if starts else None
        # An option taken only beside another unit is tried beside one (bought alone it is refused: its own test).
        beside = [u for _, i in data.available_units(army.id) if (u := data.unit_types[i]).key in option.needs_units]
        # An option taken only beside another of the unit's (a Bagpiper beside a Highland Officer) is tried with it.
        needed = {option.needs_options[0]: 1} if option.needs_options else {}
        without = _errors(_roster(data, army, unit_type, needed, year, beside))
        # Bought the least a player may buy it: once, or as often as it is taken at all (both LVT4 mounts).
        least = {**needed, option.key: option.min_if_taken or 1}
        bought = _errors(_roster(data, army, unit_type, least, year, beside))
        added = bought - without
        if added:
            failures.append(f"{data.system.key}/{army.key}/{unit_type.key}: {option.key} -> {sorted(added)}")
        checked.add((data.system.key, unit_type.key, option.key))

    every_option = UnitOption.objects.filter(unit_type__system__kind="game")
    assert len(checked) == every_option.count()  # every option of every pack was tried
    assert failures == []


def test_a_medium_artillery_spotter_is_legal():
    """Bolt Action weapons chapter, Howitzer: a howitzer may fire indirectly, so its spotter has work to do."""
    data = game_data(GameSystem.objects.get(key="bolt-action-2e"))
    army = next(a for a in data.armies.values() if a.key == "generic")
    unit_type = next(u for u in data.unit_types.values() if u.key == "medium-artillery")

    assert _errors(_roster(data, army, unit_type, {"spotter": 1}, None)) == _errors(
        _roster(data, army, unit_type, {}, None)
    )
    assert "spotter.not_indirect" not in _errors(_roster(data, army, unit_type, {"spotter": 1}, None))
