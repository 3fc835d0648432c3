"""The editor's unit picker: what a force may take, by slot, each unit once at the price of what its button
adds (the game's usual quality, with what is selected at start), with the words the search finds it by."""

from __future__ import annotations

from dataclasses import replace

from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import ForceInfo, RosterSnapshot, UnitChoice, UnitTypeInfo
from lists.rules.defaults import options_at_start, quality_at_start
from lists.rules.organisation import category_counts, limit_value, slot_taken
from lists.rules.period import period_findings
from lists.rules.pricing import unit_points
from lists.web.slot_lines import usage_text


def unit_picker(snapshot: RosterSnapshot, data: GameData, army_id: int, force: ForceInfo | None) -> list[dict]:
    """The units the force may take (those of a category its organisation has a slot for), grouped by
    slot in the organisation's order, each priced as adding it adds it, with slot usage and service dates.
    A unit the data lists under two categories (a squad in "Compulsory Units" and "Infantry") is listed
    once, under the first slot with room for it."""
    groups: dict[str, dict] = {}
    force_units = snapshot.force_units(force) if force else []
    counts = category_counts(force_units)
    organisation = force.organisation if force else None
    slot_order = [c for slot in organisation.slots for c in slot.categories] if organisation else []
    offered = [
        (source, unit_id, data.unit_types[unit_id])
        for source, unit_id in data.available_units(army_id)
        if organisation is None or data.unit_types[unit_id].category in slot_order
    ]
    terms = search_terms(snapshot.system.config.get("search_terms") or [])
    for source, unit_id, unit_type in _listed_once(snapshot, force, force_units, counts, offered, slot_order):
        quality, points = _as_added(snapshot, data, unit_type)
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
                "terms": " ".join(unit_terms(unit_type, terms)),
            }
        )
    order = {category: slot_order.index(category) for category in groups if category in slot_order}
    return [groups[key] for key in sorted(groups, key=lambda key: order.get(key, len(order)))]


def _listed_once(snapshot, force, units, counts, offered, slot_order) -> list[tuple]:
    """The offered units, those of one name and one source army kept once: the one whose category comes first
    among the slots with room left (else the first), where a player adding it means it to go."""
    by_name: dict[tuple[str, int], list[tuple]] = {}
    for entry in offered:
        source, _, unit_type = entry
        by_name.setdefault((" ".join(unit_type.name.casefold().split()), source.id), []).append(entry)
    organisation = force.organisation if force else None
    slots = organisation.slots if organisation else ()

    def room(entry) -> bool:
        slot = next((s for s in slots if entry[2].category in s.categories), None)
        most = limit_value(slot.max, counts) if slot else None
        return most is None or slot_taken(snapshot, slot, units) < most - 1e-9

    def place(entry) -> int:
        return slot_order.index(entry[2].category) if entry[2].category in slot_order else len(slot_order)

    kept = []
    for same in by_name.values():
        ranked = sorted(same, key=place)
        kept.append(next((entry for entry in ranked if room(entry)), ranked[0]))
    return kept


def search_terms(table: list[dict]) -> list[tuple[tuple[str, ...], dict]]:
    """The pack's search terms table as (words, what they find) pairs."""
    return [(tuple(term["words"]), term) for term in table]


def unit_terms(unit_type: UnitTypeInfo, terms: list[tuple[tuple[str, ...], dict]]) -> list[str]:
    """The words beside its name a player may search a unit by: its category's name, and those of the pack's
    search terms that fit its weapons (or their categories), category, rules (or its weapons'), options or name."""
    weapons = [weapon for line in unit_type.composition for weapon in line.weapons]
    weapon_keys = {weapon.key for weapon in weapons} | {weapon.category for weapon in weapons if weapon.category}
    rules = set(unit_type.rules) | {rule for weapon in weapons for rule in weapon.rules}
    name = unit_type.name.casefold()
    found = [unit_type.category_name]
    for words, term in terms:
        if (
            weapon_keys & set(term.get("weapons", ()))
            or unit_type.category in term.get("categories", ())
            or rules & set(term.get("rules", ()))
            or set(unit_type.options) & set(term.get("options", ()))
            or any(phrase.casefold() in name for phrase in term.get("names", ()))
        ):
            found += [word for word in words if word not in found]
    return found


def _as_added(snapshot: RosterSnapshot, data: GameData, unit_type) -> tuple[str | None, int]:
    """The quality the unit is added at and its price so: what its button adds (`add_unit`), options and all."""
    quality = quality_at_start(data.system, unit_type, snapshot.army_key)
    options = options_at_start(unit_type, snapshot.army_key, quality)
    candidate = UnitChoice(
        index=len(snapshot.units), label=unit_type.name, unit_type=unit_type, quality=quality, options=options
    )
    return quality, unit_points(replace(snapshot, units=[candidate]), candidate)


def _slot_usage(snapshot, force: ForceInfo | None, units: list[UnitChoice], category: str, counts) -> str:
    """How full the force's first slot taking this category is: "1 of up to 1", "2 of 2–4"."""
    organisation = force.organisation if force else None
    slot = next((s for s in organisation.slots if category in s.categories), None) if organisation else None
    if slot is None:
        return ""
    return usage_text(snapshot, slot, units, counts)


def _service_dates(snapshot: RosterSnapshot, unit_type) -> str:
    names = {period["key"]: period["name"] for period in snapshot.system.periods}
    if unit_type.service_start or unit_type.service_end:
        start, end = unit_type.service_start or "", unit_type.service_end or ""
        return f"{start}–{end}" if end else f"from {start}"
    return names.get(unit_type.service_period, unit_type.service_period)
