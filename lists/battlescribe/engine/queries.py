"""Queries: what constraints, conditions and repeats count (selections, forces or a cost) in a scope."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from .counting import count_selections
from .elements import Force, Selection
from .model import Query
from .roster_protocol import RosterProtocol

NAN = math.nan
SELECTION_TYPES = ("unit", "model", "upgrade")
INDEXED = (Selection, Force)  # the scopes counted through a pass's index, with the roster itself
STANDARD_SCOPES = {"self", "parent", "force", "roster", "primary-category", "primary-catalogue"}


class Context:
    """Where an entry is evaluated: the element itself (if selected), what holds it, its force."""

    __slots__ = ("force", "parent", "roster", "target")

    def __init__(
        self, roster: RosterProtocol, force: Force | None, parent: Selection | Force | None, target: object
    ) -> None:
        self.roster = roster
        self.force = force
        self.parent = parent
        self.target = target

    @classmethod
    def under(cls, roster: RosterProtocol, parent: Force | Selection, target: object = None) -> Context:
        """The context of an element under `parent` (`target`: the element itself, if selected)."""
        force = parent if isinstance(parent, Force) else parent.force
        return cls(roster, force, parent, target)

    @classmethod
    def of_selection(cls, roster: RosterProtocol, selection: Selection) -> Context:
        """The context of a selection."""
        return cls(roster, selection.force, selection.container, selection)

    @classmethod
    def of_force(cls, roster: RosterProtocol, force: Force) -> Context:
        """The context of a force."""
        return cls(roster, force, force.parent, force)


class PrimaryCategoryScope:
    """The selections of a force whose primary category is one category."""

    __slots__ = ("category_id", "force")

    def __init__(self, force: Force, category_id: str) -> None:
        self.force = force
        self.category_id = category_id


def scope_container(query: Query, context: Context) -> object | None:
    """The element a query counts within, or None where BattleScribe finds none."""
    scope = query.scope
    if scope == "self":
        return context.target
    if scope == "parent":
        return context.parent if context.parent is not None else context.roster
    if scope == "force":
        return context.force
    if scope == "roster":
        return context.roster
    if scope == "primary-category":
        target = context.target
        if isinstance(target, Selection) and context.force is not None:
            category = target.primary_category()
            return PrimaryCategoryScope(context.force, category) if category else None
        return None
    if scope == "primary-catalogue":
        return ("catalogue", context.force.catalogue.id) if context.force is not None else None
    if scope == "ancestor":
        return None
    return ancestor_with_id(context, scope)


def ancestor_with_id(context: Context, entry_id: str) -> object | None:
    """The nearest element above (or at) the target whose entry has this id."""
    current: object | None = context.target if context.target is not None else context.parent
    while current is not None:
        if isinstance(current, Selection):
            if option_has_id(current, entry_id):
                return current
            current = current.container
        elif isinstance(current, Force):
            if current.entry.id == entry_id:
                return current
            current = current.parent
        else:
            return None
    return None


def option_has_id(selection: Selection, entry_id: str) -> bool:
    """Whether a selection's entry answers to an id (its own, its link's, or its composite id)."""
    option = selection.option
    return entry_id in (option.id, option.entry.id) or (option.link is not None and option.link.id == entry_id)


def selections_in(container: object, roster: RosterProtocol, query: Query) -> Iterator[Selection]:
    """The selections a query looks at in its container."""
    deep = query.include_child_selections
    if isinstance(container, Selection):
        yield from walk(container.children, deep)
    elif isinstance(container, Force):
        for force in container.walk_forces() if query.include_child_forces else (container,):
            yield from walk(force.selections, deep)
    elif isinstance(container, PrimaryCategoryScope):
        for selection in walk(container.force.selections, deep):
            if selection.primary_category() == container.category_id:
                yield selection
    elif isinstance(container, tuple):
        for force in roster.all_forces():
            if force.catalogue.id == container[1]:
                yield from walk(force.selections, deep)
    else:
        for force in roster.forces_in_scope(query.include_child_forces):
            yield from walk(force.selections, deep)


def walk(selections: Iterable[Selection], deep: bool) -> Iterator[Selection]:
    """Selections, and (when deep) everything under them."""
    for selection in selections:
        if deep:
            yield from selection.walk()
        else:
            yield selection


def selection_matches(selection: Selection, child_id: str, shared: bool) -> bool:
    """Whether a selection counts for a query's child id."""
    if child_id == "any":
        return True
    option = selection.option
    if shared:
        if option.entry.id == child_id or (option.link is not None and option.link.id == child_id):
            return True
    elif option.id == child_id:
        return True
    if child_id in SELECTION_TYPES:
        return option.entry.type == child_id
    group = option.group
    while group is not None:
        if child_id in (group.id, group.entry.id):
            return True
        group = group.group
    return any(category.entry_id == child_id for category in selection.categories)


