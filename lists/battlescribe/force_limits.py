"""Constraints of a unit scoped to one kind of force: "at least one Officer in each Reinforced Platoon".

BattleScribe names a force entry's id as a constraint's scope to count the
selections inside each force of that kind. Such a constraint becomes a unit's
`force_limits` entry for the organisation the force entry converts to. Units
one entry splits into (an officer entry's ranks) share the entry as their
`group`, so they count together as the data counts them.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from lists.battlescribe.reader import DataFile


def force_organisations(system: DataFile, organisation_key) -> dict[str, str]:
    """Force entry id -> the key of the organisation it converts to."""
    return {force.get("id", ""): organisation_key(force) for force in system.root.iter("forceEntry")}


def modified_constraint_ids(elements: list[Element]) -> set[str]:
    """Ids of constraints some modifier of these elements changes (a theatre raising a limit)."""
    return {modifier.get("field", "") for element in elements for modifier in element.findall("modifiers/modifier")}


def force_limits(
    constraints: list[Element], modified: set[str], organisations: dict[str, str], group: tuple[str, str] | None
) -> tuple[list[dict], int]:
    """The limits per kind of force that `constraints` set, and how many of them a modifier changes
    (those are not carried: the caller reports them). `group` is (entry id, name) for split units."""
    limits: dict[str, dict] = {}
    changed = 0
    for constraint in constraints:
        organisation = organisations.get(constraint.get("scope", ""))
        kind = constraint.get("type")
        if organisation is None or constraint.get("field") != "selections" or kind not in ("min", "max"):
            continue
        if constraint.get("id") in modified:
            changed += 1
            continue
        limit = limits.setdefault(organisation, {"organisation": organisation})
        value = int(float(constraint.get("value") or 0))
        limit[kind] = value
        limit.setdefault("source_id", constraint.get("id", ""))
    for limit in limits.values():
        if group is not None:
            limit["group"], limit["group_name"] = group
    return [limits[key] for key in sorted(limits)], changed
