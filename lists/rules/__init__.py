"""Roster checks, one module per rule family, and what they stand on: prices, input limits, the verdict.

Each family exposes a function taking a `RosterSnapshot` and returning a list
of `Finding`. Adding a rule family is adding a module and naming its function
in `CHECKS`. Beside the families: `pricing` (a unit's and a roster's points),
`validation` (what a roster may hold at all, the judge of input) and `verdict`
(points, order dice and findings together, for every output).

May import: `lists.gamedata`, `lists.models`; nothing above them.
"""

from __future__ import annotations

from dataclasses import replace

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules import (
    categories,
    fixed,
    force_limits,
    fortifications,
    heroes,
    house_rules,
    officers,
    option_force_limits,
    option_needs,
    order_dice,
    organisation,
    period,
    points,
    spotter,
    team,
    transport,
    unit_limits,
    unit_size,
)
from lists.rules.finding import Finding

CHECKS = [
    points.points_findings,
    unit_size.unit_size_findings,
    option_needs.option_needs_findings,
    option_force_limits.option_force_limit_findings,
    organisation.organisation_findings,
    unit_limits.unit_limit_findings,
    force_limits.force_limit_findings,
    officers.officer_rank_findings,
    team.team_findings,
    fixed.fixed_weapon_findings,
    spotter.spotter_findings,
    categories.weapon_category_findings,
    period.period_findings,
    heroes.hero_point_findings,
    fortifications.fortification_findings,
    transport.transport_findings,
    order_dice.order_dice_findings,
    house_rules.house_rule_findings,
]


def check_roster(roster: RosterSnapshot) -> list[Finding]:
    """Every finding of every rule family: errors first, then by unit in roster order."""
    rules = roster.system.rules
    # Each finding names its rule in words, for the pages and prints that show the rule, not its key.
    findings = [
        replace(finding, rule_name=finding.rule_name or (rules[finding.rule].name if finding.rule in rules else ""))
        for check in CHECKS
        for finding in check(roster)
    ]
    return sorted(findings, key=lambda f: (f.severity != "error", -1 if f.unit_index is None else f.unit_index))


__all__ = ["CHECKS", "Finding", "check_roster"]
