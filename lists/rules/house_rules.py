"""Priced house rules: each is bought only where one of its conditions holds, and no more often than allowed.

The conditions are pack data (`pack_schema.Condition`); this module is the one
place they are read, for findings here and for the editor's offers.
"""

from __future__ import annotations

from lists.gamedata.snapshot import HouseRuleChoice, RosterSnapshot, UnitChoice
from lists.rules.finding import Finding, error


def latest_year(roster: RosterSnapshot) -> float | None:
    """The last year the roster may be set in: its year, else its period's last year (open-ended: no limit)."""
    if roster.year is not None:
        return roster.year
    period = next((p for p in roster.system.periods if p["key"] == roster.game_period), None)
    if period is None:
        return None
    return period["end"] if period.get("end") is not None else float("inf")


def condition_holds(roster: RosterSnapshot, condition: dict, unit: UnitChoice | None, count: int = 1) -> bool:
    """Whether one condition holds for a house rule bought `count` times for this roster (and unit)."""
    if condition.get("armies") and roster.army_key not in condition["armies"]:
        return False
    if condition.get("units") and (unit is None or unit.unit_type.key not in condition["units"]):
        return False
    if condition.get("unit_weapons") and (
        unit is None or not {weapon.key for weapon in unit.weapons()} & set(condition["unit_weapons"])
    ):
        return False
    if condition.get("category_kinds") and (
        unit is None or unit.unit_type.category_kind not in condition["category_kinds"]
    ):
        return False
    if condition.get("from_year") is not None:
        year = latest_year(roster)
        if year is None or year < condition["from_year"]:
            return False
    if condition.get("with_house_rules"):
        bought = sum(b.count for b in roster.house_rules if b.rule.key in condition["with_house_rules"])
        if bought < count:
            return False
    return True


def applies(roster: RosterSnapshot, bought: HouseRuleChoice) -> bool:
    """Whether a bought house rule applies where it is bought: any of its conditions holds (none: anywhere)."""
    unit = roster.units[bought.unit] if bought.unit is not None else None
    conditions = bought.rule.any_of
    return not conditions or any(condition_holds(roster, c, unit, bought.count) for c in conditions)


def house_rule_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for bought in roster.house_rules:
        rule = bought.rule
        unit = roster.units[bought.unit] if bought.unit is not None else None
        where = unit.label if unit else "the roster"
        if not applies(roster, bought):
            wanted = " or ".join(c.get("note") or "a case its pack names" for c in rule.any_of)
            undated = latest_year(roster) is None and any(c.get("from_year") for c in rule.any_of)
            findings.append(
                error(
                    "house_rule.not_applicable",
                    f"{rule.name} is bought for {where}, but it applies only to {wanted}."
                    + (" The roster gives no year or period." if undated else ""),
                    "Remove it, or buy it for a unit and a date it applies to.",
                    rule.key,
                    unit,
                    rule.name,
                )
            )
        if rule.max is not None and bought.count > rule.max:
            findings.append(
                error(
                    "house_rule.too_many",
                    f"{rule.name} is bought {bought.count} times for {where}; at most {rule.max} may be.",
                    f"Buy it {rule.max} time(s) at most.",
                    rule.key,
                    unit,
                    rule.name,
                )
            )
    return findings
