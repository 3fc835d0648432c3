"""The roster and the game data it uses, in memory, for pricing and rule checks.

Rule checks are pure functions over a `RosterSnapshot`: no database access,
so they are fast, testable on hand-built snapshots, and shared by the editor,
the JSON output, the command line and the PDFs. `lists.gamedata.loading` builds
snapshots from the database with a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property


@dataclass(frozen=True)
class RuleInfo:
    key: str
    name: str
    summary: str
    points: int | None = None
    reminder: str = ""  # the one line printed on unit cards; "": taken from the summary
    source: str = ""  # where the rule comes from, in words (document, section)
    applies_to: dict | None = None  # army rules: the units it is printed on (see pack-format.md); None: all
    modifies: tuple[dict, ...] = ()  # notes on the lines of the weapons it changes: {"weapons": [...], "note": ...}
    document: str = ""  # the source document's key and section (a BattleScribe catalogue), as the pack gives them
    section: str = ""


@dataclass(frozen=True)
class HouseRuleInfo:
    """A priced house rule of an overlay pack, and how it is bought (see pack_schema.Purchase)."""

    key: str
    name: str
    points: int
    bought_for: str = "roster"  # "roster" or "unit"
    per_role: str | None = None  # priced once for each model of this role in the unit
    max: int | None = None
    any_of: tuple[dict, ...] = ()  # conditions, as the pack gives them; empty: anywhere
    pack: str = ""  # the overlay's short name
    summary: str = ""  # its text, for the rules reference of the cards
    source: str = ""  # where it comes from, in words


@dataclass(frozen=True)
class HouseRuleChoice:
    """A house rule bought `count` times, for the roster or for the roster unit at index `unit`."""

    rule: HouseRuleInfo
    count: int = 1
    unit: int | None = None


@dataclass(frozen=True)
class WeaponInfo:
    key: str
    name: str
    category: str | None = None
    category_name: str = ""
    rules: frozenset[str] = frozenset()


NOT_MEN = frozenset({"vehicle", "gun"})


@dataclass(frozen=True)
class ModelLine:
    """One line of a unit as its source prints it: `count` models, each of `figures` figures.

    `weapons` is what one model carries, a weapon appearing as often as the model has it.
    """

    count: int
    role: str
    name: str
    weapons: tuple[WeaponInfo, ...] = ()
    fs: int | None = None
    morale: int | None = None
    equipment: str = ""
    figures: int = 1

    @property
    def men(self) -> int:
        """Figures of men on the table: the one count of figures every rule uses."""
        return 0 if self.role in NOT_MEN else self.count * self.figures

    def resized(self, count: int) -> ModelLine:
        return replace(self, count=count)


@dataclass(frozen=True)
class OptionForceLimitInfo:
    """How often the options naming `group` are taken in each force, over its units (in `armies` only, if any)."""

    group: str
    min: int = 0
    max: int | None = None
    armies: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionInfo:
    key: str
    name: str
    points: int
    per: str = "unit"  # "unit" or "model"
    every_man: bool = False  # per model, and every man pays while it is taken
    max: int | None = None
    group: str = ""
    shares: str = ""  # the unit's shared limit it counts toward
    excludes: list[str] = field(default_factory=list)  # option keys it is never taken with
    needs_options: list[str] = field(default_factory=list)  # option keys of the unit, one of which it needs
    rules: list[str] = field(default_factory=list)  # rule keys a unit taking it has
    adds_models: tuple[ModelLine, ...] = ()
    weapons: tuple[WeaponInfo, ...] = ()
    replaces: tuple[str, ...] = ()
    model: str = ""  # the model line whose figure swaps the replaced weapon; "": the rank and file
    officer_rank: str | None = None
    service_start: int | None = None
    service_end: int | None = None
    service_period: str = ""
    period_points: dict[str, int] = field(default_factory=dict)
    quality_points: dict[str, int] = field(default_factory=dict)  # points for a unit of this quality
    quality_max: dict[str, int] = field(default_factory=dict)  # a unit of this quality's own lower limit
    points_with: dict[str, int] = field(default_factory=dict)  # option key -> points more each while it is taken
    max_with: dict[str, int] = field(default_factory=dict)  # option key -> its greatest number while that is taken
    min_if_taken: int | None = None  # taken at all, at least this often
    least_in: dict[str, int] = field(default_factory=dict)  # army key -> how often a unit must take it there
    default: bool = False  # taken when the unit is added (the data's default choice)
    max_in: dict[str, int] = field(default_factory=dict)  # army key -> its greatest number there, where lower
    force_limits: tuple[OptionForceLimitInfo, ...] = ()  # least and most in each force, over its units
    needs_units: tuple[str, ...] = ()  # unit keys, one of which the unit's force must hold to take it
    qualities: tuple[str, ...] = ()  # only units of these qualities may take it; empty: any quality
    points_once: int = 0  # paid once on top when taken at all
    percent: int = 0
    armies: tuple[str, ...] = ()
    crew: int | None = None  # the unit's crew with this option (a bigger gun's crew of 4)
    copies_unit: bool = False  # each one adds another copy of the unit as listed, at its listed points
    in_size: bool = False  # the men it adds count in the unit's size range


@dataclass(frozen=True)
class QualityPrice:
    points: int
    per_extra_model: int | None = None
    armies: tuple[str, ...] = ()  # only these army lists field the unit at this quality; empty: any army
    army_points: dict[str, int] = field(default_factory=dict, compare=False)  # a theatre list's own price
    base_size: int | None = None  # the men its price covers, where they differ from the unit's listed men
    min_size: int | None = None  # its own size range, where it differs from the unit's
    max_size: int | None = None
    min_own_size: int | None = None  # the least men of its own, beside those its options add

    def points_in(self, army_key: str) -> int:
        """The price in this army list: its theatre's own, where the data sets one."""
        return self.army_points.get(army_key, self.points)


