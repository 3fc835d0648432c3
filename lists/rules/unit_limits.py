"""Unit limits: at most so many of one unit in a roster (a forward observer, a sniper team).

The army lists give such limits per unit (`max_in_roster` in the pack), and they
count across the whole roster, whatever force each unit is in. (The converted
Bolt Action data does not say whether a BattleScribe limit was per force or per
roster, so all are counted per roster: the stricter reading.)
"""

from __future__ import annotations

from lists.rules.finding import Finding, error
from lists.snapshot import RosterSnapshot, UnitChoice


def unit_limit_findings(roster: RosterSnapshot) -> list[Finding]:
    by_type: dict[str, list[UnitChoice]] = {}
    for unit in roster.units:
        by_type.setdefault(unit.unit_type.key, []).append(unit)
    findings: list[Finding] = []
    for units in by_type.values():
        unit_type = units[0].unit_type
        allowed = unit_type.limit_in(roster.army_key)
        if allowed is not None and len(units) > allowed:
            organisation = roster.organisation_of(units[-1])
            findings.append(
                error(
                    "org.too_many",
                    f"The roster has {len(units)} {unit_type.name}; the army list allows {allowed}.",
                    f"Remove {units[-1].label}.",
                    organisation.key if organisation else "",
                    units[-1],
                    organisation.name if organisation else "",
                )
            )
    return findings
