"""Conditions, condition groups, repeats and modifiers: how an entry's fields change in a roster."""

from __future__ import annotations

import math
from collections.abc import Callable

from .elements import Force, Selection
from .limits import MAX_TEXT
from .model import Condition, ConditionGroup, Modifier, ModifierGroup, Repeat
from .queries import SELECTION_TYPES, Context, option_has_id, query_value

# Applies one modifier `times` times to whatever is being modified.
Apply = Callable[[Modifier, int], None]

COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
    "greaterThan": lambda a, b: a > b,
    "lessThan": lambda a, b: a < b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
}


def condition_holds(condition: Condition, context: Context) -> bool:
    """Whether a condition is met in a context."""
    kind = condition.type
    if kind in ("instanceOf", "notInstanceOf"):
        found = instance_of(condition, context)
        recorder = context.roster.recorder
        if recorder is not None and condition.query.scope != "self":  # its own categories are the data's here
            key = ("instance", id(condition), id(context.target), id(context.parent))
            recorder.read(key, found, instance_of, (condition, context), context.parent)
        return found if kind == "instanceOf" else not found
    compare = COMPARISONS.get(kind)
    if compare is None:
        return False
    value = query_value(condition.query, context)
    if math.isnan(value):
        return False
    threshold = condition.value
    if condition.query.percent_value:
        total = query_value(condition.query, context, child_id="any")
        value = value * 100.0 / total if total else 0.0
    return compare(value, threshold)


def instance_of(condition: Condition, context: Context) -> bool:
    """Whether the element in scope is an instance of the condition's child (entry, category or type)."""
    child = condition.query.child_id
    if not child:
        return False
    scope = condition.query.scope
    if scope == "self":
        candidates = [context.target]
    elif scope == "parent":
        candidates = [context.parent]
    elif scope == "ancestor":
        candidates = ancestors(context)
    else:
        return False
    return any(isinstance(c, Selection) and selection_is(c, child) for c in candidates)


def ancestors(context: Context) -> list[object]:
    """The selections above the target."""
    found: list[object] = []
    current = context.parent
    while isinstance(current, Selection):
        found.append(current)
        current = current.container
    return found


def selection_is(selection: Selection, child: str) -> bool:
    """Whether a selection is of an entry, has a category, or is of a type."""
    if option_has_id(selection, child):
        return True
    if child in SELECTION_TYPES:
        return selection.option.entry.type == child
    return any(category.entry_id == child for category in selection.categories)


def group_holds(group: ConditionGroup, context: Context) -> bool:
    """Whether a condition group is met (an empty group is); it stops at the first condition that settles it."""
    if not group.conditions and not group.groups:
        return True
    if group.type == "or":
        return any(condition_holds(c, context) for c in group.conditions) or any(
            group_holds(g, context) for g in group.groups
        )
    return all(condition_holds(c, context) for c in group.conditions) and all(
        group_holds(g, context) for g in group.groups
    )


def all_hold(conditions: list[Condition], groups: list[ConditionGroup], context: Context) -> bool:
    """Whether every condition and condition group is met."""
    return all(condition_holds(c, context) for c in conditions) and all(group_holds(g, context) for g in groups)


def repeat_times(repeats: list[Repeat], context: Context) -> int:
    """How many times repeats apply a modifier (once when it has none)."""
    if not repeats:
        return 1
    times = 0
    for repeat in repeats:
        value = query_value(repeat.query, context)
        if math.isnan(value) or repeat.value <= 0:
            continue
        if repeat.query.percent_value:
            total = query_value(repeat.query, context, child_id="any")
            value = value * 100.0 / total if total else 0.0
        steps = value / repeat.value
        count = math.ceil(steps - 1e-9) if repeat.round_up else math.floor(steps + 1e-9)
        times += count * repeat.repeats
    return times


def apply_modifiers(modifiers: list[Modifier], groups: list[ModifierGroup], context: Context, apply: Apply) -> None:
    """Apply every modifier whose conditions hold, as many times as its repeats say."""
    for modifier in modifiers:
        if all_hold(modifier.conditions, modifier.condition_groups, context):
            times = repeat_times(modifier.repeats, context)
            if times > 0:
                apply(modifier, times)
    for group in groups:
        if not all_hold(group.conditions, group.condition_groups, context):
            continue
        times = repeat_times(group.repeats, context)
        if times <= 0:
            continue
        scaled: Apply = apply if times == 1 else (lambda m, n, t=times: apply(m, n * t))
        apply_modifiers(group.modifiers, group.groups, context, scaled)


def number_change(modifier: Modifier, current: float, times: int) -> float:
    """A number after a set, increment or decrement modifier."""
    try:
        amount = float(modifier.value)
    except ValueError:
        return current
    if modifier.type == "set":
        return amount
    if modifier.type == "increment":
        return current + amount * times
    if modifier.type == "decrement":
        return current - amount * times
    return current


def text_change(modifier: Modifier, current: str, times: int) -> str:
    """A text after a set or append modifier (increment and decrement treat it as a number)."""
    if modifier.type == "set":
        return modifier.value
    if modifier.type in ("increment", "decrement"):
        try:
            changed = number_change(modifier, float(current), times)
        except ValueError:
            return current
        return str(int(changed)) if changed.is_integer() else str(changed)
    if modifier.type == "append":
        return appended(current, modifier.value, times)
    return current


def appended(current: str, value: str, times: int) -> str:
    """A text with a value appended `times` times, space-separated, kept within MAX_TEXT characters (a
    repeat can ask for millions of appends: the text stops growing where no page could show it)."""
    if times <= 0 or not (current or value):
        return current
    room = MAX_TEXT - len(current)
    if room <= 0:
        return current
    times = min(times, room // (len(value) + 1) + 1)
    text = " ".join([value] * times)
    return (f"{current} {text}" if current else text)[:MAX_TEXT]


def bool_change(modifier: Modifier, current: bool) -> bool:
    """A flag after a set modifier."""
    if modifier.type == "set":
        return modifier.value.strip().lower() == "true"
    return current


def force_context(roster: object, force: Force) -> Context:
    """The context a force entry's modifiers are evaluated in."""
    return Context(roster, force, force.parent, force)  # type: ignore[arg-type]
