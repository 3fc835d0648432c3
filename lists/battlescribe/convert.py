"""Converting BattleScribe's Bolt Action data into pack sections.

Each catalogue becomes a nation army holding its units; each theatre selector
becomes an army list that borrows the units its conditions un-hide. Every
unit, option, army, organisation and rule keeps its BattleScribe id as
`source_id`; every cost cites its catalogue and entry id. Rule texts are never
carried over: a rule the `bolt-action-2e` pack has links to that summary, any
other takes the project's own summary from `rule_summaries.yaml`, or is
imported by name only when that file has none.

What the converter does not understand is not guessed at: it is counted and
listed in the import report with the reason.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from lists.battlescribe.carriers import name_carriers
from lists.battlescribe.costs import theatre_costs
from lists.battlescribe.force_limits import force_limits, force_organisations, modified_constraint_ids
from lists.battlescribe.mounts import describe_vehicle
from lists.battlescribe.reader import DataFile, Library
from lists.battlescribe.summaries import RuleSummary

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


@dataclass
class Report:
    """What was converted and what was not, with reasons."""

    counts: Counter = field(default_factory=Counter)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # where, what, why
    patterns: Counter = field(default_factory=Counter)  # patterns recognised but not carried, by reason

    def skip(self, where: str, what: str, why: str) -> None:
        self.skipped.append((where, what, why))

    def pattern(self, why: str) -> None:
        self.patterns[why] += 1


@dataclass
class Node:
    """An entry or group as the roster sees it: a link merged with its target."""

    element: Element
    link: Element | None = None

    @property
    def is_group(self) -> bool:
        return self.element.tag == "selectionEntryGroup"

    @property
    def name(self) -> str:
        """The entry's name, its spaces folded (the data's "Veteran  Soldier")."""
        linked = self.link.get("name") if self.link is not None else None
        return " ".join((linked or self.element.get("name") or "").split())

    @property
    def id(self) -> str:
        return (self.link if self.link is not None else self.element).get("id", "")

    @property
    def entry_type(self) -> str:
        return self.element.get("type", "")

    def parts(self) -> list[Element]:
        return [self.element] if self.link is None else [self.link, self.element]

    @property
    def cost(self) -> float:
        """Points of the entry: a link's own cost plus its target's (BattleScribe adds them)."""
        total = 0.0
        for part in self.parts():
            for cost in part.findall("costs/cost"):
                if cost.get("typeId") == "points":
                    total += number(cost.get("value"))
        return total

    def limit(self, kind: str) -> float | None:
        """The min or max selections at parent scope; a link's own constraint wins."""
        for part in reversed(self.parts()):
            for constraint in part.findall("constraints/constraint"):
                if (
                    constraint.get("type") == kind
                    and constraint.get("field") == "selections"
                    and constraint.get("scope") == "parent"
                ):
                    return number(constraint.get("value"))
        return None

    def constraints(self) -> list[Element]:
        return [c for part in self.parts() for c in part.findall("constraints/constraint")]

    def modifiers(self) -> list[Element]:
        return [m for part in self.parts() for m in part.findall("modifiers/modifier")]

    @property
    def hidden(self) -> bool:
        return any(part.get("hidden") == "true" for part in self.parts())

    def info_links(self, kind: str) -> list[Element]:
        return [i for part in self.parts() for i in part.findall("infoLinks/infoLink") if i.get("type") == kind]

    def profiles(self) -> list[Element]:
        return [p for part in self.parts() for p in part.findall("profiles/profile")]

    def rules(self) -> list[Element]:
        return [r for part in self.parts() for r in part.findall("rules/rule")]


def conditions_hold(element: Element, selected: set[str]) -> bool:
    """Evaluate a modifier's conditions with `selected` ids chosen once and nothing else.

    The data's conditions count selections (equalTo, greaterThan, atLeast,
    lessThan, instanceOf...); the theatre selector and the force are the
    selections that decide what an army list shows. A modifier's own
    conditions and groups must all hold; a group is "and" or "or".
    """
    return _holds(element, selected, "and")


def _holds(element: Element, selected: set[str], kind: str | None) -> bool:
    results = [_condition(c, selected) for c in element.findall("conditions/condition")]
    results += [_holds(g, selected, g.get("type")) for g in element.findall("conditionGroups/conditionGroup")]
    return any(results) if kind == "or" else all(results)


def _condition(condition: Element, selected: set[str]) -> bool:
    count = 1.0 if condition.get("childId") in selected else 0.0
    value = number(condition.get("value"))
    return {
        "equalTo": count == value,
        "notEqualTo": count != value,
        "greaterThan": count > value,
        "lessThan": count < value,
        "atLeast": count >= value,
        "atMost": count <= value,
        "instanceOf": count > 0,
        "notInstanceOf": count == 0,
    }.get(condition.get("type", ""), False)


def signed(modifier: Element) -> float:
    """A points modifier's change: an increment's value, a decrement's value taken off."""
    value = number(modifier.get("value"))
    return -value if modifier.get("type") == "decrement" else value


def mentions(modifier: Element, ids: set[str]) -> bool:
    return any(c.get("childId") in ids for c in modifier.iter("condition"))


@dataclass
class Army:
    key: str
    name: str
    catalogue: DataFile
    source_id: str
    selector_ids: list[tuple[str, str, str]] = field(default_factory=list)  # (id, key, name)


