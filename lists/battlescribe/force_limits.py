"""Constraints of a unit scoped to one kind of force: "at least one Officer in each Reinforced Platoon".

BattleScribe names a force entry's id as a constraint's scope to count the
selections inside each force of that kind. Such a constraint becomes a unit's
`force_limits` entry for the organisation the force entry converts to. Units
one entry splits into (an officer entry's ranks) share the entry as their
`group`, so they count together as the data counts them.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml.etree import _Element as Element

from lists.battlescribe.reader import DataFile


def force_organisations(system: DataFile, organisation_key) -> dict[str, str]:
    """Force entry id -> the key of the organisation it converts to."""
    return {force.get("id", ""): organisation_key(force) for force in system.root.iter("forceEntry")}


def force_limits(
    constraints: list[Element],
    organisations: dict[str, str],
    group: tuple[str, str] | None,
    value_in: Callable[[Element, str | None], float],
    selector_keys: list[tuple[str, str]],
    capacity: int = 1,
) -> list[dict]:
    """The limits per kind of force that `constraints` set. A least number counting the unit's own force
    (scope "force" or "parent" of a root entry) binds every organisation: it names none. `value_in(constraint, selector)`
    is a constraint's value with that theatre selector chosen (None: none); where theatres differ, each
    value is a limit of its own for the army lists giving it. `group` is (entry id, name) for split units: the
    entry's own most per force binds them together, `capacity` of them in each selection of it (a Soviet
    "Anti-Tank Teams" entry, at most one a force in 1941, holds up to three teams)."""
    limits: dict[tuple[str, tuple[str, ...]], dict] = {}
    for constraint in constraints:
        scope, kind = constraint.get("scope", ""), constraint.get("type")
        if constraint.get("field") != "selections" or kind not in ("min", "max"):
            continue
        if scope in organisations:
            targets = [organisations[scope]]
        elif scope in ("force", "parent") and (kind == "min" or group is not None):
            targets = [""]  # every organisation: written once, with no organisation
        else:
            continue
        for value, armies in values_by_theatre(constraint, value_in, selector_keys):
            for organisation in targets:
                limit = limits.setdefault(
                    (organisation, armies), {"organisation": organisation} if organisation else {}
                )
                limit[kind] = int(value) * (capacity if kind == "max" and scope not in organisations else 1)
                limit.setdefault("source_id", constraint.get("id", ""))
    found = []
    for (_, armies), limit in sorted(limits.items()):
        if group is not None:
            limit["group"], limit["group_name"] = group
        if armies:
            limit["armies"] = list(armies)
        found.append(limit)
    return found


def values_by_theatre(
    constraint: Element, value_in: Callable[[Element, str | None], float], selector_keys: list[tuple[str, str]]
) -> list[tuple[float, tuple[str, ...]]]:
    """A limit's values, each with the army lists giving it where theatres differ (none: every list);
    no limit (BattleScribe's -1) and a least number of 0 are left out."""
    by_value: dict[float, list[str]] = {}
    for selector_id, key in selector_keys:
        by_value.setdefault(value_in(constraint, selector_id), []).append(key)
    by_value = by_value or {value_in(constraint, None): []}
    kind = constraint.get("type")
    return [
        (value, () if len(by_value) == 1 else tuple(sorted(keys)))
        for value, keys in by_value.items()
        if value >= 0 and not (kind == "min" and value == 0)
    ]


def option_force_limits(
    constraints: list[Element],
    group: str,
    value_in: Callable[[Element, str | None], float],
    selector_keys: list[tuple[str, str]],
) -> list[dict]:
    """An option's least and most in each force (an Intelligence Officer per platoon; a Divisione Costiera
    platoon's Shirkers): options naming the same `group` (the data's entry) count together across the force."""
    limits: dict[tuple[str, ...], dict] = {}
    for constraint in constraints:
        kind = constraint.get("type")
        if constraint.get("scope") != "force" or constraint.get("field") != "selections" or kind not in ("min", "max"):
            continue
        for value, armies in values_by_theatre(constraint, value_in, selector_keys):
            limit = limits.setdefault(armies, {"group": group})
            limit[kind] = int(value)
    found = []
    for armies, limit in sorted(limits.items()):
        if armies:
            limit["armies"] = list(armies)
        found.append(limit)
    return found
