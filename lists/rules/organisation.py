"""Force organisation: compulsory choices, maximums and ratios between slots.

A roster holds one or more forces (platoons); each is judged against its own
organisation, and its slots count only its own units. A slot counts the units
whose category it names; a unit may count in several slots (Action All Fronts'
shared company choices). A limit is a number or a base plus terms that grow
with other categories (squads per platoon HQ).
"""

from __future__ import annotations

import math

from lists.gamedata.snapshot import ForceInfo, RosterSnapshot, SlotInfo, UnitChoice
from lists.rules.finding import Finding, error
from lists.rules.pricing import unit_points


def category_counts(units: list[UnitChoice]) -> dict[str, int]:
    """How many of the units are of each category."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.unit_type.category] = counts.get(unit.unit_type.category, 0) + 1
    return counts


def limit_value(limit: int | dict | None, counts: dict[str, int]) -> float | None:
    """Evaluate a slot limit against the roster's category counts."""
    if limit is None or isinstance(limit, int):
        return limit
    total = float(limit.get("base", 0))
    for term in limit.get("per", []):
        present = sum(counts.get(category, 0) for category in term["categories"])
        total += term.get("each", 1) * present
        if present and term.get("if_any"):
            total += term["if_any"]
    return max(total, limit.get("at_least", 0))


def describe_limit(limit: int | dict, names: dict[str, str]) -> str:
    """A limit in words: "1 plus 3 per Platoon HQ", "one per 2 Platoon HQ"."""
    if isinstance(limit, int):
        return str(limit)
    parts = [str(limit["base"])] if limit.get("base") else []
    for term in limit.get("per", []):
        what = " or ".join(names.get(category, category) for category in term["categories"])
        each = term.get("each", 1)
        parts.append(f"one per {round(1 / each)} {what}" if 0 < each < 1 else f"{each:g} per {what}")
        if term.get("if_any"):
            parts.append(f"{term['if_any']} once you have any {what}")
    text = " plus ".join(parts) or "0"
    return f"{text}, at least {limit['at_least']}" if limit.get("at_least") else text


def unit_weight(roster: RosterSnapshot, slot: SlotInfo, unit: UnitChoice) -> float:
    """A unit counts as one choice, or half where the slot allows cheap units to count as half."""
    threshold = slot.half_choice_at_most_points
    if threshold is None:
        return 1.0
    if slot.half_choice_categories and unit.unit_type.category not in slot.half_choice_categories:
        return 1.0
    return 0.5 if unit_points(roster, unit) <= threshold else 1.0


def in_slot(slot: SlotInfo, unit: UnitChoice) -> bool:
    """A unit counts in a slot of its category; a slot of officers counts only units of the ranks it names,
    and any unit an officer of those ranks leads by an option (a Raiding Party whose First Lieutenant
    replaces its NCO leads the platoon)."""
    if unit.unit_type.category not in slot.categories:
        return bool(slot.ranks_counted) and any(o.officer_rank in slot.ranks_counted for o, _ in unit.chosen_options)
    return not slot.ranks_counted or unit.rank in slot.ranks_counted


def slot_taken(roster: RosterSnapshot, slot: SlotInfo, units: list[UnitChoice]) -> float:
    """How many choices of the slot the units fill (cheap units may count as half)."""
    return sum(unit_weight(roster, slot, unit) for unit in units if in_slot(slot, unit))


def _fillers(roster: RosterSnapshot, slot: SlotInfo) -> list[str]:
    """The names of the army's units that fill the slot."""
    return list(
        dict.fromkeys(
            unit_type.name
            for unit_type in roster.army_unit_types
            if unit_type.category in slot.categories
            and (not slot.ranks_counted or {unit_type.officer_rank, *unit_type.officer_ranks} & set(slot.ranks_counted))
        )
    )


def _examples(roster: RosterSnapshot, slot: SlotInfo, shown: int = 3) -> str:
    """Units of the army that fill the slot, so a fix names what to add: " (e.g. Heer Grenadier Squad)"."""
    names = _fillers(roster, slot)
    if not names or names == [slot.name]:
        return ""
    more = ", …" if len(names) > shown else ""
    return f" (e.g. {', '.join(names[:shown])}{more})"


