"""The pack unit(s) of one entry a player can add: its cost, qualities, men, weapons, rules and options.

An entry's subtree is walked once; each group is read by the BattleScribe pattern it follows (a price
group of qualities, a model group, a one-of choice, options) and what the converter does not understand
is counted in the import report with the reason.
"""

from __future__ import annotations

import re

from lxml.etree import _Element as Element

from lists.battlescribe.carriers import name_carriers
from lists.battlescribe.conditions import EntryTree, conditions_hold, hidden_by, mentions, signed, when_applies
from lists.battlescribe.converter import Converter
from lists.battlescribe.costs import theatre_costs
from lists.battlescribe.men import MenMixin, own_shape, quality_shape
from lists.battlescribe.mounts import describe_vehicle
from lists.battlescribe.names import (
    MAN,
    QUALITIES,
    SOURCE,
    UNIT_KINDS,
    counted,
    number,
    quality_name,
    quality_of,
    rank_of,
    slug,
    whole,
    without_quality,
)
from lists.battlescribe.nodes import Army, Node, chosen_default, is_man
from lists.battlescribe.options import OptionsMixin, apply_quality_max
from lists.battlescribe.reader import DataFile
from lists.battlescribe.unit_part import Part


class UnitBuilder(MenMixin, OptionsMixin):
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
        self.tree = EntryTree()
        # The men whose points change while an entry is taken: entry id -> (man ids, modifier, least, most).
        self.paid_by: dict[str, list[tuple[set[str], Element, float, float | None]]] = {}
        self.compulsory: set[str] = set()  # entries a unit always holds (their own least number 1 or more)
        # Groups holding the unit's men (a squad's "Squad Members"): what a repeat per man counts.
        self.men_groups = {
            group.get("id", "")
            for part in root.parts()
            for group in part.iter("selectionEntryGroup")
            if any(
                e.get("type") == "model" or MAN.search(e.get("name", ""))
                for e in group.findall("selectionEntries/selectionEntry")
            )
        }
        self.map_tree(root, set(), None)
        # Per-man options a unit always holds (a Regular Motociclisti section's Anti-tank Grenades, least 1):
        # every man pays for them, always.
        self.always_taken = self.per_man_options & self.compulsory
        self.per_model_ids: dict[str, float] = {}  # per-man options priced per man -> each man's price (settle_per_man)
        self.option_keys: dict[str, str] = {}  # entry id -> the key of the option made from it
        self.never_offered: set[str] = set()  # options hidden in every theatre list showing the unit
        self.needed_options: dict[str, frozenset[str]] = {}  # option entry id -> the entries whose taking shows it

    def map_tree(self, node: Node, above: set[str], parent: str | None) -> None:
        """Record each entry's parent selection and ancestors (groups are not selections); links count as both ids."""
        ids = {node.id, node.element.get("id", "")}
        if not node.is_group:
            for entry_id in ids:
                if entry_id in self.tree.above:
                    return  # a shared entry reached twice: its first place is kept
                self.tree.above[entry_id] = above
                self.tree.parent_of[entry_id] = parent or ""
                self.tree.names[entry_id] = node.name
            for modifier in node.modifiers():
                if modifier.get("field") == "points" and modifier.get("type") in ("increment", "decrement"):
                    for condition in modifier.iter("condition"):
                        if condition.get("childId") not in ids:
                            paid = (ids, modifier, node.limit("min") or 0, node.limit("max"))
                            self.paid_by.setdefault(condition.get("childId", ""), []).append(paid)
            if (node.limit("min") or 0) >= 1:
                self.compulsory |= ids
            above, parent = above | ids, node.element.get("id", "")
        for child in self.converter.children(node, self.catalogue):
            self.map_tree(child, above, parent)

    def when(self, modifier: Element, holder: set[str]) -> tuple[str, str]:
        """When a points modifier of an entry applies (lists/battlescribe/conditions.py: when_applies)."""
        return when_applies(modifier, holder, self.tree)

    def mandatory_cost(self, node: Node) -> float:
        """What an entry's compulsory contents cost (a weapon link with at least one selection)."""
        total = 0.0
        for child in self.converter.children(node, self.catalogue):
            least = child.limit("min") or 0
            if not child.is_group and least >= 1:
                total += least * (fixed_cost(child) + self.mandatory_cost(child))
        return total

    def walk(self, node: Node, part: Part) -> Part:
        children = [c for c in self.converter.children(node, self.catalogue) if c.id not in self.skip_ids]
        # Quality entries holding their own men beside the unit's other contents (no price group around them).
        loose = [c for c in children if not c.is_group and is_quality_entry(self.converter, c, self.catalogue)]
        if loose:
            self.qualities(loose, part)
            self.report.pattern("quality entries holding their men, with no price group around them: read as qualities")
        for child in children:
            if child in loose:
                continue
            if child.is_group:
                self.group(child, part)
            else:
                self.entry(child, part)
        return part

    def qualities(self, entries: list[Node], part: Part) -> None:
        """Entries named Inexperienced/Regular/Veteran: each a quality with its own price and contents."""
        for child in entries:
            quality = Part(points=child.cost)
            if any(m.get("field") == "hidden" for m in child.modifiers()) or child.hidden:
                # The unit's own primary category is chosen: "hidden while it is a Compulsory Unit" (equalTo 1).
                visible = self.converter.visible_in(child, self.army, self.own_category())
                shown = [key for key in visible if key in self.unit_shown]
                if not shown:
                    self.report.pattern("a quality hidden in every list showing the unit: left out")
                    continue
                if len(shown) < len(self.unit_shown):
                    quality.armies = shown
                    self.report.pattern("a quality some theatre lists hide: offered only in the others")
            quality.army_changes = self.theatre_changes(child)
            quality.option_changes = self.option_changes(child)
            for option_id in hidden_by(child.modifiers(), {child.id, child.element.get("id", "")}, self.tree).get(
                "with", ()
            ):
                part.hidden_by_options.setdefault(option_id, set()).add(quality_name(child.name))
                self.report.pattern("a quality hidden while an option is taken: the option offered to the others")
            self.walk(child, quality)
            part.qualities[quality_name(child.name)] = quality

    def group(self, group: Node, part: Part) -> None:
        entries = [c for c in self.converter.children(group, self.catalogue) if not c.is_group]
        names = [quality_name(c.name) for c in entries]
        low, high = group.limit("min") or 0, group.limit("max")
        if entries and all(name in QUALITIES for name in names):
            self.qualities(entries, part)
            self.report.pattern("price group (Inexperienced/Regular/Veteran) read as qualities")
            return
        if low == 0 and high is None and entries and all(is_man(c) and c.limit("min") for c in entries):
            # A group of men with no size of its own (a sniper and his spotter; a Molotov Anti-tank Squad's
            # Leader (NCO) and Man, upgrades by type): their own counts are its size.
            low = int(sum(c.limit("min") or 0 for c in entries))
            most = [c.limit("max") for c in entries]
            high = None if None in most else int(sum(most))
            self.report.pattern("a group of men with no size of its own: its men's least and most counts")
        if (
            low >= 1
            and (high is None or high > 1)
            and not all(is_weapon(self.converter, c, self.catalogue) for c in entries)
        ):
            self.models(group, entries, part, int(low), None if high is None else int(high))
            return
        exclusive = slug(group.name) if high == 1 else None
        if exclusive and low >= 1:
            self.compulsory_choice(group, entries, part, exclusive)
            return
        if low >= 1 and low == high and all(is_weapon(self.converter, c, self.catalogue) for c in entries):
            # Weapons fitted N times (an LVT4's two pintle mounts): the default N times, the others replacing it.
            self.compulsory_choice(group, entries, part, None, int(low))
            return
        before = len(part.options)
        for child in entries:
            self.option(child, part, exclusive)
        self.mark_default(group, entries, part.options[before:])
        for limit in self.per_force(group, self.unit_shown):
            for option in part.options[before:]:  # the group's most per force counts all its options
                option.setdefault("force_limits", []).append(dict(limit))
        if high is not None and high > 1:
            self.shared_limit(group, part, part.options[before:], int(high))

    def shared_limit(self, group: Node, part: Part, options: list[dict], most: int) -> None:
        """A group's greatest number its options share (an officer's Additional Men: three, of whatever kind),
        where their own limits together allow more."""
        each = [max([o.get("max") or most + 1, *o.get("_max_with", {}).values()]) for o in options]
        if sum(each) <= most:
            return
        key, suffix = slug(group.name), 2
        while key in part.shared_limits:
            key, suffix = f"{slug(group.name)}-{suffix}", suffix + 1
        part.shared_limits[key] = {"name": group.name, "max": most}
        for option in options:
            option["shares"] = key
        self.report.pattern("a group's most shared by its options (an officer's Additional Men): one shared limit")

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
        theatre_ids = self.lists_chosen()
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

    def compulsory_choice(self, group: Node, entries: list[Node], part: Part, key: str | None, times: int = 1) -> None:
        """One of several, compulsory (`times` over): the default is part of the unit, the others options
        replacing it, one each time."""
        default = chosen_default(group, entries) or entries[0]
        cost = default.cost + self.mandatory_cost(default)
        weapons = self.contents_weapons(default)
        part.points += cost * times
        part.weapons += weapons * times
        part.rules += [r for r in self.converter.rule_keys_of(default, self.catalogue) if r not in part.rules]
        for child in entries:
            if child is not default:
                self.option(child, part, key, instead_of=(cost, weapons))
        if times == 1:
            self.report.pattern("a compulsory choice: the default in the unit, the others options replacing it")
            self.default_options(default, [c.id for c in entries if c is not default], part)
        else:
            self.report.pattern("weapons fitted several times: the default each time, the others options replacing it")

    def contents_weapons(self, node: Node) -> list[str]:
        """Weapons an entry and its direct contents describe."""
        weapons = self.converter.weapons_of(node, self.catalogue)
        for child in self.converter.children(node, self.catalogue):
            if not child.is_group:
                weapons += [w for w in self.converter.weapons_of(child, self.catalogue) if w not in weapons]
        return weapons

    def entry(self, child: Node, part: Part) -> None:
        least = child.limit("min") or 0
        if least >= 1:
            ids = {child.id, child.element.get("id", "")}
            # A per-man option always taken costs what its own modifiers leave (nothing); its men pay for it.
            own = sum(signed(m) for m in child.modifiers() if ids & self.always_taken and mentions(m, ids))
            # Its compulsory contents come with each of them (a Volks Grenadier Squad's four Assault rifles, each
            # holding the rifle at 5): walking it below adds them once, the others here.
            part.points += least * (child.cost + own) + (least - 1) * self.mandatory_cost(child)
            # Each compulsory entry carries its own weapons: a coaxial and a hull MMG are two MMGs.
            part.weapons += self.converter.weapons_of(child, self.catalogue) * int(least)
            part.rules += [r for r in self.converter.rule_keys_of(child, self.catalogue) if r not in part.rules]
            self.walk(child, part)
            return
        self.option(child, part, None)

    def build(self, name_node: Node, body: list[Node], category: str, category_kind: str) -> dict | None:
        """One pack unit from the entries that make it up (an outer entry and, for officers, a rank)."""
        where = f"{self.catalogue.name}: {name_node.name}"
        vehicle = None
        for node in body:
            vehicle = vehicle or self.converter.vehicle_profile(node, self.catalogue)
        kind = UNIT_KINDS[category_kind]
        if vehicle is not None and kind not in ("vehicle", "transport"):
            kind = "vehicle"
        self.kind = kind
        part = self.walked(body)
        unit: dict = {
            "key": self.unit_key(name_node.name),
            "name": name_node.name,
            "army": self.army.key,
            "category": category,
            "kind": kind,
        }
        qualities, composition = self.quality_entries(part, name_node)
        if not qualities and not self.single_price(unit, qualities, part, composition, name_node, where):
            return None
        if qualities:
            unit["qualities"] = qualities
        if part.shared_limits:
            unit["shared_limits"] = part.shared_limits
        self.hidden_by_quality(part, [entry["quality"] for entry in qualities], where)
        composition = self.men_lines(composition, part, name_node, len(qualities), where)
        name_men_carrying(part.options, composition, len(qualities))
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
        part.rules += [k for k in self.converter.given_rules(name_node.name, self.catalogue) if k not in part.rules]
        if part.rules:
            unit["rules"] = part.rules
        describe_vehicle(unit, self, body)  # movement and weapon mounts (lists/battlescribe/mounts.py)
        name_carriers(unit)  # the man an option arms, where its name says (lists/battlescribe/carriers.py)
        unit["source"] = {"document": "bsdata", "section": self.catalogue.name, "entry": name_node.name}
        unit["source_id"] = name_node.id
        return unit

    def walked(self, body: list[Node]) -> Part:
        """What the unit's entries and their subtrees add up to, per-man options priced."""
        part = Part()
        for node in body:
            part.points += node.cost
            for key, change in self.theatre_changes(node).items():
                part.army_changes[key] = part.army_changes.get(key, 0) + change
            part.weapons += [w for w in self.converter.weapons_of(node, self.catalogue) if w not in part.weapons]
            part.rules += [r for r in self.converter.rule_keys_of(node, self.catalogue) if r not in part.rules]
            self.walk(node, part)
        for options in [part.options, *(extra.options for extra in part.qualities.values())]:
            self.settle_per_man(options)
        return part

    def quality_entries(self, part: Part, name_node: Node) -> tuple[list[dict], list[dict]]:
        """The unit's price by quality (each quality's points, size and theatre prices) and its men; the
        qualities' options join the unit's."""
        composition = list(part.composition)
        qualities = []
        quality_options: dict[tuple[str, str, int], dict] = {}  # (key, per, points_once) -> the option first met
        ordered = sorted(part.qualities.items(), key=lambda item: QUALITIES.index(item[0]))
        shape = quality_shape(part, ordered)
        for quality, extra in ordered:
            composition = composition or extra.composition
            per_extra = extra.per_extra if extra.per_extra is not None else part.per_extra
            per_extra = part.extra_by_quality.get(quality, per_extra)
            cost = part.points + extra.points + part.men_by_quality.get(quality, 0)
            entry: dict = {"quality": quality, "points": whole(cost)}
            if per_extra is not None and (part.min_size or extra.min_size) is not None:
                entry["per_extra_model"] = whole(per_extra)
            if extra.armies:
                entry["armies"] = extra.armies
            entry |= own_shape(shape, extra)
            if part.min_own_size is not None and "min_own_size" not in entry:
                entry["min_own_size"] = part.min_own_size  # the unit's men, outside its price group
            changes = {key: part.army_changes.get(key, 0) + extra.army_changes.get(key, 0) for key in self.unit_shown}
            if any(changes.values()):
                entry["army_points"] = {key: whole(cost + change) for key, change in sorted(changes.items()) if change}
            entry["citation"] = {"source": SOURCE, "entry": f"{self.catalogue.name}: {name_node.id} ({quality})"}
            qualities.append(entry)
            part.min_size = part.min_size if part.min_size is not None else extra.min_size
            part.max_size = part.max_size if part.max_size is not None else extra.max_size
            self.merge_quality_options(part.options, quality_options, quality, extra.options)
            part.shared_limits |= extra.shared_limits
            part.weapons += [w for w in extra.weapons if w not in part.weapons]
        for option in quality_options.values():
            self.offered_by_quality(option, len(part.qualities))
        return qualities, composition

    def hidden_by_quality(self, part: Part, qualities: list[str], where: str) -> None:
        """Options the data hides while the unit is of some quality (an officer's Veteran Soldier, for a Veteran
        officer only): offered to the other qualities; one hidden for every quality the unit has is left out."""
        kept = []
        for option in part.options:
            hidden = option.pop("_hidden_for", set())
            hidden |= {q for entry_id in option["_ids"] for q in part.hidden_by_options.get(entry_id, ())}
            if hidden and qualities:
                offered = [q for q in option.get("qualities", qualities) if q not in hidden]
                if not offered:
                    self.report.skip(f"{where} / {option['name']}", option["source_id"], "hidden for every quality")
                    continue
                if len(offered) < len(qualities):
                    option["qualities"] = offered
                self.report.pattern("an option hidden while the unit is of some quality: offered to the others")
            kept.append(option)
        part.options[:] = kept

    def offered_by_quality(self, option: dict, qualities: int) -> None:
        """An option met under quality entries: limited to the qualities offering it, priced and limited by each."""
        prices = option.pop("_offered")
        if len(prices) < qualities:
            option["qualities"] = [q for q in QUALITIES if q in prices]
            self.report.pattern("an option only some qualities offer: limited to them")
        if len(set(prices.values())) > 1:
            option["_by_quality"] = prices | option.get("_by_quality", {})
        apply_quality_max(option, option.pop("_max_by"))

    def single_price(
        self, unit: dict, qualities: list[dict], part: Part, composition: list[dict], name_node: Node, where: str
    ) -> bool:
        """A unit with no price group: one quality its men's names give, else a price of its own; False
        (reported) when it has no price at all."""
        # Each man's quality: from his name (Regular NCO), else from his "Unit Quality" profile.
        named = {line.get("_quality") or quality_of(line["name"]) for line in composition} - {None}
        citation = {"source": SOURCE, "entry": f"{self.catalogue.name}: {name_node.id} ({name_node.name})"}
        if len(named) == 1:
            entry = {"quality": named.pop(), "points": whole(part.points)}
            if part.per_extra is not None and part.min_size is not None:
                entry["per_extra_model"] = whole(part.per_extra)
            if part.min_own_size is not None:
                entry["min_own_size"] = part.min_own_size
            entry["citation"] = citation
            qualities.append(entry)
            self.report.pattern("quality read from the men's names (Regular NCO, Regular Soldier)")
        elif part.points == 0 and not self.converter.children(name_node, self.catalogue) and not composition:
            # The Netherlands' "Turret-mounted AT rifle": the game system's weapon entry linked among the units.
            why = "an upgrade of no cost and no contents linked among the units (a data error): nothing to add"
            self.report.skip(where, name_node.id, why)
            return False
        elif part.points == 0:
            self.report.skip(where, name_node.id, "no price found (a structure the converter does not read)")
            return False
        else:
            unit["points"] = whole(part.points)
            unit["citation"] = citation
        return True

    def men_lines(self, composition: list[dict], part: Part, name_node: Node, qualities: int, where: str) -> list:
        """The unit's men, each weapon once with its count (the data's own men, or the ones it leaves out)."""
        if not composition:
            composition = self.default_composition(name_node, self.kind, part, where)
        elif part.weapons:
            # Weapons every man of the unit shares (a team's weapon) ride on the first line.
            composition[0]["weapons"] = composition[0]["weapons"] + [
                w for w in part.weapons if w not in composition[0]["weapons"]
            ]
        for line in composition:
            line["weapons"] = counted(line["weapons"])
            line.pop("_quality", None)
        if qualities > 1:
            # The men are listed from the first quality's entry: "Inexperienced NCO" is any quality's NCO.
            composition = [line | {"name": without_quality(line["name"])} for line in composition]
        return composition

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


