"""Loading BattleScribe data from dictionaries shaped as the conformance protocol's JSON.

The XML loader turns .gst/.cat files into the same shape, so there is one way to build the model.
Keys are BattleScribe's own (camelCase); missing keys take the protocol's defaults, or the XML
schema's when `xml_defaults` is set (the two differ on `shared` and `import`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .gamedata import GameData
from .model import (
    CATEGORY_ENTRY,
    CATEGORY_LINK,
    ENTRY_LINK,
    FORCE_ENTRY,
    SELECTION_ENTRY,
    SELECTION_ENTRY_GROUP,
    Catalogue,
    CatalogueLink,
    Characteristic,
    Condition,
    ConditionGroup,
    Constraint,
    Cost,
    CostType,
    Entry,
    InfoGroup,
    InfoLink,
    Modifier,
    ModifierGroup,
    Profile,
    Publication,
    Query,
    Repeat,
    Rule,
)

Data = dict[str, Any]


class Reader:
    """Builds model objects from dictionaries, with one set of defaults for missing keys."""

    def __init__(self, xml_defaults: bool = False) -> None:
        self.shared_default = xml_defaults
        self.import_default = not xml_defaults
        self.catalogue_id = ""

    def items(self, data: Data, key: str) -> Iterable[Data]:
        """The dictionaries under `key`, or none."""
        return data.get(key) or ()

    def query(self, data: Data, scope: str) -> Query:
        """The query fields shared by constraints, conditions and repeats."""
        child = data.get("childId")
        return Query(
            field=data.get("field") or "selections",
            scope=data.get("scope") or scope,
            child_id=child if child else None,
            shared=as_bool(data.get("shared"), self.shared_default),
            include_child_selections=as_bool(data.get("includeChildSelections")),
            include_child_forces=as_bool(data.get("includeChildForces")),
            percent_value=as_bool(data.get("percentValue")),
        )

    def constraint(self, data: Data) -> Constraint:
        """A constraint."""
        return Constraint(
            str(data.get("id", "")), data.get("type", "max"), as_number(data.get("value")), self.query(data, "parent")
        )

    def condition(self, data: Data) -> Condition:
        """A condition."""
        return Condition(data.get("type", "atLeast"), as_number(data.get("value")), self.query(data, "self"))

    def condition_group(self, data: Data) -> ConditionGroup:
        """A condition group and its nested groups."""
        return ConditionGroup(
            data.get("type") or "and",
            [self.condition(c) for c in self.items(data, "conditions")],
            [self.condition_group(g) for g in self.items(data, "conditionGroups")],
        )

    def repeat(self, data: Data) -> Repeat:
        """A repeat."""
        repeats = data.get("repeats")
        return Repeat(
            as_number(data.get("value"), 1.0),
            as_whole(repeats, 1),
            as_bool(data.get("roundUp")),
            self.query(data, "self"),
        )

    def modifier(self, data: Data) -> Modifier:
        """A modifier with its conditions and repeats."""
        value = data.get("value")
        return Modifier(
            data.get("type", "set"),
            str(data.get("field", "")),
            "" if value is None else as_text(value),
            [self.condition(c) for c in self.items(data, "conditions")],
            [self.condition_group(g) for g in self.items(data, "conditionGroups")],
            [self.repeat(r) for r in self.items(data, "repeats")],
        )

    def modifier_group(self, data: Data) -> ModifierGroup:
        """A modifier group and its nested groups."""
        return ModifierGroup(
            [self.modifier(m) for m in self.items(data, "modifiers")],
            [self.modifier_group(g) for g in self.items(data, "modifierGroups")],
            [self.condition(c) for c in self.items(data, "conditions")],
            [self.condition_group(g) for g in self.items(data, "conditionGroups")],
            [self.repeat(r) for r in self.items(data, "repeats")],
        )

    def modifiers_of(self, data: Data) -> tuple[list[Modifier], list[ModifierGroup]]:
        """The modifiers and modifier groups of an element."""
        return (
            [self.modifier(m) for m in self.items(data, "modifiers")],
            [self.modifier_group(g) for g in self.items(data, "modifierGroups")],
        )

    def profile(self, data: Data) -> Profile:
        """A profile."""
        modifiers, groups = self.modifiers_of(data)
        return Profile(
            str(data.get("id", "")),
            data.get("name") or "",
            data.get("typeId") or "",
            data.get("typeName") or "",
            as_bool(data.get("hidden")),
            optional_text(data.get("page")),
            data.get("publicationId") or None,
            [
                Characteristic(c.get("name") or "", c.get("typeId") or "", as_text(c.get("value", "")))
                for c in self.items(data, "characteristics")
            ],
            modifiers,
            groups,
        )

    def rule(self, data: Data) -> Rule:
        """A rule."""
        modifiers, groups = self.modifiers_of(data)
        return Rule(
            str(data.get("id", "")),
            data.get("name") or "",
            data.get("description") or "",
            as_bool(data.get("hidden")),
            optional_text(data.get("page")),
            data.get("publicationId") or None,
            modifiers,
            groups,
        )

    def info_link(self, data: Data) -> InfoLink:
        """An info link."""
        modifiers, groups = self.modifiers_of(data)
        return InfoLink(
            str(data.get("id", "")),
            data.get("name") or "",
            data.get("targetId") or "",
            data.get("type") or "",
            as_bool(data.get("hidden")),
            optional_text(data.get("page")),
            data.get("publicationId") or None,
            modifiers,
            groups,
        )

    def info_group(self, data: Data) -> InfoGroup:
        """An info group and what it holds."""
        modifiers, groups = self.modifiers_of(data)
        return InfoGroup(
            str(data.get("id", "")),
            data.get("name") or "",
            as_bool(data.get("hidden")),
            optional_text(data.get("page")),
            data.get("publicationId") or None,
            [self.profile(p) for p in self.items(data, "profiles")],
            [self.rule(r) for r in self.items(data, "rules")],
            [self.info_group(g) for g in self.items(data, "infoGroups")],
            [self.info_link(link) for link in self.items(data, "infoLinks")],
            modifiers,
            groups,
        )

    def entry(self, data: Data, kind: str) -> Entry:
        """Any kind of entry, with everything nested in it."""
        modifiers, groups = self.modifiers_of(data)
        link_type = data.get("type") if kind == ENTRY_LINK else None
        entry = Entry(
            kind=kind,
            id=str(data.get("id", "")),
            name=data.get("name") or "",
            type=(data.get("type") or "unit") if kind == SELECTION_ENTRY else "",
            hidden=as_bool(data.get("hidden")),
            collective=as_bool(data.get("collective")),
            import_=as_bool(data.get("import"), self.import_default),
            page=optional_text(data.get("page")),
            publication_id=data.get("publicationId") or None,
            target_id=data.get("targetId") or None,
            link_type=(link_type or "selectionEntry") if kind == ENTRY_LINK else None,
            primary=as_bool(data.get("primary")),
            default_selection_entry_id=data.get("defaultSelectionEntryId") or None,
            catalogue_id=self.catalogue_id,
            modifiers=modifiers,
            modifier_groups=groups,
        )
        entry.costs = [
            Cost(c.get("typeId") or "", c.get("name") or "", as_number(c.get("value")))
            for c in self.items(data, "costs")
        ]
        entry.constraints = [self.constraint(c) for c in self.items(data, "constraints")]
        self.fill_children(entry, data)
        return entry

    def fill_children(self, entry: Entry, data: Data) -> None:
        """The nested entries, links and info of an entry."""
        entry.selection_entries = [self.entry(e, SELECTION_ENTRY) for e in self.items(data, "selectionEntries")]
        entry.selection_entry_groups = [
            self.entry(g, SELECTION_ENTRY_GROUP) for g in self.items(data, "selectionEntryGroups")
        ]
        entry.entry_links = [self.entry(link, ENTRY_LINK) for link in self.items(data, "entryLinks")]
        entry.category_links = [self.entry(link, CATEGORY_LINK) for link in self.items(data, "categoryLinks")]
        entry.force_entries = [self.entry(f, FORCE_ENTRY) for f in self.items(data, "forceEntries")]
        entry.profiles = [self.profile(p) for p in self.items(data, "profiles")]
        entry.rules = [self.rule(r) for r in self.items(data, "rules")]
        entry.info_groups = [self.info_group(g) for g in self.items(data, "infoGroups")]
        entry.info_links = [self.info_link(link) for link in self.items(data, "infoLinks")]

    def catalogue(self, data: Data, is_game_system: bool) -> Catalogue:
        """A catalogue or game system."""
        self.catalogue_id = str(data.get("id", ""))
        cat = Catalogue(
            id=self.catalogue_id,
            name=data.get("name") or "",
            game_system_id=data.get("gameSystemId") or "",
            is_game_system=is_game_system,
            library=as_bool(data.get("library")),
            revision=as_whole(data.get("revision"), 1),
        )
        cat.selection_entries = [self.entry(e, SELECTION_ENTRY) for e in self.items(data, "selectionEntries")]
        cat.entry_links = [self.entry(e, ENTRY_LINK) for e in self.items(data, "entryLinks")]
        cat.shared_selection_entries = [
            self.entry(e, SELECTION_ENTRY) for e in self.items(data, "sharedSelectionEntries")
        ]
        cat.shared_selection_entry_groups = [
            self.entry(e, SELECTION_ENTRY_GROUP) for e in self.items(data, "sharedSelectionEntryGroups")
        ]
        cat.shared_rules = [self.rule(r) for r in self.items(data, "sharedRules")]
        cat.shared_profiles = [self.profile(p) for p in self.items(data, "sharedProfiles")]
        cat.shared_info_groups = [self.info_group(g) for g in self.items(data, "sharedInfoGroups")]
        cat.rules = [self.rule(r) for r in self.items(data, "rules")]
        cat.info_links = [self.info_link(link) for link in self.items(data, "infoLinks")]
        cat.catalogue_links = [
            CatalogueLink(link.get("targetId") or "", as_bool(link.get("importRootEntries"), not self.shared_default))
            for link in self.items(data, "catalogueLinks")
        ]
        cat.publications = [
            Publication(str(p.get("id", "")), p.get("name") or "") for p in self.items(data, "publications")
        ]
        cat.cost_types = [
            CostType(
                str(c.get("id", "")),
                c.get("name") or "",
                as_number(c.get("defaultCostLimit"), -1.0),
                as_bool(c.get("hidden")),
            )
            for c in self.items(data, "costTypes")
        ]
        cat.category_entries = [self.entry(e, CATEGORY_ENTRY) for e in self.items(data, "categoryEntries")]
        cat.force_entries = [self.entry(e, FORCE_ENTRY) for e in self.items(data, "forceEntries")]
        return cat


def as_bool(value: Any, default: bool = False) -> bool:
    """A boolean from JSON or XML text."""
    if value is None or value == "":
        return default
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


def as_number(value: Any, default: float = 0.0) -> float:
    """A number from JSON or XML text."""
    if value is None or value == "":
        return default
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def as_whole(value: Any, default: int) -> int:
    """A whole number from JSON or XML text; NaN or an infinity reads as the default (`load_battlescribe`
    refuses them; data that reaches the engine another way must not stop it)."""
    number = as_number(value, float(default))
    return int(number) if math.isfinite(number) else default


def as_text(value: Any) -> str:
    """Text as BattleScribe writes it (booleans in lower case, whole floats without a fraction)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def optional_text(value: Any) -> str | None:
    """Text, or None where there is none."""
    if value is None:
        return None
    return as_text(value)


def load_protocol_data(game_system: Data, catalogues: list[Data], xml_defaults: bool = False) -> GameData:
    """Game data from the protocol's `setup` message (a game system and its catalogues)."""
    reader = Reader(xml_defaults)
    system = reader.catalogue(game_system, is_game_system=True)
    return GameData(system, [reader.catalogue(c, is_game_system=False) for c in catalogues])
