"""The typed, strict schema of a game-system data pack.

Every model forbids unknown keys and refuses wrong types, so a typo in a pack
is an error with a path, never a silently ignored field. Cross references
(weapons, rules, categories, ...) are checked after the whole pack is read,
by `check_references`.

The shared types are in `schema_base`, the `system` section in
`schema_system`, the `units` section in `schema_units`.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, NonNegativeInt, field_validator, model_validator

from lists.gamedata.schema_base import (
    CategoryKind,
    Citation,
    Key,
    ModelRole,
    Name,
    RangeValue,
    SourceId,
    SourceRef,
    Strict,
    Text,
    UnitKind,
    Year,
)
from lists.gamedata.schema_system import System
from lists.gamedata.schema_units import Unit

DICE_EXPRESSION = re.compile(r"^(\d+|\d*D\d+([+-]\d+)?)( per barrel)?$")


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


class RuleScope(Strict):
    """The units of an army a national rule is printed on: a unit matching any list has the rule.

    Every list empty (`applies_to: {}`) means no unit card: a rule for building the list only.
    """

    kinds: list[UnitKind] = []
    categories: list[Key] = []
    units: list[Key] = []
    options: list[Key] = []  # units that bought one of these options
    weapons: list[Key] = []  # units carrying one of these weapons


class ProfileNote(Strict):
    """A rule's effect on printed weapon profiles (Hitler's Buzzsaw: an MMG fires 6 shots, not 5)."""

    weapons: list[Key] = Field(min_length=1)
    note: Name  # printed after the rule's name on the weapon's line, in the project's words
    # A rule of the unit this note stands in for on these weapons (an Italian MMG on a German tank: no Buzzsaw).
    replaces: Key | None = None


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
    # What the rule changes in the profiles printed: a note on the line of each weapon named.
    modifies: list[ProfileNote] = []

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


class RuleChoice(Strict):
    """One of the sets of national rules an army's player chooses between (which book's rules)."""

    name: Name
    rules: list[Key] = Field(min_length=1)


class Army(Strict):
    key: Key
    name: Name
    summary: Text = ""
    rules: list[Key] = []
    # A theatre list of a nation: it has that army's rules too (its national rules), less `rules_left_out`.
    rules_from: Key | None = None
    rules_left_out: list[Key] = []  # national rules the list does not have (the source shows them elsewhere)
    rule_choices: list[RuleChoice] = []  # sets of national rules the player takes one of (a list: its nation's)
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
    # Army lists whose own most differs (the Italian catalogue's Infantry slot: four in some theatres, three
    # in one); `max` holds for the others.
    max_in: dict[Key, NonNegativeInt] = {}
    # Army lists whose own least differs (the Warlords list's Warlord leads its platoon, where the rulebook
    # asks for a Lieutenant); `min` holds for the others.
    min_in: dict[Key, NonNegativeInt] = {}
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
