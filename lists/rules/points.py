"""Points limit: the roster may not cost more than its limit."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error
from lists.rules.pricing import roster_points


def points_findings(roster: RosterSnapshot) -> list[Finding]:
    if roster.points_limit is None:
        return []
    total = roster_points(roster)
    if total <= roster.points_limit:
        return []
    return [
        error(
            "points.over_limit",
            f"The roster costs {total} points, {total - roster.points_limit} over its limit of {roster.points_limit}.",
            "Remove units or options, or raise the points limit.",
            rule="points-limit",
            rule_name="Points limit",
        )
    ]
