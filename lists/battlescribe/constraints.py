"""BattleScribe's constraints (min and max selections at parent, force and roster scope) and the
modifiers that change them, evaluated for one set of chosen selections."""

from __future__ import annotations

from lxml.etree import _Element as Element

from lists.battlescribe.conditions import conditions_hold
from lists.battlescribe.names import number
from lists.battlescribe.nodes import Node, Report


def modified_value(node: Node, constraint: Element, selected: set[str], report: Report) -> float:
    """A constraint's value after its modifiers, unclamped: BattleScribe's -1 means no limit."""
    value = number(constraint.get("value"))
    for modifier in node.modifiers():
        if modifier.get("field") != constraint.get("id") or not conditions_hold(modifier, selected):
            continue
        if modifier.find("repeats/repeat") is not None:
            report.pattern("a limit that repeats with other selections: not carried")
            continue
        change = number(modifier.get("value"))
        value = {"set": change, "increment": value + change, "decrement": value - change}.get(
            modifier.get("type", ""), value
        )
    return value


def constraint_value(node: Node, constraint: Element, selected: set[str], report: Report) -> int:
    """A constraint's value once the modifiers whose conditions hold for these selections are applied."""
    return max(0, int(modified_value(node, constraint, selected, report)))


def own_max_limits(node: Node) -> list[Element]:
    """The entry's own most-selections constraints (scope parent)."""
    return [c for c in node.constraints() if c.get("type") == "max" and c.get("scope") == "parent"]


def outer_limits(node: Node) -> list[float]:
    """The most selections a force or roster allows of an entry (an Intelligence Officer per force)."""
    return [
        number(c.get("value"))
        for c in node.constraints()
        if c.get("type") == "max" and c.get("scope") in ("force", "roster") and c.get("field") == "selections"
    ]


def shared_least(node: Node) -> dict[str, list[str]]:
    """A least number of a root entry that drops by one for each selection of other entries in its force
    (Belgium's Infantry Section: two a force, less one per Inexperienced Infantry Section): the constraint id
    -> the entries counting toward it."""
    shared: dict[str, list[str]] = {}
    for modifier in node.modifiers():
        repeats = modifier.findall("repeats/repeat")
        one_each = all(number(r.get("value")) == 1 and r.get("scope") in ("parent", "force") for r in repeats)
        if modifier.get("type") == "decrement" and number(modifier.get("value")) == 1 and repeats and one_each:
            shared.setdefault(modifier.get("field", ""), []).extend(r.get("childId", "") for r in repeats)
    return shared


def unit_constraints(node: Node, report: Report, nested: bool = False) -> list[Element]:
    """A root entry's max constraints counting its force or roster (a root entry's parent is its force; a
    unit nested in another entry counts its parent's selections, not these); its least numbers per force are
    force limits (lists/battlescribe/force_limits.py), per roster reported."""
    scopes = ("force", "roster") if nested else ("force", "roster", "parent")
    found = []
    for constraint in node.constraints():
        if constraint.get("scope") not in scopes or constraint.get("field") != "selections":
            continue
        if constraint.get("type") != "max":
            if constraint.get("scope") == "roster":
                report.pattern(f"a unit's {constraint.get('type')} per roster not carried")
            continue
        found.append(constraint)
    return found


def lowest_limit(node: Node, constraints: list[Element], selected: set[str], report: Report) -> int | None:
    """The lowest of the constraints once modified for these selections; -1 means no limit."""
    values = [modified_value(node, c, selected, report) for c in constraints]
    return min((max(0, int(v)) for v in values if v >= 0), default=None)


def unit_limit(
    node: Node, selectors: list[tuple[str, str]], force_id: str, report: Report, nested: bool = False
) -> tuple[int | None, dict[str, int], str]:
    """At most how many of a unit a force or roster takes (the lowest such limit), if any, the limit
    of each theatre list (selector id, army key) whose selector changes it, and what the limits count:
    "force" (each platoon) or "roster". No entry of the data has both. `nested`: a unit inside another
    entry (a gun among an artillery entry's kinds), its own limits only."""
    constraints = unit_constraints(node, report, nested)
    if not constraints:
        return None, {}, "roster"
    per = "force" if all(c.get("scope") in ("force", "parent") for c in constraints) else "roster"
    base = lowest_limit(node, constraints, {force_id}, report)
    by_army = {key: lowest_limit(node, constraints, {selector_id, force_id}, report) for selector_id, key in selectors}
    most = base if base else None
    if most is not None and any(value is None for value in by_army.values()):
        report.pattern("a unit limit some theatres lift: the limit kept there")
    changed = {key: value for key, value in by_army.items() if value != most and value is not None}
    if changed:
        report.pattern("a unit limit some theatres change: each theatre list's own limit")
    elif base == 0:
        report.pattern("a unit limited to none unless a theatre raises it: left without a limit")
    if most is not None:
        report.pattern(f"a unit limit per {per}")
    return most, changed, per
