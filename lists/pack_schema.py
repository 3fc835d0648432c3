"""The typed, strict schema of a game-system data pack.

Every model forbids unknown keys and refuses wrong types, so a typo in a pack
is an error with a path, never a silently ignored field. Cross references
(weapons, rules, categories, ...) are checked after the whole pack is read,
by `check_references`.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    StringConstraints,
    field_validator,
    model_validator,
)

Key = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=80)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Text = Annotated[str, StringConstraints(max_length=4000)]
Year = Annotated[int, Field(ge=1900, le=1960)]
# The id of the BattleScribe entry a converted item comes from (provenance, shown in the API).
SourceId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{1,80}$")]
# A range band: inches, "table" (anything on the table) or null where the source prints n/a.
RangeValue = int | Literal["table"] | None

ModelRole = Literal["officer", "nco", "soldier", "crew", "loader", "spotter", "vehicle", "gun", "team", "hero"]
CategoryKind = Literal["headquarters", "infantry", "team", "artillery", "vehicle", "transport", "other"]

DICE_EXPRESSION = re.compile(r"^(\d+|\d*D\d+([+-]\d+)?)( per barrel)?$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SourceRef(Strict):
    """Where a fact or rule comes from: a document key and a section or table."""

    document: Key
    section: Name
    entry: Name | None = None


class Citation(Strict):
    """A public source for a figure the source documents lack (a point cost, say)."""

    source: Name
    entry: Name
    extra_model: Name | None = None  # where the cost of each extra model (per_extra_model) comes from
    url: Name | None = None


class SourceDocument(Strict):
    key: Key
    title: Name
    file: Name | None = None
    # A document of several files (BattleScribe catalogues) whose rules each file repeats: a rule printed for a
    # unit cites the unit's own file (its source's section), not the one the pack read it from first.
    rules_cite_unit_section: bool = False


class Period(Strict):
    key: Key
    name: Name
    start: Year | None = None
    end: Year | None = None


class SettingDefinition(Strict):
    """A roster setting the rules read (a pack setting with a documented default)."""

    key: Key
    name: Name
    kind: Literal["bool", "int", "choice"]
    default: bool | int | str | None = None
    choices: list[Key] = []
    summary: Text = ""


class RuleRoles(Strict):
    """Which of the pack's rules play the parts the engine knows about.

    The engine has no game's names in it: it learns here which rule key makes a
    weapon a team weapon, a fixed weapon, an indirect-fire weapon, and so on.
    """

    team: Key | None = None
    fixed: Key | None = None
    indirect_fire: Key | None = None
    # Further rules that let a weapon fire indirectly (Bolt Action's Howitzer).
    indirect_fire_also: list[Key] = []
    one_shot: Key | None = None
    flamethrower: Key | None = None
    spotter: Key | None = None


class WeaponColumn(Strict):
    field: Literal[
        "range",
        "indirect_range",
        "range_short",
        "range_effective",
        "range_long",
        "shots",
        "pen",
        "power",
        "attack_short",
        "attack_effective",
        "attack_long",
        "he",
        "weapon_type",
        "rules",
        "notes",
    ]
    label: Name


class HeroPoints(Strict):
    """How many hero points an army of a given size may buy, and at what cost.

    A system may give more than one reading; the roster setting `hero-points`
    picks one by key, the first being the default.
    """

    key: Key
    name: Name
    points: int = Field(ge=1)
    per_points: int = Field(ge=1)
    rounding: Literal["full", "part"]
    cost_each: int | None = Field(default=None, ge=0)
    max_per_hero: int | None = Field(default=None, ge=1)


class RideRule(Strict):
    """Units of some categories may ride on carriers that have no capacity of their own.

    Action All Fronts 11.5: infantry squads and platoon HQs ride on tanks, one squad per tank.
    """

    rule: Key
    carriers: list[Key] = Field(min_length=1)  # unit categories carrying
    passengers: list[Key] = Field(min_length=1)  # unit categories carried
    units_per_carrier: int = Field(default=1, ge=1)


class PeriodCost(Strict):
    """How a unit's cost changes when used outside its own period.

    `multipliers[service period][game period]` is the factor; a missing game
    period means the unit cannot be used then.
    """

    applies_to: list[Key]
    multipliers: dict[Key, dict[Key, float]]


class System(Strict):
    key: Key
    name: Name
    short_name: Name
    version: Annotated[str, StringConstraints(pattern=r"^\d+\.\d+\.\d+$")]
    summary: Text
    kind: Literal["game", "overlay"] = "game"
    extends: Key | None = None
    sources: list[SourceDocument] = Field(min_length=1)
    periods: list[Period] = []
    uses_years: bool = False
    weapon_columns: list[WeaponColumn] = Field(min_length=1)
    rule_roles: RuleRoles = RuleRoles()
    settings: list[SettingDefinition] = []
    hero_points: list[HeroPoints] = []
    period_costs: PeriodCost | None = None
    rides: list[RideRule] = []
    unit_size_label: Name = "men"
    distance_unit: str = '"'  # printed after ranges; empty where the game leaves the unit to the players
    # Crews of these qualities gain nothing from a spotter (a warning, not an error).
    spotter_no_benefit_qualities: list[Key] = []
    # Each unit takes an order die (Bolt Action); spotters and transports ride along.
    order_dice: bool = False


class Condition(Strict):
    """Where a priced house rule may be bought: every field given must hold.

    Keys name other packs' armies, units and weapons (an overlay serves every
    game); a condition naming none of a roster's keys simply does not hold there.
    """

    armies: list[Key] = []  # the roster's army is one of these
    units: list[Key] = []  # the unit it is bought for is one of these
    unit_weapons: list[Key] = []  # that unit carries one of these weapons (options included)
    category_kinds: list[CategoryKind] = []  # the unit's organisation category is of one of these kinds
    from_year: Year | None = None  # the roster's year, or its period's last year, is this or later
    # At least as many of one of these house rules are bought too (one radio per plane).
    with_house_rules: list[Key] = []
    note: Name | None = None  # the condition as the source words it, for findings


class Purchase(Strict):
    """How a priced house rule is bought: for the roster or for one of its units, and how it is priced."""

    bought_for: Literal["roster", "unit"] = "roster"
    # Priced once for each model of this role in the unit (APDS: per gun); else once per purchase.
    per_role: ModelRole | None = None
    max: int | None = Field(default=None, ge=1)  # per roster, or per unit for unit purchases
    any_of: list[Condition] = []  # it applies where any of these holds; empty: anywhere

    @model_validator(mode="after")
    def per_role_needs_a_unit(self) -> Purchase:
        if self.per_role is not None and self.bought_for != "unit":
            raise ValueError("per_role prices a house rule by the models of a unit: set bought_for: unit")
        return self


UnitKind = Literal["infantry", "team", "artillery", "vehicle", "transport", "aircraft", "boat", "other"]


class RuleScope(Strict):
    """The units of an army a national rule is printed on: a unit matching any list has the rule.

    Every list empty (`applies_to: {}`) means no unit card: a rule for building the list only.
    """

    kinds: list[UnitKind] = []
    categories: list[Key] = []
    units: list[Key] = []
    options: list[Key] = []  # units that bought one of these options
    weapons: list[Key] = []  # units carrying one of these weapons


class SpecialRule(Strict):
    key: Key
    name: Name
    kind: Literal["weapon", "unit", "army", "organisation", "house", "game"]
    summary: Text = ""  # empty only for a rule imported by name (source_id given)
    source: SourceRef
    source_id: SourceId | None = None
    points: int | None = None
    points_note: Name | None = None
    # A value given with the rule where a weapon names it, e.g. HE (1").
    takes_value: bool = False
    purchase: Purchase | None = None  # how a priced house rule is bought (default: once or more per roster)
    # The one-line reminder printed on unit cards (omitted: the summary's first sentence, shortened).
    reminder: Name | None = None
    # Army rules: which of the army's units it is printed on (omitted: every unit).
    applies_to: RuleScope | None = None

    @model_validator(mode="after")
    def summary_unless_imported(self) -> SpecialRule:
        if not self.summary and self.source_id is None:
            raise ValueError("a rule needs a summary (only a rule imported by name, with a source_id, may have none)")
        return self


class Chart(Strict):
    key: Key
    name: Name
    columns: list[Name] = Field(min_length=1)
    rows: list[list[str]] = Field(min_length=1)
    source: SourceRef
    notes: Text = ""

    @model_validator(mode="after")
    def rows_fit_columns(self) -> Chart:
        for index, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"row {index} has {len(row)} cells but the chart has {len(self.columns)} columns")
        return self


class WeaponCategory(Strict):
    key: Key
    name: Name
    family: Name
    summary: Text = ""
    source: SourceRef | None = None


class WeaponRuleRef(Strict):
    rule: Key
    value: Name


class IndirectRange(Strict):
    min: int = Field(ge=0)
    max: int | Literal["table"]


class Weapon(Strict):
    key: Key
    name: Name
    group: Name
    category: Key | None = None
    range: int | None = Field(default=None, ge=0)
    indirect_range: IndirectRange | None = None
    range_short: RangeValue = None
    range_effective: RangeValue = None
    range_long: RangeValue = None
    shots: str | None = None
    pen: int | None = None
    power: int | None = None
    attack_short: str | None = None
    attack_effective: str | None = None
    attack_long: str | None = None
    he: Name | None = None
    weapon_type: Name | None = None
    rules: list[Key | WeaponRuleRef] = []
    notes: Text = ""
    source: SourceRef

    @field_validator("shots")
    @classmethod
    def shots_is_a_number_or_dice(cls, value: str | None) -> str | None:
        if value is not None and not DICE_EXPRESSION.match(value):
            raise ValueError(f"shots must be a number or a dice expression such as D6+1, not {value!r}")
        return value

    @field_validator("attack_short", "attack_effective", "attack_long")
    @classmethod
    def attack_is_signed(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^[+-]\d+$", value):
            raise ValueError(f"an attack value is a signed number such as +8 or -3, not {value!r}")
        return value


class TroopQuality(Strict):
    key: Key
    name: Name
    morale: int | None = None
    damage_value: Name | None = None
    damage_value_gun_shield: Name | None = None
    summary: Text = ""
    source: SourceRef


class OfficerRank(Strict):
    key: Key
    name: Name
    morale_bonus: int
    extra_orders: int = Field(ge=0)
    order_range: int = Field(ge=0)
    source: SourceRef


class UnitCategory(Strict):
    """An organisation category a unit fills (infantry squad, tank, platoon HQ...)."""

    key: Key
    name: Name
    kind: CategoryKind
    summary: Text = ""
    source_id: SourceId | None = None


class DamageValue(Strict):
    key: Key
    name: Name
    value: Name
    kind: Literal["troops", "soft-skin", "armour"]
    source: SourceRef


class Movement(Strict):
    key: Key
    name: Name
    values: dict[Key, Name]
    source: SourceRef


class Mount(Strict):
    """Where a vehicle's weapon is mounted, and the arc it fires in."""

    key: Key
    name: Name
    arc: Name
    source: SourceRef