class Converter:
    """Turns a parsed BattleScribe library into pack sections (plain dicts, ready for YAML)."""

    def __init__(self, library: Library, force_id: str):
        self.library = library
        self.report = Report()
        self.force_id = force_id  # the force rosters are evaluated in (Reinforced Platoon)
        # What the base pack (bolt-action-2e) has, filled by the caller:
        self.pack_rules: dict[str, str] = {}  # lower-case name -> rule key
        self.pack_weapons: dict[str, str] = {}  # lower-case name -> weapon key
        self.rule_summaries: dict[str, RuleSummary] = {}  # rule key -> the project's summary (rule_summaries.yaml)
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

    def rule_key(self, name: str, rule_id: str, where: str) -> str:
        """The pack rule for a BattleScribe rule name: the base pack's, else an import with our summary or by name."""
        lowered = re.sub(r"\s+", " ", name.strip().lower())
        known = self.pack_rules.get(RULE_ALIASES.get(lowered, lowered)) or self.pack_rules.get(lowered)
        if known:
            return known
        key = "bs-" + slug(name, 70)
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
            self.report.counts["rules imported with our summary" if ours else "rules imported by name only"] += 1
        return key

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
        """Weapons an entry's profiles (own or linked) describe."""
        keys = []
        for profile in self.profiles_of(node, catalogue):
            if profile.get("typeName") in ("Weapon", "Artillery"):
                key = self.weapon_key(profile, catalogue)
                if key and key not in keys:
                    keys.append(key)
        return keys

    def vehicle_profile(self, node: Node, catalogue: DataFile) -> dict[str, str] | None:
        for profile in self.profiles_of(node, catalogue):
            if profile.get("typeName") == "Vehicle":
                return {
                    c.get("name"): (c.text or "").strip() for c in profile.findall("characteristics/characteristic")
                }
        return None

    def rule_keys_of(self, node: Node, catalogue: DataFile) -> list[str]:
        keys = []
        for info in node.info_links("rule"):
            target = self.library.find(info.get("targetId"), catalogue)
            name = (target.get("name") if target is not None else None) or info.get("name") or ""
            if name:
                keys.append(self.rule_key(name, info.get("targetId", ""), catalogue.name))
        for rule in node.rules():
            keys.append(self.rule_key(rule.get("name", ""), rule.get("id", ""), catalogue.name))
        return keys

    def visible_in(self, node: Node, army: Army) -> list[str]:
        """The theatre army keys an entry shows in (evaluating its hidden modifiers)."""
        shown = []
        for selector_id, key, _ in army.selector_ids:
            selected = {selector_id, self.force_id}
            hidden = node.hidden
            for modifier in node.modifiers():
                if modifier.get("field") == "hidden" and conditions_hold(modifier, selected):
                    hidden = modifier.get("value") == "true"
            if not hidden:
                shown.append(key)
        return shown

    def constraint_value(self, node: Node, constraint: Element, selected: set[str]) -> int:
        """A constraint's value once the modifiers whose conditions hold for these selections are applied."""
        return max(0, int(self.modified_value(node, constraint, selected)))

    def modified_value(self, node: Node, constraint: Element, selected: set[str]) -> float:
        """A constraint's value after its modifiers, unclamped: BattleScribe's -1 means no limit."""
        value = number(constraint.get("value"))
        for modifier in node.modifiers():
            if modifier.get("field") != constraint.get("id") or not conditions_hold(modifier, selected):
                continue
            if modifier.find("repeats/repeat") is not None:
                self.report.pattern("a limit that repeats with other selections: not carried")
                continue
            change = number(modifier.get("value"))
            value = {"set": change, "increment": value + change, "decrement": value - change}.get(
                modifier.get("type", ""), value
            )
        return value

    def citation(self, catalogue: DataFile, node: Node, what: str) -> dict:
        return {"source": SOURCE, "entry": f"{catalogue.name}: {node.id} ({what})"}


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


@dataclass
class Part:
    """What a subtree of entries adds to a unit."""

    points: float = 0.0
    per_extra: float | None = None
    min_size: int | None = None
    max_size: int | None = None
    composition: list[dict] = field(default_factory=list)
    weapons: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    options: list[dict] = field(default_factory=list)
    qualities: dict[str, Part] = field(default_factory=dict)
    armies: list[str] = field(default_factory=list)  # a quality's own part: the army lists showing it, if not all
    army_changes: dict[str, float] = field(default_factory=dict)  # army key -> what its theatre adds to the cost
    # A quality's own cost set while an option is taken (a Panther with IR equipment): option entry id -> change.
    option_changes: dict[str, float] = field(default_factory=dict)


