"""A unit's men: the model group as its size range and cost per extra man, the men the data leaves out,
and per-man options (an option whose price the men pay, each while it is taken)."""

from __future__ import annotations

from dataclasses import dataclass

from lists.battlescribe.conditions import signed
from lists.battlescribe.names import number, quality_of, role_of, slug, whole, without_quality
from lists.battlescribe.nodes import Node, chosen_default
from lists.battlescribe.unit_part import Part


def men_order(child: Node) -> tuple[int, float, bool]:
    """The men a squad starts with first, in the data's order; then those it may add, most numerous first,
    plain men ("Regular Men") before men named for a weapon ("Regular Men with SMG"), else in the data's order."""
    if child.limit("min"):
        return 0, 0.0, False
    most = child.limit("max")
    return 1, -(most if most is not None else float("inf")), " with" in child.name.lower()


def men_most(entries: list[Node]) -> int | None:
    """The most men a group's entries hold together, where each has a fixed greatest number (none changed by
    a modifier, as a theatre or another option may raise it); None where any may be taken without end."""
    total = 0
    for child in entries:
        most = child.limit("max")
        if most is None or any(m.get("field") == "maxSelections" for m in child.modifiers()):
            return None
        total += int(most)
    return total


@dataclass(frozen=True)
class WeaponChoice:
    """One weapon a man must carry, chosen among `entries`: the default in his hands, at its cost."""

    name: str  # the group's name ("Weapon"), naming the options replacing the default ("nco-weapon")
    default: Node
    cost: float
    weapons: list[str]
    entries: list[Node]