class Capacity(Strict):
    key: Key
    name: Name
    capacity: int = Field(ge=0)
    note: Name | None = None
    source: SourceRef


class WeaponCount(Strict):
    """A weapon a model carries more than once ("2x hull MG")."""

    weapon: Key
    count: int = Field(ge=1)


class ModelEntry(Strict):
    count: int = Field(ge=0)
    role: ModelRole
    name: Name
    # Figures on the table per model listed: a "Team of 2" is one entry of two figures.
    figures: int = Field(default=1, ge=1)
    fs: int | None = Field(default=None, ge=0, le=10)
    morale: int | None = Field(default=None, ge=0, le=12)
    equipment: Name | None = None
    weapons: list[Key | WeaponCount] = []

    def weapon_counts(self) -> list[tuple[str, int]]:
        """(weapon key, how many) for every weapon the model carries."""
        return [(w.weapon, w.count) if isinstance(w, WeaponCount) else (w, 1) for w in self.weapons]

    @field_validator("weapons")
    @classmethod
    def weapons_listed_once(cls, value: list) -> list:
        keys = [w.weapon if isinstance(w, WeaponCount) else w for w in value]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise ValueError(
                f"a model line lists each weapon once: {', '.join(twice)} given twice; write {{weapon: key, count: n}}"
            )
        return value