def name_men_carrying(options: list[dict], composition: list[dict], qualities: int) -> None:
    """An option of one man's weapon choice names his model line (listed without quality where the unit
    has several)."""
    names = {line["name"] for line in composition}
    for option in options:
        carrier = option.pop("_carrier", None)
        if carrier is not None:
            carrier = without_quality(carrier) if qualities > 1 else carrier
            if carrier in names:
                option["model"] = carrier


def holds_men(converter: Converter, node: Node, catalogue: DataFile) -> bool:
    """An entry with its own men: a group holding a model entry."""
    return any(
        group.is_group and any(c.entry_type == "model" for c in converter.children(group, catalogue))
        for group in converter.children(node, catalogue)
    )


def is_weapon(converter: Converter, node: Node, catalogue: DataFile) -> bool:
    """An entry that is a weapon fitted, not a man: its own weapon profile, and no model type."""
    return node.entry_type != "model" and bool(converter.weapons_of(node, catalogue))


def fixed_cost(node: Node) -> float:
    """An entry's cost with the points modifiers that always apply (no condition, no repeat): a Big Sword
    Squad soldier's SMG link setting the SMG's 3 points to 1."""
    cost = node.cost
    for modifier in node.modifiers():
        if modifier.get("field") != "points" or modifier.find("repeats") is not None:
            continue
        if modifier.find("conditions") is not None or modifier.find("conditionGroups") is not None:
            continue
        value = number(modifier.get("value"))
        kind = modifier.get("type")
        cost = (
            value
            if kind == "set"
            else cost + value
            if kind == "increment"
            else cost - value
            if kind == "decrement"
            else cost
        )
    return cost


