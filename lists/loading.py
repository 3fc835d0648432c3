"""Building in-memory snapshots from the database, with a fixed number of queries.

Game data changes only when `loadpacks` runs, so each process keeps one
`GameData` per system and rebuilds it when the system's content hash
changes. Loading a roster then costs two queries whatever its size: the
roster with its system, and its units with their chosen options.
"""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

from django.db import connection, transaction
from django.db.models import Prefetch

from lists import models
from lists.snapshot import (
    ForceInfo,
    ForceLimitInfo,
    HouseRuleChoice,
    HouseRuleInfo,
    ModelLine,
    OptionInfo,
    OrganisationInfo,
    QualityInfo,
    QualityPrice,
    RankInfo,
    RosterSnapshot,
    RuleInfo,
    SlotInfo,
    SystemInfo,
    UnitChoice,
    UnitTypeInfo,
    WeaponInfo,
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
        """Organisations open to an army: those naming it, and those naming no army at all."""
        named = {org_id for org_ids in self.army_organisations.values() for org_id in org_ids}
        return [
            org_id
            for org_id in self.organisations
            if org_id in self.army_organisations.get(army_id, []) or org_id not in named
        ]

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
            )
            for index, row in enumerate(units)
        ]
        return RosterSnapshot(
            system=self.system,
            army_key=army.key,
            army_name=army.name,
            army_name_shared=" ".join(army.name.casefold().split()) in self.shared_army_names,
            name=name,
            points_limit=points_limit,
            year=year,
            period=period or None,
            settings=settings,
            forces=[
                ForceInfo(index, force.name, self.organisations.get(force.organisation_id))
                for index, force in enumerate(forces)
            ],
            units=choices,
            force_limits=self.force_limits_of(army_id),
            army_unit_types=self.unit_types_of(army_id),
            house_rules=[HouseRuleChoice(house_rule_info(row.rule), row.count, row.unit) for row in house_rules],
            overlays=overlays,
        )

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


@dataclass(frozen=True)
class ArmyInfo:
    id: int
    key: str
    name: str
    unit_type_ids: tuple[int, ...]
    borrows_from: tuple[int, ...] = ()
    borrow_units: tuple[str, ...] = ()
    shared: bool = False
    rules: tuple[str, ...] = ()


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


def _weapon_info(weapon: models.Weapon) -> WeaponInfo:
    return WeaponInfo(
        key=weapon.key,
        name=weapon.name,
        category=weapon.category.key if weapon.category else None,
        category_name=weapon.category.name if weapon.category else "",
        rules=frozenset(link.rule.key for link in weapon.rule_links.all()),
    )


def source_label(rule: models.SpecialRule, system: models.GameSystem) -> str:
    """Where a rule comes from, in words: the source document's title, the section, the entry."""
    titles = {source["key"]: source["title"] for source in system.sources}
    where = rule.source or {}
    parts = [titles.get(where.get("document"), ""), where.get("section", "")]
    if where.get("entry") and where["entry"] != rule.name:
        parts.append(where["entry"])
    return ", ".join(part for part in parts if part)


def rule_info(rule: models.SpecialRule, system: models.GameSystem) -> RuleInfo:
    """A rule as the snapshot holds it, with the source it comes from in words."""
    return RuleInfo(
        rule.key,
        rule.name,
        rule.summary,
        rule.points,
        reminder=rule.reminder,
        source=source_label(rule, system),
        applies_to=rule.applies_to,
        document=(rule.source or {}).get("document", ""),
        section=(rule.source or {}).get("section", ""),
    )


def _grouped(pairs) -> dict:
    """{owner: [values in order]} from (owner, value) pairs."""
    grouped: dict = {}
    for owner, value in pairs:
        grouped.setdefault(owner, []).append(value)
    return grouped