class MountedWeapon(Strict):
    """Where one of a vehicle's weapons sits (a weapon carried twice is listed twice, once per mount)."""

    weapon: Key
    mount: Key  # a mounts key (turret, hull, coaxial...)
    option: Key | None = None  # the option giving the weapon; none: the vehicle's own


class Armour(Strict):
    """The vehicle's profile: armour, damage value, how it moves and where its weapons are mounted."""

    front: int | None = None
    side: int | None = None
    rear: int | None = None
    armour_class: Name | None = None
    damage_value: Key | None = None  # a damage_values key (Bolt Action: medium-tank -> 9+)
    movement: Key | None = None  # a movement key (Bolt Action: tracked -> advance 9", run 18")
    mounts: list[MountedWeapon] = []
    note: Name | None = None


class QualityCost(Strict):
    quality: Key
    points: int = Field(ge=0)
    per_extra_model: int | None = Field(default=None, ge=0)
    armies: list[Key] = []  # only these army lists field the unit at this quality (empty: any army)
    army_points: dict[Key, NonNegativeInt] = {}  # the price in these army lists, where their theatre sets another
    # This quality's own men and size range, where they differ from the unit's (a Veteran squad of five).
    base_size: int | None = Field(default=None, ge=0)
    min_size: int | None = Field(default=None, ge=0)
    max_size: int | None = Field(default=None, ge=0)
    citation: Citation | None = None


