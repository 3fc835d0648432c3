"""Building in-memory snapshots from the database, with a fixed number of queries.

Game data changes only when `loadpacks` runs, so each process keeps one
`GameData` per system and rebuilds it when the system's content hash
changes. Loading a roster then costs two queries whatever its size: the
roster with its system, and its units with their chosen options.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

from django.db import DatabaseError, connection, connections, transaction

from lists import models
from lists.gamedata import sections
from lists.gamedata.battlescribe_cache import warm_battlescribe_data
from lists.gamedata.sections import ArmyInfo, source_label
from lists.gamedata.snapshot import (
    ForceInfo,
    ForceLimitInfo,
    HouseRuleChoice,
    HouseRuleInfo,
    OrganisationInfo,
    RosterSnapshot,
    SystemInfo,
    UnitChoice,
    UnitTypeInfo,
)


@dataclass
class GameData:
    """One game system's data as snapshots, looked up by key, name or database id."""

    system: SystemInfo
    content_hash: str
    version: tuple[int, str] = (0, "")
    unit_types: dict[int, UnitTypeInfo] = field(default_factory=dict)  # by UnitType id
    option_keys: dict[int, tuple[int, str]] = field(default_factory=dict)  # UnitOption id -> (unit type id, key)
    organisations: dict[int, OrganisationInfo] = field(default_factory=dict)
    army_organisations: dict[int, list[int]] = field(default_factory=dict)  # army id -> organisation ids
    quality_ids: dict[int, str] = field(default_factory=dict)
    rank_ids: dict[int, str] = field(default_factory=dict)
    armies: dict[int, ArmyInfo] = field(default_factory=dict)
    weapon_profiles: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # weapon key -> profile
    references: dict[str, dict[str, dict]] = field(default_factory=dict)  # table -> key -> row
    option_ids: dict[tuple[int, str], int] = field(default_factory=dict)  # (unit type id, key) -> UnitOption id
    _force_limits: dict[int, tuple] = field(default_factory=dict, repr=False)
    _army_unit_types: dict[int, tuple] = field(default_factory=dict, repr=False)
    _army_organisation_order: dict[int, tuple] = field(default_factory=dict, repr=False)

    @cached_property
    def shared_army_names(self) -> dict[str, list[str]]:
        """Army names that several armies carry (two nations' theatre lists), lower-cased, with their keys."""
        keys: dict[str, list[str]] = {}
        for army in self.armies.values():
            keys.setdefault(" ".join(army.name.casefold().split()), []).append(army.key)
        return {name: sorted(found) for name, found in keys.items() if len(found) > 1}

    def ids_by_key(self, mapping: dict[int, str]) -> dict[str, int]:
        return {key: id_ for id_, key in mapping.items()}

    def organisations_for(self, army_id: int) -> list[int]:
        """Organisations open to an army: those naming it, and those naming no army at all; those its units
        can fill first, as the first is the one a new roster or a force naming none starts in (an Italian
        list is offered the game system's Reinforced Platoon too, whose Lieutenant none of its units is)."""
        found = self._army_organisation_order.get(army_id)
        if found is None:
            named = {org_id for org_ids in self.army_organisations.values() for org_id in org_ids}
            offered = [
                org_id
                for org_id in self.organisations
                if org_id in self.army_organisations.get(army_id, []) or org_id not in named
            ]
            army = self.armies.get(army_id)
            units = self.unit_types_of(army_id) if army is not None else ()
            if units:
                filled = {o for o in offered if self.organisations[o].in_army(army.key).fillable_from(units)}
                offered.sort(key=lambda org_id: org_id not in filled)  # stable: the data's order otherwise
            found = self._army_organisation_order[army_id] = tuple(offered)
        return list(found)

    def snapshot(
        self,
        *,
        army_id: int,
        name: str,
        points_limit: int | None,
        year: int | None,
        period: str,
        settings: dict,
        forces: list[ForceRow],
        units: list[UnitRow],
        house_rules: list[HouseRuleRow],
        overlays: tuple[str, ...] = (),
    ) -> RosterSnapshot:
        """A roster in memory, from ids: what pricing and the rule checks work on."""
        army = self.armies[army_id]
        choices = [
            UnitChoice(
                index=index,
                label=row.label,
                unit_type=self.unit_types[row.unit_type_id],
                quality=self.quality_ids.get(row.quality_id),
                size=row.size,
                options={self.option_keys[option_id][1]: count for option_id, count in row.options.items()},
                officer_rank=self.rank_ids.get(row.rank_id),
                transport=row.transport,
                hero_points=row.hero_points,
                force=row.force,
                note=row.note,
            )
            for index, row in enumerate(units)
        ]
        return RosterSnapshot(
            system=self.system,
            army_key=army.key,
            army_name=army.name,
            army_name_shared=" ".join(army.name.casefold().split()) in self.shared_army_names,
            army_title=self.army_title(army_id),
            name=name,
            points_limit=points_limit,
            year=year,
            period=period or None,
            settings=settings,
            forces=[
                ForceInfo(index, force.name, self._organisation_in(force.organisation_id, army.key))
                for index, force in enumerate(forces)
            ],
            units=choices,
            force_limits=self.force_limits_of(army_id),
            army_unit_types=self.unit_types_of(army_id),
            house_rules=[HouseRuleChoice(house_rule_info(row.rule), row.count, row.unit) for row in house_rules],
            overlays=overlays,
        )

    def _organisation_in(self, organisation_id: int | None, army_key: str) -> OrganisationInfo | None:
        organisation = self.organisations.get(organisation_id)
        return organisation.in_army(army_key) if organisation else None

    def unit_types_of(self, army_id: int) -> tuple[UnitTypeInfo, ...]:
        """Every unit type an army may field (worked out once per army)."""
        found = self._army_unit_types.get(army_id)
        if found is None:
            found = self._army_unit_types[army_id] = tuple(self.unit_types[i] for _, i in self.available_units(army_id))
        return found

    def force_limits_of(self, army_id: int) -> tuple[tuple[UnitTypeInfo, ForceLimitInfo], ...]:
        """The per-force limits of the units an army may field (worked out once per army)."""
        found = self._force_limits.get(army_id)
        if found is None:
            found = tuple(
                (self.unit_types[unit_id], limit)
                for _, unit_id in self.available_units(army_id)
                for limit in self.unit_types[unit_id].force_limits
            )
            self._force_limits[army_id] = found
        return found

    def army_title(self, army_id: int) -> str:
        """The army's name as pages show it, with its nation's (`models.army_title`), read from memory."""
        army = self.armies[army_id]
        nation = self.armies.get(army.borrows_from[0]) if army.borrows_from else None
        return models.army_title(army.name, nation.name if nation else None)

    def available_units(self, army_id: int) -> list[tuple[ArmyInfo, int]]:
        """Units an army may field, with the army each comes from: its own, borrowed ones, shared ones."""
        army = self.armies[army_id]
        found = [(army, unit_id) for unit_id in army.unit_type_ids]
        for other_id in army.borrows_from:
            other = self.armies[other_id]
            found += [
                (other, unit_id)
                for unit_id in other.unit_type_ids
                if not army.borrow_units or self.unit_types[unit_id].key in army.borrow_units
            ]
        for other in self.armies.values():
            if other.shared and other.id != army_id:
                found += [(other, unit_id) for unit_id in other.unit_type_ids]
        return found


