"""Rulebook facts the data leaves out of a force organisation (the Reinforced Platoon's compulsory
Lieutenant and two infantry squads, its one tank and one armoured car), applied to the converted
organisations and recorded as errata. A slot the data already limits keeps the data's figure."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class NewSlot(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    name: str
    categories: list[str] = Field(min_length=1)  # the data's category names
    ranks_counted: list[str] = []  # officer rank keys of the bolt-action-2e pack
    min: int = 0
    max: int | None = None


class OrganisationFact(BaseModel):
    """A slot's least or greatest number, or a slot of its own, that the rulebook sets for one kind of force."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    force: str  # the force entry's name (Reinforced Platoon)
    slot: str | None = None  # an existing slot, by name, whose least or greatest number is set
    min: int | None = None
    max: int | None = None  # set only where the data gives the slot no most of its own
    max_per: list[str] = []  # the data's category names: the slot's most is one per unit of them
    new_slot: NewSlot | None = None
    source: str = Field(min_length=1)  # where the fact comes from
    reason: str = Field(min_length=1)


def apply_facts(organisations: list[dict], facts: list[OrganisationFact], category_keys: dict[str, str]) -> list[dict]:
    """Apply each fact to the organisations of its force; return the errata (one per fact applied)."""
    errata = []
    for fact in facts:
        for organisation in organisations:
            if organisation["name"] != fact.force:
                continue
            erratum = _apply(organisation, fact, category_keys)
            if erratum is not None:
                errata.append(erratum)
    return errata


def _apply(organisation: dict, fact: OrganisationFact, category_keys: dict[str, str]) -> dict | None:
    citation = {"source": fact.source, "entry": f"{fact.force}"}
    if fact.slot is not None:
        slot = next((s for s in organisation["slots"] if s["name"] == fact.slot), None)
        if slot is None:
            return None
        if fact.max is not None or fact.max_per:
            return _apply_most(slot, fact, category_keys, citation)
        if fact.min is None:
            return None
        before = slot.get("min", 0)
        slot["min"], slot["citation"] = fact.min, citation
        where, used = f"{fact.force}: {fact.slot}: least number", str(fact.min)
    else:
        new = fact.new_slot
        slot = new.model_dump(exclude_none=True, exclude_defaults=True) | {"key": new.key, "name": new.name}
        slot["categories"] = [category_keys[name] for name in new.categories]
        slot["citation"] = citation
        organisation["slots"].append(slot)
        before, where, used = (
            "none",
            f"{fact.force}: {new.name}",
            f"{new.min} to {new.max} ({', '.join(new.ranks_counted)})",
        )
    return {"where": where, "source_value": str(before or "none"), "used_value": used, "reason": fact.reason.strip()}


def _apply_most(slot: dict, fact: OrganisationFact, category_keys: dict[str, str], citation: dict) -> dict | None:
    """The rulebook's most for a slot the data leaves open; a most the data states (in every list or a
    theatre's own, `max_in`) stands."""
    if "max" in slot or "max_in" in slot:
        return None
    if fact.max_per:
        slot["max"] = {
            "base": fact.max or 0,
            "per": [{"categories": [category_keys[n] for n in fact.max_per], "each": 1}],
        }
        # Named in full where short; the slot itself lists every category it counts.
        counted = fact.max_per if len(fact.max_per) <= 3 else [*fact.max_per[:3], f"{len(fact.max_per) - 3} more"]
        used = f"{fact.max or 0} plus 1 per unit of {', '.join(counted)}"
    else:
        slot["max"], used = fact.max, str(fact.max)
    slot["citation"] = citation
    where = f"{fact.force}: {fact.slot}: greatest number"
    return {"where": where, "source_value": "none", "used_value": used, "reason": fact.reason.strip()}
