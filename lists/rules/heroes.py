"""Hero points: how many an army of its size may buy, and at most so many per hero."""

import math

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, counted, error
from lists.rules.pricing import hero_point_reading, roster_points


def allowed_hero_points(roster: RosterSnapshot, reading: dict) -> int:
    """Hero points the army's size allows: per full block of points, or per block or part of one."""
    size = roster.points_limit if roster.points_limit is not None else roster_points(roster)
    blocks = size / reading["per_points"]
    blocks = math.floor(blocks) if reading["rounding"] == "full" else math.ceil(blocks)
    return blocks * reading["points"]


def hero_point_findings(roster: RosterSnapshot) -> list[Finding]:
    bought = sum(unit.hero_points for unit in roster.units)
    if not bought:
        return []
    reading = hero_point_reading(roster)
    if reading is None:
        return [
            error(
                "heroes.too_many",
                f"The roster buys {counted(bought, 'hero point')} but {roster.system.name} has no heroes.",
                "Remove the hero points.",
                "heroes",
                None,
                "Heroes",
            )
        ]
    findings: list[Finding] = []
    allowed = allowed_hero_points(roster, reading)
    if bought > allowed:
        findings.append(
            error(
                "heroes.too_many",
                f"The roster buys {counted(bought, 'hero point')}; an army of its size may have {allowed} ({reading['name']}).",
                f"Remove {counted(bought - allowed, 'hero point')}, or raise the points limit.",
                "heroes",
                None,
                "Heroes",
            )
        )
    most = reading.get("max_per_hero")
    for unit in roster.units:
        if most is not None and unit.hero_points > most:
            findings.append(
                error(
                    "heroes.too_many",
                    f"{unit.label} has {counted(unit.hero_points, 'hero point')}; a hero may have at most {most}.",
                    f"Move {unit.hero_points - most} to another unit.",
                    "heroes",
                    unit,
                    "Heroes",
                )
            )
    return findings