def _missing_fix(roster: RosterSnapshot, slot: SlotInfo, missing: float, force_name: str | None) -> str:
    """What to add to a force short of a compulsory choice; where no unit of the army list can fill the slot
    (Italy's lieutenants in the game system's Reinforced Platoon), that, and the way out."""
    units = roster.army_unit_types
    if units and not any(slot.fillable_by(unit_type) for unit_type in units):
        return (
            f"No unit of this army list can fill {slot.name} in this organisation: "
            "field the force as another organisation the list offers."
        )
    where = f" to {force_name}" if force_name else ""
    return f"Add {missing:g} more{where}: {slot.name}{_examples(roster, slot)}."


def _no_place_fix(roster: RosterSnapshot, unit: UnitChoice, slots, placed: set[str]) -> str:
    """The fix for a unit of a category the force has no slot for: the same unit listed in a slot it has
    (the army list names a tank under Compulsory Vehicles and under Tanks), else another force."""
    same = next((t for t in roster.army_unit_types if t.name == unit.unit_type.name and t.category in placed), None)
    if same is None:
        return "Remove it, move it to another force, or pick an organisation that takes this kind of unit."
    slot = next(slot for slot in slots if same.category in slot.categories)
    return f"Remove it and add {same.name} from {slot.name} instead: the same unit, in a slot this force has."


def organisation_findings(roster: RosterSnapshot) -> list[Finding]:
    """Every force against its own organisation; several forces are named so a finding says which."""
    findings: list[Finding] = []
    for force in roster.forces:
        if force.organisation is not None:
            findings += force_findings(roster, force, named=len(roster.forces) > 1)
    return findings


def force_findings(roster: RosterSnapshot, force: ForceInfo, named: bool) -> list[Finding]:
    """One force's slots: units it has no place for, compulsory choices, maximums and ratios."""
    organisation = force.organisation
    units = roster.force_units(force)
    findings: list[Finding] = []
    counts = category_counts(units)
    names = organisation.category_names
    rule = organisation.key
    placed = {category for slot in organisation.slots for category in slot.categories}
    # With one force the organisation is named alone, as before: "the Reinforced Platoon".
    who = force.title if named else f"the {organisation.name}"
    has = f"{force.name} has" if named else "the roster has"

    for unit in units:
        if unit.unit_type.category not in placed:
            findings.append(
                error(
                    "org.too_many",
                    f"{unit.label} is taken as {unit.unit_type.category_name}, which {who} has no place for.",
                    _no_place_fix(roster, unit, organisation.slots, placed),
                    rule,
                    unit,
                    organisation.name,
                )
            )

    for slot in organisation.slots:
        members = [unit for unit in units if in_slot(slot, unit)]
        taken = slot_taken(roster, slot, members)
        minimum = limit_value(slot.min, counts) or 0
        maximum = limit_value(slot.max, counts)
        if taken < math.ceil(minimum):
            missing = math.ceil(minimum) - taken
            findings.append(
                error(
                    "org.missing" if isinstance(slot.min, int) else "org.ratio",
                    f"{who[0].upper()}{who[1:]} needs at least {math.ceil(minimum)} {slot.name}; {has} {taken:g}.",
                    _missing_fix(roster, slot, missing, force.name if named else None),
                    rule,
                    # Point at a unit of the force where there is one, so the editor shows where to add.
                    units[0] if named and units else None,
                    organisation.name,
                )
            )
        # Choices are whole: two half choices fill one.
        allowed = None if maximum is None else math.floor(maximum + 1e-9)
        if allowed is not None and taken > allowed:
            extra = members[-1]
            ratio = not isinstance(slot.max, int)
            # A ratio says how the most comes about ("1 per 2 Infantry"); a fixed most is the number alone.
            limit_text = f" ({describe_limit(slot.max, names)})" if ratio else ""
            findings.append(
                error(
                    "org.ratio" if ratio else "org.too_many",
                    f"{slot.name}: {has} {taken:g}, {who} allows {allowed:g}{limit_text}.",
                    f"Remove {extra.label} or another {slot.name}"
                    + (", or add the units that allow more." if ratio else "."),
                    rule,
                    extra,
                    organisation.name,
                )
            )
    return findings
