"""Points of a unit, of each house rule bought and of a roster, and the order dice a roster draws.

Every output (pages, JSON, the list PDF, roster.txt) takes its figures from
here, so its lines always add up to the roster's total.
"""

from __future__ import annotations

import math
from dataclasses import replace

from lists.gamedata.snapshot import HouseRuleChoice, OptionInfo, RosterSnapshot, UnitChoice


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
    listed = price.points_in(roster.army_key) if price else (unit_type.points or 0)
    points = listed
    # A unit smaller than listed costs its missing men less: a section of four riflemen and a Bren gunner.
    listed_men = unit_type.listed_size(unit.quality)
    if unit.own_size != listed_men and price and price.per_extra_model:
        points += (unit.own_size - listed_men) * price.per_extra_model
    for option, count in unit.chosen_options:
        bought = unit.men if option.every_man and count else count  # the whole unit takes it, every man pays
        points += option_each(roster, unit, option, listed) * bought + option.points_once
    return points


def option_each(roster: RosterSnapshot, unit: UnitChoice, option: OptionInfo, listed: int) -> int:
    """What one of an option costs on this unit: by game period or quality, and more while another option is taken."""
    if option.copies_unit:
        return listed
    each = option.quality_points.get(unit.quality, option.points) if unit.quality else option.points
    each = option.period_points.get(roster.game_period, each)
    return each + sum(points for key, points in option.points_with.items() if unit.options.get(key))


def unit_points(roster: RosterSnapshot, unit: UnitChoice) -> int:
    """What the unit costs in this roster: options, period factor, percentages and hero points included."""
    points = float(base_points(roster, unit))
    factor = period_factor(roster, unit)
    if factor is not None:
        points *= factor
    percent = sum(option.percent for option, count in unit.chosen_options if count)
    points *= 1 + percent / 100
    return _round(points) + unit.hero_points * hero_point_cost(roster)


def option_cost(roster: RosterSnapshot, unit: UnitChoice, key: str) -> int:
    """What one of an option adds to this unit's points; for a percentage option, its share of this unit."""
    without = replace(unit, options={k: count for k, count in unit.options.items() if k != key})
    with_one = replace(unit, options={**without.options, key: 1})
    return unit_points(roster, with_one) - unit_points(roster, without)


def house_rule_points(roster: RosterSnapshot, bought: HouseRuleChoice) -> int:
    """What one bought house rule costs: its points times the count, and per model of a role where it says so.

    APDS is priced per gun: bought for an anti-tank gun section of two guns it costs twice its points.
    """
    rule = bought.rule
    each = 1
    if rule.per_role is not None:
        unit = roster.units[bought.unit] if bought.unit is not None else None
        each = sum(line.count for line in unit.models() if line.role == rule.per_role) if unit else 0
    return rule.points * bought.count * each


def fielded_points(roster: RosterSnapshot, unit: UnitChoice) -> int:
    """What a unit costs as it is shown: its own points and the house rules bought for it (APDS for a gun)."""
    bought = sum(house_rule_points(roster, b) for b in roster.house_rules if b.unit == unit.index)
    return unit_points(roster, unit) + bought


def house_rule_lines(roster: RosterSnapshot) -> list[tuple[HouseRuleChoice, int]]:
    """Each house rule bought with what it costs in this roster: the priced lines of a list."""
    return [(bought, house_rule_points(roster, bought)) for bought in roster.house_rules]


def roster_points(roster: RosterSnapshot) -> int:
    """The roster's total: every unit and every house rule bought."""
    return sum(unit_points(roster, unit) for unit in roster.units) + sum(
        points for _, points in house_rule_lines(roster)
    )


def order_dice(roster: RosterSnapshot) -> int | None:
    """One die per unit (a spotter is part of its team and needs none); None for a game without order dice."""
    if not roster.system.uses_order_dice:
        return None
    return len(roster.units)