class MenMixin:
    """UnitBuilder's men and squad size (lists/battlescribe/units.py)."""

    def models(self, group: Node, entries: list[Node], part: Part, low: int, high: int | None) -> None:
        """A group of model entries: the unit's size range, its men, and the cost of one more man."""
        part.min_size, part.max_size = low, high
        counted = 0
        extra_line: dict | None = None  # the kind of man the squad adds at `part.per_extra` each
        # Men the squad starts with come first: the first of them that may be added sets the cost per extra man;
        # of the men it may add, the one it may add most of comes first (the Partisans' plain men, not their one
        # LMG man).
        for child in sorted(entries, key=men_order):
            count = int(child.limit("min") or 0)
            most = child.limit("max")
            each = child.cost + self.mandatory_cost(child) + self.always_paid(child)
            choices = self.weapon_choices(child) if count >= 1 else []
            each += sum(choice.cost for choice in choices)
            weapons = self.compulsory_weapons(child)
            other_kind = each != part.per_extra or extra_line is None or weapons != extra_line["weapons"]
            if count == 0 and part.per_extra is not None and other_kind:
                # A man of another cost or weapon (Soldier with LMG): an option adding him at his own cost,
                # one of the squad's men as its size range counts them.
                before = len(part.options)
                self.option(child, part, None)
                # His compulsory weapon (an SAS Soldier with LMG's LMG, the default of his Weapon group) comes with
                # him, as BattleScribe selects it: its cost in his price, its weapon in his hands.
                choices = self.weapon_choices(child)
                for option in part.options[before:]:
                    add_weapon_choices(option, choices)
                    option["in_size"] = True
                    # A member of the squad's group is one of its men, whatever his name (a KNIL Local Scout).
                    option.setdefault(
                        "adds_models", [{"count": 1, "role": role_of(child.name, self.kind), "name": child.name}]
                    )
                self.report.pattern("a man of another cost in a squad read as an option adding him")
                continue
            part.points += count * each
            counted += count
            rated = self.rated_price(child)
            for quality, price in rated.items():
                part.men_by_quality[quality] = part.men_by_quality.get(quality, 0) + count * (price - child.cost)
            line = {"count": count, "role": role_of(child.name, self.kind), "name": child.name, "weapons": weapons}
            line["_quality"] = quality_of(child.name) or self.converter.quality_profile(child, self.catalogue)
            part.composition.append(line)
            for choice in choices:
                self.weapon_choice(child, count, most, choice, part, line)
            if count >= 1 and most == count:
                self.wrapped_option(child, part)
            if count >= 1:
                self.mens_own_entries(child, count, most, choices, part)
            if most is None or most > count:
                if part.per_extra is not None and part.per_extra != each:
                    self.report.pattern("men of different costs in one squad: the first extra man's cost used")
                elif part.per_extra is None:
                    part.per_extra = each
                    extra_line = line
                    part.extra_by_quality = {q: each + price - child.cost for q, price in rated.items()}
        if any(o.get("in_size") for o in part.options):
            # The men's own least numbers bind beside the men options add (a Soldier with BAR joins five soldiers).
            part.min_own_size = counted
        if counted < low and extra_line is not None and part.per_extra is not None:
            # The group's least size rules: the men it adds are the kind that may be added.
            extra_line["count"] += low - counted
            part.points += (low - counted) * part.per_extra
            for quality, price in part.extra_by_quality.items():
                part.men_by_quality[quality] = part.men_by_quality.get(quality, 0) + (low - counted) * (
                    price - part.per_extra
                )
            self.report.pattern("a squad's least size above its men's least counts: filled with the men one may add")
        elif counted > low:
            # Each man's own least number binds too: BattleScribe refuses fewer, whatever the group allows.
            part.min_size = counted
            self.report.pattern("a squad's least size below its men's least counts: their sum used")
        elif counted != low:
            self.report.pattern("a squad's least size differs from the sum of its men's least counts")
        most_men = men_most(entries)
        if most_men is not None and (high is None or most_men < high):
            # Each man's own greatest number binds too: a group of 6-12 whose men add up to 6 holds 6.
            part.max_size = most_men
            self.report.pattern("a squad's greatest size above its men's greatest counts: their sum used")
        self.report.pattern("model group read as the unit's size and cost per extra man")

    def always_paid(self, man: Node) -> float:
        """What a man pays for the per-man options his unit always holds (each counted by his modifiers)."""
        total = 0.0
        for modifier in man.modifiers():
            counted = {c.get("childId") for c in modifier.iter("condition")}
            if modifier.get("field") == "points" and counted and counted <= self.always_taken:
                total += signed(modifier)
        if total:
            self.report.pattern("a per-man option the unit always holds: each man's cost with it")
        return total

    def compulsory_weapons(self, node: Node) -> list[str]:
        """The weapons an entry carries: its own, and those of its compulsory contents at any depth (an NCO's
        "M1 Garand rifle or carbine" holding the rifle)."""
        weapons = self.converter.weapons_of(node, self.catalogue)
        for child in self.converter.children(node, self.catalogue):
            if not child.is_group and (child.limit("min") or 0) >= 1:
                weapons += [w for w in self.compulsory_weapons(child) if w not in weapons]
        return weapons

    def rated_price(self, man: Node) -> dict[str, float]:
        """A man's own price as the unit's quality sets it (a Dog Mines team's NCO: 13, 18 or 23 by rating)."""
        found = {}
        for modifier in man.modifiers():
            if modifier.get("field") == "points" and modifier.get("type") == "set":
                applies, quality = self.when(modifier, {man.id, man.element.get("id", "")})
                if applies == "quality":
                    found[quality] = number(modifier.get("value"))
        if found:
            self.report.pattern("a man's price set by the unit's quality: his price in each quality's")
        return found

    def weapon_choices(self, man: Node) -> list[WeaponChoice]:
        """A man's compulsory one-of weapon groups (an NCO's Rifle or SMG, min 1 and max 1), each with its
        default: the data's default, else the cheapest. A man with no such group but two or more weapons of
        his own he may take once each (a Regular British NCO's Rifle and SMG, neither compulsory) chooses
        among those the same way, as the same NCO of the other qualities does."""
        found = []
        for group in self.converter.children(man, self.catalogue):
            if not group.is_group or (group.limit("min") or 0) < 1 or group.limit("max") != 1:
                continue
            entries = [c for c in self.converter.children(group, self.catalogue) if not c.is_group]
            if entries:
                found.append(self.choice_among(group.name, entries, group))
        if not found:
            loose = self.loose_weapons(man)
            if len(loose) >= 2:
                found.append(self.choice_among("Weapon", loose, None))
                self.report.pattern("a man's weapons with no group around them, each at most once: read as his choice")
        for wrapper in [] if found else self.weapon_wrappers(man):
            # A compulsory entry standing for his one-of group (a Veteran Honvéd or IJA Engineer NCO's "Weapon",
            # holding his Rifle and SMG): what it holds is his weapon choice, as if it were that group.
            found.append(self.choice_among(wrapper.name, self.loose_weapons(wrapper), None))
            self.report.pattern("a man's compulsory entry holding his weapons: read as his weapon choice")
        return found

    def mens_own_entries(
        self, man: Node, count: int, most: float | None, choices: list[WeaponChoice], part: Part
    ) -> None:
        """What a man may take beside his weapon choice (a Polish cavalryman's Lance, 1): for a man of a fixed
        number (the NCO), an option in his hands; for men a squad may add, each taking it on his own, named in
        the report (an option of the squad cannot count how many of them take it)."""
        chosen = {entry.id for choice in choices for entry in choice.entries}
        wrapped = {c.id for c in self.weapon_wrappers(man)} | {c.id for c in self.weapon_wrappers(man, False)}
        for child in self.converter.children(man, self.catalogue):
            held = [child] if not child.is_group else self.converter.children(child, self.catalogue)
            for entry in held:
                if entry.is_group or entry.id in chosen | wrapped or (entry.limit("min") or 0) >= 1:
                    continue
                if child.is_group and (child.limit("min") or 0) >= 1 and child.limit("max") == 1:
                    continue  # a compulsory one-of group's entries are his weapon choice
                armed = bool(self.contents_weapons(entry))
                if armed and not child.is_group:
                    continue  # a weapon of his own, at most once: his choice where he has two (weapon_choices)
                if most == count and not armed:
                    before = len(part.options)
                    self.option(entry, part, None, None, f"{without_quality(man.name)} {entry.name}")
                    for option in part.options[before:]:
                        option["_carrier"] = man.name
                        if count > 1:
                            option["max"] = count
                    self.report.pattern("an entry of a man of a fixed number: an option in his hands")
                elif most != count:
                    why = (
                        f"an entry each of the men a squad may add takes on his own ({man.name}, {count} to "
                        f"{'any' if most is None else int(most)}): an option of the squad cannot count how many take it"
                    )
                    self.report.skip(
                        f"{self.catalogue.name}: {self.root.name} / {man.name} / {entry.name}", entry.id, why
                    )

    def loose_weapons(self, holder: Node) -> list[Node]:
        """The weapons an entry holds with no group around them, each at most once and none compulsory."""
        return [
            c
            for c in self.converter.children(holder, self.catalogue)
            if not c.is_group and not c.limit("min") and c.limit("max") == 1 and self.contents_weapons(c)
        ]

    def weapon_wrappers(self, man: Node, choices: bool = True) -> list[Node]:
        """A man's compulsory entries, once each, with no weapon of their own, holding only weapons each at most
        once (none compulsory): the data's one-of weapon group written as an entry (`choices`), or holding one
        priced weapon (not `choices`)."""
        found = []
        for child in self.converter.children(man, self.catalogue):
            if child.is_group or child.limit("min") != 1 or child.limit("max") != 1:
                continue
            held = self.converter.children(child, self.catalogue)
            loose = self.loose_weapons(child)
            if loose and len(loose) == len(held) and not self.converter.weapons_of(child, self.catalogue):
                # One weapon that costs nothing is his (his price is BattleScribe's either way); one priced weapon
                # BattleScribe leaves unselected is an option (wrapped_option).
                free = len(loose) == 1 and not loose[0].cost + self.mandatory_cost(loose[0])
                if (len(loose) >= 2 or free) == choices:
                    found.append(child)
        return found

    def wrapped_option(self, man: Node, part: Part) -> None:
        """A man's compulsory "Weapon" entry holding one priced weapon (a Veteran Hungarian paratrooper NCO's
        SMG, 3), which BattleScribe leaves unselected: an option of the squad, in his hands."""
        for wrapper in self.weapon_wrappers(man, choices=False):
            before = len(part.options)
            for weapon in self.loose_weapons(wrapper):
                self.option(weapon, part, None, None, f"{without_quality(man.name)} {weapon.name}")
            for option in part.options[before:]:
                option["_carrier"] = man.name
            self.report.pattern("a man's compulsory entry holding one priced weapon: an option in his hands")

    def choice_among(self, name: str, entries: list[Node], group: Node | None) -> WeaponChoice:
        """The man's weapon among `entries`: the one BattleScribe selects (`chosen_default`), else the
        cheapest. The others stay options replacing it; where the chosen one is compulsory in itself,
        BattleScribe would count it missing beside another (a reading, docs/battlescribe.md)."""
        default = chosen_default(group, entries) if group is not None else None
        if group is not None and default is not None and (default.limit("min") or 0) >= 1:
            wanted = group.element.get("defaultSelectionEntryId")
            if wanted and wanted not in (default.id, default.element.get("id")):
                self.report.pattern(
                    "a weapon compulsory in itself in a man's one-of group: it, not the group's default"
                )
        default = default or min(entries, key=lambda c: c.cost + self.mandatory_cost(c))
        cost = default.cost + self.mandatory_cost(default)
        return WeaponChoice(name, default, cost, self.contents_weapons(default), entries)

    def weapon_choice(
        self, man: Node, count: int, most: float | None, choice: WeaponChoice, part: Part, line: dict
    ) -> None:
        """A man's compulsory weapon: the default in his hands and in the squad's price; the others, for a
        man of a fixed number (the NCO), options replacing it, named for him."""
        default, cost, weapons = choice.default, choice.cost, choice.weapons
        line["weapons"] += [w for w in weapons if w not in line["weapons"]]
        if most != count:
            self.report.pattern("a weapon choice of men a squad may add: the default's cost in each man's price")
            why = (
                f"a weapon choice of men a squad may add ({man.name}, {count} to {'any' if most is None else int(most)}):"
                f" each carries his default, {default.name}; an option replacing it cannot count how many of them there are"
            )
            for other in choice.entries:
                if other is not default and other.id != default.id:
                    self.report.skip(
                        f"{self.catalogue.name}: {self.root.name} / {man.name} / {other.name}", other.id, why
                    )
            return
        key = slug(f"{without_quality(man.name)} {choice.name}")
        before = len(part.options)
        for other in choice.entries:
            if other is not default and other.id != default.id:
                self.option(other, part, key, (cost, weapons), f"{without_quality(man.name)} {other.name}")
        for option in part.options[before:]:
            option["_carrier"] = man.name
            if count > 1:
                option["max"] = count
        self.report.pattern(
            "a man's compulsory weapon choice: the default in his price, the others options replacing it"
        )

    def per_member_contents(self, option: Node) -> float:
        """What an option's contents cost per man of the squad: an entry whose least number rises by one
        for every selection in the unit's men's group (a Soviet Airborne Squad's Anti-tank Grenades, 2 a
        man, a repeat counting Squad Members f0fb7f5c-1b54-1b44-a001-ea5b38c4012d), as BattleScribe
        selects that many when the option is taken; 0 where there is none."""
        total = 0.0
        for child in self.converter.children(option, self.catalogue):
            total += self.per_member(child) * child.cost
        if total:
            self.report.pattern("an option holding one of its contents per man: priced per man")
        return total

    def holds_rating(self, child: Node) -> bool:
        """Whether an entry holds a compulsory group of quality entries (a man's own rating)."""
        for group in self.converter.children(child, self.catalogue):
            if group.is_group and (group.limit("min") or 0) >= 1:
                names = [quality_of(entry.name) for entry in self.converter.children(group, self.catalogue)]
                if names and None not in names:
                    return True
        return False

    def contents_rules(self, node: Node) -> list[str]:
        """The rules a player plays by that an option's contents bring, as BattleScribe selects them with it
        (its compulsory entries and those one per man, its compulsory groups' defaults): a Flamethrower's Loader, a coaxial MMG's
        Co-axial Weapon. A base weapon's own rules (Team, One-shot) come with its profile and are left out."""
        found: list[str] = []
        for child in self.converter.children(node, self.catalogue):
            if child.is_group:
                if (child.limit("min") or 0) < 1 or child.limit("max") != 1:
                    continue
                entries = [c for c in self.converter.children(child, self.catalogue) if not c.is_group]
                cheapest = min(entries, key=lambda c: c.cost + self.mandatory_cost(c), default=None)
                held = [chosen_default(child, entries) or cheapest] if entries else []
            else:
                # Compulsory, or one per man of the squad (a Soviet Airborne Squad's Tough Fighters).
                held = [child] if (child.limit("min") or 0) >= 1 or self.per_member(child) else []
            for entry in held:
                rules = self.converter.rule_keys_of(entry, self.catalogue, summarised=True) + self.contents_rules(entry)
                found += [r for r in rules if r not in found and r not in self.converter.weapon_rules]
        return found

    def default_weapons(self, man: Node) -> list[str]:
        """The weapons of the default of each compulsory one-of group a man holds (his Rifle or Pistol)."""
        found = []
        for group in self.converter.children(man, self.catalogue):
            if not group.is_group or (group.limit("min") or 0) < 1 or group.limit("max") != 1:
                continue
            entries = [c for c in self.converter.children(group, self.catalogue) if not c.is_group]
            cheapest = min(entries, key=lambda c: c.cost + self.mandatory_cost(c), default=None)
            default = chosen_default(group, entries) or cheapest
            if default is not None:
                found += [w for w in self.contents_weapons(default) if w not in found]
        return found

    def per_member(self, child: Node) -> float:
        """How many of an entry BattleScribe selects per man of the squad: its least number rising by that much
        for every selection in the unit's men's group; 0 where it does not."""
        if child.limit("min"):
            return 0.0  # a least number of its own beside the men's (a Warlord's Horses): not one per man
        least_ids = {c.get("id") for c in child.constraints() if c.get("type") == "min"}
        each = 0.0
        for modifier in child.modifiers():
            repeat = modifier.find("repeats/repeat")
            if (
                modifier.get("field") in least_ids  # the field a modifier changes is its constraint's id
                and modifier.get("type") == "increment"
                and repeat is not None
                and repeat.get("childId") in self.men_groups
                and number(repeat.get("value")) == 1
            ):
                each += number(modifier.get("value"))
        return each

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
            if share is None or trick.get("members") or any(i not in self.option_keys for i in share[1]):
                option["points"] = whole(trick["each"])
                option.pop("max", None)
                if trick["own"]:
                    option["points_once"] = whole(trick["own"])  # what BattleScribe charges for the option itself
                # "per" follows "points" in the pack's order of fields.
                option |= {
                    "per": "model",
                    "every_man": True,  # BattleScribe takes it once and every man pays
                    **{k: option.pop(k) for k in list(option) if k not in ("key", "name", "points")},
                }
                self.per_model_ids.update(dict.fromkeys(option["_ids"], trick["each"]))
                if trick.get("members"):
                    pass  # counted as an option holding one of its contents per man
                elif trick["own"] == 0:
                    self.report.pattern("per-man option (cancels its own cost, adds a cost per man)")
                else:
                    self.report.pattern("a per-man option whose own cost does not cancel: that cost paid once on top")
            else:
                option["points"] = whole(trick["own"] + share[0])
                self.report.pattern("a per-man option only some men pay for: their share priced with the option")

    def default_composition(self, node: Node, kind: str, part: Part, where: str) -> list[dict]:
        """Vehicles and teams the data gives no men for: the vehicle, or a crew of two for a team weapon."""
        if kind in ("vehicle", "transport"):
            return [{"count": 1, "role": "vehicle", "name": node.name, "weapons": part.weapons}]
        if kind == "infantry":
            self.report.pattern("no men in the data for a headquarters unit: the one man it is named after used")
            return [{"count": 1, "role": role_of(node.name, kind), "name": node.name, "weapons": part.weapons}]
        self.report.pattern("no men in the data: a crew of two (the least a team weapon needs) used")
        return [{"count": 2, "role": "crew", "name": "Crew", "weapons": part.weapons}]


def add_weapon_choices(option: dict, choices: list[WeaponChoice]) -> None:
    """A man option with his compulsory weapons' defaults: their cost and their weapons."""
    for choice in choices:
        option["points"] = whole(option["points"] + choice.cost)
        if "_by_quality" in option:
            option["_by_quality"] = {q: value + choice.cost for q, value in option["_by_quality"].items()}
        weapons = option.setdefault("weapons", [])
        weapons += [w for w in choice.weapons if w not in weapons]


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
        "min_own_size": None,
    }


def own_shape(shape: dict, extra: Part) -> dict:
    """A quality's own size range and listed men where its entry differs from the unit's (a Veteran
    squad of six where the Regular one has five): the price of that quality covers its own men."""
    own = {}
    if extra.composition and men_of(extra.composition) != shape["base_size"]:
        own["base_size"] = men_of(extra.composition)
    for key in ("min_size", "max_size", "min_own_size"):
        value = getattr(extra, key)
        if value is not None and value != shape[key]:
            own[key] = value
    return own