class UnitBuilder:
    """Builds the pack unit(s) of one entry a player can add."""

    def __init__(self, converter: Converter, army: Army, catalogue: DataFile, root: Node):
        self.converter = converter
        self.report = converter.report
        self.army = army
        self.catalogue = catalogue
        self.root = root
        self.kind = "infantry"
        self.skip_ids: set[str] = set()  # groups of nested units, built as units of their own
        self.unit_shown: list[str] = []  # the theatre army lists that show the unit
        # The per-man trick: models raise their cost when an option is taken (option id -> points per man).
        self.per_man: dict[str, float] = {}
        for part in root.parts():
            for holder in part.iter("selectionEntry"):
                for modifier in holder.findall("modifiers/modifier"):
                    if modifier.get("field") == "points" and modifier.get("type") in ("increment", "decrement"):
                        for condition in modifier.iter("condition"):
                            if condition.get("childId") != holder.get("id"):  # a man's, not the option's own
                                self.per_man.setdefault(condition.get("childId", ""), signed(modifier))
        # Options that cancel their own cost: the increments they trigger on the men are their price per man.
        self.per_man_options = {
            element.get("id", "")
            for part in root.parts()
            for element in part.iter("selectionEntry")
            for modifier in element.findall("modifiers/modifier")
            if modifier.get("field") == "points"
            and modifier.get("type") in ("increment", "decrement")
            and mentions(modifier, {element.get("id", "")})
        }
        # Where each entry sits, for the scope of a condition: its selection's parent and every entry above it.
        self.parent_of: dict[str, str] = {}
        self.above: dict[str, set[str]] = {}
        self.names: dict[str, str] = {}
        # The men whose points change while an entry is taken: entry id -> (man ids, modifier, least, most).
        self.paid_by: dict[str, list[tuple[set[str], Element, float, float | None]]] = {}
        self.map_tree(root, set(), None)
        self.per_model_ids: set[str] = set()  # per-man options priced per man (settle_per_man)
        self.option_keys: dict[str, str] = {}  # entry id -> the key of the option made from it
        self.primary_category = ""  # the unit's primary category id, set by the caller

    def map_tree(self, node: Node, above: set[str], parent: str | None) -> None:
        """Record each entry's parent selection and ancestors (groups are not selections); links count as both ids."""
        ids = {node.id, node.element.get("id", "")}
        if not node.is_group:
            for entry_id in ids:
                if entry_id in self.above:
                    return  # a shared entry reached twice: its first place is kept
                self.above[entry_id] = above
                self.parent_of[entry_id] = parent or ""
                self.names[entry_id] = node.name
            for modifier in node.modifiers():
                if modifier.get("field") == "points" and modifier.get("type") in ("increment", "decrement"):
                    for condition in modifier.iter("condition"):
                        if condition.get("childId") not in ids:
                            paid = (ids, modifier, node.limit("min") or 0, node.limit("max"))
                            self.paid_by.setdefault(condition.get("childId", ""), []).append(paid)
            above, parent = above | ids, node.element.get("id", "")
        for child in self.converter.children(node, self.catalogue):
            self.map_tree(child, above, parent)

    def men_share(self, option_id: str) -> tuple[float, list[str]] | None:
        """Who pays while a per-man option is taken: what the men of a fixed number (an NCO) add, and the
        men of a varying number who pay too; None when a man's condition is not understood.

        A man whose condition never holds in its scope pays nothing, as in BattleScribe.
        """
        fixed, varying = 0.0, []
        for man_ids, modifier, least, most in self.paid_by.get(option_id, []):
            applies, _ = self.when(modifier, man_ids)
            if applies == "never":
                continue
            if applies != "with":
                return None
            if least == most:
                fixed += least * signed(modifier)
            else:
                varying += sorted(man_ids)
        return fixed, varying

    def settle_per_man(self, options: list[dict]) -> None:
        """Price each per-man option: per man when men the squad may add pay for it (every man does, as the
        data means it); else per unit, its own cost plus what its fixed men add, each man one adds as an
        option paying through his own `points_with`."""
        for option in options:
            trick = option.pop("_per_man", None)
            if trick is None:
                continue
            share = self.men_share(trick["id"])
            if share is None or any(i not in self.option_keys for i in share[1]):
                option["points"] = whole(trick["each"])
                option.pop("max", None)
                if trick["own"]:
                    option["points_once"] = whole(trick["own"])  # what BattleScribe charges for the option itself
                # "per" follows "points" in the pack's order of fields.
                option |= {
                    "per": "model",
                    **{k: option.pop(k) for k in list(option) if k not in ("key", "name", "points")},
                }
                self.per_model_ids.update(option["_ids"])
                if trick["own"] == 0:
                    self.report.pattern("per-man option (cancels its own cost, adds a cost per man)")
                else:
                    self.report.pattern("a per-man option whose own cost does not cancel: that cost paid once on top")
            else:
                option["points"] = whole(trick["own"] + share[0])
                self.report.pattern("a per-man option only some men pay for: their share priced with the option")

    def when(self, modifier: Element, holder: set[str]) -> tuple[str, str]:
        """When a points modifier of an entry applies: ("always", ""), ("never", ""), ("quality", name),
        ("with", other entry id) or ("unknown", "").

        The data's conditions count one entry's selections inside a scope entry above the holder: the
        entry itself (it applies whenever it is bought), a quality of the unit, or another option.
        """
        conditions = list(modifier.iter("condition"))
        if modifier.find("repeats/repeat") is not None or len(conditions) > 1:
            return "unknown", ""
        if not conditions:
            return "always", ""
        condition = conditions[0]
        counted, scope, kind = condition.get("childId", ""), condition.get("scope", ""), condition.get("type")
        if scope == "primary-category" and kind in ("instanceOf", "notInstanceOf"):
            return ("always" if (counted == self.primary_category) == (kind == "instanceOf") else "never"), ""
        taken = (kind == "greaterThan" and number(condition.get("value")) == 0) or (
            kind == "atLeast" and number(condition.get("value")) == 1
        )
        if not taken or condition.get("field") != "selections":
            return "unknown", ""
        if counted not in self.above:
            return "never", ""  # an entry outside the unit: never selected in it
        holder_above = set().union(*(self.above.get(i, set()) for i in holder))
        if scope not in holder_above | holder:
            return "never", ""  # a scope the holder is not inside: BattleScribe finds no such selection
        inside = (
            self.parent_of[counted] == scope
            if condition.get("includeChildSelections") != "true"
            else (scope in self.above[counted])
        )
        if not inside:
            return "never", ""
        if counted in holder:
            return "always", ""
        if quality_name(self.names[counted]) in QUALITIES:
            return "quality", quality_name(self.names[counted])
        return "with", counted

    def mandatory_cost(self, node: Node) -> float:
        """What an entry's compulsory contents cost (a weapon link with at least one selection)."""
        total = 0.0
        for child in self.converter.children(node, self.catalogue):
            least = child.limit("min") or 0
            if not child.is_group and least >= 1:
                total += least * (child.cost + self.mandatory_cost(child))
        return total

    def walk(self, node: Node, part: Part) -> Part:
        for child in self.converter.children(node, self.catalogue):
            if child.id in self.skip_ids:
                continue
            if child.is_group:
                self.group(child, part)
            else:
                self.entry(child, part)
        return part

    def group(self, group: Node, part: Part) -> None:
        entries = [c for c in self.converter.children(group, self.catalogue) if not c.is_group]
        names = [quality_name(c.name) for c in entries]
        low, high = group.limit("min") or 0, group.limit("max")
        if entries and all(name in QUALITIES for name in names):
            for child in entries:
                quality = Part(points=child.cost)
                if any(m.get("field") == "hidden" for m in child.modifiers()) or child.hidden:
                    shown = [key for key in self.converter.visible_in(child, self.army) if key in self.unit_shown]
                    if not shown:
                        self.report.pattern("a quality hidden in every list showing the unit: left out")
                        continue
                    if len(shown) < len(self.unit_shown):
                        quality.armies = shown
                        self.report.pattern("a quality some theatre lists hide: offered only in the others")
                quality.army_changes = self.theatre_changes(child)
                quality.option_changes = self.option_changes(child)
                self.walk(child, quality)
                part.qualities[quality_name(child.name)] = quality
            self.report.pattern("price group (Inexperienced/Regular/Veteran) read as qualities")
            return
        if low >= 1 and (high is None or high > 1):
            self.models(group, entries, part, int(low), None if high is None else int(high))
            return
        exclusive = slug(group.name) if high == 1 else None
        if exclusive and low >= 1:
            self.compulsory_choice(group, entries, part, exclusive)
            return
        for child in entries:
            self.option(child, part, exclusive)

    def theatre_changes(self, node: Node) -> dict[str, float]:
        """How much each theatre list showing the unit changes the entry's own cost by (a set price)."""
        selectors = [(selector_id, key) for selector_id, key, _ in self.army.selector_ids if key in self.unit_shown]
        costs = theatre_costs(node.cost, node.modifiers(), selectors, self.converter.force_id, conditions_hold)
        if costs:
            self.report.pattern("a cost some theatre lists set or change: each theatre list's own price")
        return {key: cost - node.cost for key, cost in costs.items()}

    def option_changes(self, node: Node) -> dict[str, float]:
        """How much a quality entry's cost changes while one option is taken (a set price), by the option's
        entry id: the option costs that much more for a unit of that quality."""
        theatre_ids = {selector_id for selector_id, _, _ in self.army.selector_ids} | {self.converter.force_id}
        changes = {}
        for modifier in node.modifiers():
            conditions = list(modifier.iter("condition"))
            if modifier.get("field") != "points" or modifier.find("repeats/repeat") is not None or len(conditions) != 1:
                continue
            counted = conditions[0].get("childId", "")
            taken = conditions[0].get("type") in ("atLeast", "greaterThan", "equalTo") and counted not in theatre_ids
            if not taken or number(conditions[0].get("value")) > 1:
                continue
            value = number(modifier.get("value"))
            kind = modifier.get("type")
            change = {"set": value - node.cost, "increment": value, "decrement": -value}.get(kind)
            if change:
                changes[counted] = change
        return changes

    def compulsory_choice(self, group: Node, entries: list[Node], part: Part, key: str) -> None:
        """One of several, compulsory: the default is part of the unit, the others options replacing it."""
        wanted = group.element.get("defaultSelectionEntryId")
        default = next((c for c in entries if wanted in (c.id, c.element.get("id"))), entries[0])
        cost = default.cost + self.mandatory_cost(default)
        weapons = self.contents_weapons(default)
        part.points += cost
        part.weapons += weapons
        part.rules += [r for r in self.converter.rule_keys_of(default, self.catalogue) if r not in part.rules]
        for child in entries:
            if child is not default:
                self.option(child, part, key, instead_of=(cost, weapons))
        self.report.pattern("a compulsory choice: the default in the unit, the others options replacing it")

    def contents_weapons(self, node: Node) -> list[str]:
        """Weapons an entry and its direct contents describe."""
        weapons = self.converter.weapons_of(node, self.catalogue)
        for child in self.converter.children(node, self.catalogue):
            if not child.is_group:
                weapons += [w for w in self.converter.weapons_of(child, self.catalogue) if w not in weapons]
        return weapons

    def models(self, group: Node, entries: list[Node], part: Part, low: int, high: int | None) -> None:
        """A group of model entries: the unit's size range, its men, and the cost of one more man."""
        part.min_size, part.max_size = low, high
        counted = 0
        # Men the squad starts with come first: the first of them that may be added sets the cost per extra man.
        for child in sorted(entries, key=lambda c: (c.limit("min") or 0) == 0):
            count = int(child.limit("min") or 0)
            most = child.limit("max")
            each = child.cost + self.mandatory_cost(child)
            if count == 0 and part.per_extra is not None and each != part.per_extra:
                # A man with a different weapon (Soldier with LMG): an option adding him at his own cost,
                # one of the squad's men as its size range counts them.
                before = len(part.options)
                self.option(child, part, None)
                for option in part.options[before:]:
                    option["in_size"] = True
                self.report.pattern("a man of another cost in a squad read as an option adding him")
                continue
            part.points += count * each
            counted += count
            weapons = self.converter.weapons_of(child, self.catalogue)
            for grandchild in self.converter.children(child, self.catalogue):
                if not grandchild.is_group and (grandchild.limit("min") or 0) >= 1:
                    weapons += [w for w in self.converter.weapons_of(grandchild, self.catalogue) if w not in weapons]
            line = {"count": count, "role": role_of(child.name, self.kind), "name": child.name, "weapons": weapons}
            part.composition.append(line)
            if most is None or most > count:
                if part.per_extra is not None and part.per_extra != each:
                    self.report.pattern("men of different costs in one squad: the first extra man's cost used")
                elif part.per_extra is None:
                    part.per_extra = each
                    line["extra"] = True
        extra_line = next((line for line in part.composition if line.get("extra")), None)
        if counted < low and extra_line is not None and part.per_extra is not None:
            # The group's least size rules: the men it adds are the kind that may be added.
            extra_line["count"] += low - counted
            part.points += (low - counted) * part.per_extra
            self.report.pattern("a squad's least size above its men's least counts: filled with the men one may add")
        elif counted != low:
            self.report.pattern("a squad's least size differs from the sum of its men's least counts")
        for line in part.composition:
            line.pop("extra", None)
        self.report.pattern("model group read as the unit's size and cost per extra man")

    def entry(self, child: Node, part: Part) -> None:
        least = child.limit("min") or 0
        if least >= 1:
            part.points += least * child.cost
            # Each compulsory entry carries its own weapons: a coaxial and a hull MMG are two MMGs.
            part.weapons += self.converter.weapons_of(child, self.catalogue) * int(least)
            part.rules += [r for r in self.converter.rule_keys_of(child, self.catalogue) if r not in part.rules]
            self.walk(child, part)
            return
        self.option(child, part, None)

    def option(
        self, child: Node, part: Part, group: str | None, instead_of: tuple[float, list[str]] | None = None
    ) -> None:
        """An optional entry as a unit option; `instead_of` is the cost and weapons of the default it replaces."""
        where = f"{self.catalogue.name}: {self.root.name} / {child.name}"
        shown = [key for key in self.converter.visible_in(child, self.army) if key in self.unit_shown]
        if not shown:
            self.report.skip(where, child.id, "hidden in every theatre selector showing the unit")
            return
        # Its own limit in each theatre list: some lists raise a limit of 0 (Granatieri officers), or lower one.
        limits = [c for c in child.constraints() if c.get("type") == "max" and c.get("scope") == "parent"]
        selectors = {key: selector_id for selector_id, key, _ in self.army.selector_ids}
        most_in = {
            key: min(
                (self.converter.constraint_value(child, c, {selectors[key], self.converter.force_id}) for c in limits),
                default=None,
            )
            for key in shown
        }
        shown = [key for key in shown if most_in[key] != 0]
        if not shown:
            self.report.skip(where, child.id, "its own constraints allow none of it (max 0)")
            return
        if len({most_in[key] for key in shown}) > 1:
            self.report.pattern("an option limit some theatres change: the highest of them used")
        contents = self.mandatory_cost(child)  # a set price is the entry's own: its compulsory contents still add
        points = child.cost + contents
        ids = {child.id, child.element.get("id", "")}
        by_quality: dict[str, float] = {}  # quality -> the option's price, or its change with "+" below
        quality_change: dict[str, float] = {}
        with_options: dict[str, float] = {}
        excludes: list[str] = []  # options whose taking sets this one's limit to 0
        for modifier in child.modifiers():
            target = modifier.get("field")
            if target == "hidden":
                continue
            if target != "points":
                if self.disallowed(modifier, child):
                    self.report.skip(where, child.id, "a modifier sets its own limit to none (max 0)")
                    return
                self.limit_modifier(modifier, child, ids, excludes)
                continue
            applies, on = self.when(modifier, ids)
            if applies == "always" and modifier.get("type") == "set":
                points = number(modifier.get("value")) + contents
                self.report.pattern("a points value set on an option (unconditionally or by its category)")
            elif applies == "always":
                points += signed(modifier)
                self.report.pattern("an option's points changed whenever it is taken")
            elif applies == "quality" and modifier.get("type") == "set":
                by_quality[on] = number(modifier.get("value")) + contents
                self.report.pattern("an option priced by the unit's quality")
            elif applies == "quality":
                quality_change[on] = quality_change.get(on, 0) + signed(modifier)
                self.report.pattern("an option priced by the unit's quality")
            elif applies == "with" and modifier.get("type") != "set":
                with_options[on] = with_options.get(on, 0) + signed(modifier)
            elif applies == "never":
                self.report.pattern(
                    "a point change whose condition never holds in its scope (no effect in BattleScribe)"
                )
            else:
                self.report.pattern("conditional point change not carried (increment/decrement/set points)")
        per_man = next((self.per_man[i] for i in ids if i in self.per_man), None)
        trick = None
        if ids & self.per_man_options and per_man is not None:
            # Priced once the unit's men are known (settle_per_man).
            trick = {"id": next(iter(sorted(ids & self.per_man_options))), "each": per_man, "own": points}
        if points != int(points):
            self.report.skip(where, child.id, f"a fractional cost {points}")
            return
        weapons = self.contents_weapons(child)
        if instead_of is not None:
            points -= instead_of[0]
        most = max((most_in[key] for key in shown if most_in[key] is not None), default=None)
        if most is None:
            most = self.outer_limit(child, group)
        keys = {option["key"] for option in part.options}
        key = slug(child.name)
        suffix = 2
        while key in keys:
            key, suffix = f"{slug(child.name)}-{suffix}", suffix + 1
        option: dict = {"key": key, "name": child.name, "points": whole(points)}
        if most is not None and most >= 1:
            option["max"] = int(most)
        if group:
            option["group"] = group
        if weapons:
            option["weapons"] = weapons
        if instead_of is not None and instead_of[1]:
            option["replaces"] = instead_of[1]
        rank = rank_of(child.name)
        if rank:
            option["officer_rank"] = rank
        offset = instead_of[0] if instead_of is not None else 0
        prices = {q: value - offset for q, value in by_quality.items()}
        prices |= {q: prices.get(q, points) + change for q, change in quality_change.items()}
        if prices:
            option["_by_quality"] = prices
        if with_options:
            option["_with"] = with_options
        if excludes:
            option["_excludes"] = excludes
        if child.entry_type == "model" or MAN.search(child.name) or child.name.strip().lower() == "spotter":
            option["adds_models"] = [{"count": 1, "role": role_of(child.name, self.kind), "name": child.name}]
        if len(shown) < len(self.unit_shown):
            option["armies"] = shown
        option["citation"] = self.converter.citation(self.catalogue, child, child.name)
        option["source_id"] = child.id
        option["_ids"] = sorted(ids)
        if trick is not None:
            option["_per_man"] = trick
        for entry_id in ids:
            self.option_keys.setdefault(entry_id, key)
        part.options.append(option)
        self.report.counts["options"] += 1

    def outer_limit(self, child: Node, group: str | None) -> float | None:
        """An option with no limit of its own: one of a one-of group is taken once, and one a force or
        roster limits (an Intelligence Officer per force) is taken at most that often by one unit."""
        limits = [
            number(c.get("value"))
            for c in child.constraints()
            if c.get("type") == "max" and c.get("scope") in ("force", "roster") and c.get("field") == "selections"
        ]
        if group is not None:
            limits.append(1.0)
        if limits:
            self.report.pattern("an option with no limit of its own: its group's or its force's limit used")
        return min(limits, default=None)

    def limit_modifier(self, modifier: Element, child: Node, ids: set[str], excludes: list[str]) -> None:
        """Read a modifier of an option's own limits or name: carried, or counted with the reason it is not."""
        target, kind, value = modifier.get("field"), modifier.get("type"), number(modifier.get("value"))
        own = {c.get("id"): c.get("type") for c in child.constraints()} | {"maxSelections": "max"}
        applies, on = self.when(modifier, ids)
        if target == "name":
            self.report.pattern("modifier of the name not carried (the data's own name kept)")
        elif own.get(target) == "min" and kind == "set" and value == 0 and applies == "always":
            self.report.pattern("an entry's own least number set to 0: read as the option it is")
        elif own.get(target) == "max" and kind == "set" and value == 0 and applies == "with":
            excludes.append(on)
        elif own.get(target) == "max" and all(c.get("scope") == "force" for c in modifier.iter("condition")):
            pass  # a theatre list's own limit, read with the option's limits
        else:
            self.report.pattern(
                "modifier of an option's limit not carried (it grows with other selections, or depends on"
                " the unit's category or on another option's count)"
            )

    def disallowed(self, modifier: Element, child: Node) -> bool:
        """A modifier that always sets one of the entry's own max limits to 0: the option cannot be taken."""
        limits = {c.get("id") for c in child.constraints() if c.get("type") == "max"}
        return (
            modifier.get("type") == "set"
            and modifier.get("field") in limits | {"maxSelections"}
            and number(modifier.get("value")) == 0
            and self.when(modifier, {child.id, child.element.get("id", "")})[0] == "always"
        )

    def build(self, name_node: Node, body: list[Node], category: str, category_kind: str) -> dict | None:
        """One pack unit from the entries that make it up (an outer entry and, for officers, a rank)."""
        converter = self.converter
        where = f"{self.catalogue.name}: {name_node.name}"
        vehicle = None
        for node in body:
            vehicle = vehicle or converter.vehicle_profile(node, self.catalogue)
        kind = UNIT_KINDS[category_kind]
        if vehicle is not None and kind not in ("vehicle", "transport"):
            kind = "vehicle"
        self.kind = kind
        part = Part()
        for node in body:
            part.points += node.cost
            for key, change in self.theatre_changes(node).items():
                part.army_changes[key] = part.army_changes.get(key, 0) + change
            part.weapons += [w for w in converter.weapons_of(node, self.catalogue) if w not in part.weapons]
            part.rules += [r for r in converter.rule_keys_of(node, self.catalogue) if r not in part.rules]
            self.walk(node, part)
        for options in [part.options, *(extra.options for extra in part.qualities.values())]:
            self.settle_per_man(options)
        unit: dict = {
            "key": self.unit_key(name_node.name),
            "name": name_node.name,
            "army": self.army.key,
            "category": category,
            "kind": kind,
        }
        composition = list(part.composition)
        qualities = []
        quality_options: dict[tuple[str, str, int], dict] = {}  # (key, per, points_once) -> the option first met
        ordered = sorted(part.qualities.items(), key=lambda item: QUALITIES.index(item[0]))
        shape = quality_shape(part, ordered)
        for quality, extra in ordered:
            composition = composition or extra.composition
            per_extra = extra.per_extra if extra.per_extra is not None else part.per_extra
            cost = part.points + extra.points
            entry: dict = {"quality": quality, "points": whole(cost)}
            if per_extra is not None and (part.min_size or extra.min_size) is not None:
                entry["per_extra_model"] = whole(per_extra)
            if extra.armies:
                entry["armies"] = extra.armies
            entry |= own_shape(shape, extra)
            changes = {key: part.army_changes.get(key, 0) + extra.army_changes.get(key, 0) for key in self.unit_shown}
            if any(changes.values()):
                entry["army_points"] = {key: whole(cost + change) for key, change in sorted(changes.items()) if change}
            entry["citation"] = {"source": SOURCE, "entry": f"{self.catalogue.name}: {name_node.id} ({quality})"}
            qualities.append(entry)
            part.min_size = part.min_size if part.min_size is not None else extra.min_size
            part.max_size = part.max_size if part.max_size is not None else extra.max_size
            self.merge_quality_options(part.options, quality_options, quality, extra.options)
            part.weapons += [w for w in extra.weapons if w not in part.weapons]
        for option in quality_options.values():
            prices = option.pop("_offered")
            if len(prices) < len(part.qualities):
                option["qualities"] = [q for q in QUALITIES if q in prices]
                self.report.pattern("an option only some qualities offer: limited to them")
            if len(set(prices.values())) > 1:
                option["_by_quality"] = prices | option.get("_by_quality", {})
            apply_quality_max(option, option.pop("_max_by"))
        if not qualities:
            named = {quality_of(line["name"]) for line in composition} - {None}
            citation = {"source": SOURCE, "entry": f"{self.catalogue.name}: {name_node.id} ({name_node.name})"}
            if len(named) == 1:
                entry = {"quality": named.pop(), "points": whole(part.points)}
                if part.per_extra is not None and part.min_size is not None:
                    entry["per_extra_model"] = whole(part.per_extra)
                entry["citation"] = citation
                qualities.append(entry)
                self.report.pattern("quality read from the men's names (Regular NCO, Regular Soldier)")
            elif part.points == 0:
                self.report.skip(where, name_node.id, "no price found (a structure the converter does not read)")
                return None
            else:
                unit["points"] = whole(part.points)
                unit["citation"] = citation
        if qualities:
            unit["qualities"] = qualities
        if not composition:
            composition = self.default_composition(name_node, kind, part, where)
        elif part.weapons:
            # Weapons every man of the unit shares (a team's weapon) ride on the first line.
            composition[0]["weapons"] = composition[0]["weapons"] + [
                w for w in part.weapons if w not in composition[0]["weapons"]
            ]
        for line in composition:
            line["weapons"] = counted(line["weapons"])
        if len(qualities) > 1:
            # The men are listed from the first quality's entry: "Inexperienced NCO" is any quality's NCO.
            composition = [line | {"name": without_quality(line["name"])} for line in composition]
        unit["composition"] = [{k: v for k, v in line.items() if v != []} for line in composition]
        if part.min_size is not None:
            unit["min_size"] = part.min_size
        if part.max_size is not None and (part.min_size is None or part.max_size >= part.min_size):
            unit["max_size"] = part.max_size
        if vehicle is not None:
            self.vehicle(unit, vehicle)
        rank = rank_of(name_node.name)
        if rank:
            unit["officer_rank"] = rank
        self.price_options_by_quality(part)
        options = self.priced_with_others(self.spotters_with_work(part.options, composition, where))
        if options:
            unit["options"] = options
        if part.rules:
            unit["rules"] = part.rules
        describe_vehicle(unit, self, body)  # movement and weapon mounts (lists/battlescribe/mounts.py)
        name_carriers(unit)  # the man an option arms, where its name says (lists/battlescribe/carriers.py)
        unit["source"] = {"document": "bsdata", "section": self.catalogue.name, "entry": name_node.name}
        unit["source_id"] = name_node.id
        return unit

    def price_options_by_quality(self, part: Part) -> None:
        """Options a quality's own cost changes with: that quality pays the change on the option."""
        by_key = {option["key"]: option for option in part.options}
        for quality, extra in part.qualities.items():
            for entry_id, change in extra.option_changes.items():
                option = by_key.get(self.option_keys.get(entry_id, ""))
                if option is None:
                    self.report.pattern("a quality's cost set while an option is taken that the unit does not offer")
                    continue
                prices = option.setdefault("_by_quality", {})
                prices[quality] = prices.get(quality, option["points"]) + change
                self.report.pattern("a quality's cost set while an option is taken: that option's price for it")

    def merge_quality_options(
        self, options: list[dict], by_key: dict[tuple[str, str, int], dict], quality: str, offered: list[dict]
    ) -> None:
        """Options under a quality's entry join the unit's once, with that quality's price noted; one priced
        per man for some qualities and per unit for others (or with another cost once on top) becomes one
        option each way."""
        unit_keys = {o["key"] for o in options if "_offered" not in o}
        for option in offered:
            if option["key"] in unit_keys:
                continue  # the unit's own option of that name comes first
            slot = (option["key"], option.get("per", "unit"), option.get("points_once", 0))
            first = by_key.get(slot)
            if first is None:
                if any(key == option["key"] for key, _, _ in by_key):
                    option["key"] = f"{option['key']}-{quality}"
                    for entry_id in option["_ids"]:
                        self.option_keys[entry_id] = option["key"]
                    self.report.pattern(
                        "an option priced one way for some qualities and another for others: one each way"
                    )
                first = by_key[slot] = option
                option["_offered"] = {}
                options.append(option)
            first["_offered"][quality] = option.get("_by_quality", {}).get(quality, option["points"])
            first.setdefault("_max_by", {})[quality] = option.get("max")
            first.setdefault("_with", {}).update(option.get("_with", {}))

    def priced_with_others(self, options: list[dict]) -> list[dict]:
        """Write each option's prices by quality and its changes while other options are taken (pack fields)."""
        keys = {option["key"] for option in options}
        by_key = {option["key"]: option for option in options}
        for option in options:
            for entry_id in option.pop("_excludes", []):
                other = by_key.get(self.option_keys.get(entry_id, ""))
                if other is None or other is option:
                    continue
                pair = "-or-".join(sorted([option["key"], other["key"]]))[:80]
                if option.get("group", pair) == pair and other.get("group", pair) == pair:
                    option["group"] = other["group"] = pair
                    self.report.pattern("two options that exclude each other: one group")
                else:
                    self.report.pattern("an option another excludes, already in a group of its own: not carried")
        for option in options:
            option.pop("_ids", None)
            prices = option.pop("_by_quality", {})
            by_quality = {q: whole(p) for q, p in sorted(prices.items()) if whole(p) != option["points"]}
            if by_quality:
                option["quality_points"] = by_quality
            points_with: dict[str, int] = {}
            for entry_id, change in sorted(option.pop("_with", {}).items()):
                if entry_id in self.per_model_ids:
                    continue  # a per-man option: priced on each man already
                other = self.option_keys.get(entry_id)
                if other in keys and other != option["key"]:
                    points_with[other] = points_with.get(other, 0) + whole(change)
                    self.report.pattern("an option's points changed while another option is taken")
                else:
                    self.report.pattern(
                        "a point change while an option is taken that the pack does not offer (Cavalry: shown only beside a cavalry unit)"
                    )
            if points_with:
                option["points_with"] = dict(sorted(points_with.items()))
        return options

    def spotters_with_work(self, options: list[dict], composition: list[dict], where: str) -> list[dict]:
        """The options, less a spotter on a unit with no indirect-fire weapon (he would have nothing to spot for)."""
        carried = {w if isinstance(w, str) else w["weapon"] for line in composition for w in line["weapons"]}
        if carried & self.converter.indirect_weapons:
            return options
        kept = []
        for option in options:
            if any(model["role"] == "spotter" for model in option.get("adds_models", [])):
                self.report.skip(where, option["source_id"], "a spotter on a unit with no indirect-fire weapon")
            else:
                kept.append(option)
        return kept

    def default_composition(self, node: Node, kind: str, part: Part, where: str) -> list[dict]:
        """Vehicles and teams the data gives no men for: the vehicle, or a crew of two for a team weapon."""
        if kind in ("vehicle", "transport"):
            return [{"count": 1, "role": "vehicle", "name": node.name, "weapons": part.weapons}]
        if kind == "infantry":
            self.report.pattern("no men in the data for a headquarters unit: the one man it is named after used")
            return [{"count": 1, "role": role_of(node.name, kind), "name": node.name, "weapons": part.weapons}]
        self.report.pattern("no men in the data: a crew of two (the least a team weapon needs) used")
        return [{"count": 2, "role": "crew", "name": "Crew", "weapons": part.weapons}]

    def vehicle(self, unit: dict, profile: dict[str, str]) -> None:
        armour: dict = {}
        if profile.get("Type"):
            armour["armour_class"] = profile["Type"]
        value = profile.get("Damage Value", "")
        figure = re.search(r"\d+\+", value)
        damage_key = self.converter.damage_values.get(figure.group(0)) if figure else None
        if damage_key:
            armour["damage_value"] = damage_key
        elif value:
            armour["note"] = f"Damage value {value}"
        if armour:
            unit["armour"] = armour
        transport = re.match(r"^(\d+)", profile.get("Transport", ""))
        if transport:
            unit["transport_capacity"] = int(transport.group(1))
        tow = profile.get("Tow", "")
        if tow and tow.lower() not in ("-", "no", "none", "n/a"):
            unit["carries"] = tow[:200]

    def unit_key(self, name: str) -> str:
        base = f"{self.army.key}-{slug(name, 60)}"
        key, suffix = base, 2
        while key in self.converter.unit_keys:
            key, suffix = f"{base}-{suffix}", suffix + 1
        self.converter.unit_keys.add(key)
        return key


