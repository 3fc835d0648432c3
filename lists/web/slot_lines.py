"""How full a force's slots are, in words a player reads at a glance: "Infantry squads 2 of 2–8"."""

from __future__ import annotations

import math

from lists.gamedata.snapshot import ForceInfo, RosterSnapshot, UnitChoice
from lists.rules.organisation import category_counts, limit_value, slot_taken


def usage_text(snapshot: RosterSnapshot, slot, units: list[UnitChoice], counts: dict[str, int]) -> str:
    """A slot's choices taken by the units, against its least and most: "2 of 2–6", "1 of up to 1",
    "2 of at least 2", or the bare count where the slot sets neither."""
    taken = slot_taken(snapshot, slot, units)
    low = limit_value(slot.min, counts) or 0
    high = limit_value(slot.max, counts)
    return _against(taken, low, high)


def force_slot_lines(snapshot: RosterSnapshot, force: ForceInfo) -> list[tuple[str, str]]:
    """Each slot of the force's organisation a player needs to read, with how full it is. A slot whose
    categories other slots divide between them (the rulebook's "Infantry squads" over the data's "Compulsory
    Infantry" and "Infantry") is one line, its most the sum of theirs; a slot with no limit is shown once the
    force has units in it."""
    if force.organisation is None:
        return []
    units = snapshot.force_units(force)
    counts = category_counts(units)
    slots = force.organisation.slots
    parts_of = {slot.key: _parts(slot, slots) for slot in slots}
    folded = {part.key for parts in parts_of.values() for part in parts}
    lines = []
    for slot in slots:
        taken = slot_taken(snapshot, slot, units)
        if slot.key in folded and not _over(snapshot, slot, units, counts):
            continue
        low = limit_value(slot.min, counts) or 0
        high = limit_value(slot.max, counts)
        if high is None and parts_of[slot.key]:
            highs = [limit_value(part.max, counts) for part in parts_of[slot.key]]
            high = None if None in highs else sum(highs)
        # A slot with nothing in it and no least is news only where it has room (not "Tows 0 of up to 0").
        if not low and not taken and (high is None or high < 1):
            continue
        lines.append((slot.name, _against(taken, low, high)))
    return lines


def _parts(slot, slots) -> list:
    """The other slots, each with a most, that divide this slot's categories between them exactly."""
    others = [other for other in slots if other is not slot and set(other.categories) < set(slot.categories)]
    covered = [category for other in others for category in other.categories]
    if len(others) < 2 or sorted(covered) != sorted(slot.categories) or any(o.max is None for o in others):
        return []
    return others


def _over(snapshot, slot, units, counts) -> bool:
    """A folded slot still gets its own line when it is over its most, so the player sees which."""
    high = limit_value(slot.max, counts)
    return high is not None and slot_taken(snapshot, slot, units) > high + 1e-9


def _against(taken: float, low: float, high: float | None) -> str:
    low_text, high_text = f"{math.ceil(low - 1e-9)}", "" if high is None else f"{math.floor(high + 1e-9)}"
    if high is None:
        return f"{taken:g} of at least {low_text}" if low else f"{taken:g}"
    if not low:
        return f"{taken:g} of up to {high_text}"
    return f"{taken:g} of {low_text}" if low_text == high_text else f"{taken:g} of {low_text}–{high_text}"
