"""Which army lists each converted force organisation is offered to: every list BattleScribe offers it to,
those whose compulsory slots no unit of the list can fill too (Italy's lists in the game system's
Reinforced Platoon, whose Lieutenant slot counts Headquarters where Italy's lieutenants are Platoon
Commanders): a roster file of such a force is read, and its verdict names the slot none of its units fill.

A list that names a compulsory unit of its own for that force (a least per force given to some lists
only: the Warlords list's Warlord) keeps the force, and the rulebook's slot it cannot fill asks for
none there (`min_in`): the list's own leader stands in for the rulebook's.
"""

from __future__ import annotations


def army_units(files: dict[str, dict]) -> dict[str, list[dict]]:
    """Army key -> the units a player may add in it: a theatre list's borrowed units, a catalogue's own."""
    units = {unit["key"]: unit for content in files.values() for unit in content.get("units", [])}
    found: dict[str, list[dict]] = {}
    for content in files.values():
        for army in content.get("armies", []):
            if "borrow_units" in army:
                found[army["key"]] = [units[key] for key in army["borrow_units"] if key in units]
            else:
                found[army["key"]] = [unit for unit in units.values() if unit.get("army") == army["key"]]
    return found


def can_fill(slot: dict, unit: dict) -> bool:
    """Whether the unit can count in the slot, as the organisation rule counts it (lists/rules/organisation.py):
    a unit of its categories (of a rank it counts, if it counts ranks), or one an officer of those ranks
    leads by an option."""
    ranks = set(slot.get("ranks_counted", []))
    option_ranks = {option.get("officer_rank") for option in unit.get("options", [])}
    if unit.get("category") not in slot["categories"]:
        return bool(ranks & option_ranks)
    own = {unit.get("officer_rank"), *unit.get("officer_ranks", []), *option_ranks}
    return not ranks or bool(ranks & own)


def _own_compulsory_unit(organisation: dict, army_key: str, units: list[dict]) -> bool:
    """Whether the list asks each force of this organisation for a unit of its own (a least per force
    the data gives to some lists only)."""
    return any(
        limit.get("organisation") == organisation["key"]
        and limit.get("min", 0) > 0
        and army_key in limit.get("armies", [])
        for unit in units
        for limit in unit.get("force_limits", [])
    )


def fillable_forces(organisations: list[dict], files: dict[str, dict]) -> list[dict]:
    """The lists that cannot fill one of an organisation's compulsory slots, one entry per list and
    organisation, for the import report; a list asking for a leader of its own asks for none there."""
    units_of = army_units(files)
    changes = []
    for organisation in organisations:
        kept = []
        for army_key in organisation["armies"]:
            units = units_of.get(army_key, [])
            empty = [
                slot
                for slot in organisation["slots"]
                if isinstance(slot.get("min"), int)
                and slot["min"] > 0
                and not any(can_fill(slot, unit) for unit in units)
            ]
            if not empty:
                kept.append(army_key)
                continue
            names = ", ".join(slot["name"] for slot in empty)
            if _own_compulsory_unit(organisation, army_key, units):
                for slot in empty:
                    slot.setdefault("min_in", {})[army_key] = 0
                kept.append(army_key)
                outcome = "offered; the list's own compulsory unit stands in for " + names
            else:  # BattleScribe offers it: a file of it is read, and its verdict says why it cannot be legal
                kept.append(army_key)
                outcome = "offered, as BattleScribe offers it; no unit of the list can fill " + names
            changes.append({"organisation": organisation["name"], "army": army_key, "outcome": outcome})
        organisation["armies"] = kept
    return changes