def has_price_group(converter: Converter, node: Node, catalogue: DataFile) -> bool:
    """An entry priced by quality (it holds an Inexperienced/Regular/Veteran group)."""
    for group in converter.children(node, catalogue):
        names = [quality_name(c.name) for c in converter.children(group, catalogue) if not c.is_group]
        if group.is_group and names and all(name in QUALITIES for name in names):
            return True
    return False


def nested_units(converter: Converter, node: Node, catalogue: DataFile) -> tuple[Node | None, list[Node]]:
    """A group of whole units inside an entry (an officer's ranks, an anti-tank team's kinds): each is a unit."""
    children = converter.children(node, catalogue)
    for child in children:
        if child.is_group:
            entries = [c for c in converter.children(child, catalogue) if not c.is_group]
            units = all(c.entry_type == "unit" or has_price_group(converter, c, catalogue) for c in entries)
            if entries and units:
                return child, entries
    # An entry of no price of its own holding priced units directly (a Commonwealth free Forward Observer).
    entries = [c for c in children if not c.is_group]
    unpriced = node.cost == 0 and not has_price_group(converter, node, catalogue)
    if entries and unpriced and all(has_price_group(converter, c, catalogue) for c in entries):
        return None, entries
    return None, []


def apply_quality_max(option: dict, by_quality: dict[str, int | None]) -> None:
    """An option each quality's entry limits differently (an Australian Veteran section's three SMGs, the
    Regular one's one): the highest is its limit, and the qualities allowed fewer keep their own."""
    if None in by_quality.values() or len(set(by_quality.values())) < 2:
        return
    option["max"] = max(by_quality.values())
    option["quality_max"] = {q: most for q, most in by_quality.items() if most != option["max"]}


