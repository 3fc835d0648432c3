"""A roster's verdict: its points, order dice and findings, for pages, JSON, the CLI and PDFs."""

from __future__ import annotations

from dataclasses import dataclass

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules import Finding, check_roster
from lists.rules.pricing import fielded_points, order_dice, roster_points


@dataclass(frozen=True)
class Verdict:
    points: int
    points_limit: int | None
    order_dice: int | None  # None: the game has no order dice
    unit_points: tuple[int, ...]
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return not any(finding.severity == "error" for finding in self.findings)

    def unit_findings(self, index: int) -> list[Finding]:
        return [finding for finding in self.findings if finding.unit_index == index]

    @property
    def roster_findings(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.unit_index is None]

    def to_dict(self) -> dict:
        return {
            "valid": self.valid,
            "points": self.points,
            "points_limit": self.points_limit,
            "order_dice": self.order_dice,
            "findings": [finding.to_dict() for finding in self.findings],
        }


def judge(roster: RosterSnapshot) -> Verdict:
    return Verdict(
        points=roster_points(roster),
        points_limit=roster.points_limit,
        order_dice=order_dice(roster),
        # A unit's points include the house rules bought for it; the total counts them once.
        unit_points=tuple(fielded_points(roster, unit) for unit in roster.units),
        findings=tuple(check_roster(roster)),
    )
