"""One write path for every editor change: the roster as a roster file, changed, checked as an import is, saved in place.

An edit claims the roster's version (a stale page is refused), reads the roster
as a file (`Draft`), lets the change edit that mapping, checks it with the very
checks an import makes (`check_document`, `resolve`: 400 units, 20 forces, label
lengths and every rule), and saves it in the same transaction. Units and forces
the change keeps keep their database ids, so a page open in another tab still
names them; a refused change saves nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F
from django.http import Http404

from lists import models
from lists.gamedata.loading import one_state, roster_snapshot, roster_units
from lists.rosters.files import ResolvedRoster, check_document, export_roster, resolve


class StaleEdit(Exception):
    """The page the edit came from shows an older version of the roster."""


class EditRefused(Exception):
    """A change that cannot be made as asked; its message is shown to the player."""


@dataclass
class Draft:
    """A roster as a roster file's mapping, each unit entry and force knowing its database id."""

    document: dict
    ids: dict[int, int] = field(default_factory=dict)  # id() of an entry or force mapping -> its row's id

    def forces(self) -> list[dict]:
        return self.document["forces"]

    def units(self) -> list[dict]:
        return [entry for force in self.forces() for entry in force["units"]]

    def unit(self, unit_id: int) -> tuple[dict, dict]:
        """The entry of a saved unit and the force holding it."""
        for force in self.forces():
            for entry in force["units"]:
                if self.ids.get(id(entry)) == unit_id:
                    return entry, force
        raise Http404("No such unit in this roster.")  # the version was current: the id was never this roster's

    def force(self, force_id: int) -> dict:
        for force in self.forces():
            if self.ids.get(id(force)) == force_id:
                return force
        raise Http404("No such force in this roster.")

    def id_of(self, entry: dict) -> int | None:
        return self.ids.get(id(entry))

    def labels(self) -> set[str]:
        return {entry["label"] for entry in self.units()}

    def bought_for(self, label: str) -> list[dict]:
        """The house-rule entries bought for the unit with this label."""
        return [e for e in self.document.get("house_rules", []) if isinstance(e, dict) and e.get("unit") == label]

    def buy_for(self, entries: list[dict], label: str) -> None:
        if entries:
            self.document.setdefault("house_rules", []).extend({**entry, "unit": label} for entry in entries)


def draft_of(roster: models.Roster) -> Draft:
    """The saved roster as a file's mapping; every unit entry carries its label (the file may leave it out)."""
    with one_state():
        units = list(roster_units(roster))
        snapshot = roster_snapshot(roster, units)
        force_ids = list(roster.forces.values_list("id", flat=True))
    draft = Draft(export_roster(snapshot))
    for force, force_id in zip(draft.forces(), force_ids, strict=True):
        draft.ids[id(force)] = force_id
    for entry, row, choice in zip(draft.units(), units, snapshot.units, strict=True):
        entry["label"] = choice.label
        draft.ids[id(entry)] = row.id
    return draft


def edit(roster: models.Roster, version: int | None, change: Callable[[Draft], object]) -> Draft:
    """Claim the roster's `version`, apply `change` to it as a file and save the result.

    Raises StaleEdit, EditRefused or RosterFileInvalid (with the import's messages); nothing is saved then.
    The draft returned knows the ids of the units the change added.
    """
    with transaction.atomic():
        claimed = models.Roster.objects.filter(pk=roster.pk, version=version).update(version=F("version") + 1)
        if not claimed:
            raise StaleEdit
        roster.refresh_from_db()
        draft = draft_of(roster)
        change(draft)
        resolved = resolve(check_document(draft.document))
        save_in_place(roster, resolved, draft)
    return draft


def save_in_place(roster: models.Roster, resolved: ResolvedRoster, draft: Draft) -> None:
    """Save a checked roster over the saved one: kept units and forces are updated, not deleted and made again."""
    roster.name, roster.points_limit, roster.year = resolved.name, resolved.points_limit, resolved.year
    roster.period, roster.settings = resolved.period, resolved.settings
    roster.save(update_fields=["name", "points_limit", "year", "period", "settings", "updated_at"])
    roster.overlays.set(resolved.overlays)
    forces = _save_forces(roster, resolved, [draft.id_of(force) for force in draft.forces()])
    for mapping, force in zip(draft.forces(), forces, strict=True):
        draft.ids[id(mapping)] = force.id  # a force the change added is known by its new id too
    entries = draft.units()
    kept_ids = [draft.id_of(entry) for entry in entries]
    saved = {unit.id: unit for unit in roster.units.filter(id__in=[i for i in kept_ids if i])}
    roster.house_rules.all().delete()
    models.RosterUnitOption.objects.filter(roster_unit__roster=roster).delete()
    roster.units.exclude(id__in=list(saved)).delete()
    rows, changed = [], []
    for index, (unit, unit_id) in enumerate(zip(resolved.units, kept_ids, strict=True)):
        row = saved.get(unit_id) or models.RosterUnit(roster=roster)
        before = _unit_values(row)
        row.force, row.unit_type_id, row.position, row.label = forces[unit.force], unit.unit_type_id, index, unit.label
        row.quality_id, row.size, row.officer_rank_id = unit.quality_id, unit.size, unit.rank_id
        row.hero_points, row.note = unit.hero_points, unit.note
        rows.append(row)
        if row.pk and _unit_values(row) != before:  # only what changed is written: an edit touches one or two units
            changed.append(row)
    fields = ["force", "unit_type", "position", "label", "quality", "size", "officer_rank", "hero_points", "note"]
    models.RosterUnit.objects.bulk_update(changed, fields)
    models.RosterUnit.objects.bulk_create([row for row in rows if not row.pk])
    for entry, row in zip(entries, rows, strict=True):
        draft.ids[id(entry)] = row.id
    carried = []
    for unit, row in zip(resolved.units, rows, strict=True):
        transport_id = rows[unit.transport].id if unit.transport is not None else None
        if row.transport_id != transport_id:
            row.transport_id = transport_id
            carried.append(row)
    models.RosterUnit.objects.bulk_update(carried, ["transport"])
    roster.forces.exclude(id__in=[force.id for force in forces]).delete()
    models.RosterUnitOption.objects.bulk_create(
        models.RosterUnitOption(roster_unit=row, option_id=option_id, count=count)
        for unit, row in zip(resolved.units, rows, strict=True)
        for option_id, count in unit.options.items()
    )
    models.RosterHouseRule.objects.bulk_create(
        models.RosterHouseRule(
            roster=roster, rule=row.rule, unit=rows[row.unit] if row.unit is not None else None, count=row.count
        )
        for row in resolved.house_rules
    )


def _unit_values(row: models.RosterUnit) -> tuple:
    return (
        *(row.force_id, row.unit_type_id, row.position, row.label),
        *(row.quality_id, row.size, row.officer_rank_id, row.hero_points, row.note),
    )


def _save_forces(roster: models.Roster, resolved: ResolvedRoster, kept_ids: list[int | None]) -> list[models.Force]:
    """The roster's forces in order, kept ones updated and new ones made (those dropped are deleted by the caller)."""
    saved = {force.id: force for force in roster.forces.all()}
    forces = []
    for index, (row, force_id) in enumerate(zip(resolved.forces, kept_ids, strict=True)):
        force = saved.get(force_id) or models.Force(roster=roster)
        force.position, force.name, force.organisation_id = index, row.name, row.organisation_id
        forces.append(force)
    models.Force.objects.bulk_update([f for f in forces if f.pk], ["position", "name", "organisation"])
    for force in forces:
        if not force.pk:
            force.save()
    return forces
