"""Writing a resolved roster: saved to the database, and exported back as a roster file."""

from __future__ import annotations

import json

import yaml
from django.db import transaction

from lists import models
from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rosters.format import FORMAT
from lists.rosters.resolving import ResolvedRoster


@transaction.atomic
def save_new_roster(resolved: ResolvedRoster, share_id: str, edit_secret_hash: str) -> models.Roster:
    roster = models.Roster.objects.create(
        share_id=share_id,
        edit_secret_hash=edit_secret_hash,
        system=resolved.system,
        army_id=resolved.army_id,
        name=resolved.name,
        points_limit=resolved.points_limit,
        year=resolved.year,
        period=resolved.period,
        settings=resolved.settings,
    )
    replace_units(roster, resolved)
    roster.overlays.set(resolved.overlays)
    return roster


def replace_units(roster: models.Roster, resolved: ResolvedRoster) -> None:
    """Save a roster's forces and units in order, and the house rules it bought (its old ones are deleted)."""
    units, house_rules = resolved.units, resolved.house_rules
    roster.house_rules.all().delete()
    roster.units.all().delete()
    roster.forces.all().delete()
    forces = models.Force.objects.bulk_create(
        models.Force(roster=roster, position=index, name=force.name, organisation_id=force.organisation_id)
        for index, force in enumerate(resolved.forces)
    )
    saved = models.RosterUnit.objects.bulk_create(
        models.RosterUnit(
            roster=roster,
            force=forces[u.force],
            unit_type_id=u.unit_type_id,
            position=index,
            label=u.label,
            quality_id=u.quality_id,
            size=u.size,
            officer_rank_id=u.rank_id,
            hero_points=u.hero_points,
            note=u.note,
        )
        for index, u in enumerate(units)
    )
    carried = []
    for unit, row in zip(units, saved, strict=True):
        if unit.transport is not None:
            row.transport = saved[unit.transport]
            carried.append(row)
    models.RosterUnit.objects.bulk_update(carried, ["transport"])
    models.RosterUnitOption.objects.bulk_create(
        models.RosterUnitOption(roster_unit=row, option_id=option_id, count=count)
        for unit, row in zip(units, saved, strict=True)
        for option_id, count in unit.options.items()
    )
    models.RosterHouseRule.objects.bulk_create(
        models.RosterHouseRule(
            roster=roster, rule=row.rule, unit=saved[row.unit] if row.unit is not None else None, count=row.count
        )
        for row in house_rules
    )


def export_roster(roster: RosterSnapshot) -> dict:
    """The roster as a file's mapping, naming everything as the source prints it."""
    system = roster.system
    periods = {p["key"]: p["name"] for p in system.periods}
    army = roster.army_key if roster.army_name_shared else roster.army_name  # a shared name would not re-import
    document: dict = {"format": FORMAT, "game": system.name, "army": army}
    document["name"] = roster.name
    if roster.points_limit is not None:
        document["points_limit"] = roster.points_limit
    if roster.year is not None:
        document["year"] = roster.year
    if roster.period:
        document["period"] = periods.get(roster.period, roster.period)
    if roster.settings:
        document["settings"] = dict(roster.settings)
    if roster.overlays:
        document["overlays"] = list(roster.overlays)
    if roster.house_rules:
        document["house_rules"] = [
            bought.rule.name
            if bought.count == 1 and bought.unit is None
            else {
                "house_rule": bought.rule.name,
                **({"count": bought.count} if bought.count != 1 else {}),
                **({"unit": roster.units[bought.unit].label} if bought.unit is not None else {}),
            }
            for bought in roster.house_rules
        ]
    document["forces"] = [
        {
            "name": force.name,
            **({"organisation": force.organisation.name} if force.organisation else {}),
            "units": [export_unit(roster, unit) for unit in roster.force_units(force)],
        }
        for force in roster.forces
    ]
    return document


def export_unit(roster: RosterSnapshot, unit: UnitChoice) -> dict:
    """One unit as a roster file's entry."""
    system = roster.system
    # A name two units of the army share would re-import as the first of them: give the key.
    entry: dict = {"unit": unit.unit_type.key if unit.unit_type.name_shared else unit.unit_type.name}
    if unit.label != unit.unit_type.name:
        entry["label"] = unit.label
    if unit.quality:
        entry["quality"] = system.qualities[unit.quality].name
    if unit.size is not None:
        entry["size"] = unit.size
    if unit.officer_rank:
        entry["officer_rank"] = system.ranks[unit.officer_rank].name
    if unit.options:
        entry["options"] = [
            option.name if count == 1 else {"option": option.name, "count": count}
            for option, count in unit.chosen_options
        ]
    if unit.transport is not None:
        entry["transport"] = roster.units[unit.transport].label
    if unit.hero_points:
        entry["hero_points"] = unit.hero_points
    if unit.note:
        entry["note"] = unit.note
    return entry


def dump_yaml(document: dict) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


def dump_json(document: dict) -> str:
    """The one JSON writer of roster documents (exports, the API, validate_roster): never Infinity or NaN,
    which no JSON reader takes (a non-finite number reaching it is a bug, and raises)."""
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