@dataclass
class UnitRow:
    """A roster unit by database ids, as saved or as read from a file."""

    unit_type_id: int
    label: str
    quality_id: int | None
    size: int | None
    rank_id: int | None
    options: dict[int, int]  # UnitOption id -> count
    transport: int | None  # position of the carrying unit in the roster
    hero_points: int
    force: int = 0  # position of the unit's force in the roster
    note: str = ""  # the player's note on the unit


@dataclass
class ForceRow:
    """A roster force by database ids, as saved or as read from a file."""

    name: str
    organisation_id: int | None


@dataclass
class HouseRuleRow:
    """A house rule bought, as saved or as read from a file; `unit` is the roster position it is bought for."""

    rule: models.SpecialRule
    count: int = 1
    unit: int | None = None


def house_rule_info(rule: models.SpecialRule) -> HouseRuleInfo:
    """A priced house rule in memory, with how it is bought (its system must be loaded with it)."""
    purchase = rule.purchase or {}
    return HouseRuleInfo(
        key=rule.key,
        name=rule.name,
        points=rule.points or 0,
        bought_for=purchase.get("bought_for", "roster"),
        per_role=purchase.get("per_role"),
        max=purchase.get("max"),
        any_of=tuple(purchase.get("any_of", [])),
        pack=rule.system.short_name,
        summary=rule.summary,
        source=source_label(rule, rule.system),
    )


def priced_house_rules():
    """Every priced house rule of every overlay pack, with its pack."""
    return models.SpecialRule.objects.filter(system__kind="overlay", points__isnull=False).select_related("system")


