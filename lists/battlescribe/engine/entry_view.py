"""An entry as a roster sees it: its fields after every modifier that applies in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .counting import set_categories
from .elements import Selection, SelectionCategory
from .model import Entry, Modifier
from .modifiers import apply_modifiers, bool_change, number_change, text_change
from .options import Node
from .queries import Context

if TYPE_CHECKING:
    from .gamedata import GameData


@dataclass(slots=True)
class EntryView:
    """The modified fields of an entry (or an option: an entry and the link reaching it)."""

    name: str
    hidden: bool
    page: str | None = None
    publication_id: str | None = None
    costs: dict[str, float] = field(default_factory=dict)
    constraint_values: dict[str, float] = field(default_factory=dict)
    categories: list[SelectionCategory] = field(default_factory=list)
    declared: set[str] = field(default_factory=set)

    def apply(self, modifier: Modifier, times: int) -> None:
        """Apply one modifier `times` times."""
        target = modifier.field
        if target == "name":
            self.name = text_change(modifier, self.name, times)
        elif target == "hidden":
            self.hidden = bool_change(modifier, self.hidden)
        elif target == "category" or modifier.type in ("add", "remove", "set-primary", "unset-primary"):
            self.change_category(modifier)
        elif target in self.costs:
            self.costs[target] = number_change(modifier, self.costs[target], times)
            self.declared.add(target)
        elif target in self.constraint_values:
            self.constraint_values[target] = number_change(modifier, self.constraint_values[target], times)
        elif target == "page":
            self.page = text_change(modifier, self.page or "", times)
        elif target == "publicationId":
            self.publication_id = modifier.value

    def change_category(self, modifier: Modifier) -> None:
        """Add, remove, or make (un)primary a category."""
        category_id = modifier.value
        existing = next((c for c in self.categories if c.entry_id == category_id), None)
        if modifier.type == "add" and existing is None:
            self.categories.append(SelectionCategory(category_id, "", False))
        elif modifier.type == "remove" and existing is not None:
            self.categories.remove(existing)
        elif modifier.type == "set-primary":
            for category in self.categories:
                category.primary = False
            if existing is None:
                existing = SelectionCategory(category_id, "", True)
                self.categories.append(existing)
            existing.primary = True
        elif modifier.type == "unset-primary" and existing is not None:
            existing.primary = False


@dataclass(slots=True, frozen=True)
class BaseFields:
    """An entry's (or option's) fields before modifiers, worked out once and copied into each view."""

    name: str
    hidden: bool
    page: str | None
    publication_id: str | None
    costs: tuple[tuple[str, float], ...]
    declared: frozenset[str]
    constraint_values: tuple[tuple[str, float], ...]
    categories: tuple[tuple[str, str, bool, Entry | None], ...]

    def view(self) -> EntryView:
        """A fresh view holding these fields."""
        return EntryView(
            self.name,
            self.hidden,
            self.page,
            self.publication_id,
            dict(self.costs),
            dict(self.constraint_values),
            [SelectionCategory(*category) for category in self.categories],
            set(self.declared),
        )


def base_fields(data: GameData, sources: tuple[Entry, ...], name: str, group: Node | None) -> BaseFields:
    """An entry's fields before modifiers, with the categories of the groups holding it."""
    entry = sources[0]
    page, publication_id = entry.page, entry.publication_id
    for source in sources[1:]:
        page = source.page or page
        publication_id = source.publication_id or publication_id
    costs: dict[str, float] = {}
    declared: set[str] = set()
    constraint_values: dict[str, float] = {}
    categories: list[tuple[str, str, bool, Entry | None]] = []
    for source in sources:
        for cost in source.costs:
            costs[cost.type_id] = cost.value
            declared.add(cost.type_id)
        for constraint in source.constraints:
            constraint_values[constraint.id] = constraint.value
        for link in source.category_links:
            target = link.target_id or ""
            categories.append((target, link.name or data.category_name(target), link.primary, link))
    for cost_type in data.cost_types:
        costs.setdefault(cost_type.id, 0.0)
    while group is not None:
        for source in group.sources:
            for link in source.category_links:
                if all(c[0] != link.target_id for c in categories):
                    target = link.target_id or ""
                    categories.append((target, link.name or data.category_name(target), link.primary, link))
        group = group.group
    return BaseFields(
        name,
        any(s.hidden for s in sources),
        page,
        publication_id,
        tuple(costs.items()),
        frozenset(declared),
        tuple(constraint_values.items()),
        tuple(categories),
    )


def view_node(data: GameData, node: Node, context: Context, selection: Selection | None = None) -> EntryView:
    """An option's or group's fields after its modifiers (the entry's, then the link's).

    A selection being evaluated gets its unmodified categories first, so that conditions on its
    own categories can see them.
    """
    fields = node.base_fields
    if fields is None:
        fields = node.base_fields = base_fields(data, node.sources, node.name, node.group)
    view = fields.view()
    if selection is not None:
        categories = [SelectionCategory(c.entry_id, c.name, c.primary, c.link) for c in view.categories]
        set_categories(context.roster, selection, categories)
    for source in node.sources:
        if source.has_modifiers:
            apply_modifiers(source.modifiers, source.modifier_groups, context, view.apply)
    for category in view.categories:
        if not category.name:
            category.name = data.category_name(category.entry_id)
    return view


@dataclass(slots=True, frozen=True)
class GroupFields:
    """What a group's modifiers can change of its checks: whether it is hidden, its name, its limits."""

    hidden: bool
    name: str
    constraint_values: dict[str, float]

    def limit(self, constraint_id: str, value: float) -> float:
        """A constraint's value after the group's modifiers (its own value where none changes it)."""
        return self.constraint_values.get(constraint_id, value)


def group_fields(data: GameData, group: Node, context: Context) -> GroupFields:
    """A group's hidden flag, name and constraint values where it sits (its modifiers evaluated in
    `context`, whose parent is the selection or force holding it). A group with no modifiers is
    read off its data, as most are, so checking one costs no view."""
    if not any(source.has_modifiers for source in group.sources):
        return GroupFields(any(source.hidden for source in group.sources), group.name, {})
    view = view_node(data, group, context)
    return GroupFields(view.hidden, view.name, view.constraint_values)


def view_entry(data: GameData, entry: Entry, context: Context) -> EntryView:
    """A force entry's, category's or other entry's fields after its modifiers."""
    fields = data.base_fields.get(id(entry))
    if fields is None:
        fields = data.base_fields[id(entry)] = base_fields(data, (entry,), entry.name, None)
    view = fields.view()
    if entry.has_modifiers:
        apply_modifiers(entry.modifiers, entry.modifier_groups, context, view.apply)
    return view