def forces_in(container: object, roster: RosterProtocol, query: Query) -> Iterator[Force]:
    """The forces a forces-field query looks at."""
    if isinstance(container, Force):
        if query.include_child_forces:
            for child in container.forces:
                yield from child.walk_forces()
        else:
            yield from container.forces
    elif isinstance(container, Selection):
        return
    else:
        yield from roster.forces_in_scope(query.include_child_forces)


def query_value(query: Query, context: Context, child_id: str | None = None, shared: bool | None = None) -> float:
    """The value of a query: a count of selections or forces, or a sum of costs (NaN where unresolved)."""
    child = child_id if child_id is not None else query.child_id
    if child is None:
        return NAN
    container = scope_container(query, context)
    if container is None:
        # An entry-id scope with no such ancestor (or `ancestor`) cannot be counted at all.
        return 0.0 if query.scope in STANDARD_SCOPES else NAN
    share = query.shared if shared is None else shared
    roster = context.roster
    index = roster.count_index
    if query.field == "selections" and index is not None and (type(container) in INDEXED or container is roster):
        read, key = indexed_count, (id(container), query.include_child_selections, query.include_child_forces)
    else:
        read, key = scope_value, (id(query), scope_key(container))
    args = (query, container, roster, child, share)
    value = read(*args)
    recorder = roster.recorder
    if recorder is not None:  # an incremental evaluation keeps what each force read (`incremental`)
        recorder.read((*key, query.field, child, share), value, read, args, container)
    return value


def scope_key(container: object) -> object:
    """What tells a scope apart from every other while a roster is evaluated."""
    if isinstance(container, PrimaryCategoryScope):
        return ("primary-category", id(container.force), container.category_id)
    return container if isinstance(container, tuple) else id(container)


def indexed_count(query: Query, container: object, roster: RosterProtocol, child: str, share: bool) -> float:
    """A count of selections in a scope, through the pass's index (the scope counted once per pass)."""
    index = roster.count_index
    key = (id(container), query.include_child_selections, query.include_child_forces)
    found = index.buckets.get(key)
    if found is None:
        found = index.buckets[key] = count_selections(selections_in(container, roster, query))
    return found[0 if share else 1].get(child, 0.0)


def scope_value(query: Query, container: object, roster: RosterProtocol, child: str, share: bool) -> float:
    """A query's value in a scope without the pass's index: counted by walking the scope."""
    if query.field == "forces":
        return float(sum(1 for f in forces_in(container, roster, query) if child == "any" or f.entry.id == child))
    if query.field == "selections":
        return float(
            sum(s.number for s in selections_in(container, roster, query) if selection_matches(s, child, share))
        )
    if roster.is_cost_type(query.field):
        return cost_value(query, container, roster, child, share)
    return NAN


def cost_value(query: Query, container: object, roster: RosterProtocol, child: str, share: bool) -> float:
    """The sum of one cost over the selections in scope."""
    type_id = query.field
    if child == "any" and container is roster:
        return roster.total_cost(type_id)
    total = 0.0
    for selection in selections_in(container, roster, query):
        if selection_matches(selection, child, share):
            total += selection.costs.get(type_id, 0.0)
    if child == "any" and isinstance(container, Selection):
        total += container.costs.get(type_id, 0.0)
    return total
