"""The pack schema's `system` section: the game's documents, periods, settings and the roles of its rules."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from lists.gamedata.schema_base import Key, Name, Strict, Text, Year


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
    # rule_choice: which of the army's sets of national rules is played (its `rule_choices`, by name).
    kind: Literal["bool", "int", "choice", "rule_choice"]
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


class SearchTerm(Strict):
    """Words a player types to find units (an abbreviation, a role) and the units they find: those carrying a
    weapon of one of these keys or weapon categories, of one of the unit categories, with one of the rules (its
    own or a weapon's), offering one of the options, or whose name holds one of the phrases."""

    words: list[Name] = Field(min_length=1)
    weapons: list[Key] = []
    categories: list[Key] = []
    rules: list[Key] = []
    options: list[Key] = []
    names: list[Name] = []


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
    # What the editor's unit search finds beside the units' own names.
    search_terms: list[SearchTerm] = []
    # New units start at this quality where they are priced at it (Bolt Action: Regular, the one most taken);
    # omitted, or not offered: the unit's first quality.
    default_quality: Key | None = None
    # Each unit takes an order die (Bolt Action); spotters and transports ride along.
    order_dice: bool = False
