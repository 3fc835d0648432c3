"""Rulebook facts the data leaves out of a force organisation (the Reinforced Platoon's compulsory
Lieutenant and two infantry squads), applied to the converted organisations and recorded as errata."""

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
    """A slot's least number, or a slot of its own, that the rulebook sets for one kind of force."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    force: str  # the force entry's name (Reinforced Platoon)
    slot: str | None = None  # an existing slot, by name, whose least number is set
    min: int | None = None
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
        if slot is None or fact.min is None:
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
