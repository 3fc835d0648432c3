"""The weapons and rules the BattleScribe engine shows for a selection, beside those a converted option
carries (scripts/bolt_action_side_by_side.py): a weapon or a rule the data gives an option that the pack
leaves off it, and a weapon option carrying no weapon, are differences to explain."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lists.battlescribe.engine import Context, Roster, Selection, shown_info
from lists.battlescribe.mounts import mount_of
from lists.battlescribe.names import RULE_ALIASES, WEAPON_ALIASES, slug

WEAPON_PROFILES = ("Weapon", "Artillery")


def shown_under(roster: Roster, selection: Selection) -> tuple[set[str], set[str]]:
    """The names of the weapon profiles and rules a selection and everything it holds show."""
    weapons: set[str] = set()
    rules: set[str] = set()
    pending = [selection]
    while pending:
        current = pending.pop()
        context = Context.of_selection(roster, current)
        profiles, shown_rules = shown_info(roster.data, current.option.sources, context)
        weapons |= {p.name.strip() for p in profiles if p.type_name in WEAPON_PROFILES and not p.hidden}
        rules |= {r.name.strip() for r in shown_rules if not r.hidden}
        pending += current.children
    return weapons, rules


@dataclass
class PackNames:
    """The pack's weapons and rules by name, keyed as the converter keys them (lists/battlescribe/converter.py)."""

    weapons: dict[str, str] = field(default_factory=dict)  # lower-case name -> the base pack's weapon key
    rules: dict[str, str] = field(default_factory=dict)  # lower-case name -> the base pack's rule key
    worded: set[str] = field(default_factory=set)  # rule keys with a text of ours (an option carries only these)

    def names_weapon(self, name: str) -> bool:
        """Whether a name names one of the base pack's weapons, in full or by its abbreviation ("HMG")."""
        lowered = name.lower()
        for weapon in self.weapons:
            short = re.search(r"\((\w+)\)$", weapon)
            for words in (short.group(1) if short else "", re.sub(r"\s*\(.*\)$", "", weapon)):
                if words and re.search(rf"\b{re.escape(words)}\b", lowered):
                    return True
        return False

    def weapon_key(self, name: str) -> str:
        lowered = name.strip().lower()
        return WEAPON_ALIASES.get(lowered) or self.weapons.get(lowered) or "bs-" + slug(name, 70)

    def rule_key(self, name: str) -> str:
        lowered = " ".join(name.strip().lower().split())
        return self.rules.get(RULE_ALIASES.get(lowered, lowered)) or self.rules.get(lowered) or "bs-" + slug(name, 70)


def option_differences(names: PackNames, option: dict, weapons: set[str], rules: set[str]) -> list[str]:
    """What the engine shows for an option taken that the pack's option lacks; empty where they agree."""
    carried = set(option.get("weapons", []))
    for line in option.get("adds_models", []):
        carried |= {w if isinstance(w, str) else w["weapon"] for w in line.get("weapons", [])}
    problems = []
    missing = sorted({names.weapon_key(w) for w in weapons} - carried)
    if missing:
        problems.append("weapons the data gives it and the pack does not: " + ", ".join(missing))
    # An option named for a mount and no weapon (an MG team's "Pintle-mount", Flak) mounts the unit's own gun.
    if not carried and mount_of(option["name"]) and names.names_weapon(option["name"]) and not option.get("replaces"):
        problems.append("a weapon option carrying no weapon")
    worded = {names.rule_key(r) for r in rules} & names.worded
    missing_rules = sorted(worded - set(option.get("rules", [])))
    if missing_rules:
        problems.append("rules the data gives it and the pack does not: " + ", ".join(missing_rules))
    return problems
