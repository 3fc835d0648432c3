"""A kept BattleScribe roster against a newer revision of its game's data: what would change, and the move.

A roster stays pinned to the data set it was built with (`BattleScribeRoster.data_set`); nothing here
re-prices it on its own. `compare` reads the roster's .ros XML with the newer data (compiled once per
process, as the old one is) and lists, for each of the roster's units, its cost per cost type before and
after, the entries under it the newer data no longer has or now hides, and the validation errors the
newer data adds or clears. `move` re-pins the roster only when every selection is still in the data:
a unit the data dropped would otherwise vanish from the list, so the move is refused naming it, and the
player removes it (or keeps a copy on the old revision) first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from lists import models
from lists.battlescribe.engine import Roster, Selection, read_roster_xml, roster_errors
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.battlescribe_data_rosters import number, primary_cost_type


@dataclass
class CostChange:
    cost_name: str
    old: int | float
    new: int | float


@dataclass
class UnitChange:
    """One unit (a force's root selection) whose cost or entries differ in the newer data."""

    name: str
    force: str
    costs: list[CostChange] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # entries under it (or itself) the newer data lacks
    hidden: list[str] = field(default_factory=list)  # entries under it (or itself) the newer data hides

    @property
    def notes(self) -> list[str]:
        """What changes, as the page lists it: costs old → new, then entries gone or hidden."""
        if self.removed == [self.name]:
            return ["no longer in the data"]
        notes = [f"{cost.old:g} → {cost.new:g} {cost.cost_name}" for cost in self.costs]
        if self.removed:
            notes.append("no longer in the data: " + ", ".join(self.removed))
        if self.hidden:
            notes.append("now hidden: " + ", ".join(self.hidden))
        return notes


@dataclass
class RevisionChanges:
    old_revision: int
    new_revision: int
    new_data_set: models.BattleScribeDataSet
    points_name: str
    old_points: int | float
    new_points: int | float
    units: list[UnitChange] = field(default_factory=list)
    removed_forces: list[str] = field(default_factory=list)
    new_errors: list[str] = field(default_factory=list)
    cleared_errors: list[str] = field(default_factory=list)

    @property
    def removed(self) -> list[str]:
        """Everything the move would lose, as "unit: entry" or the force's name."""
        lost = [f"{name} (force)" for name in self.removed_forces]
        for unit in self.units:
            lost += [entry if entry == unit.name else f"{unit.name}: {entry}" for entry in unit.removed]
        return lost


class MoveRefused(Exception):
    """The roster cannot move without losing selections; the message names them and what to do."""


def newer_data_set(data_set: models.BattleScribeDataSet) -> models.BattleScribeDataSet | None:
    """The newest revision of the same game loaded since this roster's, if any."""
    return (
        models.BattleScribeDataSet.objects.filter(
            game_system_id=data_set.game_system_id, revision__gt=data_set.revision
        )
        .order_by("-revision", "-loaded_at")
        .first()
    )


def read_with(data_set: models.BattleScribeDataSet, xml: str) -> Roster:
    return read_roster_xml(battlescribe_game_data(data_set), xml)


def cost_names(roster: Roster) -> dict[str, str]:
    return {c.id: c.name for c in roster.data.cost_types}


def unit_costs(unit: Selection) -> dict[str, float]:
    """A unit's costs with everything under it."""
    costs: dict[str, float] = {}
    for selection in unit.walk():
        for type_id, value in selection.costs.items():
            costs[type_id] = costs.get(type_id, 0.0) + value
    return costs


def unit_change(unit: Selection, newer: dict[str, Selection], names: dict[str, str]) -> UnitChange:
    change = UnitChange(unit.name, unit.force.name)
    moved = newer.get(unit.id)
    after = unit_costs(moved) if moved is not None else {}
    for type_id, old in unit_costs(unit).items():
        new = after.get(type_id, 0.0)
        if number(old) != number(new):
            change.costs.append(CostChange(names.get(type_id, type_id), number(old), number(new)))
    for type_id in after.keys() - unit_costs(unit).keys():
        if number(after[type_id]):
            change.costs.append(CostChange(names.get(type_id, type_id), 0, number(after[type_id])))
    for selection in unit.walk():
        found = newer.get(selection.id)
        gone_above = selection.parent is not None and selection.parent.id not in newer
        if found is None and not gone_above:
            change.removed.append(selection.name)
        elif found is not None and found.hidden and not selection.hidden:
            change.hidden.append(selection.name)
    return change


def error_texts(roster: Roster) -> list[str]:
    return [error.message for error in roster_errors(roster)]


def compare(
    kept: models.BattleScribeRoster, newer_set: models.BattleScribeDataSet, roster: Roster | None = None
) -> RevisionChanges:
    """What moving the kept roster (open as `roster`, when the caller has it) to `newer_set` would change."""
    old = roster or editing.open_roster(kept)
    new = read_with(newer_set, kept.ros_xml)
    newer_selections = {s.id: s for s in new.all_selections()}
    newer_forces = {f.id for f in new.all_forces()}
    points = primary_cost_type(old.data) or ""
    changes = RevisionChanges(
        old_revision=kept.data_set.revision,
        new_revision=newer_set.revision,
        new_data_set=newer_set,
        points_name=cost_names(old).get(points, "points"),
        old_points=number(old.totals.get(points, 0.0)),
        new_points=number(new.totals.get(points, 0.0)),
    )
    names = {**cost_names(old), **cost_names(new)}
    for force in old.all_forces():
        if force.id not in newer_forces:
            changes.removed_forces.append(force.name)
            continue
        for unit in force.selections:
            change = unit_change(unit, newer_selections, names)
            if change.costs or change.removed or change.hidden:
                changes.units.append(change)
    before, after = error_texts(old), error_texts(new)
    changes.new_errors = [e for e in after if e not in before]
    changes.cleared_errors = [e for e in before if e not in after]
    return changes


def move(kept: models.BattleScribeRoster, newer_set: models.BattleScribeDataSet, version: int | None) -> bool:
    """Re-pin the roster to `newer_set`, re-read with its data; False when changed elsewhere since `version`.

    Refused (MoveRefused) when the newer data lacks any of the roster's forces or selections."""
    changes = compare(kept, newer_set)
    if changes.removed:
        lost = "; ".join(changes.removed)
        raise MoveRefused(
            f"Revision {newer_set.revision} no longer has: {lost}. Remove these from the roster first "
            f"(or copy it from its share page to keep one on revision {kept.data_set.revision}), then move."
        )
    roster = read_with(newer_set, kept.ros_xml)
    editing.continue_ids(roster)
    fields = editing.summary(roster)
    with transaction.atomic():
        rosters = models.BattleScribeRoster.objects.filter(pk=kept.pk)
        if version is not None:
            rosters = rosters.filter(version=version)
        moved = rosters.update(data_set=newer_set, version=kept.version + 1, **fields)
    if moved:
        for name, value in fields.items():
            setattr(kept, name, value)
        kept.data_set, kept.version = newer_set, kept.version + 1
        editing.remember(kept, roster)
    return bool(moved)