@dataclass(frozen=True)
class ForceLimitInfo:
    """At least `min` and at most `max` of a unit (or of its `group`) in each force of `organisation` ("": of
    every organisation)."""

    organisation: str = ""
    min: int = 0
    max: int | None = None
    group: str | None = None
    group_name: str | None = None
    armies: tuple[str, ...] = ()  # only in these army lists; empty: every list
    source_id: str | None = None


@dataclass(frozen=True)
class UnitTypeInfo:
    key: str
    name: str
    category: str
    category_name: str
    category_kind: str
    kind: str
    points: int | None = None
    quality_prices: dict[str, QualityPrice] = field(default_factory=dict)
    composition: tuple[ModelLine, ...] = ()
    min_size: int | None = None
    max_size: int | None = None
    max_in_roster: int | None = None  # at most this many of the unit in a roster
    army_limits: dict[str, int] = field(default_factory=dict)  # an army list's own limit, where it differs
    limit_per: str = "roster"  # the limit counts the whole roster, or each force ("force")
    force_limits: tuple[ForceLimitInfo, ...] = ()  # least and most per force of an organisation
    shared_limits: dict[str, dict] = field(default_factory=dict)  # key -> {name, max}: options' shared limits
    officer_rank: str | None = None
    officer_ranks: tuple[str, ...] = ()
    options: dict[str, OptionInfo] = field(default_factory=dict)
    weapon_categories: tuple[str, ...] | None = None
    transport_capacity: int | None = None
    service_start: int | None = None
    service_end: int | None = None
    service_period: str = ""
    rules: tuple[str, ...] = ()
    armour: dict | None = None
    source: dict = field(default_factory=dict)  # {document, section, entry}: where the unit comes from
    speed: str = ""
    constitution: int | None = None

    capacity_counts: str = "figures"  # or "vehicles-and-guns"
    # Another unit of its army has the same name (BattleScribe lists a squad under two categories).
    name_shared: bool = False

    @cached_property
    def base_size(self) -> int:
        """Figures of men in the unit as listed (vehicles and guns are not men)."""
        return sum(line.men for line in self.composition)

    def size_range(self, quality: str | None) -> tuple[int | None, int | None]:
        """The least and most men of a unit of this quality (a quality may have its own range)."""
        price = self.quality_prices.get(quality) if quality else None
        low = price.min_size if price and price.min_size is not None else self.min_size
        high = price.max_size if price and price.max_size is not None else self.max_size
        return low, high

    def min_own_size(self, quality: str | None) -> int:
        """The least men a unit of this quality keeps of its own, whatever men its options add."""
        price = self.quality_prices.get(quality) if quality else None
        return price.min_own_size or 0 if price else 0

    def listed_size(self, quality: str | None) -> int:
        """The men a unit of this quality's price covers: the quality's own, else the unit's listed men."""
        price = self.quality_prices.get(quality) if quality else None
        return price.base_size if price and price.base_size is not None else self.base_size

    def limit_in(self, army_key: str) -> int | None:
        """At most how many of the unit a roster (or each force, see `limit_per`) of this army list holds."""
        return self.army_limits.get(army_key, self.max_in_roster)