class Service(Strict):
    start: Year | None = None
    end: Year | None = None
    period: Key | None = None
    note: Name | None = None


class Option(Strict):
    key: Key
    name: Name
    points: int
    per: Literal["unit", "model"] = "unit"
    max: int | None = Field(default=None, ge=1)
    group: Key | None = None  # options in one group exclude each other
    adds_models: list[ModelEntry] = []
    weapons: list[Key] = []
    replaces: list[Key] = []
    # The composition line (by name) whose figure swaps the replaced weapon; omitted: the rank and file.
    model: Name | None = None
    officer_rank: Key | None = None
    service: Service | None = None
    periods: dict[Key, int] = {}  # points by game period, where they differ
    quality_points: dict[Key, int] = {}  # points for a unit of this quality, where they differ
    quality_max: dict[Key, NonNegativeInt] = {}  # a unit of this quality takes it at most so often, where less
    # Each one costs this much more (or less) while another option of the unit is taken too (Cavalry: +5 a man).
    points_with: dict[Key, int] = {}
    # Taken only while its force holds one of these units (a Forward Observer's Cavalry: beside a cavalry unit).
    needs_units: list[Key] = []
    qualities: list[Key] = []  # only units of these qualities may take it (empty: any quality)
    points_once: int = 0  # paid once on top when taken at all (a per-man option's own cost in BattleScribe)
    percent: int = 0  # a cost change in percent of the unit's cost (Panzer Attack: 20)
    armies: list[Key] = []  # only these armies may take it (empty: any army fielding the unit)
    # Each one adds another copy of the unit as listed, at its listed points (Russian combined AFVs).
    copies_unit: bool = False
    # The men it adds count in the unit's size range (a squad's Soldier with LMG is one of its men).
    in_size: bool = False
    crew: int | None = Field(default=None, ge=0)
    note: Text = ""
    citation: Citation | None = None
    source_id: SourceId | None = None

    @model_validator(mode="after")
    def a_copy_costs_the_unit(self) -> Option:
        if self.copies_unit and (self.points or self.per != "unit" or self.adds_models or self.periods):
            raise ValueError("an option that copies the unit costs the unit's own points: give points 0 and no models")
        return self


class ForceLimit(Strict):
    """How many of a unit (or of the units one data entry splits into) a force of one organisation
    must or may hold: the Reinforced Platoon's one officer."""

    organisation: Key
    min: NonNegativeInt = 0
    max: NonNegativeInt | None = None
    group: SourceId | None = None  # units sharing a group count together (an officer entry's ranks)
    group_name: Name | None = None  # what the group is called in a finding ("Officer")
    source_id: SourceId | None = None  # the data's constraint


