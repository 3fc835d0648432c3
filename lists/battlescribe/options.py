"""A unit's options: an optional entry's price, limit and group, its price by quality and while other
options are taken, and the limits and names its modifiers change."""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml.etree import _Element as Element

from lists.battlescribe.conditions import hidden_by, shown_beside, signed
from lists.battlescribe.constraints import constraint_value, outer_limits, own_max_limits
from lists.battlescribe.force_limits import option_force_limits
from lists.battlescribe.names import (
    MAN,
    QUALITIES,
    number,
    quality_name,
    quality_of,
    rank_of,
    role_of,
    slug,
    whole,
)
from lists.battlescribe.nodes import Node, Report, is_man
from lists.battlescribe.unit_part import Part


@dataclass
class OptionPricing:
    """An option's price as its modifiers set it: its own points, by quality, while other options are taken."""

    points: float
    by_quality: dict[str, float] = field(default_factory=dict)  # quality -> the option's price
    quality_change: dict[str, float] = field(default_factory=dict)  # quality -> a change of its price
    with_options: dict[str, float] = field(default_factory=dict)  # other option's entry id -> a change
    excludes: list[str] = field(default_factory=list)  # options whose taking sets this one's limit to 0
    max_with: dict[str, int] = field(default_factory=dict)  # other option's entry id -> this one's limit then
    min_if_taken: int | None = None  # taken at all, at least this often
    name_suffix: str = ""  # what the data always appends to its name