@dataclass(frozen=True)
class SlotInfo:
    key: str
    name: str
    categories: tuple[str, ...]
    min: int | dict = 0
    max: int | dict | None = None
    max_in: dict[str, int] = field(default_factory=dict)  # army key -> the slot's most in that list
    min_in: dict[str, int] = field(default_factory=dict)  # army key -> the slot's least in that list
    officer_ranks: tuple[str, ...] = ()
    ranks_counted: tuple[str, ...] = ()  # only units led by an officer of these ranks count (empty: all)
    half_choice_at_most_points: int | None = None
    half_choice_categories: tuple[str, ...] = ()
    requires_setting: str | None = None

    def fillable_by(self, unit_type: UnitTypeInfo) -> bool:
        """Whether a unit of this type counts in the slot: as added, or led by an officer one of its ranks or
        options makes it (a Raiding Party whose First Lieutenant replaces its NCO leads the platoon)."""
        led_by = {option.officer_rank for option in unit_type.options.values() if option.officer_rank}
        if unit_type.category in self.categories:
            ranks = {unit_type.officer_rank, *unit_type.officer_ranks, *led_by}
            return not self.ranks_counted or bool(ranks & set(self.ranks_counted))
        return bool(led_by & set(self.ranks_counted))


@dataclass(frozen=True)
class OrganisationInfo:
    key: str
    name: str
    slots: tuple[SlotInfo, ...]
    category_names: dict[str, str] = field(default_factory=dict)

    def in_army(self, army_key: str) -> OrganisationInfo:
        """The organisation as this army list fields it: each slot with the list's own most and least
        (`max_in`, `min_in`)."""
        if not any(army_key in slot.max_in or army_key in slot.min_in for slot in self.slots):
            return self
        slots = tuple(
            replace(slot, max=slot.max_in.get(army_key, slot.max), min=slot.min_in.get(army_key, slot.min))
            for slot in self.slots
        )
        return replace(self, slots=slots)

    def fillable_from(self, unit_types: tuple[UnitTypeInfo, ...]) -> bool:
        """Whether these units can fill every slot the organisation asks at least a fixed number of."""
        return all(
            any(slot.fillable_by(unit_type) for unit_type in unit_types)
            for slot in self.slots
            if isinstance(slot.min, int) and slot.min > 0
        )


@dataclass(frozen=True)
class ForceInfo:
    """One force (platoon) of a roster: its place, the name the player gave it and its organisation."""

    index: int
    name: str
    organisation: OrganisationInfo | None = None

    @property
    def title(self) -> str:
        """The force as findings name it: "Platoon 2 (Reinforced Platoon)"."""
        organisation = self.organisation.name if self.organisation else ""
        return f"{self.name} ({organisation})" if organisation and organisation != self.name else self.name


@dataclass(frozen=True)
class RankInfo:
    key: str
    name: str
    morale_bonus: int
    extra_orders: int
    order_range: int


@dataclass(frozen=True)
class QualityInfo:
    key: str
    name: str
    morale: int | None
    damage_value: str = ""


