"""Building in-memory snapshots from the database, with a fixed number of queries.

Game data changes only when `loadpacks` runs, so each process keeps one
`GameData` per system and rebuilds it when the system's content hash
changes. Loading a roster then costs two queries whatever its size: the
roster with its system, and its units with their chosen options.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from django.db.models import Prefetch

from lists import models
from lists.snapshot import (
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
        organisation_id: int | None,
        units: list[UnitRow],
        house_rules: list[HouseRuleRow],
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
            )
            for index, row in enumerate(units)
        ]
        return RosterSnapshot(
            system=self.system,
            army_key=army.key,
            army_name=army.name,
            name=name,
            points_limit=points_limit,
            year=year,
            period=period or None,
            settings=settings,
            organisation=self.organisations.get(organisation_id),
            units=choices,
            house_rules=[HouseRuleChoice(house_rule_info(row.rule), row.count, row.unit) for row in house_rules],
        )

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
    )


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
    unit_types = (
        models.UnitType.objects.filter(system=system)
        .select_related("category", "officer_rank")
        .prefetch_related(
            "officer_ranks",
            "rules",
            "quality_costs__quality",
            "models__weapons",
            "options__weapons",
            "options__officer_rank",
        )
    )
    for unit_type in unit_types:
        options = {}
        for option in unit_type.options.all():
            data.option_keys[option.id] = (unit_type.id, option.key)
            data.option_ids[(unit_type.id, option.key)] = option.id
            options[option.key] = OptionInfo(
                key=option.key,
                name=option.name,
                points=option.points,
                per=option.per,
                max=option.max,
                group=option.group,
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
                    for line in option.adds_models
                ),
                weapons=tuple(weapons[w.id] for w in option.weapons.all()),
                replaces=tuple(option.replaces),
                model=option.model,
                officer_rank=option.officer_rank.key if option.officer_rank else None,
                service_start=option.service_start,
                service_end=option.service_end,
                service_period=option.service_period,
                period_points=option.period_points,
                percent=option.percent,
                armies=tuple(option.armies),
                crew=option.crew,
                copies_unit=option.copies_unit,
            )
        data.unit_types[unit_type.id] = UnitTypeInfo(
            key=unit_type.key,
            name=unit_type.name,
            category=unit_type.category.key,
            category_name=unit_type.category.name,
            category_kind=unit_type.category.kind,
            kind=unit_type.kind,
            points=unit_type.points,
            quality_prices={
                cost.quality.key: QualityPrice(cost.points, cost.per_extra_model)
                for cost in unit_type.quality_costs.all()
            },
            composition=tuple(
                ModelLine(
                    line.count,
                    line.role,
                    line.name,
                    tuple(weapons[w.id] for w in line.weapons.all() for _ in range(line.weapon_counts.get(w.key, 1))),
                    line.fs,
                    line.morale,
                    line.equipment,
                    line.figures,
                )
                for line in unit_type.models.all()
            ),
            armour=unit_type.armour,
            speed=unit_type.speed,
            constitution=unit_type.constitution,
            min_size=unit_type.min_size,
            max_size=unit_type.max_size,
            officer_rank=unit_type.officer_rank.key if unit_type.officer_rank else None,
            officer_ranks=tuple(rank.key for rank in unit_type.officer_ranks.all()),
            options=options,
            weapon_categories=tuple(unit_type.weapon_categories) if unit_type.weapon_categories is not None else None,
            transport_capacity=unit_type.transport_capacity,
            capacity_counts=unit_type.capacity_counts,
            service_start=unit_type.service_start,
            service_end=unit_type.service_end,
            service_period=unit_type.service_period,
            rules=tuple(rule.key for rule in unit_type.rules.all()),
        )
    army_units: dict[int, list[int]] = {}
    for unit_type in unit_types:
        army_units.setdefault(unit_type.army_id, []).append(unit_type.id)
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


def roster_snapshot(roster: models.Roster, units: list[models.RosterUnit] | None = None) -> RosterSnapshot:
    """The snapshot of a saved roster; `units` may be given already loaded (with chosen_options)."""
    data = game_data(roster.system)
    if units is None:
        units = list(roster_units(roster))
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
        organisation_id=roster.organisation_id,
        units=rows,
        house_rules=[
            HouseRuleRow(bought.rule, bought.count, positions.get(bought.unit_id) if bought.unit_id else None)
            for bought in roster.house_rules.select_related("rule__system")
        ],
    )


def roster_units(roster: models.Roster):
    return models.RosterUnit.objects.filter(roster=roster).prefetch_related("chosen_options").order_by("position", "id")
