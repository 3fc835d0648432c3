"""Force organisation: compulsory choices, maximums and ratios between slots.

A slot counts the roster units whose category it names; a unit may count in
several slots (Action All Fronts' shared company choices). A limit is a number
or a base plus terms that grow with other categories (squads per platoon HQ).
"""

from __future__ import annotations

import math

from lists.pricing import unit_points
from lists.rules.finding import Finding, error
from lists.snapshot import RosterSnapshot, SlotInfo, UnitChoice


def category_counts(roster: RosterSnapshot) -> dict[str, int]:
    counts: dict[str, int] = {}
    for unit in roster.units:
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


def organisation_findings(roster: RosterSnapshot) -> list[Finding]:
    organisation = roster.organisation
    if organisation is None:
        return []
    findings: list[Finding] = []
    counts = category_counts(roster)
    names = organisation.category_names
    rule = organisation.key
    placed = {category for slot in organisation.slots for category in slot.categories}

    for unit in roster.units:
        if unit.unit_type.category not in placed:
            findings.append(
                error(
                    "org.too_many",
                    f"{unit.label} is a {unit.unit_type.category_name}, which the {organisation.name} has no place for.",
                    "Remove it, or pick an organisation that takes this kind of unit.",
                    rule,
                    unit,
                    organisation.name,
                )
            )

    for slot in organisation.slots:
        members = [unit for unit in roster.units if unit.unit_type.category in slot.categories]
        taken = sum(unit_weight(roster, slot, unit) for unit in members)
        minimum = limit_value(slot.min, counts) or 0
        maximum = limit_value(slot.max, counts)
        if taken < math.ceil(minimum):
            missing = math.ceil(minimum) - taken
            findings.append(
                error(
                    "org.missing" if isinstance(slot.min, int) else "org.ratio",
                    f"The {organisation.name} needs at least {math.ceil(minimum)} {slot.name}; the roster has {taken:g}.",
                    f"Add {missing:g} more: {slot.name}.",
                    rule,
                    None,
                    organisation.name,
                )
            )
        # Choices are whole: two half choices fill one.
        allowed = None if maximum is None else math.floor(maximum + 1e-9)
        if allowed is not None and taken > allowed:
            extra = members[-1]
            ratio = not isinstance(slot.max, int)
            limit_text = describe_limit(slot.max, names) if ratio else str(slot.max)
            findings.append(
                error(
                    "org.ratio" if ratio else "org.too_many",
                    f"{slot.name}: the roster has {taken:g}, the {organisation.name} allows {allowed:g} ({limit_text}).",
                    f"Remove {extra.label} or another {slot.name}"
                    + (", or add the units that allow more." if ratio else "."),
                    rule,
                    extra,
                    organisation.name,
                )
            )
    return findings
