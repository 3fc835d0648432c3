"""Unit limits: at most so many of one unit (a forward observer, a sniper team).

The army lists give such limits per unit (`max_in_roster` in the pack, or the
army list's own figure in `army_limits`). A limit counts the whole roster, or
each force on its own where the unit's `limit_per` is `force` (the BattleScribe
data says which for every limit: most are "per force", that is per platoon).
"""

from __future__ import annotations

from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rules.finding import Finding, error


def unit_limit_findings(roster: RosterSnapshot) -> list[Finding]:
    groups: dict[tuple[str, int | None], list[UnitChoice]] = {}
    for unit in roster.units:
        force = unit.force if unit.unit_type.limit_per == "force" else None
        groups.setdefault((unit.unit_type.key, force), []).append(unit)
    findings: list[Finding] = []
    for (_, force), units in groups.items():
        unit_type = units[0].unit_type
        allowed = unit_type.limit_in(roster.army_key)
        if allowed is None or len(units) <= allowed:
            continue
        force_info = roster.force_of(units[-1])
        where = "The roster" if force is None else force_info.title if force_info else "The force"
        whole = "the army list allows" if force is None else "the army list allows each force"
        organisation = roster.organisation_of(units[-1])
        findings.append(
            error(
                "org.too_many",
                f"{where} has {len(units)} {unit_type.name}; {whole} {allowed}.",
                f"Remove {units[-1].label}" + ("." if force is None else ", or move it to another force."),
                organisation.key if organisation else "",
                units[-1],
                organisation.name if organisation else "",
            )
        )
    return findings
