"""Which man of a squad an option's weapon goes to, where the BattleScribe data says so only in its name.

The data's squads offer "NCO SMG" and "NCO Assault rifle" beside "SMG" and "LMG", all as options of the
squad: the first word names the man who carries the weapon. The option then names his model line
(`model`), so the unit card puts the weapon in his hands rather than a soldier's.
"""

from __future__ import annotations

# First words of an option's name that name a man of the squad, and the role of his model line.
CARRIER_WORDS = {"nco": "nco", "sergeant": "nco", "officer": "officer"}


def name_carriers(unit: dict) -> None:
    """Set `model` on each weapon option whose name starts with the role of exactly one model line."""
    for option in unit.get("options", []):
        if not option.get("weapons") or option.get("model") or option.get("adds_models"):
            continue
        words = option["name"].split()
        role = CARRIER_WORDS.get(words[0].lower()) if len(words) > 1 else None
        lines = [line for line in unit.get("composition", []) if role and line["role"] == role]
        if len(lines) == 1:
            option["model"] = lines[0]["name"]
