"""Unit limits: at most so many of one unit in a roster (a forward observer, a sniper team).

The army lists give such limits per unit (`max_in_roster` in the pack); a roster
holds one force, so a limit per force and one per roster are the same.
"""

from __future__ import annotations

from lists.rules.finding import Finding, error
from lists.snapshot import RosterSnapshot, UnitChoice


def unit_limit_findings(roster: RosterSnapshot) -> list[Finding]:
    by_type: dict[str, list[UnitChoice]] = {}
    for unit in roster.units:
        by_type.setdefault(unit.unit_type.key, []).append(unit)
    findings: list[Finding] = []
    rule = roster.organisation.key if roster.organisation else ""
    rule_name = roster.organisation.name if roster.organisation else ""
    for units in by_type.values():
        unit_type = units[0].unit_type
        allowed = unit_type.limit_in(roster.army_key)
        if allowed is not None and len(units) > allowed:
            findings.append(
                error(
                    "org.too_many",
                    f"The roster has {len(units)} {unit_type.name}; the army list allows {allowed}.",
                    f"Remove {units[-1].label}.",
                    rule,
                    units[-1],
                    rule_name,
                )
            )
    return findings
