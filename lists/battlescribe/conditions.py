"""BattleScribe's modifiers and conditions, evaluated once for a set of chosen selections."""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field

from lxml.etree import Element, SubElement

from lists.battlescribe.names import QUALITIES, number, quality_name


def conditions_hold(element: Element, selected: set[str]) -> bool:
    """Evaluate a modifier's conditions with `selected` ids chosen once and nothing else.

    The data's conditions count selections (equalTo, greaterThan, atLeast,
    lessThan, instanceOf...); the theatre selector and the force are the
    selections that decide what an army list shows. A modifier's own
    conditions and groups must all hold; a group is "and" or "or".
    """
    return _holds(element, selected, "and")


def _holds(element: Element, selected: set[str], kind: str | None) -> bool:
    results = [_condition(c, selected) for c in element.findall("conditions/condition")]
    results += [_holds(g, selected, g.get("type")) for g in element.findall("conditionGroups/conditionGroup")]
    return any(results) if kind == "or" else all(results)


def _condition(condition: Element, selected: set[str]) -> bool:
    count = 1.0 if condition.get("childId") in selected else 0.0
    value = number(condition.get("value"))
    return {
        "equalTo": count == value,
        "notEqualTo": count != value,
        "greaterThan": count > value,
        "lessThan": count < value,
        "atLeast": count >= value,
        "atMost": count <= value,
        "instanceOf": count > 0,
        "notInstanceOf": count == 0,
    }.get(condition.get("type", ""), False)


def signed(modifier: Element) -> float:
    """A points modifier's change: an increment's value, a decrement's value taken off."""
    value = number(modifier.get("value"))
    return -value if modifier.get("type") == "decrement" else value


def mentions(modifier: Element, ids: set[str]) -> bool:
    return any(c.get("childId") in ids for c in modifier.iter("condition"))


@dataclass
class EntryTree:
    """Where each entry of a unit sits, for the scope of a condition: its selection's parent and every
    entry above it (groups are not selections), its name, and the unit's primary category."""

    above: dict[str, set[str]] = field(default_factory=dict)
    parent_of: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    primary_category: str = ""


def when_applies(modifier: Element, holder: set[str], tree: EntryTree) -> tuple[str, str]:
    """When a points modifier of an entry applies: ("always", ""), ("never", ""), ("quality", name),
    ("with", other entry id) or ("unknown", "").

    The data's conditions count one entry's selections inside a scope entry above the holder: the
    entry itself (it applies whenever it is bought), a quality of the unit, or another option.
    """
    conditions = list(modifier.iter("condition"))
    if modifier.find("repeats/repeat") is not None or len(conditions) > 1:
        return "unknown", ""
    if not conditions:
        return "always", ""
    condition = conditions[0]
    counted, scope, kind = condition.get("childId", ""), condition.get("scope", ""), condition.get("type")
    if scope == "primary-category" and kind in ("instanceOf", "notInstanceOf"):
        return ("always" if (counted == tree.primary_category) == (kind == "instanceOf") else "never"), ""
    taken = (kind == "greaterThan" and number(condition.get("value")) == 0) or (
        kind == "atLeast" and number(condition.get("value")) == 1
    )
    if not taken or condition.get("field") != "selections":
        return "unknown", ""
    if scope == "parent":  # the selection holding the modified entry
        scope = next((tree.parent_of[i] for i in sorted(holder) if tree.parent_of.get(i)), scope)
    if counted not in tree.above:
        return "never", ""  # an entry outside the unit: never selected in it
    holder_above = set().union(*(tree.above.get(i, set()) for i in holder))
    if scope not in holder_above | holder:
        return "never", ""  # a scope the holder is not inside: BattleScribe finds no such selection
    inside = (
        tree.parent_of[counted] == scope
        if condition.get("includeChildSelections") != "true"
        else (scope in tree.above[counted])
    )
    if not inside:
        return "never", ""
    if counted in holder:
        return "always", ""
    if quality_name(tree.names[counted]) in QUALITIES:
        return "quality", quality_name(tree.names[counted])
    return "with", counted


def hidden_by(modifiers: list[Element], holder: set[str], tree: EntryTree) -> dict[str, set[str]]:
    """What hides an entry while it is taken, by kind as `when_applies` reads it: {"quality": the unit's
    qualities (an officer's Veteran Soldier, hidden while he is Regular), "with": the unit's options (a Highland
    Officer hides the Regular and Inexperienced officer)}. Each modifier hides it while any of its conditions
    holds (one condition, or one "or" group); the theatre lists one also names are read where army lists are."""
    found: dict[str, set[str]] = {}
    for modifier in modifiers:
        if modifier.get("field") != "hidden" or modifier.get("value") != "true":
            continue
        groups = modifier.findall("conditionGroups/conditionGroup")
        conditions = list(modifier.iter("condition"))
        single = len(conditions) == 1 or (
            [g.get("type") for g in groups] == ["or"] and modifier.find("conditions") is None
        )
        if not conditions or not single or modifier.find("repeats/repeat") is not None:
            continue
        for condition in conditions:
            applies, on = when_applies(_single(_as_taken(condition)), holder, tree)
            found.setdefault(applies, set()).add(on)
    return found


def _as_taken(condition: Element) -> Element:
    """A condition hiding an entry while another is selected exactly once, as while it is taken: the men it
    counts are taken once at most (a squad's LMG man hiding its light mortar man)."""
    if condition.get("type") != "equalTo" or number(condition.get("value")) != 1:
        return condition
    taken = Element(condition.tag, dict(condition.attrib))
    taken.set("type", "atLeast")
    return taken


def _single(condition: Element) -> Element:
    """A modifier of this one condition, for `when_applies`."""
    modifier = Element("modifier")
    SubElement(modifier, "conditions").append(deepcopy(condition))  # lxml would move it out of the data
    return modifier


def shown_beside(modifiers: list[Element], chosen: set[str], scopes: frozenset[str] = frozenset({"force"})) -> set[str]:
    """The entries whose presence in the force shows a hidden entry (a Forward Observer's Cavalry, shown
    while the force holds a cavalry unit): those a modifier un-hiding it counts, other than the `chosen`
    selections (theatre selectors, the force) and its own unit's entries. With the unit's own entries as
    `scopes`: the options whose taking shows it (a Highland Officer's Bagpiper)."""
    found: set[str] = set()
    for modifier in modifiers:
        if modifier.get("field") != "hidden" or modifier.get("value") != "false":
            continue
        groups = modifier.findall("conditionGroups/conditionGroup")
        if any(group.get("type") != "or" for group in groups) or (groups and modifier.find("conditions")):
            continue  # only one condition, or one "or" group: any of the entries shows it
        for condition in modifier.iter("condition"):
            counts = (condition.get("type"), number(condition.get("value"))) in (("greaterThan", 0), ("atLeast", 1))
            if counts and condition.get("scope") in scopes and condition.get("childId") not in chosen:
                found.add(condition.get("childId", ""))
    return found