@dataclass(frozen=True)
class SystemInfo:
    key: str
    name: str
    config: dict
    rules: dict[str, RuleInfo] = field(default_factory=dict)
    ranks: dict[str, RankInfo] = field(default_factory=dict)
    qualities: dict[str, QualityInfo] = field(default_factory=dict)
    periods: tuple[dict, ...] = ()

    def rule_role(self, role: str) -> str | None:
        """The pack's rule key playing an engine role (team, fixed, indirect_fire...)."""
        return (self.config.get("rule_roles") or {}).get(role)

    @property
    def uses_order_dice(self) -> bool:
        """Whether the game activates units with order dice (Bolt Action); other games show none."""
        return bool(self.config.get("order_dice"))

    def fires_indirect(self, weapon: WeaponInfo) -> bool:
        """Whether a weapon may fire indirectly: it has the indirect-fire rule, or one the pack says allows it."""
        roles = self.config.get("rule_roles") or {}
        allowing = {roles.get("indirect_fire"), *roles.get("indirect_fire_also", [])} - {None}
        return bool(allowing & weapon.rules)

    def period_of(self, year: int | None) -> str | None:
        """The key of the war period a year falls in, if the game has periods."""
        if year is None:
            return None
        for period in self.periods:
            start, end = period.get("start"), period.get("end")
            if (start is None or year >= start) and (end is None or year <= end):
                return period["key"]
        return None

    def setting_default(self, key: str):
        for setting in self.config.get("settings", []):
            if setting["key"] == key:
                return setting.get("default")
        return None