def men_of(composition: list[dict]) -> int:
    return sum(line["count"] for line in composition)


def quality_shape(part: Part, ordered: list[tuple[str, Part]]) -> dict:
    """The size range and listed men the unit takes from its first quality (or from itself)."""
    first = ordered[0][1] if ordered else Part()
    composition = part.composition or first.composition
    return {
        "base_size": men_of(composition),
        "min_size": part.min_size if part.min_size is not None else first.min_size,
        "max_size": part.max_size if part.max_size is not None else first.max_size,
    }


def own_shape(shape: dict, extra: Part) -> dict:
    """A quality's own size range and listed men where its entry differs from the unit's (a Veteran
    squad of six where the Regular one has five): the price of that quality covers its own men."""
    own = {}
    if extra.composition and men_of(extra.composition) != shape["base_size"]:
        own["base_size"] = men_of(extra.composition)
    for key in ("min_size", "max_size"):
        value = getattr(extra, key)
        if value is not None and value != shape[key]:
            own[key] = value
    return own


def organisation_key(force: Element) -> str:
    """The pack key of the organisation a force entry converts to."""
    return "bs-" + slug(force.get("name", "force"))


def limit_value(value: float) -> int:
    return int(value) if value == int(value) else whole(value)


class PackWriter:
    """Runs the converter over a whole library and gathers the pack sections."""

    def __init__(self, converter: Converter):
        self.converter = converter
        self.report = converter.report
        self.files: dict[str, dict] = {}

    def run(self) -> dict[str, dict]:
        library = self.converter.library
        for catalogue in library.catalogues:
            self.catalogue(catalogue)
        # The game system's forces serve every converted army (not the hand-written Generic army).
        converted = [army["key"] for content in self.files.values() for army in content["armies"]]
        organisations = self.organisations(library.system, converted)
        shared: dict = {
            "unit_categories": [
                {k: v for k, v in c.items() if k != "source_id"} | {"source_id": c["source_id"]}
                for c in sorted(self.converter.categories.values(), key=lambda c: c["key"])
            ],
            "rules": sorted(self.converter.rules.values(), key=lambda r: r["key"]),
            "weapons": sorted(self.converter.weapons.values(), key=lambda w: w["key"]),
            "organisations": organisations,
        }
        self.files = {"shared.yaml": shared, **self.files}
        return self.files

    def catalogue(self, catalogue: DataFile) -> None:
        converter = self.converter
        name = catalogue.root.get("name", catalogue.name)
        key = slug(re.sub(r"^(BA2 - )?(Armies of )?(the )?", "", name.strip(), flags=re.IGNORECASE))
        army = Army(key, name, catalogue, catalogue.root.get("id", ""))
        self.selectors(army)
        units: list[dict] = []
        shown_in: dict[str, list[str]] = {selector_key: [] for _, selector_key, _ in army.selector_ids}
        entries = [
            catalogue.root.findall("entryLinks/entryLink"),
            catalogue.root.findall("selectionEntries/selectionEntry"),
        ]
        for element in [e for group in entries for e in group]:
            node = converter.resolve(element, catalogue)
            if node is None:
                continue
            where = f"{catalogue.name}: {node.name}"
            links = [c for part in node.parts() for c in part.findall("categoryLinks/categoryLink")]
            primary = next((c for c in links if c.get("primary") == "true"), links[0] if links else None)
            category = converter.category(primary.get("targetId", ""), catalogue) if primary is not None else None
            if category is None:
                self.report.skip(where, node.id, "no category, so no place in a force")
                continue
            category_info = next(c for c in converter.categories.values() if c["key"] == category)
            if "selector" in category_info["name"].lower() or "utility" in category_info["name"].lower():
                self.report.skip(where, node.id, "a theatre selector or utility entry, not a unit (read as army lists)")
                continue
            self.report.counts["entries a player can add"] += 1
            shown = converter.visible_in(node, army)
            if not shown:
                self.report.skip(where, node.id, "hidden in every theatre selector")
                continue
            group, nested = nested_units(converter, node, catalogue)
            builds = [(inner, [node, inner]) for inner in nested] or [(node, [node])]
            built = []
            for name_node, body in builds:
                # A unit inside the entry (a heavy mortar among the mortar teams) may hide in some lists itself.
                unit_shown = (
                    shown if name_node is node else [k for k in shown if k in converter.visible_in(name_node, army)]
                )
                if not unit_shown:
                    self.report.skip(
                        f"{where} / {name_node.name}",
                        name_node.id,
                        "hidden in every theatre selector showing the entry",
                    )
                    continue
                if len(unit_shown) < len(shown):
                    self.report.pattern(
                        "a unit inside an entry that some theatre lists hide: offered only in the others"
                    )
                builder = UnitBuilder(converter, army, catalogue, node)
                builder.unit_shown = unit_shown
                builder.primary_category = primary.get("targetId", "")
                if group is not None:
                    builder.skip_ids.add(group.id)
                unit = builder.build(name_node, body, category, category_info["kind"])
                if unit is not None:
                    built.append((unit, unit_shown))
            if not built:
                continue
            most, army_limits, per = self.unit_limit(node, army, shown)
            per_force = self.per_force_limits(node, (node.id, node.name) if nested else None)
            if nested:
                self.report.pattern("an entry holding several whole units (officer ranks, team kinds) split into units")
            self.report.counts["entries converted"] += 1
            self.report.counts["units written"] += len(built)
            for unit, unit_shown in built:
                if most is not None:
                    unit["max_in_roster"] = most
                if army_limits:
                    unit["army_limits"] = army_limits
                if per == "force" and (most is not None or army_limits):
                    unit["limit_per"] = per
                if per_force:
                    unit["force_limits"] = per_force
                units.append(unit)
                for selector_key in unit_shown:
                    shown_in[selector_key].append(unit["key"])
        armies = [
            {
                "key": army.key,
                "name": army.name,
                "summary": "Every unit of the catalogue; pick one of its theatre selector lists for a legal army list.",
                "rules": self.national_rules(catalogue),
                "source": {"document": "bsdata", "section": catalogue.name},
                "source_id": army.source_id,
            }
        ]
        for selector_id, selector_key, selector_name in army.selector_ids:
            if not shown_in[selector_key]:
                self.report.skip(
                    f"{catalogue.name}: {selector_name}", selector_id, "the theatre selector shows no unit"
                )
                continue
            armies.append(
                {
                    "key": selector_key,
                    "name": selector_name,
                    "borrows_from": [army.key],
                    "borrow_units": sorted(shown_in[selector_key]),
                    "source": {"document": "bsdata", "section": catalogue.name, "entry": selector_name},
                    "source_id": selector_id,
                }
            )
            self.report.counts["theatre selectors converted"] += 1
        self.report.counts["nations converted"] += 1
        content: dict = {"armies": armies, "units": units}
        organisations = self.organisations(catalogue, [a["key"] for a in armies])
        if organisations:
            content["organisations"] = organisations
        self.files[f"{army.key}.yaml"] = content

    def unit_limit(self, node: Node, army: Army, shown: list[str]) -> tuple[int | None, dict[str, int], str]:
        """At most how many of a unit a force or roster takes (the lowest such limit), if any, the limit
        of each theatre list whose selector changes it (the data's modifiers of the constraint), and
        what the limits count: "force" (each platoon) or "roster". No entry of the data has both."""
        constraints = []
        for constraint in node.constraints():
            # A root entry's parent is its force: "parent" counts the force's selections.
            if constraint.get("scope") not in ("force", "roster", "parent") or constraint.get("field") != "selections":
                continue
            if constraint.get("type") != "max":
                self.report.pattern(f"a unit's {constraint.get('type')} per {constraint.get('scope')} not carried")
                continue
            constraints.append(constraint)
        if not constraints:
            return None, {}, "roster"
        per = "force" if all(c.get("scope") in ("force", "parent") for c in constraints) else "roster"
        force = self.converter.force_id

        def lowest(selected: set[str]) -> int | None:
            values = [self.converter.modified_value(node, c, selected) for c in constraints]
            return min((max(0, int(v)) for v in values if v >= 0), default=None)  # -1: no limit

        base = lowest({force})
        by_army = {key: lowest({selector_id, force}) for selector_id, key, _ in army.selector_ids if key in shown}
        most = base if base else None
        if most is not None and any(value is None for value in by_army.values()):
            self.report.pattern("a unit limit some theatres lift: the limit kept there")
        changed = {key: value for key, value in by_army.items() if value != most and value is not None}
        if changed:
            self.report.pattern("a unit limit some theatres change: each theatre list's own limit")
        elif base == 0:
            self.report.pattern("a unit limited to none unless a theatre raises it: left without a limit")
        if most is not None:
            self.report.pattern(f"a unit limit per {per}")
        return most, changed, per

    def per_force_limits(self, node: Node, group: tuple[str, str] | None) -> list[dict]:
        """The unit's least and most per kind of force (the Reinforced Platoon's one officer)."""
        organisations = force_organisations(self.converter.library.system, organisation_key)
        limits, changed = force_limits(node.constraints(), modified_constraint_ids(node.parts()), organisations, group)
        for limit in limits:
            for kind in ("min", "max"):
                if kind in limit:
                    self.report.pattern(f"a unit's {kind} per force of one kind (an officer per Reinforced Platoon)")
        for _ in range(changed):
            self.report.pattern("a unit's limit per force of one kind that a theatre changes: not carried")
        return limits

    def selectors(self, army: Army) -> None:
        """Every entry under a theatre selector becomes an army list."""
        converter = self.converter
        seen: set[str] = set()
        keys: set[str] = set()
        for element in army.catalogue.root.iter():
            if element.tag not in ("selectionEntry", "selectionEntryGroup"):
                continue
            if (element.get("name") or "").strip() != THEATRE_SELECTOR:
                continue
            pending = [Node(element)]
            while pending:
                node = pending.pop(0)
                for child in converter.children(node, army.catalogue):
                    if child.is_group or child.element.get("name", "").strip() == THEATRE_SELECTOR:
                        pending.append(child)
                        continue
                    selector_id = child.element.get("id", "")
                    if selector_id in seen:
                        continue
                    seen.add(selector_id)
                    name = child.name
                    base = f"{army.key}-{slug(TRAILING_NOTE.sub('', name), 60)}"
                    key, suffix = base, 2
                    while key in keys:
                        key, suffix = f"{base}-{suffix}", suffix + 1
                    keys.add(key)
                    army.selector_ids.append((selector_id, key, name))

    def national_rules(self, catalogue: DataFile) -> list[str]:
        keys = []
        for rule in catalogue.root.findall("rules/rule"):
            key = self.converter.rule_key(rule.get("name", ""), rule.get("id", ""), catalogue.name)
            if key not in keys:
                keys.append(key)
        return keys

    def organisations(self, data_file: DataFile, armies: list[str]) -> list[dict]:
        """Force entries as organisations: a slot per category with its limits and repeats."""
        found = []
        for force in data_file.root.iter("forceEntry"):
            slots = []
            where = f"{data_file.name}: {force.get('name')}"
            for link in force.findall("categoryLinks/categoryLink"):
                category = self.converter.category(link.get("targetId", ""), data_file)
                if category is None:
                    self.report.skip(where, link.get("id", ""), "a slot for an unknown category")
                    continue
                slot: dict = {"key": slug(link.get("name") or category), "name": link.get("name") or category}
                slot["categories"] = [category]
                limits = {c.get("type"): c for c in link.findall("constraints/constraint")}
                if "min" in limits:
                    slot["min"] = limit_value(number(limits["min"].get("value")))
                if "max" in limits:
                    terms = []
                    for modifier in link.findall("modifiers/modifier"):
                        if modifier.get("field") != limits["max"].get("id"):
                            continue
                        repeats = modifier.findall("repeats/repeat")
                        if (
                            modifier.get("type") != "increment"
                            or not repeats
                            or modifier.find("conditions") is not None
                        ):
                            self.report.skip(where, modifier.get("field", ""), "a conditional change of a slot limit")
                            continue
                        for repeat in repeats:
                            counted = self.converter.category(repeat.get("childId", ""), data_file)
                            if counted is None:
                                self.report.skip(
                                    where, repeat.get("childId", ""), "a repeat counting something else than a category"
                                )
                                continue
                            each = number(modifier.get("value")) / (number(repeat.get("value")) or 1)
                            terms.append({"categories": [counted], "each": each})
                    base = limit_value(number(limits["max"].get("value")))
                    slot["max"] = {"base": base, "per": terms} if terms else base
                    if terms:
                        self.report.pattern(
                            "a slot limit that grows with other units (one transport per infantry unit)"
                        )
                slot["source_id"] = link.get("id", "")
                slots.append(slot)
            keys = [slot["key"] for slot in slots]
            for slot in slots:
                if keys.count(slot["key"]) > 1:
                    slot["key"] = f"{slot['key']}-{slot['source_id'][:4]}"
            if not slots:
                continue
            found.append(
                {
                    "key": organisation_key(force),
                    "name": force.get("name", ""),
                    "summary": "Force organisation from the BattleScribe data: each slot holds units of one category.",
                    "armies": armies,
                    "slots": slots,
                    "source": {"document": "bsdata", "section": data_file.name, "entry": force.get("name", "")},
                    "source_id": force.get("id", ""),
                }
            )
            self.report.counts["organisations converted"] += 1
        return found
