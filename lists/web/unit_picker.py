"""The editor's unit picker: what a force may take, by slot, at its cheapest quality."""

from __future__ import annotations

import math
from dataclasses import replace

from lists.gamedata.loading import (
    GameData,
)
from lists.gamedata.snapshot import ForceInfo, RosterSnapshot, UnitChoice
from lists.rules.organisation import category_counts, limit_value, slot_taken
from lists.rules.period import period_findings
from lists.rules.pricing import (
    unit_points,
)
from lists.rules.validation import open_qualities


def unit_picker(snapshot: RosterSnapshot, data: GameData, army_id: int, force: ForceInfo | None) -> list[dict]:
    """The units the force may take (those of a category its organisation has a slot for), grouped by
    slot in the organisation's order, each at its cheapest quality, with slot usage and service dates."""
    groups: dict[str, dict] = {}
    force_units = snapshot.force_units(force) if force else []
    counts = category_counts(force_units)
    organisation = force.organisation if force else None
    slot_order = [c for slot in organisation.slots for c in slot.categories] if organisation else []
    for source, unit_id in data.available_units(army_id):
        unit_type = data.unit_types[unit_id]
        if organisation is not None and unit_type.category not in slot_order:
            continue
        quality, points = _cheapest(snapshot, unit_type)
        group = groups.setdefault(
            unit_type.category,
            {
                "name": unit_type.category_name,
                "usage": _slot_usage(snapshot, force, force_units, unit_type.category, counts),
                "units": [],
            },
        )
        candidate = UnitChoice(index=len(snapshot.units), label=unit_type.name, unit_type=unit_type, quality=quality)
        group["units"].append(
            {
                "id": unit_id,
                "name": unit_type.name,
                "source": source.name if source.id != army_id else "",
                "points": points,
                "quality": snapshot.system.qualities[quality].name if quality else "",
                "out_of_period": bool(period_findings(replace(snapshot, units=[candidate]))),
                "dates": _service_dates(snapshot, unit_type),
            }
        )
    order = {category: slot_order.index(category) for category in groups if category in slot_order}
    return [groups[key] for key in sorted(groups, key=lambda key: order.get(key, len(order)))]


def _cheapest(snapshot: RosterSnapshot, unit_type) -> tuple[str | None, int]:
    """The quality the unit costs least at in the roster's army list, and that price."""
    priced = []
    for quality in open_qualities(unit_type, snapshot.army_key) or [None]:
        candidate = UnitChoice(index=len(snapshot.units), label=unit_type.name, unit_type=unit_type, quality=quality)
        priced.append((unit_points(replace(snapshot, units=[candidate]), candidate), quality))
    points, quality = min(priced, key=lambda item: item[0])
    return quality, points


def _slot_usage(snapshot, force: ForceInfo | None, units: list[UnitChoice], category: str, counts) -> str:
    """How full the force's first slot taking this category is: "1/1", "2/4", or "2" where it has no maximum."""
    organisation = force.organisation if force else None
    slot = next((s for s in organisation.slots if category in s.categories), None) if organisation else None
    if slot is None:
        return ""
    return usage_text(snapshot, slot, units, counts)


def usage_text(snapshot: RosterSnapshot, slot, units: list[UnitChoice], counts: dict[str, int]) -> str:
    """A slot's choices taken by the units, out of its maximum where it has one."""
    taken = slot_taken(snapshot, slot, units)
    maximum = limit_value(slot.max, counts)
    return f"{taken:g}" if maximum is None else f"{taken:g}/{math.floor(maximum + 1e-9)}"


def _service_dates(snapshot: RosterSnapshot, unit_type) -> str:
    names = {period["key"]: period["name"] for period in snapshot.system.periods}
    if unit_type.service_start or unit_type.service_end:
        start, end = unit_type.service_start or "", unit_type.service_end or ""
        return f"{start}–{end}" if end else f"from {start}"
    return names.get(unit_type.service_period, unit_type.service_period)
