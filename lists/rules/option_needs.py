"""Options taken only beside another unit or another option: a Forward Observer mounted as Cavalry needs a
cavalry unit in his platoon, a Bagpiper needs his officer to be a Highland Officer (the BattleScribe data
shows the option only while the force holds one, or while the unit takes the other)."""

from __future__ import annotations

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error


def option_needs_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for unit in roster.units:
        findings += _options_beside(unit)
        held = {other.unit_type.key for other in roster.units if other.force == unit.force and other is not unit}
        for option, _ in unit.chosen_options:
            if not option.needs_units or held & set(option.needs_units):
                continue
            names = _names(roster, option.needs_units)
            findings.append(
                error(
                    "option.needs_unit",
                    f"{unit.label} takes {option.name}, which needs {names} in the same force.",
                    f"Add {names} to its force, or drop {option.name}.",
                    unit.unit_type.key,
                    unit,
                    unit.unit_type.name,
                )
            )
    return findings


def _names(roster: RosterSnapshot, keys: tuple[str, ...]) -> str:
    """The needed units by name: "a Cavalry Troop" or "a Cavalry Troop or a Cavalry Squad"."""
    names = [t.name for t in roster.army_unit_types if t.key in keys] or list(keys)
    return " or ".join(f"a {name}" for name in dict.fromkeys(names))


def _options_beside(unit) -> list[Finding]:
    """The unit's options taken without one of the options they need (`needs_options`)."""
    findings = []
    for option, _ in unit.chosen_options:
        if not option.needs_options or any(unit.options.get(key) for key in option.needs_options):
            continue
        options = unit.unit_type.options
        names = " or ".join(options[key].name if key in options else key for key in option.needs_options)
        findings.append(
            error(
                "option.needs_option",
                f"{unit.label} takes {option.name}, which needs {names} taken too.",
                f"Take {names}, or drop {option.name}.",
                unit.unit_type.key,
                unit,
                unit.unit_type.name,
            )
        )
    return findings