class Unit(Strict):
    key: Key
    name: Name
    army: Key
    category: Key
    kind: UnitKind
    points: int | None = Field(default=None, ge=0)
    points_note: Name | None = None
    citation: Citation | None = None
    composition: list[ModelEntry] = []  # empty for off-table support such as a bombardment
    min_size: int | None = Field(default=None, ge=0)
    max_size: int | None = Field(default=None, ge=0)
    max_in_roster: int | None = Field(default=None, ge=1)  # at most this many of the unit
    army_limits: dict[Key, NonNegativeInt] = {}  # an army list's own limit, where it differs (0: none)
    limit_per: Literal["roster", "force"] = "roster"  # what those limits count: the roster, or each force
    force_limits: list[ForceLimit] = []  # least and most per force of an organisation
    qualities: list[QualityCost] = []
    officer_rank: Key | None = None
    officer_ranks: list[Key] = []
    options: list[Option] = []
    weapon_categories: list[Key] | None = None  # None: any; a list: only these
    armour: Armour | None = None
    speed: Name | None = None
    constitution: int | None = None
    transport_capacity: int | None = Field(default=None, ge=0)
    # Or the capacity of a row of the pack's capacities table (Heroes All: other-tanks).
    capacity_from: Key | None = None
    # What the capacity counts: figures (men and gun crews) or vehicles and guns (the LCT-4).
    capacity_counts: Literal["figures", "vehicles-and-guns"] = "figures"
    carries: Name | None = None
    service: Service | None = None
    rules: list[Key] = []
    notes: Text = ""
    source: SourceRef
    source_id: SourceId | None = None

    @model_validator(mode="after")
    def sizes_are_ordered(self) -> Unit:
        if self.min_size is not None and self.max_size is not None and self.min_size > self.max_size:
            raise ValueError(f"min_size {self.min_size} is larger than max_size {self.max_size}")
        keys = [option.key for option in self.options]
        duplicates = sorted({key for key in keys if keys.count(key) > 1})
        if duplicates:
            raise ValueError(f"option keys must be unique within a unit: {', '.join(duplicates)}")
        if self.transport_capacity is not None and self.capacity_from is not None:
            raise ValueError("give transport_capacity or capacity_from, not both")
        return self


class Army(Strict):
    key: Key
    name: Name
    summary: Text = ""
    rules: list[Key] = []
    borrows_from: list[Key] = []
    borrow_units: list[Key] = []  # which units of the borrowed armies (empty: all of them)
    shared: bool = False  # its units are open to every army of the system (general transport...)
    borrow_note: Text = ""
    source: SourceRef
    source_id: SourceId | None = None


class CountTerm(Strict):
    """`each` choices for every unit of `categories` (or a flat bonus once any exist)."""

    categories: list[Key] = Field(min_length=1)
    each: float = 1
    if_any: int | None = None


class Limit(Strict):
    base: int = 0
    per: list[CountTerm] = []
    at_least: int = 0  # the limit never falls below this (the squad an army starts with)


class Slot(Strict):
    key: Key
    name: Name
    categories: list[Key] = Field(min_length=1)
    min: int | Limit = 0
    max: int | Limit | None = None
    officer_ranks: list[Key] = []
    # Only units led by an officer of these ranks count in the slot (the platoon's Lieutenant); empty: all.
    ranks_counted: list[Key] = []
    half_choice_at_most_points: int | None = None
    half_choice_categories: list[Key] = []  # which categories may count as half (empty: all)
    requires_setting: Key | None = None
    summary: Text = ""
    citation: Citation | None = None  # where a limit the data lacks comes from (the rulebook)
    source_id: SourceId | None = None


class Organisation(Strict):
    key: Key
    name: Name
    summary: Text
    armies: list[Key] = []  # empty: every army of the system
    slots: list[Slot] = Field(min_length=1)
    source: SourceRef
    source_id: SourceId | None = None


class Erratum(Strict):
    where: Name
    source_value: Name
    used_value: Name
    reason: Text = Field(min_length=1)


class PackFile(Strict):
    """One YAML file of a pack folder. The folder's files are merged."""

    system: System | None = None
    rules: list[SpecialRule] = []
    charts: list[Chart] = []
    weapon_categories: list[WeaponCategory] = []
    weapons: list[Weapon] = []
    qualities: list[TroopQuality] = []
    officer_ranks: list[OfficerRank] = []
    unit_categories: list[UnitCategory] = []
    damage_values: list[DamageValue] = []
    movement: list[Movement] = []
    mounts: list[Mount] = []
    capacities: list[Capacity] = []
    armies: list[Army] = []
    units: list[Unit] = []
    organisations: list[Organisation] = []
    errata: list[Erratum] = []


LIST_SECTIONS = [name for name in PackFile.model_fields if name != "system"]
