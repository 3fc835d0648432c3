"""BattleScribe data, as loaded: game systems, catalogues and the entries, links and rules in them.

One `Entry` class stands for every kind of entry (selection entry, selection entry group, entry
link, force entry, category entry, category link): they share nearly all their fields, and the
engine tells them apart by `kind`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SELECTION_ENTRY = "selectionEntry"
SELECTION_ENTRY_GROUP = "selectionEntryGroup"
ENTRY_LINK = "entryLink"
FORCE_ENTRY = "forceEntry"
CATEGORY_ENTRY = "categoryEntry"
CATEGORY_LINK = "categoryLink"


@dataclass(slots=True)
class Cost:
    """A cost value of one cost type."""

    type_id: str
    name: str
    value: float


@dataclass(slots=True)
class Query:
    """What a constraint, condition or repeat counts: `field` of `child_id` within `scope`."""

    field: str = "selections"
    scope: str = "parent"
    child_id: str | None = None
    shared: bool = False
    include_child_selections: bool = False
    include_child_forces: bool = False
    percent_value: bool = False


@dataclass(slots=True)
class Constraint:
    """A min or max limit on a query's value; the query's child is the entry holding it."""

    id: str
    type: str
    value: float
    query: Query


@dataclass(slots=True)
class Condition:
    """A comparison of a query's value with `value` (or an instanceOf test)."""

    type: str
    value: float
    query: Query


@dataclass(slots=True)
class ConditionGroup:
    """Conditions and nested groups joined by `and` / `or`."""

    type: str = "and"
    conditions: list[Condition] = field(default_factory=list)
    groups: list[ConditionGroup] = field(default_factory=list)


@dataclass(slots=True)
class Repeat:
    """Applies a modifier once per `value` of its query, `repeats` times each."""

    value: float
    repeats: int
    round_up: bool
    query: Query


@dataclass(slots=True)
class Modifier:
    """Changes one field of an entry (`set`, `increment`, `decrement`, `append`, `add`, `remove`...)."""

    type: str
    field: str
    value: str
    conditions: list[Condition] = field(default_factory=list)
    condition_groups: list[ConditionGroup] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)


@dataclass(slots=True)
class ModifierGroup:
    """Modifiers sharing conditions and repeats."""

    modifiers: list[Modifier] = field(default_factory=list)
    groups: list[ModifierGroup] = field(default_factory=list)
    conditions: list[Condition] = field(default_factory=list)
    condition_groups: list[ConditionGroup] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)


@dataclass(slots=True)
class Characteristic:
    """One value of a profile."""

    name: str
    type_id: str
    value: str


@dataclass(slots=True)
class Profile:
    """A profile: named characteristics of a profile type."""

    id: str
    name: str
    type_id: str = ""
    type_name: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    characteristics: list[Characteristic] = field(default_factory=list)
    modifiers: list[Modifier] = field(default_factory=list)
    modifier_groups: list[ModifierGroup] = field(default_factory=list)


@dataclass(slots=True)
class Rule:
    """A rule with its description."""

    id: str
    name: str
    description: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    modifier_groups: list[ModifierGroup] = field(default_factory=list)


@dataclass(slots=True)
class InfoLink:
    """A link to a shared profile, rule or info group."""

    id: str
    name: str
    target_id: str
    type: str
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    modifier_groups: list[ModifierGroup] = field(default_factory=list)


@dataclass(slots=True)
class InfoGroup:
    """Profiles, rules and nested info groups shown together."""

    id: str
    name: str
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    profiles: list[Profile] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    info_groups: list[InfoGroup] = field(default_factory=list)
    info_links: list[InfoLink] = field(default_factory=list)
    modifiers: list[Modifier] = field(default_factory=list)
    modifier_groups: list[ModifierGroup] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class Entry:
    """A selection entry, selection entry group, entry link, force entry, category entry or category link."""

    kind: str
    id: str
    name: str = ""
    type: str = "upgrade"
    hidden: bool = False
    collective: bool = False
    import_: bool = True
    page: str | None = None
    publication_id: str | None = None
    target_id: str | None = None
    link_type: str | None = None
    primary: bool = False
    default_selection_entry_id: str | None = None
    catalogue_id: str = ""
    costs: list[Cost] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    modifiers: list[Modifier] = field(default_factory=list)
    modifier_groups: list[ModifierGroup] = field(default_factory=list)
    selection_entries: list[Entry] = field(default_factory=list)
    selection_entry_groups: list[Entry] = field(default_factory=list)
    entry_links: list[Entry] = field(default_factory=list)
    category_links: list[Entry] = field(default_factory=list)
    force_entries: list[Entry] = field(default_factory=list)
    profiles: list[Profile] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    info_groups: list[InfoGroup] = field(default_factory=list)
    info_links: list[InfoLink] = field(default_factory=list)

    @property
    def has_modifiers(self) -> bool:
        """Whether any modifier could change this entry."""
        return bool(self.modifiers or self.modifier_groups)


@dataclass(slots=True)
class CostType:
    """A cost type; a negative default limit means no limit."""

    id: str
    name: str
    default_cost_limit: float = -1.0
    hidden: bool = False


@dataclass(slots=True)
class Publication:
    """A book or other publication that entries cite."""

    id: str
    name: str


@dataclass(slots=True)
class CatalogueLink:
    """A catalogue's link to another catalogue whose shared entries it uses."""

    target_id: str
    import_root_entries: bool = False


@dataclass(slots=True, eq=False)
class Catalogue:
    """A catalogue, or the game system (`is_game_system`)."""

    id: str
    name: str
    game_system_id: str = ""
    is_game_system: bool = False
    library: bool = False
    revision: int = 1
    selection_entries: list[Entry] = field(default_factory=list)
    entry_links: list[Entry] = field(default_factory=list)
    shared_selection_entries: list[Entry] = field(default_factory=list)
    shared_selection_entry_groups: list[Entry] = field(default_factory=list)
    shared_rules: list[Rule] = field(default_factory=list)
    shared_profiles: list[Profile] = field(default_factory=list)
    shared_info_groups: list[InfoGroup] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    info_links: list[InfoLink] = field(default_factory=list)
    catalogue_links: list[CatalogueLink] = field(default_factory=list)
    publications: list[Publication] = field(default_factory=list)
    cost_types: list[CostType] = field(default_factory=list)
    category_entries: list[Entry] = field(default_factory=list)
    force_entries: list[Entry] = field(default_factory=list)
