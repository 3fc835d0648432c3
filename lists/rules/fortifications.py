"""Units the organisation allows only against an enemy with fortifications (engineers, flamethrowers)."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error


def fortification_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for unit in roster.units:
        organisation = roster.organisation_of(unit)
        if organisation is None:
            continue
        for slot in organisation.slots:
            if slot.requires_setting is None or roster.setting(slot.requires_setting):
                continue
            if unit.unit_type.category in slot.categories:
                findings.append(
                    error(
                        "fortifications.required",
                        f"{unit.label} may only be taken when the enemy uses fortifications.",
                        "Remove it, or tick 'enemy uses fortifications' if your opponent has them.",
                        organisation.key,
                        unit,
                        organisation.name,
                    )
                )
                break
    return findings