class OptionsMixin:
    """UnitBuilder's options (lists/battlescribe/units.py)."""

    def option(
        self,
        child: Node,
        part: Part,
        group: str | None,
        instead_of: tuple[float, list[str]] | None = None,
        label: str | None = None,
    ) -> None:
        """An optional entry as a unit option; `instead_of` is the cost and weapons of the default it replaces,
        `label` its name where the entry's own does not say whose it is (an NCO's SMG)."""
        where = f"{self.catalogue.name}: {self.root.name} / {child.name}"
        limits = self.option_limits(child, where)
        if limits is None:
            return
        shown, most_in, needs = limits
        ids = {child.id, child.element.get("id", "")}
        pricing = self.option_pricing(child, ids, where)
        if pricing is None:
            return
        per_man = next((self.per_man[i] for i in ids if i in self.per_man), None)
        trick = None
        if ids & self.per_man_options and per_man is not None:
            # Priced once the unit's men are known (settle_per_man).
            trick = {"id": next(iter(sorted(ids & self.per_man_options))), "each": per_man, "own": pricing.points}
        elif per_man is not None and not MAN.search(child.name):
            # The men pay while it is taken though it keeps its own cost (a Canadian Assault Section's Green: 1,
            # and 1 a man): priced as the per-man options are, its own cost once on top.
            trick = {"id": next(i for i in sorted(ids) if i in self.per_man), "each": per_man, "own": pricing.points}
        elif each_member := self.per_member_contents(child):
            # Its contents one per man of the squad (a Soviet Airborne Squad's Anti-tank Grenades): per man.
            trick = {"id": child.id, "each": each_member, "own": pricing.points, "members": True}
        if pricing.points != int(pricing.points):
            self.report.skip(where, child.id, f"a fractional cost {pricing.points}")
            return
        most = max((most_in[key] for key in shown if most_in[key] is not None), default=None)
        if most is None:
            most = self.outer_limit(child, group)
        option = self.option_entry(child, part, pricing, instead_of, most, group, label or child.name)
        option["name"] += pricing.name_suffix  # the key stays the data's own name's: rosters name it
        if len(shown) < len(self.unit_shown):
            option["armies"] = shown
        lower = {key: int(most_in[key]) for key in shown if most_in[key] is not None and most and most_in[key] < most}
        if lower:
            option["max_in"] = lower  # the theatre lists lowering its limit (a Guards squad's second LMG)
        hiders = hidden_by(child.modifiers(), ids, self.tree)
        if hiders.get("quality"):
            option["_hidden_for"] = hiders["quality"]  # settled once the unit's qualities are known (units.py)
        hidden_with = hiders.get("with", set()) - ids
        if hidden_with:
            option["_hidden_with"] = hidden_with  # other options whose taking hides it (priced_with_others)
        least_in = self.least_in(child, shown)
        if least_in:
            option["least_in"] = least_in
        per_force = self.per_force(child, shown)
        if per_force:
            option["force_limits"] = per_force
        rules = self.converter.rule_keys_of(child, self.catalogue, summarised=True) + self.contents_rules(child)
        rules = list(dict.fromkeys(rules))
        if rules:
            option["rules"] = rules  # printed on the card of a unit taking it (Tank Hunters, Tough Fighters)
        option["citation"] = self.converter.citation(self.catalogue, child, child.name)
        option["source_id"] = child.id
        option["_ids"] = sorted(ids)
        if trick is not None:
            option["_per_man"] = trick
        if needs:
            option["_needs"] = sorted(needs)  # unit keys once the catalogue's units are known (PackWriter)
        if child.id in self.needed_options:
            option["_needs_options"] = self.needed_options[child.id]  # option keys in priced_with_others
        for entry_id in ids:
            self.option_keys.setdefault(entry_id, option["key"])
        part.options.append(option)
        self.report.counts["options"] += 1

    def mark_default(self, group: Node, entries: list[Node], options: list[dict]) -> None:
        """The options BattleScribe selects when the unit is added: a weapon or upgrade compulsory in itself
        inside an optional group (an M3 Half-track's pintle HMG, least 1: required in every list showing the
        unit), else the group's free `defaultSelectionEntryId` (an SdKfz 222's Sdkfz 222 variant). A Rating group's
        gun and men's entries are read elsewhere (chosen_default; the men's steppers)."""
        if any(quality_name(c.name) in QUALITIES for c in entries):
            return
        by_id = {entry_id: option for option in options for entry_id in option["_ids"]}
        compulsory = [
            (c, by_id[c.id]) for c in entries if (c.limit("min") or 0) >= 1 and not is_man(c) and c.id in by_id
        ]
        for child, option in compulsory:
            least = int(child.limit("min") or 0)
            shown = option.get("armies") or self.unit_shown
            found = option.setdefault("least_in", {})
            for key in shown:
                found[key] = max(found.get(key, 0), least)
            option["default"] = True
            self.report.pattern("a weapon or upgrade compulsory in itself in an optional group: required, taken")
        wanted = group.element.get("defaultSelectionEntryId")
        # A free default is the unit as named; a paid one (a 3-Ton Truck's MMG, 15) stays the player's choice.
        if not compulsory and wanted in by_id and by_id[wanted]["points"] == 0 and not by_id[wanted].get("_by_quality"):
            by_id[wanted]["default"] = True
            self.report.pattern("a group's default entry: taken when the unit is added")

    def option_limits(self, child: Node, where: str) -> tuple[list[str], dict[str, int | None], frozenset[str]] | None:
        """The theatre lists showing an option, its own limit in each (some lists raise a limit of 0, the
        Granatieri officers, or lower one) and the units it is shown beside, if only beside them; None
        (reported) when it is offered nowhere."""
        category = self.own_category()  # hidden while the unit is of a category
        shown = [key for key in self.converter.visible_in(child, self.army, category) if key in self.unit_shown]
        needs = self.units_beside(child) if not shown else frozenset()
        if needs:
            shown = [
                key for key in self.converter.visible_in(child, self.army, needs | category) if key in self.unit_shown
            ]
        with_options = self.options_beside(child) if not shown else frozenset()
        if with_options:
            visible = self.converter.visible_in(child, self.army, with_options | category)
            shown = [key for key in visible if key in self.unit_shown]
            if shown:
                self.needed_options[child.id] = with_options  # resolved to option keys once all are read
        if not shown:
            self.report.skip(where, child.id, "hidden in every theatre selector showing the unit, for its category")
            self.never_offered.update({child.id, child.element.get("id", "")})
            return None
        limits = own_max_limits(child)
        selectors = {key: selector_id for selector_id, key, _ in self.army.selector_ids}
        most_in = {
            key: min(
                (self.converter.constraint_value(child, c, self.chosen_with(selectors[key])) for c in limits),
                default=None,
            )
            for key in shown
        }
        shown = [key for key in shown if most_in[key] != 0]
        if not shown:
            self.report.skip(where, child.id, "its own constraints allow none of it (max 0)")
            self.never_offered.update({child.id, child.element.get("id", "")})
            return None
        if len({most_in[key] for key in shown}) > 1:
            self.report.pattern("an option limit some theatres change: each theatre list's own limit")
        return shown, most_in, needs

    def least_in(self, child: Node, shown: list[str]) -> dict[str, int]:
        """The theatre lists that raise an option's own least number above the data's (Italy's X Arditi
        Officer: compulsory in the Arditi list), with that number."""
        selectors = {key: selector_id for selector_id, key, _ in self.army.selector_ids}
        found = {}
        for constraint in child.constraints():
            if constraint.get("type") != "min" or constraint.get("scope") != "parent":
                continue
            base = number(constraint.get("value"))
            for key in shown:
                chosen = self.chosen_with(selectors[key])
                # Counted once where the option's limits are read, not again for each theatre.
                least = constraint_value(child, constraint, chosen, Report())
                if least >= 1 and least > base:
                    found[key] = max(found.get(key, 0), least)
        if found:
            self.report.pattern("an option some theatre lists make compulsory: required there")
        return found

    def per_force(self, child: Node, shown: list[str]) -> list[dict]:
        """The option's least and most in each force, counted over every unit of the force taking the same
        entry (an Intelligence Officer: one a platoon), each theatre list's own where its selector changes it."""
        selectors = {key: selector_id for selector_id, key, _ in self.army.selector_ids}

        def value_in(constraint: Element, selector_id: str | None) -> float:
            chosen = self.chosen_with(selector_id) if selector_id else {self.converter.force_id}
            return constraint_value(child, constraint, chosen, Report())  # its modifiers: read in limit_modifier

        keys = [(selectors[key], key) for key in shown]
        found = option_force_limits(child.constraints(), child.element.get("id", ""), value_in, keys)
        if found:
            self.report.pattern("an option's least or most per force: counted over the force's units")
        return found

    def lists_chosen(self) -> set[str]:
        """The selections that decide what an army list shows: its theatre selectors and the force."""
        return {selector_id for selector_id, _, _ in self.army.selector_ids} | {self.converter.force_id}

    def own_category(self) -> frozenset[str]:
        """The unit's own primary category, chosen where a condition asks what the unit is taken as."""
        return frozenset({self.tree.primary_category} - {""})

    def chosen_with(self, selector_id: str) -> set[str]:
        """What an option's limits are read with: the theatre selector, the force and the unit's own primary
        category (a limit set while the unit is of a category counts the category the unit is in)."""
        return {selector_id, self.converter.force_id, self.tree.primary_category} - {""}

    def options_beside(self, child: Node) -> frozenset[str]:
        """The unit's own entries whose taking shows an option hidden otherwise (a Highland Officer's Bagpiper)."""
        return frozenset(shown_beside(child.modifiers(), self.lists_chosen(), frozenset(self.tree.above)))

    def units_beside(self, child: Node) -> frozenset[str]:
        """The entries whose presence in the force shows an option hidden otherwise (Cavalry beside a cavalry
        unit), none of them the unit's own; the pack writer keeps those converted to units."""
        return frozenset(shown_beside(child.modifiers(), self.lists_chosen() | self.tree.above.keys()))

    def option_pricing(self, child: Node, ids: set[str], where: str) -> OptionPricing | None:
        """An option's price read from its points modifiers (always, by quality, while another option is
        taken), and the options excluding it; None (reported) when a modifier forbids it."""
        contents = self.mandatory_cost(child)  # a set price is the entry's own: its compulsory contents still add
        pricing = OptionPricing(points=child.cost + contents)
        ratings = self.rating_costs(child)
        if len(ratings) == 1:
            pricing.points += next(iter(ratings.values()))  # one rating only: always the one taken
        else:
            for quality, cost in ratings.items():
                pricing.quality_change[quality] = pricing.quality_change.get(quality, 0) + cost
        for modifier in child.modifiers():
            target = modifier.get("field")
            if target == "hidden":
                continue
            if target != "points":
                if self.disallowed(modifier, child):
                    self.report.skip(where, child.id, "a modifier sets its own limit to none (max 0)")
                    self.never_offered.update({child.id, child.element.get("id", "")})
                    return None
                self.limit_modifier(modifier, child, ids, pricing)
                continue
            self.price_modifier(modifier, ids, contents, pricing, where)
        return pricing

    def rating_costs(self, child: Node) -> dict[str, float]:
        """What a compulsory group of quality entries inside an option adds, by the unit's quality: an officer's
        Intelligence Officer must be rated Inexperienced (21), Regular (30) or Veteran (39), the rating the
        officer's own quality keeps shown. A group holding one rating (a Naval Forward Observer's Regular, 80)
        costs that always."""
        found: dict[str, float] = {}
        for group in self.converter.children(child, self.catalogue):
            if not group.is_group or (group.limit("min") or 0) < 1:
                continue
            ratings = {quality_of(entry.name): entry for entry in self.converter.children(group, self.catalogue)}
            if None in ratings or not ratings:
                continue
            for quality, entry in ratings.items():
                found[quality] = entry.cost + self.mandatory_cost(entry)
            self.report.pattern("an option holding a compulsory rating by quality: its cost for each quality")
        return found

    def price_modifier(
        self, modifier: Element, ids: set[str], contents: float, pricing: OptionPricing, where: str
    ) -> None:
        """Apply one points modifier of an option to its pricing, by when it applies."""
        applies, on = self.when(modifier, ids)
        setting = modifier.get("type") == "set"
        if applies == "always" and setting:
            pricing.points = number(modifier.get("value")) + contents
            self.report.pattern("a points value set on an option (unconditionally or by its category)")
        elif applies == "always":
            pricing.points += signed(modifier)
            self.report.pattern("an option's points changed whenever it is taken")
        elif applies == "quality" and setting:
            pricing.by_quality[on] = number(modifier.get("value")) + contents
            self.report.pattern("an option priced by the unit's quality")
        elif applies == "quality":
            pricing.quality_change[on] = pricing.quality_change.get(on, 0) + signed(modifier)
            self.report.pattern("an option priced by the unit's quality")
        elif applies == "with" and not setting:
            pricing.with_options[on] = pricing.with_options.get(on, 0) + signed(modifier)
        elif applies == "never":
            counted = next(modifier.iter("condition"))
            self.report.without_effect(
                where,
                next(iter(sorted(ids))),
                f"a points {modifier.get('type')} of {modifier.get('value')} counting {counted.get('childId')} inside"
                f" {counted.get('scope')}, which never holds it",
            )
        else:
            self.report.pattern("conditional point change not carried (increment/decrement/set points)")

    def option_entry(
        self,
        child: Node,
        part: Part,
        pricing: OptionPricing,
        instead_of: tuple[float, list[str]] | None,
        most: float | None,
        group: str | None,
        name: str,
    ) -> dict:
        """The pack option's fields, with the converter's notes (underscored) settled when the unit is done."""
        weapons = self.contents_weapons(child)
        offset = instead_of[0] if instead_of is not None else 0
        points = pricing.points - offset
        keys = {option["key"] for option in part.options}
        key = slug(name)
        suffix = 2
        while key in keys:
            key, suffix = f"{slug(name)}-{suffix}", suffix + 1
        option: dict = {"key": key, "name": name, "points": whole(points)}
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
        prices = {q: value - offset for q, value in pricing.by_quality.items()}
        prices |= {q: prices.get(q, points) + change for q, change in pricing.quality_change.items()}
        if prices:
            option["_by_quality"] = prices
        if pricing.with_options:
            option["_with"] = pricing.with_options
        if pricing.excludes:
            option["_excludes"] = pricing.excludes
        if pricing.max_with:
            option["_max_with"] = pricing.max_with
        if pricing.min_if_taken:
            option["min_if_taken"] = pricing.min_if_taken
        # What it holds comes with it as BattleScribe selects it: its weapon group's default (an observer's
        # soldier's Pistol, an SdKfz 221's turret MMG, an LVT(A)1's coaxial HMG).
        armed = [w for w in self.default_weapons(child) if w not in option.get("weapons", [])]
        if armed:
            option["weapons"] = [*option.get("weapons", []), *armed]
        named_man = child.entry_type == "model" or MAN.search(child.name) or child.name.strip().lower() == "spotter"
        if named_man or (armed and self.holds_rating(child)):
            # A man: named so, or with his own rating and weapon (an officer's Intelligence Officer, his Pistol).
            option["adds_models"] = [{"count": 1, "role": role_of(child.name, self.kind), "name": child.name}]
        return option

    def default_options(self, default: Node, others: list[str], part: Part) -> None:
        """What a compulsory choice's default may take (a Tetrarch's Little John Adaptor on its light AT gun):
        options of the unit, gone with the default when another choice (`others`) replaces it."""
        before, held = len(part.options), self.converter.children(default, self.catalogue)
        for child in [c for c in held if not (c.is_group or c.limit("min"))]:
            self.option(child, part, None)
        for option in part.options[before:]:
            option.setdefault("_excludes", []).extend(others)
            self.report.pattern("an option of a compulsory choice's default: excluded by the other choices")

    def outer_limit(self, child: Node, group: str | None) -> float | None:
        """An option with no limit of its own: one of a one-of group is taken once, and one a force or
        roster limits (an Intelligence Officer per force) is taken at most that often by one unit."""
        limits = outer_limits(child)
        if group is not None:
            limits.append(1.0)
        if limits:
            self.report.pattern("an option with no limit of its own: its group's or its force's limit used")
        return min(limits, default=None)

    def limit_modifier(self, modifier: Element, child: Node, ids: set[str], pricing: OptionPricing) -> None:
        """Read a modifier of an option's own limits or name: carried, or counted with the reason it is not."""
        target, kind, value = modifier.get("field"), modifier.get("type"), number(modifier.get("value"))
        own = {c.get("id"): c.get("type") for c in child.constraints()} | {"maxSelections": "max"}
        applies, on = self.when(modifier, ids)
        excludes = pricing.excludes
        if target == "name" and kind == "append" and applies == "always":
            pricing.name_suffix += " " + " ".join((modifier.get("value") or "").split())
            self.report.pattern("text the data always appends to an option's name: appended")
        elif target == "name":
            self.report.pattern("modifier of the name not carried (the data's own name kept)")
        elif own.get(target) == "min" and kind == "set" and value == 0 and applies == "always":
            self.report.pattern("an entry's own least number set to 0: read as the option it is")
        elif own.get(target) == "max" and kind == "set" and value == 0 and applies == "with":
            excludes.append(on)
        elif own.get(target) == "max" and kind == "set" and applies == "with":
            pricing.max_with[on] = int(value)
        elif own.get(target) == "min" and kind == "set" and value > 1 and applies == "always":
            pricing.min_if_taken = int(value)  # its condition counts the option itself: once taken, this many
            self.report.pattern("an option's least number set once it is taken: taken at all, that often")
        elif applies == "never" and own.get(target) in ("max", "min"):
            self.report.without_effect(
                f"{self.catalogue.name}: {self.root.name} / {child.name}",
                child.id,
                "a limit set while an entry is taken that is never selected where its condition counts",
            )
        elif own.get(target) in ("max", "min") and self.on_theatre(modifier):
            pass  # a theatre list's own limit, read with the option's limits (option_limits, least_in)
        elif own.get(target) in ("max", "min") and self.on_category(modifier):
            # Read with the option's limits, the unit's primary category among what is chosen (chosen_with).
            self.report.pattern("an option limit set while the unit is of a category: read for the unit's own")
        else:
            self.report.pattern(
                "modifier of an option's limit not carried (it grows with other selections, or depends on"
                " the unit's category or on another option's count)"
            )

    def on_category(self, modifier: Element) -> bool:
        """A modifier whose conditions count a category in the unit's primary-category scope (a Guards
        Squad's second LMG, refused while it is fielded as Infantry), or theatre selectors in the force.

        "equalTo 1" there counts the unit itself: it is 1 exactly when the unit is of that category."""
        chosen = self.lists_chosen()
        conditions = list(modifier.iter("condition"))
        by_category = [c for c in conditions if c.get("scope") == "primary-category"]
        theatre = [c for c in conditions if c.get("scope") == "force" and c.get("childId") in chosen]
        counts_one = all(
            (c.get("type"), number(c.get("value"))) in (("equalTo", 1), ("atLeast", 1)) for c in by_category
        )
        return bool(by_category) and counts_one and len(by_category) + len(theatre) == len(conditions)

    def on_theatre(self, modifier: Element) -> bool:
        """A modifier whose conditions count only theatre selectors (or the force entry) in the force."""
        chosen = self.lists_chosen()
        conditions = list(modifier.iter("condition"))
        return bool(conditions) and all(c.get("scope") == "force" and c.get("childId") in chosen for c in conditions)

    def disallowed(self, modifier: Element, child: Node) -> bool:
        """A modifier that always sets one of the entry's own max limits to 0: the option cannot be taken."""
        limits = {c.get("id") for c in child.constraints() if c.get("type") == "max"}
        return (
            modifier.get("type") == "set"
            and modifier.get("field") in limits | {"maxSelections"}
            and number(modifier.get("value")) == 0
            and self.when(modifier, {child.id, child.element.get("id", "")})[0] == "always"
        )

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
            needed = {self.option_keys.get(i, "") for i in option.pop("_needs_options", ())} & keys - {option["key"]}
            if needed:
                option["needs_options"] = sorted(needed)
                self.report.pattern("an option shown only while another of the unit's is taken: it needs that one")
        for option in options:
            hidden_with = [by_key.get(self.option_keys.get(i, "")) for i in sorted(option.pop("_hidden_with", ()))]
            for other in hidden_with:
                # Men hiding each other (an LMG man and a light mortar man): one or the other, where both are offered.
                if other is not None and other is not option and may_meet(option, other):
                    option.setdefault("_excludes", []).append(other["_ids"][0])
        for option in options:
            for entry_id in option.pop("_excludes", []):
                other = by_key.get(self.option_keys.get(entry_id, ""))
                if other is None or other is option:
                    continue
                pair = "-or-".join(sorted([option["key"], other["key"]]))[:80]
                if option.get("group") and option.get("group") == other.get("group"):
                    self.report.pattern("two options that exclude each other: already one group")
                elif option.get("group", pair) == pair and other.get("group", pair) == pair:
                    option["group"] = other["group"] = pair
                    self.report.pattern("two options that exclude each other: one group")
                else:
                    for one, two in ((option, other), (other, option)):
                        if two["key"] not in one.setdefault("excludes", []):
                            one["excludes"].append(two["key"])
                    self.report.pattern("an option another excludes, already in a group of its own: excludes")
        for option in options:
            option.pop("_ids", None)
            prices = option.pop("_by_quality", {})
            by_quality = {q: whole(p) for q, p in sorted(prices.items()) if whole(p) != option["points"]}
            if by_quality:
                option["quality_points"] = by_quality
            points_with: dict[str, int] = {}
            for entry_id, change in sorted(option.pop("_with", {}).items()):
                if entry_id in self.per_model_ids:
                    # A per-man option is priced on each man already; a man paying more or less than the others
                    # (a Soviet cavalryman with an SMG: 3 for his horse, not 2) pays the difference himself.
                    change -= self.per_model_ids[entry_id]
                    if not change:
                        continue
                    self.report.pattern("a man paying more or less than the others for a per-man option: his own share")
                other = self.option_keys.get(entry_id)
                if other in keys and other != option["key"]:
                    points_with[other] = points_with.get(other, 0) + whole(change)
                    self.report.pattern("an option's points changed while another option is taken")
                elif entry_id in self.never_offered:
                    self.report.without_effect(
                        f"{self.catalogue.name}: {self.root.name} / {option['name']}",
                        option["source_id"],
                        f"a points change while {entry_id} is taken, which the unit never offers (hidden, or at most 0)",
                    )
                else:
                    self.report.pattern(
                        "a point change while an option is taken that the unit does not offer (one under another quality or man)"
                    )
            if points_with:
                option["points_with"] = dict(sorted(points_with.items()))
            self.max_with_others(option, keys)
        return options

    def max_with_others(self, option: dict, keys: set[str]) -> None:
        """An option's greater limit while another option of the unit is taken (pack field max_with)."""
        raised = {}
        for entry_id, most in sorted(option.pop("_max_with", {}).items()):
            other = self.option_keys.get(entry_id)
            if other in keys and other != option["key"] and most > option.get("max", 0):
                raised[other] = most
                self.report.pattern("an option's limit raised while another option is taken")
            else:
                self.report.pattern("an option's limit set while another option is taken, not above its own: kept")
        if raised:
            option["max_with"] = raised

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


def apply_quality_max(option: dict, by_quality: dict[str, int | None]) -> None:
    """An option each quality's entry limits differently (an Australian Veteran section's three SMGs, the
    Regular one's one): the highest is its limit, and the qualities allowed fewer keep their own."""
    if None in by_quality.values() or len(set(by_quality.values())) < 2:
        return
    option["max"] = max(by_quality.values())
    option["quality_max"] = {q: most for q, most in by_quality.items() if most != option["max"]}


def may_meet(option: dict, other: dict) -> bool:
    """Whether one unit could take both options: offered to a quality and an army list in common."""
    for field_name in ("qualities", "armies"):
        mine, theirs = option.get(field_name), other.get(field_name)
        if mine and theirs and not set(mine) & set(theirs):
            return False
    return True