def is_quality_entry(converter: Converter, node: Node, catalogue: DataFile) -> bool:
    """An entry named after a quality that holds its own men (a Polish Dragoons Section's Veteran)."""
    return quality_name(node.name) in QUALITIES and holds_men(converter, node, catalogue)


def has_price_group(converter: Converter, node: Node, catalogue: DataFile) -> bool:
    """An entry priced by quality: it holds an Inexperienced/Regular/Veteran group, or quality entries with
    their own men, directly or inside a compulsory entry."""
    for child in converter.children(node, catalogue):
        if child.is_group:
            names = [quality_name(c.name) for c in converter.children(child, catalogue) if not c.is_group]
            if names and all(name in QUALITIES for name in names):
                return True
        elif (
            is_quality_entry(converter, child, catalogue)
            or (child.limit("min") or 0) >= 1
            and has_price_group(converter, child, catalogue)
        ):
            return True
    return False


def is_whole_unit(converter: Converter, node: Node, catalogue: DataFile) -> bool:
    """An entry that makes a unit of its own: a unit, one priced by quality, or a variant with its own men
    (an Alpini Infantry Section among the Section's kinds)."""
    return (
        node.entry_type == "unit"
        or has_price_group(converter, node, catalogue)
        or holds_men(converter, node, catalogue)
    )


def nested_units(converter: Converter, node: Node, catalogue: DataFile) -> tuple[Node | None, list[Node]]:
    """A group of whole units inside an entry (an officer's ranks, an anti-tank team's kinds): each is a unit."""
    children = converter.children(node, catalogue)
    for child in children:
        if child.is_group:
            entries = [c for c in converter.children(child, catalogue) if not c.is_group]
            # An entry hidden by default that is no unit (a Commissar beside a Major) is judged by where it shows.
            if entries and all(quality_name(c.name) in QUALITIES for c in entries):
                continue  # a price group: one unit's qualities
            units = [c for c in entries if is_whole_unit(converter, c, catalogue)]
            others = [c for c in entries if c not in units]
            if units and all(c.hidden and c.cost for c in others):
                return child, entries
    # An entry of no price of its own holding priced units directly (a Commonwealth free Forward Observer).
    entries = [c for c in children if not c.is_group]
    unpriced = node.cost == 0 and not has_price_group(converter, node, catalogue)
    if entries and unpriced and all(has_price_group(converter, c, catalogue) for c in entries):
        return None, entries
    return None, []