_cache: dict[str, GameData] = {}
_lock = threading.Lock()


def game_data(system: models.GameSystem) -> GameData:
    """The system's game data, built once per content hash."""
    # The row's id is part of the key: a system deleted and loaded again gets new ids throughout.
    version = (system.pk, system.content_hash)
    cached = _cache.get(system.key)
    if cached is not None and cached.version == version:
        return cached
    with _lock:
        cached = _cache.get(system.key)
        if cached is None or cached.version != version:
            cached = _build_game_data(system)
            _cache[system.key] = cached
    return cached


def warm_game_data() -> None:
    """Build every loaded game's data ahead of the first request (before a server forks its workers);
    a database not migrated or loaded yet is left for the first request. Closes the connections it
    opened, so no forked worker shares one."""
    try:
        for system in models.GameSystem.objects.all():
            game_data(system)
        warm_battlescribe_data()  # loaded BattleScribe data sets compiled into the shared cache where missing
    except DatabaseError:
        pass
    finally:
        connections.close_all()


def _build_game_data(system: models.GameSystem) -> GameData:
    """The system's game data, read section by section (see `sections`)."""
    info, qualities, ranks = sections.system_info(system)
    data = GameData(
        system=info,
        content_hash=system.content_hash,
        version=(system.pk, system.content_hash),
        quality_ids={q.id: q.key for q in qualities},
        rank_ids={r.id: r.key for r in ranks},
    )
    weapons = sections.weapons(system)
    data.weapon_profiles = sections.weapon_profiles(system)
    data.references = sections.references(system)
    options = sections.unit_options(system, weapons)
    data.option_keys, data.option_ids = options.keys, options.ids
    unit_rows = sections.unit_rows(system)
    data.unit_types = sections.unit_types(system, unit_rows, weapons, options)
    data.armies = sections.armies(system, unit_rows)
    data.organisations, data.army_organisations = sections.organisations(system)
    return data


@contextmanager
def one_state():
    """The queries inside read one committed state of the database, whatever is saved meanwhile.

    SQLite: one deferred (read) transaction, which in WAL mode never waits for a
    writer; PostgreSQL: a repeatable-read transaction. Inside a transaction already: that one.
    """
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        if connection.connection.in_transaction:  # inside one_state() already: its read transaction holds
            yield
            return
        # Django's atomic() would BEGIN IMMEDIATE (settings.py) and so queue behind writers: a read needs no lock.
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def roster_snapshot(roster: models.Roster, units: list[models.RosterUnit] | None = None) -> RosterSnapshot:
    """The snapshot of a saved roster; `units` may be given already loaded (with chosen_options), in one_state()."""
    with one_state():
        if units is None:
            units = list(roster_units(roster))
        forces = list(roster.forces.all())
        house_rules = list(roster.house_rules.select_related("rule__system"))
        overlays = tuple(roster.overlays.order_by("name").values_list("name", flat=True))
    return _snapshot_of(roster, units, forces, house_rules, overlays)


def _snapshot_of(roster, units, forces, house_rules, overlays=()) -> RosterSnapshot:
    data = game_data(roster.system)
    force_positions = {force.id: index for index, force in enumerate(forces)}
    positions = {unit.id: index for index, unit in enumerate(units)}
    rows = [
        UnitRow(
            unit_type_id=unit.unit_type_id,
            label=unit.label or data.unit_types[unit.unit_type_id].name,
            quality_id=unit.quality_id,
            size=unit.size,
            rank_id=unit.officer_rank_id,
            options={choice.option_id: choice.count for choice in unit.chosen_options.all()},
            transport=positions.get(unit.transport_id),
            hero_points=unit.hero_points,
            force=force_positions[unit.force_id],
            note=unit.note,
        )
        for unit in units
    ]
    return data.snapshot(
        army_id=roster.army_id,
        name=roster.name,
        points_limit=roster.points_limit,
        year=roster.year,
        period=roster.period,
        settings=roster.settings,
        forces=[ForceRow(force.name, force.organisation_id) for force in forces],
        units=rows,
        house_rules=[
            HouseRuleRow(bought.rule, bought.count, positions.get(bought.unit_id) if bought.unit_id else None)
            for bought in house_rules
        ],
        overlays=overlays,
    )


def roster_units(roster: models.Roster):
    """A roster's units in roster order: force by force, then by position within the force."""
    return (
        models.RosterUnit.objects.filter(roster=roster)
        .prefetch_related("chosen_options")
        .order_by("force__position", "force_id", "position", "id")
    )
