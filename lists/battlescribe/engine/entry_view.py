"""An entry as a roster sees it: its fields after every modifier that applies in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

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


def base_view(data: GameData, sources: tuple[Entry, ...], name: str) -> EntryView:
    """An entry's fields before modifiers: the entry's, overridden where its link sets them."""
    entry = sources[0]
    view = EntryView(name=name, hidden=any(s.hidden for s in sources), page=entry.page)
    view.publication_id = entry.publication_id
    for source in sources[1:]:
        if source.page:
            view.page = source.page
        if source.publication_id:
            view.publication_id = source.publication_id
    for source in sources:
        for cost in source.costs:
            view.costs[cost.type_id] = cost.value
            view.declared.add(cost.type_id)
        for constraint in source.constraints:
            view.constraint_values[constraint.id] = constraint.value
        for link in source.category_links:
            view.categories.append(
                SelectionCategory(
                    link.target_id or "", link.name or data.category_name(link.target_id or ""), link.primary, link
                )
            )
    for cost_type in data.cost_types:
        view.costs.setdefault(cost_type.id, 0.0)
    return view


def view_node(data: GameData, node: Node, context: Context, selection: Selection | None = None) -> EntryView:
    """An option's or group's fields after its modifiers (the entry's, then the link's).

    A selection being evaluated gets its unmodified categories first, so that conditions on its
    own categories can see them.
    """
    view = base_view(data, node.sources, node.name)
    group = node.group
    while group is not None:
        for source in group.sources:
            for link in source.category_links:
                if all(c.entry_id != link.target_id for c in view.categories):
                    view.categories.append(SelectionCategory(link.target_id or "", link.name, link.primary, link))
        group = group.group
    if selection is not None:
        selection.categories = [SelectionCategory(c.entry_id, c.name, c.primary, c.link) for c in view.categories]
    for source in node.sources:
        if source.has_modifiers:
            apply_modifiers(source.modifiers, source.modifier_groups, context, view.apply)
    for category in view.categories:
        if not category.name:
            category.name = data.category_name(category.entry_id)
    return view


def view_entry(data: GameData, entry: Entry, context: Context) -> EntryView:
    """A force entry's, category's or other entry's fields after its modifiers."""
    view = base_view(data, (entry,), entry.name)
    if entry.has_modifiers:
        apply_modifiers(entry.modifiers, entry.modifier_groups, context, view.apply)
    return view
