"""The pack schema's `units` section: a unit's models, armour, prices, options and limits."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, field_validator, model_validator

from lists.gamedata.schema_base import Citation, Key, ModelRole, Name, SourceId, SourceRef, Strict, Text, UnitKind, Year


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
    # The least men of its own beside those options add, where the men's own least numbers set it (a Polish
    # Dragoons Section keeps its NCO and five soldiers when a Soldier with BAR joins).
    min_own_size: int | None = Field(default=None, ge=0)
    citation: Citation | None = None


class Service(Strict):
    start: Year | None = None
    end: Year | None = None
    period: Key | None = None
    note: Name | None = None


class SharedLimit(Strict):
    """At most so many of the options sharing it, together (an officer's Additional Men: three in all)."""

    name: Name
    max: PositiveInt


class OptionForceLimit(Strict):
    """How often the options naming one `group` (the data entry they come from) are taken in each force, over
    all its units: an Intelligence Officer, one a platoon."""

    group: SourceId
    min: NonNegativeInt = 0  # binds a force holding a unit that may take it
    max: NonNegativeInt | None = None
    armies: list[Key] = []  # only in these army lists (a theatre asking for it); empty: every list


class Option(Strict):
    key: Key
    name: Name
    points: int
    per: Literal["unit", "model"] = "unit"
    # Taken by the whole unit (per: model): every man pays while it is taken, whatever the count (a squad's
    # anti-tank grenades, as BattleScribe prices them); the editor shows a tick box.
    every_man: bool = False
    max: int | None = Field(default=None, ge=1)
    group: Key | None = None  # options in one group exclude each other
    shares: Key | None = None  # counts toward this limit of the unit's `shared_limits`
    excludes: list[Key] = []  # other options of the unit it is never taken with (outside its group)
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
    # At most this many while another option of the unit is taken (a Major's Veteran Soldiers: five beside
    # a Royal Marine Officer, else two).
    max_with: dict[Key, PositiveInt] = {}
    # Taken at all, at least this often (an LVT4's pintle HMGs: both mounts or neither).
    min_if_taken: PositiveInt | None = None
    # Taken only while its force holds one of these units (a Forward Observer's Cavalry: beside a cavalry unit).
    needs_units: list[Key] = []
    # Taken only beside one of these options of the unit (a Bagpiper: beside a Highland Officer).
    needs_options: list[Key] = []
    rules: list[Key] = []  # rules a unit taking it has (its card prints them)
    # Army lists whose units must take it at least so often (a theatre making an officer's upgrade compulsory).
    least_in: dict[Key, int] = Field(default_factory=dict)
    # Taken when the unit is added, as BattleScribe selects it (a group's default: an SdKfz 222's variant); a
    # player may change it.
    default: bool = False
    # Army lists lowering its greatest number, with the number there (a Guards squad's second LMG: none in 1941).
    max_in: dict[Key, NonNegativeInt] = {}
    force_limits: list[OptionForceLimit] = []  # least and most in each force, over its units
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
        if self.every_man and self.per != "model":
            raise ValueError("an option every man pays for is priced per model: give per: model")
        return self


class ForceLimit(Strict):
    """How many of a unit (or of the units one data entry splits into) a force of one organisation
    must or may hold: the Reinforced Platoon's one officer."""

    organisation: Key | None = None  # omitted: every organisation
    min: NonNegativeInt = 0
    max: NonNegativeInt | None = None
    group: SourceId | None = None  # units sharing a group count together (an officer entry's ranks)
    group_name: Name | None = None  # what the group is called in a finding ("Officer")
    armies: list[Key] = []  # only in these army lists (a theatre asking for a Warlord); empty: every list
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
    shared_limits: dict[Key, SharedLimit] = {}  # limits options share (those naming it in `shares`)
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
