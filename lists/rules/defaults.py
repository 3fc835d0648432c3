"""What a unit holds when it is added: its starting quality and the options the data selects with it.

BattleScribe selects a unit's compulsory weapons and its group defaults as the
unit is added (an M3 Half-track's pintle HMG, an SdKfz 222's variant); the pack
marks them `default`. A default the army list makes compulsory (`least_in`) is
also filled in where a file or an edit leaves it out and nothing else of its
group is taken: a half-track stays armed whatever the player unticks.
"""

from __future__ import annotations

from lists.gamedata.snapshot import SystemInfo, UnitTypeInfo
from lists.rules.validation import open_options, open_qualities


def quality_at_start(system: SystemInfo, unit_type: UnitTypeInfo, army_key: str) -> str | None:
    """The game's usual quality (`default_quality`) where the unit is priced at it in this army, else its first."""
    offered = open_qualities(unit_type, army_key)
    usual = system.config.get("default_quality")
    return usual if usual in offered else next(iter(offered), None)


def options_at_start(unit_type: UnitTypeInfo, army_key: str, quality: str | None) -> dict[str, int]:
    """The options a unit just added holds, by key: each `default` option open to it, as often as its list
    requires (once otherwise), one a group."""
    return _defaults(unit_type, army_key, quality, {}, compulsory_only=False)


def compulsory_defaults(
    unit_type: UnitTypeInfo, army_key: str, quality: str | None, taken: dict[str, int]
) -> dict[str, int]:
    """`taken` with the compulsory defaults it lacks filled in (a group already holding another choice
    keeps it: the finding `option.required` says what is missing there)."""
    return {**taken, **_defaults(unit_type, army_key, quality, taken, compulsory_only=True)}


def _defaults(
    unit_type: UnitTypeInfo, army_key: str, quality: str | None, taken: dict[str, int], compulsory_only: bool
) -> dict[str, int]:
    groups = {unit_type.options[key].group for key, count in taken.items() if count and key in unit_type.options}
    found: dict[str, int] = {}
    for option in open_options(unit_type, army_key, quality):
        least = option.least_in.get(army_key, 0)
        if not option.default or (compulsory_only and not least) or taken.get(option.key, 0) >= max(least, 1):
            continue
        if option.group and (option.group in groups or taken.get(option.key)):
            continue
        found[option.key] = max(least, 1)
        if option.group:
            groups.add(option.group)
    return found
