"""Spotters: one model at most, only with an indirect-fire weapon, useless to a green crew."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, counted, error, warning


def spotter_findings(roster: RosterSnapshot) -> list[Finding]:
    indirect = roster.system.rule_role("indirect_fire")
    spotter_rule = roster.system.rule_role("spotter") or indirect or "spotter"
    rule = roster.system.rules.get(spotter_rule)
    rule_name = rule.name if rule else "Spotters"
    useless_with = set(roster.system.config.get("spotter_no_benefit_qualities") or [])
    findings: list[Finding] = []
    for unit in roster.units:
        spotters = sum(line.men for line in unit.models() if line.role == "spotter")
        if not spotters:
            continue
        if not any(roster.system.fires_indirect(weapon) for weapon in unit.weapons()):
            findings.append(
                error(
                    "spotter.not_indirect",
                    f"{unit.label} has a spotter but no indirect-fire weapon for him to direct.",
                    "Remove the spotter; only mortar and artillery teams may have one.",
                    spotter_rule,
                    unit,
                    rule_name,
                )
            )
        if spotters > 1:
            findings.append(
                error(
                    "spotter.too_many",
                    f"{unit.label} has {spotters} spotters; a team has at most one.",
                    f"Remove {counted(spotters - 1, 'spotter')}.",
                    spotter_rule,
                    unit,
                    rule_name,
                )
            )
        if unit.quality in useless_with:
            quality = roster.system.qualities.get(unit.quality)
            findings.append(
                warning(
                    "spotter.no_benefit",
                    f"{unit.label} is {quality.name if quality else unit.quality}: its crew cannot fire at what the spotter sees.",
                    "Drop the spotter to save its points, or raise the crew's quality.",
                    spotter_rule,
                    unit,
                    rule_name,
                )
            )
    return findings
