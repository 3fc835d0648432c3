"""The converter's shared pieces: categories, rules and weapons of the pack, and walking entries and links."""

from __future__ import annotations

import re

from lxml.etree import _Element as Element

from lists.battlescribe.conditions import conditions_hold
from lists.battlescribe.constraints import constraint_value, modified_value
from lists.battlescribe.mounts import mount_of
from lists.battlescribe.names import CATEGORY_KINDS, DICE, RULE_ALIASES, SOURCE, WEAPON_ALIASES, quality_of, slug
from lists.battlescribe.nodes import Army, Node, Report
from lists.battlescribe.reader import DataFile, Library
from lists.battlescribe.summaries import RuleSummary


class Converter:
    """Turns a parsed BattleScribe library into pack sections (plain dicts, ready for YAML)."""

    def __init__(self, library: Library, force_id: str):
        self.library = library
        self.report = Report()
        self.force_id = force_id  # the force rosters are evaluated in (Reinforced Platoon)
        # What the base pack (bolt-action-2e) has, filled by the caller:
        self.pack_rules: dict[str, str] = {}  # lower-case name -> rule key
        self.pack_weapons: dict[str, str] = {}  # lower-case name -> weapon key
        self.weapon_rules: set[str] = set()  # the base pack's weapons' own rules (Team, One-shot): with the profile
        self.named_weapons: set[str] = set()  # mounted weapon entries with no profile, read by their names
        self.rule_summaries: dict[str, RuleSummary] = {}  # rule key -> the project's summary (rule_summaries.yaml)
        self.unit_rules: dict[str, list[str]] = {}  # unit entry name -> rule names the data omits (unit_rules.yaml)
        self.spotter_rules: set[str] = set()  # weapon rules a spotter serves (rule_roles.indirect_fire)
        self.indirect_weapons: set[str] = set()  # weapons with one of them, the converted ones included
        self.damage_values: dict[str, str] = {}  # "9+" -> the pack's damage value key
        self.rules: dict[str, dict] = {}
        self.weapons: dict[str, dict] = {}
        self.categories: dict[str, dict] = {}
        self.unit_keys: set[str] = set()

    # Shared pieces: categories, rules, weapons -------------------------------------------------

    def category(self, category_id: str, catalogue: DataFile) -> str | None:
        if category_id in self.categories:
            return self.categories[category_id]["key"]
        element = self.library.find(category_id, catalogue)
        if element is None or element.tag != "categoryEntry":
            return None
        name = element.get("name", "")
        lowered = name.lower()
        kind = next((kind for word, kind in CATEGORY_KINDS if word in lowered), "other")
        self.categories[category_id] = {
            "key": "bs-" + slug(name, 70),
            "name": name,
            "kind": kind,
            "source_id": category_id,
        }
        return self.categories[category_id]["key"]

    def rule_key(self, name: str, rule_id: str, where: str, key: str = "") -> str:
        """The pack rule for a BattleScribe rule name: the base pack's, else an import with our summary or by
        name; `key` names a rule whose name another nation's rule has too (a British choice "Vengeance")."""
        known = None if key else self.base_rule(name)
        if known:
            return known
        key = key or "bs-" + slug(name, 70)
        if key not in self.rules:
            ours = self.rule_summaries.get(key)
            self.rules[key] = {
                "key": key,
                "name": name.strip(),
                "kind": "unit",
                "summary": " ".join(ours.summary.split()) if ours else "",
                "source": {"document": "bsdata", "section": where, "entry": name.strip()},
                "source_id": rule_id,
            }
            if ours and ours.reminder:
                self.rules[key]["reminder"] = ours.reminder
            if ours and ours.applies_to is not None:
                self.rules[key]["applies_to"] = ours.applies_to
            if ours and ours.modifies:
                self.rules[key]["modifies"] = [note.model_dump(exclude_none=True) for note in ours.modifies]
            if ours and not ours.on_cards:  # a note of the data ("Crew"), not a rule a player plays by
                self.rules[key]["applies_to"] = {}
            self.report.counts["rules imported with our summary" if ours else "rules imported by name only"] += 1
        return key

    def given_rules(self, unit_name: str, catalogue: DataFile) -> list[str]:
        """The pack rules the rulebook gives a unit the data names no rule for (unit_rules.yaml: the observers)."""
        return [self.rule_key(name, "", catalogue.name) for name in self.unit_rules.get(unit_name, [])]

    def weapon_key(self, profile: Element, catalogue: DataFile) -> str | None:
        name = (profile.get("name") or "").strip()
        lowered = name.lower()
        if lowered in WEAPON_ALIASES:
            return WEAPON_ALIASES[lowered]
        if lowered in self.pack_weapons:
            return self.pack_weapons[lowered]
        key = "bs-" + slug(name, 70)
        if key in self.weapons:
            return key
        values = {c.get("name"): (c.text or "").strip() for c in profile.findall("characteristics/characteristic")}
        weapon: dict = {"key": key, "name": name, "group": "BattleScribe data"}
        range_text = values.get("Range", "")
        match = re.match(r"^(\d+)\"?$", range_text)
        notes = []
        if match:
            weapon["range"] = int(match.group(1))
        elif range_text:
            notes.append(f"Range {range_text}")
        shots = values.get("Shots", "")
        if DICE.match(shots):
            weapon["shots"] = shots
        elif shots:
            notes.append(f"Shots {shots}")
        pen = values.get("Penetration", "")
        if re.match(r"^[+-]?\d+$", pen):
            weapon["pen"] = int(pen)
        elif pen and pen.upper() != "HE":
            notes.append(f"Pen {pen}")
        rules: list = []
        for part in re.split(r",\s*", values.get("Special Rules", "")):
            part = part.strip()
            if not part:
                continue
            he = re.match(r"^HE \((\d+)\"\)$", part)
            rule = self.pack_rules.get(RULE_ALIASES.get(part.lower(), part.lower()))
            if he:
                rules.append({"rule": "he", "value": f'{he.group(1)}"'})
                weapon.setdefault("he", f'{he.group(1)}"')
            elif rule and rule != "he":
                rules.append(rule)
            else:
                notes.append(part)
        if rules:
            weapon["rules"] = rules
        if self.spotter_rules & {r if isinstance(r, str) else r["rule"] for r in rules}:
            self.indirect_weapons.add(key)
        if notes:
            weapon["notes"] = "; ".join(notes)
        weapon["source"] = {"document": "bsdata", "section": catalogue.name, "entry": name}
        self.weapons[key] = weapon
        self.report.counts["weapons from the data"] += 1
        return key

    # Walking entries ----------------------------------------------------------------------------

    def resolve(self, element: Element, catalogue: DataFile) -> Node | None:
        if element.tag == "entryLink":
            target = self.library.find(element.get("targetId"), catalogue)
            if target is None:
                self.report.skip(
                    catalogue.name, element.get("name") or element.get("id", ""), "link to a missing entry"
                )
                return None
            return Node(target, element)
        return Node(element)

    def children(self, node: Node, catalogue: DataFile) -> list[Node]:
        found = []
        for part in node.parts():
            for child in [
                *part.findall("selectionEntries/selectionEntry"),
                *part.findall("selectionEntryGroups/selectionEntryGroup"),
                *part.findall("entryLinks/entryLink"),
            ]:
                resolved = self.resolve(child, catalogue)
                if resolved is not None:
                    found.append(resolved)
        return found

    def profiles_of(self, node: Node, catalogue: DataFile) -> list[Element]:
        """An entry's profiles: its own and those its info links name."""
        linked = [self.library.find(info.get("targetId"), catalogue) for info in node.info_links("profile")]
        return [*node.profiles(), *(profile for profile in linked if profile is not None)]

    def weapons_of(self, node: Node, catalogue: DataFile) -> list[str]:
        """Weapons an entry's profiles (own or linked) describe; a mounted weapon entry the data gives no
        profile and no contents (a British M5's "Pintle-Mounted HMG (360)") has the one weapon its name names."""
        keys = []
        for profile in self.profiles_of(node, catalogue):
            if profile.get("typeName") in ("Weapon", "Artillery"):
                key = self.weapon_key(profile, catalogue)
                if key and key not in keys:
                    keys.append(key)
        if not keys and not node.is_group and mount_of(node.name) and not self.children(node, catalogue):
            named = {key for abbreviation, key in self.weapon_abbreviations() if abbreviation.search(node.name)}
            if len(named) == 1 and node.id not in self.named_weapons:
                self.named_weapons.add(node.id)
                self.report.pattern("a mounted weapon entry with no profile: the weapon its name names")
            keys = list(named) if len(named) == 1 else keys
        return keys

    def weapon_abbreviations(self) -> list[tuple[re.Pattern, str]]:
        """The base pack's weapons by the abbreviation their names end in ("Heavy machine gun (HMG)")."""
        found = [(re.search(r"\((\w+)\)$", name), key) for name, key in self.pack_weapons.items()]
        return [(re.compile(rf"\b{re.escape(m.group(1))}\b", re.I), key) for m, key in found if m]

    def quality_profile(self, node: Node, catalogue: DataFile) -> str | None:
        """The quality a man's "Unit Quality" profile names (a Canadian sniper's Veteran), if any."""
        for profile in self.profiles_of(node, catalogue):
            if profile.get("typeName") == "Unit Quality":
                return quality_of(profile.get("name", ""))
        return None

    def vehicle_profile(self, node: Node, catalogue: DataFile) -> dict[str, str] | None:
        for profile in self.profiles_of(node, catalogue):
            if profile.get("typeName") == "Vehicle":
                return {
                    c.get("name"): (c.text or "").strip() for c in profile.findall("characteristics/characteristic")
                }
        return None

    def rule_keys_of(self, node: Node, catalogue: DataFile, summarised: bool = False) -> list[str]:
        """The pack rules an entry links; with `summarised`, only those our packs word (an option's rules,
        printed on the card of a unit taking it, where a bare name would tell the player nothing)."""
        keys = []
        for info in node.info_links("rule"):
            target = self.library.find(info.get("targetId"), catalogue)
            name = (target.get("name") if target is not None else None) or info.get("name") or ""
            if name and (not summarised or self.has_summary(name)):
                keys.append(self.rule_key(name, info.get("targetId", ""), catalogue.name))
        for rule in node.rules():
            if not summarised or self.has_summary(rule.get("name", "")):
                keys.append(self.rule_key(rule.get("name", ""), rule.get("id", ""), catalogue.name))
        return keys

    def base_rule(self, name: str) -> str | None:
        """The base pack's rule of that name (or alias), if any."""
        lowered = re.sub(r"\s+", " ", name.strip().lower())
        return self.pack_rules.get(RULE_ALIASES.get(lowered, lowered)) or self.pack_rules.get(lowered)

    def has_summary(self, name: str) -> bool:
        """A rule the base pack holds or our summaries word."""
        return bool(self.base_rule(name)) or ("bs-" + slug(name, 70)) in self.rule_summaries

    def visible_in(self, node: Node, army: Army, beside: frozenset[str] = frozenset()) -> list[str]:
        """The theatre army keys an entry shows in (evaluating its hidden modifiers), with the entries
        `beside` it in the force chosen too."""
        shown = []
        for selector_id, key, _ in army.selector_ids:
            selected = {selector_id, self.force_id, *beside}
            hidden = node.hidden
            for modifier in node.modifiers():
                if modifier.get("field") == "hidden" and conditions_hold(modifier, selected):
                    hidden = modifier.get("value") == "true"
            if not hidden:
                shown.append(key)
        return shown

    def constraint_value(self, node: Node, constraint: Element, selected: set[str]) -> int:
        return constraint_value(node, constraint, selected, self.report)

    def modified_value(self, node: Node, constraint: Element, selected: set[str]) -> float:
        return modified_value(node, constraint, selected, self.report)

    def citation(self, catalogue: DataFile, node: Node, what: str) -> dict:
        return {"source": SOURCE, "entry": f"{catalogue.name}: {node.id} ({what})"}
