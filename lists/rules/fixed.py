"""Fixed weapons are served by their own teams or mounted on vehicles, never carried by a squad."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error


def fixed_weapon_findings(roster: RosterSnapshot) -> list[Finding]:
    fixed_rule = roster.system.rule_role("fixed")
    if fixed_rule is None:
        return []
    rule = roster.system.rules.get(fixed_rule)
    findings: list[Finding] = []
    for unit in roster.units:
        if unit.unit_type.category_kind != "infantry":
            continue
        fixed = sorted({weapon.name for weapon in unit.weapons() if fixed_rule in weapon.rules})
        if fixed:
            findings.append(
                error(
                    "fixed.in_squad",
                    f"{unit.label} is an infantry squad carrying {', '.join(fixed)}, a fixed weapon.",
                    "Take the weapon as a team or gun unit of its own instead.",
                    fixed_rule,
                    unit,
                    rule.name if rule else fixed_rule,
                )
            )
    return findings