def _build_game_data(system: models.GameSystem) -> GameData:
    rules = {rule.key: rule_info(rule, system) for rule in system.specialrule_set.all()}
    ranks = system.officerrank_set.all()
    qualities = system.troopquality_set.all()
    info = SystemInfo(
        key=system.key,
        name=system.name,
        config=system.config,
        rules=rules,
        ranks={r.key: RankInfo(r.key, r.name, r.morale_bonus, r.extra_orders, r.order_range) for r in ranks},
        qualities={q.key: QualityInfo(q.key, q.name, q.morale, q.damage_value) for q in qualities},
        periods=tuple(system.config.get("periods", [])),
    )
    data = GameData(
        system=info,
        content_hash=system.content_hash,
        version=(system.pk, system.content_hash),
        quality_ids={q.id: q.key for q in qualities},
        rank_ids={r.id: r.key for r in ranks},
    )
    weapons = {
        weapon.id: _weapon_info(weapon)
        for weapon in models.Weapon.objects.filter(system=system)
        .select_related("category")
        .prefetch_related(Prefetch("rule_links", queryset=models.WeaponRule.objects.select_related("rule")))
    }
    by_key = {weapon.key: weapon for weapon in weapons.values()}
    data.weapon_profiles = {
        weapon.key: weapon.profile()
        for weapon in models.Weapon.objects.filter(system=system)
        .select_related("system")
        .prefetch_related(Prefetch("rule_links", queryset=models.WeaponRule.objects.select_related("rule")))
    }
    for reference in system.reference_set.all():
        data.references.setdefault(reference.table, {})[reference.key] = {"name": reference.name, **reference.data}
    # Plain rows, not model instances: a game of ~3,000 units builds in a fraction of the time.
    in_system = {"unit_type__system": system}
    unit_rules = _grouped(
        models.UnitType.rules.through.objects.filter(unittype__system=system)
        .order_by("specialrule__name")
        .values_list("unittype_id", "specialrule__key")
    )
    unit_ranks = _grouped(
        models.UnitType.officer_ranks.through.objects.filter(unittype__system=system)
        .order_by("officerrank__position")
        .values_list("unittype_id", "officerrank__key")
    )
    prices = _grouped(
        (unit_id, (quality, QualityPrice(points, per_extra, tuple(armies), army_points, **sizes)))
        for unit_id, quality, points, per_extra, armies, army_points, sizes in models.QualityCost.objects.filter(
            **in_system
        )
        .order_by("quality__position")
        .values_list("unit_type_id", "quality__key", "points", "per_extra_model", "armies", "army_points", "sizes")
    )
    model_weapons = _grouped(
        models.UnitModel.weapons.through.objects.filter(unitmodel__unit_type__system=system)
        .order_by("weapon__position")
        .values_list("unitmodel_id", "weapon_id")
    )
    lines = _grouped(
        (
            row["unit_type_id"],
            ModelLine(
                row["count"],
                row["role"],
                row["name"],
                tuple(
                    weapons[weapon_id]
                    for weapon_id in model_weapons.get(row["id"], [])
                    for _ in range(row["weapon_counts"].get(weapons[weapon_id].key, 1))
                ),
                row["fs"],
                row["morale"],
                row["equipment"],
                row["figures"],
            ),
        )
        for row in models.UnitModel.objects.filter(**in_system)
        .order_by("position")
        .values("id", "unit_type_id", "count", "role", "name", "fs", "morale", "equipment", "figures", "weapon_counts")
    )
    option_weapons = _grouped(
        models.UnitOption.weapons.through.objects.filter(unitoption__unit_type__system=system)
        .order_by("weapon__position")
        .values_list("unitoption_id", "weapon_id")
    )
    unit_options: dict[int, dict[str, OptionInfo]] = {}
    for option in (
        models.UnitOption.objects.filter(**in_system)
        .order_by("position")
        .values(
            "id",
            "unit_type_id",
            "key",
            "name",
            "points",
            "per",
            "max",
            "group",
            "adds_models",
            "replaces",
            "model",
            "officer_rank__key",
            "service_start",
            "service_end",
            "service_period",
            "period_points",
            "quality_points",
            "quality_max",
            "points_with",
            "qualities",
            "points_once",
            "percent",
            "armies",
            "crew",
            "copies_unit",
            "in_size",
        )
    ):
        unit_id = option["unit_type_id"]
        data.option_keys[option["id"]] = (unit_id, option["key"])
        data.option_ids[(unit_id, option["key"])] = option["id"]
        unit_options.setdefault(unit_id, {})[option["key"]] = OptionInfo(
            key=option["key"],
            name=option["name"],
            points=option["points"],
            per=option["per"],
            max=option["max"],
            group=option["group"],
            adds_models=tuple(
                ModelLine(
                    line["count"],
                    line["role"],
                    line["name"],
                    tuple(
                        by_key[key]
                        for ref in line.get("weapons", [])
                        for key, count in [(ref, 1) if isinstance(ref, str) else (ref["weapon"], ref["count"])]
                        for _ in range(count)
                    ),
                    line.get("fs"),
                    line.get("morale"),
                    line.get("equipment") or "",
                    line.get("figures", 1),
                )
                for line in option["adds_models"]
            ),
            weapons=tuple(weapons[weapon_id] for weapon_id in option_weapons.get(option["id"], [])),
            replaces=tuple(option["replaces"]),
            model=option["model"],
            officer_rank=option["officer_rank__key"],
            service_start=option["service_start"],
            service_end=option["service_end"],
            service_period=option["service_period"],
            period_points=option["period_points"],
            quality_points=option["quality_points"],
            quality_max=option["quality_max"],
            points_with=option["points_with"],
            qualities=tuple(option["qualities"]),
            points_once=option["points_once"],
            percent=option["percent"],
            armies=tuple(option["armies"]),
            crew=option["crew"],
            copies_unit=option["copies_unit"],
            in_size=option["in_size"],
        )
    unit_rows = list(
        models.UnitType.objects.filter(system=system)
        .order_by("army", "category__position", "position")
        .values(
            "id",
            "army_id",
            "key",
            "name",
            "category__key",
            "category__name",
            "category__kind",
            "kind",
            "points",
            "armour",
            "speed",
            "constitution",
            "min_size",
            "max_size",
            "max_in_roster",
            "army_limits",
            "limit_per",
            "force_limits",
            "officer_rank__key",
            "weapon_categories",
            "transport_capacity",
            "capacity_counts",
            "service_start",
            "service_end",
            "service_period",
            "source",
        )
    )
    names_in_army = Counter((row["army_id"], row["name"]) for row in unit_rows)
    for row in unit_rows:
        unit_id = row["id"]
        data.unit_types[unit_id] = UnitTypeInfo(
            key=row["key"],
            name=row["name"],
            category=row["category__key"],
            category_name=row["category__name"],
            category_kind=row["category__kind"],
            kind=row["kind"],
            points=row["points"],
            quality_prices=dict(prices.get(unit_id, [])),
            composition=tuple(lines.get(unit_id, [])),
            armour=row["armour"],
            source=row["source"],
            speed=row["speed"],
            constitution=row["constitution"],
            min_size=row["min_size"],
            max_size=row["max_size"],
            max_in_roster=row["max_in_roster"],
            army_limits=row["army_limits"],
            limit_per=row["limit_per"],
            force_limits=tuple(ForceLimitInfo(**limit) for limit in row["force_limits"]),
            officer_rank=row["officer_rank__key"],
            officer_ranks=tuple(unit_ranks.get(unit_id, [])),
            options=unit_options.get(unit_id, {}),
            weapon_categories=tuple(row["weapon_categories"]) if row["weapon_categories"] is not None else None,
            transport_capacity=row["transport_capacity"],
            capacity_counts=row["capacity_counts"],
            service_start=row["service_start"],
            service_end=row["service_end"],
            service_period=row["service_period"],
            rules=tuple(unit_rules.get(unit_id, [])),
            name_shared=names_in_army[(row["army_id"], row["name"])] > 1,
        )
    army_units: dict[int, list[int]] = {}
    for row in unit_rows:
        army_units.setdefault(row["army_id"], []).append(row["id"])
    for army in models.Army.objects.filter(system=system).prefetch_related("borrows_from", "rules"):
        data.armies[army.id] = ArmyInfo(
            id=army.id,
            key=army.key,
            name=army.name,
            unit_type_ids=tuple(army_units.get(army.id, [])),
            rules=tuple(rule.key for rule in army.rules.all()),
            borrows_from=tuple(other.id for other in army.borrows_from.all()),
            borrow_units=tuple(army.borrow_units),
            shared=army.shared,
        )
    category_names = dict(system.unitcategory_set.values_list("key", "name"))
    for organisation in models.Organisation.objects.filter(system=system).prefetch_related("armies"):
        data.organisations[organisation.id] = OrganisationInfo(
            category_names=category_names,
            key=organisation.key,
            name=organisation.name,
            slots=tuple(
                SlotInfo(
                    key=slot["key"],
                    name=slot["name"],
                    categories=tuple(slot["categories"]),
                    min=slot.get("min", 0),
                    max=slot.get("max"),
                    officer_ranks=tuple(slot.get("officer_ranks", [])),
                    ranks_counted=tuple(slot.get("ranks_counted", [])),
                    half_choice_at_most_points=slot.get("half_choice_at_most_points"),
                    half_choice_categories=tuple(slot.get("half_choice_categories", [])),
                    requires_setting=slot.get("requires_setting"),
                )
                for slot in organisation.slots
            ),
        )
        for army in organisation.armies.all():
            data.army_organisations.setdefault(army.id, []).append(organisation.id)
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
