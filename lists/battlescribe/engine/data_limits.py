"""The numbers, entry counts and nesting of parsed data files, checked against the engine's bounds.

`NumberCheck` walks each parsed file (the dictionaries `xml_loading.parse_data_file` makes) once,
without recursion, and lists a problem per element beyond a bound of `limits`, naming the file
and the id of the element (or of the entry holding it): a number that is not finite (NaN, INF,
1e400) wherever the engine reads one, a value beyond its bound, more entries than the folder may
hold, entries nested too deep. A modifier's value is a number only where its field is a cost type
or a constraint; those are checked once every file is walked (`finish`), when every id is known.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .limits import (
    MAX_DEPTH,
    MAX_ENTRIES,
    MAX_MAX_SELECTIONS,
    MAX_MIN_SELECTIONS,
    MAX_NUMBER,
    MAX_REPEATS,
    MAX_REVISION,
)

# The lists of a file whose items are entries, by the element they hold.
ENTRY_LISTS = {
    "selectionEntries": "selectionEntry",
    "sharedSelectionEntries": "selectionEntry",
    "selectionEntryGroups": "selectionEntryGroup",
    "sharedSelectionEntryGroups": "selectionEntryGroup",
    "entryLinks": "entryLink",
}
# The lists whose items carry numbers the engine reads, by the element they hold.
NUMBER_LISTS = {
    "costs": "cost",
    "costTypes": "costType",
    "constraints": "constraint",
    "conditions": "condition",
    "repeats": "repeat",
    "modifiers": "modifier",
}
COUNTED_FIELDS = ("selections", "forces")
MAX_PROBLEMS = 50  # a file of a thousand bad numbers is named by its first fifty

Data = dict[str, Any]
T = TypeVar("T")


@dataclass
class Pending:
    """A modifier whose field may name a cost type or a constraint, checked once every id is known."""

    place: str
    field: str
    value: Any


@dataclass
class NumberCheck:
    """The bounds checked over every file of a folder: call `file` for each, then `finish`."""

    problems: list[str] = field(default_factory=list)
    entries: int = 0
    cost_types: set[str] = field(default_factory=set)
    constraints: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (type, field)
    modifiers: list[Pending] = field(default_factory=list)
    seconds: float = 0.0  # spent checking, reported beside the load's time

    def timed(self, check: Callable[..., T], *args: Any) -> T:
        """A check's result, its time added to `seconds`."""
        started = time.perf_counter()
        try:
            return check(*args)
        finally:
            self.seconds += time.perf_counter() - started

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)

    def file(self, name: str, data: Data) -> None:
        """Walk one parsed file: its revision, then every element under its root."""
        root = f"{name}: {data.get('_root', 'file')} {data.get('id', '')}"
        revision = number(data.get("revision"))
        if revision is not None and not (math.isfinite(revision) and 0 <= revision <= MAX_REVISION):
            self.add(f"{root}: revision {data.get('revision')!r} is not a whole number from 0 to {MAX_REVISION:,}")
        stack: list[tuple[Data, str, int]] = [(data, root, 0)]
        while stack:
            node, place, depth = stack.pop()
            for key, items in node.items():
                if not isinstance(items, list):
                    continue
                kind = ENTRY_LISTS.get(key) or NUMBER_LISTS.get(key) or key
                for item in items:
                    item_place, item_depth = self.item(name, place, depth, key, kind, item)
                    stack.append((item, item_place, item_depth))

    def item(self, name: str, place: str, depth: int, key: str, kind: str, item: Data) -> tuple[str, int]:
        """Check one element; returns how later problems under it name their place, and its depth."""
        item_id = item.get("id")
        named = f" ({item['name']})" if item.get("name") else ""
        here = f"{name}: {kind} {item_id}{named}" if item_id else place
        if key in ENTRY_LISTS:
            self.entries += 1
            if self.entries == MAX_ENTRIES + 1:
                self.add(f"{here}: more than {MAX_ENTRIES:,} entries in the folder (the engine's bound)")
            depth += 1
            if depth == MAX_DEPTH + 1:
                self.add(f"{here}: entries nested more than {MAX_DEPTH} deep (the engine's bound)")
        elif key in NUMBER_LISTS:
            self.numbers(kind, here, item)
        return here, depth

    def numbers(self, kind: str, place: str, item: Data) -> None:
        """The numbers of a cost, cost type, constraint, condition, repeat or modifier."""
        if kind == "cost":
            self.bounded(place, f"cost {item.get('name') or item.get('typeId')}", item.get("value"), MAX_NUMBER)
        elif kind == "costType":
            self.cost_types.add(str(item.get("id", "")))
            self.bounded(place, "defaultCostLimit", item.get("defaultCostLimit"), MAX_NUMBER)
        elif kind == "constraint":
            self.constraint(place, item)
        elif kind == "condition":
            self.bounded(place, "condition value", item.get("value"), MAX_NUMBER)
        elif kind == "repeat":
            self.bounded(place, "repeat value", item.get("value"), MAX_NUMBER)
            self.bounded(place, "repeats", item.get("repeats"), MAX_REPEATS, least=0)
        elif kind == "modifier" and item.get("value") is not None:
            self.modifiers.append(Pending(place, str(item.get("field", "")), item.get("value")))

    def constraint(self, place: str, item: Data) -> None:
        kind, counted = str(item.get("type", "max")), str(item.get("field") or "selections")
        self.constraints[str(item.get("id", ""))] = (kind, counted)
        self.bounded(place, f"{kind} value", item.get("value"), constraint_bound(kind, counted, item))

    def bounded(self, place: str, what: str, raw: Any, bound: float, least: float | None = None) -> None:
        """A problem where a number is not finite or beyond its bound (-bound, or `least`, to bound)."""
        value = number(raw)
        if value is None:
            return
        low = -bound if least is None else least
        if not math.isfinite(value):
            self.add(f"{place}: {what} {raw!r} is not a finite number")
        elif not low <= value <= bound:
            self.add(f"{place}: {what} {raw!r} is beyond the engine's bound ({low:,g} to {bound:,g})")

    def finish(self) -> list[str]:
        """The problems of every file, the modifiers of cost types and constraints checked last."""
        for modifier in self.modifiers:
            if modifier.field in self.cost_types:
                self.bounded(modifier.place, f"modifier of {modifier.field}", modifier.value, MAX_NUMBER)
            elif modifier.field in self.constraints:
                kind, counted = self.constraints[modifier.field]
                bound = constraint_bound(kind, counted, {})
                what = f"modifier of {kind} constraint {modifier.field}"
                self.bounded(modifier.place, what, modifier.value, bound)
        return self.problems


def constraint_bound(kind: str, counted: str, item: Data) -> float:
    """How high a constraint's value may be: a count of selections or forces, or any other number."""
    percent = str(item.get("percentValue", "")).lower() == "true"
    if counted in COUNTED_FIELDS and not percent:
        return MAX_MIN_SELECTIONS if kind == "min" else MAX_MAX_SELECTIONS
    return MAX_NUMBER


def number(raw: Any) -> float | None:
    """A number as the engine reads it (float()), or None where it reads none (no value, or text)."""
    if raw is None or raw == "" or isinstance(raw, bool):
        return None
    try:
        return float(raw)
    except (TypeError, ValueError):
        return None
