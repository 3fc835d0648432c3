"""Weapon categories: a unit takes only the categories of weapon its entry allows."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error


def weapon_category_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for unit in roster.units:
        allowed = unit.unit_type.weapon_categories
        if allowed is None:
            continue
        wrong = sorted(
            {
                (w.category_name or w.category, w.name)
                for w in unit.weapons()
                if w.category and w.category not in allowed
            }
        )
        for category_name, weapon_name in wrong:
            findings.append(
                error(
                    "category.not_allowed",
                    f"{unit.label} has a {weapon_name} ({category_name}); a {unit.unit_type.name} cannot take that category.",
                    "Remove the option that gives it, or choose a unit that may take it.",
                    unit.unit_type.key,
                    unit,
                    unit.unit_type.name,
                )
            )
    return findings
