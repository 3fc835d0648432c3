"""Options counted over a whole force: one Intelligence Officer a platoon, whichever officer takes him;
at least one section of a Divisione Costiera platoon with the Shirkers rule.

An option's `force_limits` name a `group` (the data entry it comes from); every option of the force's units
naming that group counts toward the limit. A least number binds a force holding a unit that may take the
option (of a quality it is offered to); a force with none of them needs none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lists.gamedata.snapshot import ForceInfo, OptionForceLimitInfo, RosterSnapshot, UnitChoice
from lists.rules.finding import Finding, counted, error
from lists.rules.validation import open_options


@dataclass
class CountedOption:
    """One limit in one force: the units that may take its options, and how often they do."""

    limit: OptionForceLimitInfo
    names: dict[str, None] = field(default_factory=dict)  # the options counting toward it, in order
    able: list[UnitChoice] = field(default_factory=list)  # units of the force that may take it
    takers: list[UnitChoice] = field(default_factory=list)  # one entry per option taken
    taken: int = 0


def option_force_limit_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for force in roster.forces:
        for limited in _counted(roster, force):
            findings += _findings(roster, force, limited)
    return findings


def _counted(roster: RosterSnapshot, force: ForceInfo) -> list[CountedOption]:
    """Each limit binding this force's options, with the units it counts."""
    found: dict[OptionForceLimitInfo, CountedOption] = {}
    for unit in roster.force_units(force):
        for option in open_options(unit.unit_type, roster.army_key, unit.quality):
            for limit in option.force_limits:
                if limit.armies and roster.army_key not in limit.armies:
                    continue
                limited = found.setdefault(limit, CountedOption(limit))
                limited.names[option.name] = None
                if unit not in limited.able:
                    limited.able.append(unit)
                if unit.options.get(option.key):
                    limited.taken += unit.options[option.key]
                    limited.takers.append(unit)
    return list(found.values())


def _findings(roster: RosterSnapshot, force: ForceInfo, limited: CountedOption) -> list[Finding]:
    who = force.title if len(roster.forces) > 1 else f"The {force.organisation.name if force.organisation else 'force'}"
    names, limit = list(limited.names), limited.limit
    name = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    findings = []
    if limited.taken < limit.min:
        unit = limited.able[0]
        where = f" in the {roster.army_name} list" if limit.armies else ""
        findings.append(
            error(
                "option.required",
                f"{who} must take {name} at least {_times(limit.min)} over its units{where}; "
                + (f"it takes it {_times(limited.taken)}." if limited.taken else "none of them takes it."),
                f"Take {name} on {unit.label}.",
                unit.unit_type.key,
                unit,
                unit.unit_type.name,
            )
        )
    if limit.max is not None and limited.taken > limit.max:
        unit = limited.takers[-1]
        findings.append(
            error(
                "option.too_many",
                f"{who} takes {name} {_times(limited.taken)} over its units; it may take it {_times(limit.max)}.",
                f"Drop {name} from {unit.label}, or move that unit to another force.",
                unit.unit_type.key,
                unit,
                unit.unit_type.name,
            )
        )
    return findings


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count) or counted(count, "time")
