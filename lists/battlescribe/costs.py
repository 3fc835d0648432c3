"""Costs a theatre list sets: a points modifier of an entry whose conditions count only theatre
selectors (and the force), such as a Tiger's Regular price in one theatre list.

The converter evaluates each such modifier once per theatre list, with that
list's selector and the force chosen, and keeps the price where it differs
from the entry's own. A modifier whose conditions count anything else (an
option, a quality) is left to the option pricing; it is not evaluated here.
"""

from __future__ import annotations

from lxml.etree import _Element as Element


def _counted(modifier: Element) -> set[str]:
    return {condition.get("childId", "") for condition in modifier.iter("condition")}


def theatre_modifiers(modifiers: list[Element], theatre_ids: set[str]) -> list[Element]:
    """The points modifiers whose conditions count theatre selectors (or the force) alone."""
    return [
        modifier
        for modifier in modifiers
        if modifier.get("field") == "points"
        and modifier.find("repeats/repeat") is None
        and _counted(modifier)
        and _counted(modifier) <= theatre_ids
    ]


def cost_with(cost: float, modifiers: list[Element], selected: set[str], holds) -> float:
    """The cost once every modifier whose conditions hold for `selected` is applied, in the data's order."""
    for modifier in modifiers:
        if not holds(modifier, selected):
            continue
        change = float(modifier.get("value") or 0)
        kind = modifier.get("type", "")
        cost = {"set": change, "increment": cost + change, "decrement": cost - change}.get(kind, cost)
    return cost


def theatre_costs(
    cost: float, modifiers: list[Element], selectors: list[tuple[str, str]], force_id: str, holds
) -> dict[str, float]:
    """The entry's cost in each theatre list (by army key) where a theatre modifier changes it."""
    theatre_ids = {selector_id for selector_id, _ in selectors} | {force_id}
    changing = theatre_modifiers(modifiers, theatre_ids)
    if not changing:
        return {}
    costs = {}
    for selector_id, key in selectors:
        changed = cost_with(cost, changing, {selector_id, force_id}, holds)
        if changed != cost:
            costs[key] = changed
    return costs
