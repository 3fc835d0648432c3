"""The data's names and words as pack keys: slugs, qualities, officer ranks, a man's role."""

from __future__ import annotations

import re
from collections import Counter

SOURCE = "BSData/boltaction"
QUALITIES = ("inexperienced", "regular", "veteran")
THEATRE_SELECTOR = "Theatre Selector"
# The BattleScribe names of the officer ranks, as the pack's officer_ranks keys.
RANKS = {
    "second lieutenant": "second-lieutenant",
    "first lieutenant": "first-lieutenant",
    "captain": "captain",
    "major": "major",
}
# Rule names BattleScribe spells differently from the pack's own rules.
RULE_ALIASES = {
    "team weapon": "team",
    "team": "team",
    "one shot": "one-shot",
    "one-shot weapon": "one-shot",  # the game system's rule 5837-ccfe-055e-5733 is the rulebook's One-shot
    "spotter": "spotters",
    "he": "he",
}
WEAPON_ALIASES = {"blacker bombard": "at-weapon", "ampulomet": "at-weapon"}
CATEGORY_KINDS = [
    ("headquarters", "headquarters"),
    ("infantry support", "team"),
    ("team", "team"),
    ("infantry", "infantry"),
    ("compulsory units", "infantry"),
    ("artillery", "artillery"),
    ("transport", "transport"),
    ("tows", "transport"),
    ("armoured", "vehicle"),
    ("tanks", "vehicle"),
    ("vehicle", "vehicle"),
    ("arv", "vehicle"),
]
UNIT_KINDS = {
    "headquarters": "infantry",
    "infantry": "infantry",
    "team": "team",
    "artillery": "artillery",
    "vehicle": "vehicle",
    "transport": "transport",
    "other": "other",
}
TRAILING_NOTE = re.compile(r"\s*\([^)]*\)\s*$")  # "(Armies of Germany)" after a selector's name
MAN = re.compile(r"\b(soldier|man|men|rifleman|crewman|assistant)\b", re.IGNORECASE)  # an option adding a man
DICE = re.compile(r"^(\d+|\d*D\d+([+-]\d+)?)$")


def slug(text: str, limit: int = 60) -> str:
    """A pack key made from a name: lower-case letters, digits and hyphens."""
    text = text.lower().replace("&", " and ").replace("'", "").replace("ü", "ue").replace("ä", "ae").replace("ö", "oe")
    key = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:limit].strip("-")
    return key or "entry"


def number(text: str | None) -> float:
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def whole(value: float) -> int:
    return int(round(value))


def counted(weapons: list[str]) -> list:
    """Weapons in order, each once: one carried several times as {weapon, count}."""
    tally = Counter(weapons)
    return [key if tally[key] == 1 else {"weapon": key, "count": tally[key]} for key in dict.fromkeys(weapons)]


def quality_name(name: str) -> str:
    """A price group entry's quality: "Inexperienced(set points)" is the Inexperienced one."""
    return TRAILING_NOTE.sub("", name).strip().lower()


def without_quality(name: str) -> str:
    """A man's name without the quality it starts with ("Regular NCO" -> "NCO")."""
    first, _, rest = name.partition(" ")
    return rest if first.lower() in QUALITIES and rest else name


def quality_of(name: str) -> str | None:
    first = name.strip().lower().split(" ")[0] if name.strip() else ""
    return first if first in QUALITIES else None


def rank_of(name: str) -> str | None:
    lowered = name.lower()
    for rank_name, key in RANKS.items():
        if rank_name in lowered:
            return key
    return None


def role_of(name: str, kind: str) -> str:
    lowered = name.lower()
    if any(word in lowered for word in ("officer", "lieutenant", "captain", "major", "commander")):
        return "officer"
    if "nco" in lowered or "sergeant" in lowered or "leader" in lowered:
        return "nco"
    if "loader" in lowered:
        return "loader"
    if "spotter" in lowered:
        return "spotter"
    if "crew" in lowered or kind in ("team", "artillery"):
        return "crew"
    return "soldier"
