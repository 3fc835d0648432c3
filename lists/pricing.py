"""Points of a unit and of a roster, and the order dice a roster draws."""

from __future__ import annotations

import math

from lists.snapshot import RosterSnapshot, UnitChoice


def _round(value: float) -> int:
    """Round halves up, as players do by hand (Python's round() rounds halves to even)."""
    return math.floor(value + 0.5)


def unit_service_period(roster: RosterSnapshot, unit: UnitChoice) -> str | None:
    """The war period a unit entered service in: given in the pack, or the one its year falls in."""
    unit_type = unit.unit_type
    return unit_type.service_period or roster.system.period_of(unit_type.service_start)


def period_factor(roster: RosterSnapshot, unit: UnitChoice) -> float | None:
    """The cost factor for using a unit in the roster's period; None if it cannot be used then.

    Only categories the pack's `period_costs` names are affected (Action All Fronts' AFVs).
    """
    rule = roster.system.config.get("period_costs")
    game_period = roster.game_period
    if not rule or game_period is None or unit.unit_type.category not in rule["applies_to"]:
        return 1.0
    service = unit_service_period(roster, unit)
    if service is None:
        return 1.0
    return rule["multipliers"].get(service, {}).get(game_period)


def hero_point_cost(roster: RosterSnapshot) -> int:
    reading = hero_point_reading(roster)
    return (reading or {}).get("cost_each") or 0


def hero_point_reading(roster: RosterSnapshot) -> dict | None:
    """The hero-point rule in force: the one the roster's `hero-points` setting names, else the first."""
    readings = roster.system.config.get("hero_points") or []
    chosen = roster.setting("hero-points")
    for reading in readings:
        if reading["key"] == chosen:
            return reading
    return readings[0] if readings else None


def base_points(roster: RosterSnapshot, unit: UnitChoice) -> int:
    """The unit's points before period factors and percentage changes."""
    unit_type = unit.unit_type
    price = unit_type.quality_prices.get(unit.quality) if unit.quality else None
    if price is None and unit_type.quality_prices and unit_type.points is None:
        price = next(iter(unit_type.quality_prices.values()))
    points = price.points if price else (unit_type.points or 0)
    if unit.size is not None and unit.size > unit_type.base_size and price and price.per_extra_model:
        points += (unit.size - unit_type.base_size) * price.per_extra_model
    game_period = roster.game_period
    for option, count in unit.chosen_options:
        points += option.period_points.get(game_period, option.points) * count
    return points


def unit_points(roster: RosterSnapshot, unit: UnitChoice) -> int:
    """What the unit costs in this roster: options, period factor, percentages and hero points included."""
    points = float(base_points(roster, unit))
    factor = period_factor(roster, unit)
    if factor is not None:
        points *= factor
    percent = sum(option.percent for option, count in unit.chosen_options if count)
    points *= 1 + percent / 100
    return _round(points) + unit.hero_points * hero_point_cost(roster)


def roster_points(roster: RosterSnapshot) -> int:
    return sum(unit_points(roster, unit) for unit in roster.units) + sum(
        rule.points or 0 for rule in roster.house_rules
    )


def order_dice(roster: RosterSnapshot) -> int:
    """One die per unit; a spotter is part of its team and needs none of its own."""
    return len(roster.units)