@dataclass
class UnitChoice:
    """One unit of a roster, as the player set it up."""

    index: int
    label: str
    unit_type: UnitTypeInfo
    quality: str | None = None
    size: int | None = None  # men in the unit; None means as listed
    options: dict[str, int] = field(default_factory=dict)  # option key -> how many
    officer_rank: str | None = None
    transport: int | None = None  # index of the roster unit carrying this one
    hero_points: int = 0
    force: int = 0  # index of the roster force the unit belongs to
    note: str = ""  # the player's own note (painting scheme, which models): shown and exported, never priced

    @property
    def men(self) -> int:
        """Figures of men in the unit as fielded: its model lines, resized and with what options add."""
        return sum(line.men for line in self.models())

    @property
    def added_in_size(self) -> int:
        """Men options add as members of the unit (a squad's Soldier with LMG)."""
        return sum(
            line.men * count
            for option, count in self.chosen_options
            if option.in_size
            for line in self._added_lines(option)
        )

    @property
    def own_size(self) -> int:
        """The unit's own men: its size, or, left as listed, the listed men less those its options add in
        their place (a listed section of five with a Bren gunner is four riflemen and the gunner), never
        fewer than the least it keeps of its own (a Polish section's six stay when a BAR man joins)."""
        if self.size is not None:
            return self.size
        listed = self.unit_type.listed_size(self.quality)
        return max(0, listed - self.added_in_size, self.unit_type.min_own_size(self.quality))

    @property
    def size_counted(self) -> int:
        """Men the unit's size range counts: its own men and those options add as its members."""
        return self.own_size + self.added_in_size

    @property
    def chosen_options(self) -> list[tuple[OptionInfo, int]]:
        return [(self.unit_type.options[key], count) for key, count in self.options.items() if count]

    @property
    def rank(self) -> str | None:
        """The officer rank in force: the one chosen, else an option's, else the unit's own."""
        if self.officer_rank:
            return self.officer_rank
        for option, _ in self.chosen_options:
            if option.officer_rank:
                return option.officer_rank
        return self.unit_type.officer_rank

    def models(self) -> list[ModelLine]:
        """Every model line: the listed composition resized to the unit's size, and what options add."""
        lines = list(self.unit_type.composition)
        change = self.own_size - self.unit_type.base_size
        if change:
            # Men are added to (or taken from) the rank and file: the first soldier line, else the last line of men.
            men = [i for i, line in enumerate(lines) if line.men]
            soldiers = [i for i in men if lines[i].role == "soldier"]
            if men:
                i = soldiers[0] if soldiers else men[-1]
                lines[i] = lines[i].resized(max(0, lines[i].count + change // lines[i].figures))
        for option, count in self.chosen_options:
            crew = [i for i, line in enumerate(lines) if line.role == "crew"]
            if option.crew is not None and crew:
                # The option sets the whole crew: the first crew line takes what the others do not.
                others = sum(lines[i].men for i in crew[1:])
                lines[crew[0]] = lines[crew[0]].resized(max(0, option.crew - others))
            lines.extend(line.resized(line.count * count) for line in self._added_lines(option))
        return lines

    def _added_lines(self, option: OptionInfo) -> tuple[ModelLine, ...]:
        """The model lines one of an option adds: its own, or a copy of the unit as listed."""
        return self.unit_type.composition if option.copies_unit else option.adds_models

    def weapons(self) -> list[WeaponInfo]:
        """Every weapon the unit carries; each option taken swaps one replaced weapon for its own."""
        carried = [weapon for line in self.models() for weapon in line.weapons for _ in range(line.count)]
        for option, count in self.chosen_options:
            for _ in range(count):
                for key in option.replaces:
                    match = next((weapon for weapon in carried if weapon.key == key), None)
                    if match is not None:
                        carried.remove(match)
                carried.extend(option.weapons)
        return carried

    def armed_models(self) -> list[ModelLine]:
        """The model lines with the weapons each figure carries once options are taken.

        Each swap bought moves one figure (of the line the option names, else of the
        rank and file) to a line of its own with the new weapon, as `weapons()` counts them.
        """
        lines = list(self.models())
        for option, count in self.chosen_options:
            for key in option.replaces:
                for _ in range(count):
                    carrying = [
                        i for i, line in enumerate(lines) if line.count and key in {w.key for w in line.weapons}
                    ]
                    named = [i for i in carrying if lines[i].name == option.model] if option.model else []
                    soldiers = [i for i in carrying if lines[i].role == "soldier"]
                    if not carrying:
                        break
                    i = (named or soldiers or carrying)[0]
                    line = lines[i]
                    kept = tuple(w for w in line.weapons if w.key != key)
                    armed = replace(line, count=1, weapons=kept + option.weapons, equipment="")
                    rest = replace(line, count=line.count - 1)
                    lines[i : i + 1] = [armed, rest] if rest.count else [armed]
        merged: list[ModelLine] = []
        for line in lines:
            same = next(
                (m for m in merged if (m.role, m.name, m.weapons) == (line.role, line.name, line.weapons)), None
            )
            if same is None or line.equipment != same.equipment:
                merged.append(line)
            else:
                merged[merged.index(same)] = replace(same, count=same.count + line.count)
        return merged


@dataclass
class RosterSnapshot:
    system: SystemInfo
    army_key: str
    army_name: str
    name: str = ""
    army_name_shared: bool = False  # another army of the game has the same name: files name it by key
    army_title: str = ""  # its name with its nation's, as pages and cards show it (`GameData.army_title`)
    points_limit: int | None = None
    year: int | None = None
    period: str | None = None
    settings: dict = field(default_factory=dict)
    forces: list[ForceInfo] = field(default_factory=list)  # in roster order; a unit names its force by index
    units: list[UnitChoice] = field(default_factory=list)
    house_rules: list[HouseRuleChoice] = field(default_factory=list)  # priced overlay rules bought
    overlays: tuple[str, ...] = ()  # the names of the house-rule overlays it plays
    # The per-force limits of every unit the army may field: a compulsory officer binds even when absent.
    force_limits: tuple[tuple[UnitTypeInfo, ForceLimitInfo], ...] = ()
    army_unit_types: tuple[UnitTypeInfo, ...] = ()  # every unit the army may field, for fixes to suggest

    def setting(self, key: str):
        if key in self.settings:
            return self.settings[key]
        return self.system.setting_default(key)

    def force_units(self, force: ForceInfo) -> list[UnitChoice]:
        """The units of one force, in roster order."""
        return [unit for unit in self.units if unit.force == force.index]

    def force_of(self, unit: UnitChoice) -> ForceInfo | None:
        """The force a unit belongs to (None in a snapshot built without forces)."""
        return self.forces[unit.force] if unit.force < len(self.forces) else None

    def organisation_of(self, unit: UnitChoice) -> OrganisationInfo | None:
        """The organisation of the force a unit belongs to, if it has one."""
        force = self.force_of(unit)
        return force.organisation if force else None

    @property
    def organisation_keys(self) -> set[str]:
        """The keys of the organisations the roster's forces follow (findings link to their text)."""
        return {force.organisation.key for force in self.forces if force.organisation}

    @property
    def game_period(self) -> str | None:
        """The roster's period, or the one its year falls in."""
        return self.period or self.system.period_of(self.year)
