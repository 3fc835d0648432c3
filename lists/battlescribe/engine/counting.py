"""Counting selections fast: an index of a roster's selections by every id a query may count them by.

A condition, repeat or constraint counts the selections of one entry (or group, category, type) in
a scope: a selection, a force, the roster. Walking the scope for every query makes evaluating a
roster quadratic in its size (each selection's modifiers walk every selection). During one
evaluation pass (a refresh, a validation, a state) the roster's tree does not change, so the first
query of a scope counts its selections once by every id they answer to, and each later query of
that scope is a dictionary look-up: a pass is linear in the roster's size.

What a selection answers to (see `queries.selection_matches`): its option's composite id (a
query that is not `shared`), its entry's and its link's ids (a `shared` query), its type, the
groups holding it, `any`, and its categories. All but the categories are fixed by its option, and
are worked out once per option. Categories are live (a refresh sets them in roster order, and a
condition on a selection evaluated later sees the old ones), so a change of a selection's category
ids during a pass is applied to the counts of every scope already counted that holds it: a
roster read from a file, whose selections all get their categories in its first pass, is counted
once, not once per selection.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from .elements import Selection, SelectionCategory
from .options import Option

Counts = dict[str, float]


def option_keys(option: Option) -> tuple[frozenset[str], frozenset[str]]:
    """The ids a selection of an option answers to, but its categories: (for shared queries,
    for queries that are not)."""
    keys = option.count_keys
    if keys is None:
        common = {"any", option.entry.type}
        group = option.group
        while group is not None:
            common.update((group.id, group.entry.id))
            group = group.group
        shared = {option.entry.id, *common}
        if option.link is not None:
            shared.add(option.link.id)
        keys = (frozenset(shared), frozenset({option.id, *common}))
        option.count_keys = keys
    return keys


class CountIndex:
    """Counts of selections by id, per scope, for one evaluation pass of a roster."""

    __slots__ = ("buckets", "roster")

    # A scope's key: (id() of the selection, force or roster counted in, deep, with child forces); its counts
    # (for shared queries, for the others), built the first time a query of the pass asks (`queries.query_value`).
    def __init__(self, roster: object = None) -> None:
        self.buckets: dict[tuple[int, bool, bool], tuple[Counts, Counts]] = {}
        self.roster = roster

    def recategorised(self, selection: Selection, before: set[str], after: set[str]) -> None:
        """A selection's category ids changed from `before` to `after`: the scopes counted so far that hold
        it count it under its new ones."""
        if not self.buckets or before == after:
            return
        shared_keys, own_keys = option_keys(selection.option)
        number = selection.number
        changes = [(c, -number) for c in before - after] + [(c, number) for c in after - before]
        for key in self.scopes_holding(selection):
            found = self.buckets.get(key)
            if found is None:
                continue
            shared, own = found
            for category_id, change in changes:
                if category_id not in shared_keys:
                    shared[category_id] = shared.get(category_id, 0.0) + change
                if category_id not in own_keys:
                    own[category_id] = own.get(category_id, 0.0) + change

    def scopes_holding(self, selection: Selection) -> Iterator[tuple[int, bool, bool]]:
        """The keys of every scope whose count includes a selection (see `queries.selections_in`)."""
        top = selection.parent is None
        for forces in (False, True):
            parent = selection.parent
            yield (id(parent), True, forces) if parent is not None else (id(selection.force), True, forces)
            if parent is not None:
                yield (id(parent), False, forces)
                above = parent.parent
                while above is not None:
                    yield (id(above), True, forces)
                    above = above.parent
                yield (id(selection.force), True, forces)
            elif top:
                yield (id(selection.force), False, forces)
        force = selection.force.parent
        while force is not None:  # a force's query that takes in its child forces'
            yield (id(force), True, True)
            if top:
                yield (id(force), False, True)
            force = force.parent
        for forces in (False, True) if selection.force.parent is None else (True,):
            yield (id(self.roster), True, forces)
            if top:
                yield (id(self.roster), False, forces)


class IndexedRoster(Protocol):
    """A roster as counting sees it: the index of the evaluation pass under way, if any."""

    count_index: CountIndex | None


def selection_keys(selection: Selection) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ids a selection is counted by, its categories' included: (for shared queries, for the others).
    Kept on the selection until its categories are replaced (they are never changed in place)."""
    categories = selection.categories
    cached = selection.count_keys
    if cached is not None and cached[0] is categories:
        return cached[1], cached[2]
    shared, own = option_keys(selection.option)
    ids = {category.entry_id for category in categories}
    keys = (
        tuple(shared) + tuple(i for i in ids if i not in shared),
        tuple(own) + tuple(i for i in ids if i not in own),
    )
    selection.count_keys = (categories, *keys)
    return keys


def count_selections(selections: Iterator[Selection]) -> tuple[Counts, Counts]:
    """How many selections answer to each id, for shared queries and for those that are not."""
    shared: Counts = {}
    own: Counts = {}
    ones_shared: list[str] = []  # the keys of the selections of number 1, counted at once
    ones_own: list[str] = []
    for selection in selections:
        shared_keys, own_keys = selection_keys(selection)
        number = selection.number
        if number == 1:
            ones_shared += shared_keys
            ones_own += own_keys
            continue
        for key in shared_keys:
            shared[key] = shared.get(key, 0.0) + number
        for key in own_keys:
            own[key] = own.get(key, 0.0) + number
    for counts, ones in ((shared, ones_shared), (own, ones_own)):
        if ones:
            for key, number in Counter(ones).items():
                counts[key] = counts.get(key, 0.0) + number
    return shared, own


def set_categories(roster: IndexedRoster, selection: Selection, categories: list[SelectionCategory]) -> None:
    """Give a selection its categories, telling the pass's index where their ids change."""
    before, after = {c.entry_id for c in selection.categories}, {c.entry_id for c in categories}
    index = roster.count_index
    if index is not None:
        index.recategorised(selection, before, after)
    cached = selection.count_keys
    if cached is not None and cached[0] is selection.categories and before == after:
        selection.count_keys = (categories, cached[1], cached[2])  # counted by the same ids still
    selection.categories = categories


@contextmanager
def evaluation_pass(roster: IndexedRoster):
    """A block in which the roster's tree does not change: queries count through an index."""
    if roster.count_index is not None:
        yield
        return
    roster.count_index = CountIndex(roster)
    with collector_paused():
        try:
            yield
        finally:
            roster.count_index = None


@contextmanager
def collector_paused():
    """A block in which Python's cycle collector does not run (it runs again after, if it ran before).

    A pass over a whole roster (an import's evaluation and validation, a full refresh) makes many
    short-lived objects, which set off the collector's passes: reading and validating a 5,040-selection
    .ros takes about 0.6 s of CPU paused, 1.2-1.4 s with the collector running, and as much with the
    game data frozen out of its sight (`gc.freeze` after loading), so the pause stays. An incremental
    edit gains nothing from it either way (15-20 ms). Reference counting still frees what the block
    drops; only cycles wait for the end.
    """
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
