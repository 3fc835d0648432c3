"""A roster: its forces, selections and cost limits, kept evaluated as BattleScribe keeps it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

from . import selecting
from .counting import CountIndex, collector_paused, evaluation_pass, set_categories
from .elements import NO_CATEGORY_ID, NO_CATEGORY_NAME, Force, RosterCategory, Selection
from .entry_view import EntryView, view_entry, view_node
from .gamedata import GameData
from .incremental import ForceRecord, Recorder, reads_hold
from .model import Entry
from .options import Option, root_options
from .queries import Context


class Roster:
    """A roster being built from one game system's data."""

    def __init__(self, data: GameData, name: str = "New Roster") -> None:
        self.data = data
        self.name = name
        self.id = "roster-1"
        self.forces: list[Force] = []
        self.cost_limits: dict[str, float] = {
            c.id: c.default_cost_limit for c in data.cost_types if c.default_cost_limit >= 0
        }
        self._serial = itertools.count(1)
        self.roots_auto_selected = False
        self.totals: dict[str, float] = {}
        self.cost_types_seen: set[str] = set()
        self.count_index: CountIndex | None = None
        self._in_action = False
        self._stale = False
        # Incremental evaluation (`incremental`): what each force's last evaluation read, the forces the
        # action under way touched (None: anything may have changed), the recorder of the force evaluated.
        self.records: dict[Force, ForceRecord] = {}
        self.checked: dict[Force, ForceRecord] = {}
        self._touched: set[Force] | None = set()
        self.recorder: Recorder | None = None
        self.incremental = True  # False: every action evaluates the whole roster (what incremental must equal)

    # --- ids and lookups -------------------------------------------------------------------

    def next_id(self, prefix: str) -> str:
        """A fresh instance id."""
        return f"{prefix}-{next(self._serial)}"

    def next_serial(self) -> int:
        """A number giving the order elements were made in."""
        return next(self._serial)

    def all_forces(self) -> Iterator[Force]:
        """Every force, child forces after their parents."""
        for force in self.forces:
            yield from force.walk_forces()

    def forces_in_scope(self, include_child_forces: bool) -> Iterator[Force]:
        """The forces a roster-wide query looks at."""
        return self.all_forces() if include_child_forces else iter(self.forces)

    def all_selections(self) -> Iterator[Selection]:
        """Every selection in the roster."""
        for force in self.all_forces():
            yield from force.all_selections()

    def find_force(self, force_id: str) -> Force:
        """A force by instance id."""
        for force in self.all_forces():
            if force.id == force_id:
                return force
        raise KeyError(f"Force with id '{force_id}' not found")

    def find_selection(self, selection_id: str, force: Force | None = None) -> Selection:
        """A selection by instance id."""
        forces = force.walk_forces() if force is not None else self.all_forces()
        for candidate in forces:
            for selection in candidate.all_selections():
                if selection.id == selection_id:
                    return selection
        raise KeyError(f"Selection with id '{selection_id}' not found")

    def is_cost_type(self, type_id: str) -> bool:
        """Whether an id is a cost type's."""
        return type_id in self.data.cost_type_by_id

    def total_cost(self, type_id: str) -> float:
        """The roster's total of one cost."""
        return self.totals.get(type_id, 0.0)

    # --- forces ----------------------------------------------------------------------------

    def add_force(self, force_entry_id: str, catalogue_id: str | None = None, parent: Force | None = None) -> Force:
        """Add a force (top-level, or a child of `parent`) and select what it must start with."""
        entry = self.data.force_entries.get(force_entry_id)
        if entry is None:
            raise KeyError(f"ForceEntry '{force_entry_id}' not found")
        catalogue = self.data.catalogue(catalogue_id)
        force = Force(self.next_id("force"), entry, catalogue, parent, self.next_serial(), name=entry.name)
        force.categories = [RosterCategory(self.next_id("category"), NO_CATEGORY_ID, NO_CATEGORY_NAME)]
        for link in entry.category_links:
            target = link.target_id or ""
            force.categories.append(
                RosterCategory(self.next_id("category"), target, self.data.category_name(target) or link.name)
            )
        force.options, force.groups = root_options(self.data, self.data.root_entries(catalogue))
        with self.action():
            (parent.forces if parent is not None else self.forces).append(force)
            self.changed()
            if parent is None and not self.roots_auto_selected:
                self.roots_auto_selected = True
                selecting.select_root_defaults(self, force)
        return force

    def remove_force(self, force: Force) -> None:
        """Remove a force and everything in it."""
        siblings = force.parent.forces if force.parent is not None else self.forces
        siblings.remove(force)
        self.changed()

    def set_cost_limit(self, type_id: str, value: float) -> None:
        """Set the roster's limit for one cost type."""
        self.cost_limits[type_id] = value

    # --- selections ------------------------------------------------------------------------

    def select(self, parent: Force | Selection, option: Option) -> Selection:
        """Select an option under a force or selection; returns the selection made or added to."""
        force = self.touch(parent if isinstance(parent, Force) else parent.force)
        made = selecting.select_option(self, parent, option)
        self.changed(force)
        return made

    def deselect(self, selection: Selection) -> None:
        """Remove a selection (or one of its number)."""
        force = self.touch(selection.force)
        selecting.deselect_selection(self, selection)
        self.changed(force)

    def remove(self, selection: Selection) -> None:
        """Remove a selection whatever its number, with everything under it: one step."""
        force = self.touch(selection.force)
        selecting.remove_selection(self, selection)
        self.changed(force)

    def set_count(self, selection: Selection, count: int) -> None:
        """Set how many of a selection's entry its parent holds, as BattleScribe's count spinner does."""
        with self.action():
            selecting.set_selection_count(self, selection, count)

    def duplicate(self, selection: Selection) -> Selection:
        """Copy a selection and everything under it, beside it."""
        force = self.touch(selection.force)
        copy = selecting.duplicate_selection(self, selection)
        self.changed(force)
        return copy

    def options_under(self, parent: Force | Selection) -> list[Option]:
        """What may be selected under a force or selection."""
        return parent.options if isinstance(parent, Force) else parent.option.children

    # --- evaluation ------------------------------------------------------------------------

    @contextmanager
    def action(self) -> Iterator[None]:
        """One action of however many steps (a count of 100, an import): the roster is evaluated once,
        at its end, not after each step. Actions nest: the outermost one evaluates."""
        if self._in_action:
            yield
            return
        self._in_action, self._stale = True, False
        with collector_paused():
            try:
                yield
            finally:
                self._in_action = False
                if self._stale:
                    self._stale = False
                    self.evaluate()

    def touch(self, force: Force) -> Force:
        """A step is about to change this force's tree: marked before the change, so that a step stopped
        halfway (by data refused at roster time) still has its force evaluated again next time."""
        if self._touched is not None:
            self._touched.add(force)
        return force

    def changed(self, *forces: Force) -> None:
        """The roster's tree changed (in these forces; anywhere when none is named): evaluate what the
        change can reach now, or at the end of the action under way."""
        if self._touched is not None:
            if forces:
                self._touched.update(forces)
            else:
                self._touched = None
        if self._in_action:
            self._stale = True
        else:
            self.evaluate()

    def context(self, parent: Force | Selection, target: object = None) -> Context:
        """The context of an element under `parent`."""
        return Context.under(self, parent, target)

    def view_option(self, option: Option, parent: Force | Selection, target: Selection | None = None) -> EntryView:
        """An option's modified fields, for a selection of it or for one not made yet."""
        return view_node(self.data, option, self.context(parent, target))

    def view_force(self, force: Force) -> EntryView:
        """A force entry's modified fields for a force."""
        return view_entry(self.data, force.entry, Context.of_force(self, force))

    def refresh(self) -> None:
        """Re-evaluate every force and selection, forgetting what earlier evaluations read."""
        self._touched = None
        self.evaluate()

    def evaluate(self) -> None:
        """Evaluate the roster in roster order, children before their parents: every force the last action
        touched, and every other whose reads beyond itself now give other values (`incremental`).

        Costs are read live while this runs, as BattleScribe reads them: a selection evaluated
        later sees the new costs of those before it and the old costs of those after it.
        """
        touched, self._touched = self._touched, set()
        if touched is None or not self.incremental:
            self.records.clear()
            self.checked.clear()
        records: dict[Force, ForceRecord] = {}
        with evaluation_pass(self):
            for force in self.all_forces():
                record = self.records.get(force)
                if record is None or force in touched or not reads_hold(record.external):
                    record = self._evaluate_force(force)
                if record is not None:
                    records[force] = record
        self.records = records
        declared = self.cost_types_seen
        sums: dict[str, float] = {}
        for selection in self.all_selections():
            declared |= selection.declared_costs
            for type_id, value in selection.costs.items():
                sums[type_id] = sums.get(type_id, 0.0) + value
        self.totals = {c.id: sums.get(c.id, 0.0) for c in self.data.cost_types if c.id in declared}

    def _evaluate_force(self, force: Force) -> ForceRecord | None:
        """Evaluate one force, recording what it reads; None for a force that would change if evaluated again
        at once (its reads of itself now give other values), to be evaluated next time too."""
        self.checked.pop(force, None)  # its validation's record no longer holds
        self.recorder = recorder = Recorder(force)
        try:
            view = self.view_force(force)
            force.name, force.hidden = view.name, view.hidden
            for selection in force.selections:
                self._refresh_tree(selection)
        finally:
            self.recorder = None
        return recorder.record if reads_hold(recorder.record.internal) else None

    def _refresh_tree(self, selection: Selection) -> None:
        for child in selection.children:
            self._refresh_tree(child)
        view = view_node(self.data, selection.option, Context.of_selection(self, selection), selection)
        selection.name, selection.hidden = view.name, view.hidden
        selection.page, selection.publication_id = view.page, view.publication_id
        selection.costs = {type_id: value * selection.number for type_id, value in view.costs.items()}
        set_categories(self, selection, view.categories)
        selection.declared_costs = view.declared

    def category_entry(self, category_id: str) -> Entry | None:
        """A category entry by id."""
        return self.data.category_entries.get(category_id)
