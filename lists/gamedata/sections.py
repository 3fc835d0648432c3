"""Reading one game system's rows into snapshots, one function per pack section.

Each function costs a fixed number of queries, whatever the size of the pack,
and reads plain rows rather than model instances where there are thousands:
a game of ~3,000 units builds in a fraction of the time. `loading` puts the
sections together into a `GameData`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Prefetch

from lists import models
from lists.gamedata.snapshot import (
    ForceLimitInfo,
    ModelLine,
    OptionForceLimitInfo,
    OptionInfo,
    OrganisationInfo,
    QualityInfo,
    QualityPrice,
    RankInfo,
    RuleInfo,
    SlotInfo,
    SystemInfo,
    UnitTypeInfo,
    WeaponInfo,
)


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
    rule_choices: tuple[dict, ...] = ()  # sets of national rules a player takes one of: {"name", "rules"}


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
        modifies=tuple(rule.modifies or ()),
        document=(rule.source or {}).get("document", ""),
        section=(rule.source or {}).get("section", ""),
    )


def _grouped(pairs) -> dict:
    """{owner: [values in order]} from (owner, value) pairs."""
    grouped: dict = {}
    for owner, value in pairs:
        grouped.setdefault(owner, []).append(value)
    return grouped


def system_info(system: models.GameSystem) -> tuple[SystemInfo, list, list]:
    """The system section with its rules, qualities and ranks; and the quality and rank rows, for their ids."""
    rules = {rule.key: rule_info(rule, system) for rule in system.specialrule_set.all()}
    ranks = list(system.officerrank_set.all())
    qualities = list(system.troopquality_set.all())
    info = SystemInfo(
        key=system.key,
        name=system.name,
        config=system.config,
        rules=rules,
        ranks={r.key: RankInfo(r.key, r.name, r.morale_bonus, r.extra_orders, r.order_range) for r in ranks},
        qualities={q.key: QualityInfo(q.key, q.name, q.morale, q.damage_value) for q in qualities},
        periods=tuple(system.config.get("periods", [])),
    )
    return info, qualities, ranks


def _weapons_with_rules(system: models.GameSystem):
    return models.Weapon.objects.filter(system=system).prefetch_related(
        Prefetch("rule_links", queryset=models.WeaponRule.objects.select_related("rule"))
    )


def weapons(system: models.GameSystem) -> dict[int, WeaponInfo]:
    """The weapons section, by database id."""
    return {
        weapon.id: WeaponInfo(
            key=weapon.key,
            name=weapon.name,
            category=weapon.category.key if weapon.category else None,
            category_name=weapon.category.name if weapon.category else "",
            rules=frozenset(link.rule.key for link in weapon.rule_links.all()),
        )
        for weapon in _weapons_with_rules(system).select_related("category")
    }


def weapon_profiles(system: models.GameSystem) -> dict[str, list[tuple[str, str]]]:
    """Each weapon's profile as the cards print it, by weapon key."""
    return {weapon.key: weapon.profile() for weapon in _weapons_with_rules(system).select_related("system")}


def references(system: models.GameSystem) -> dict[str, dict[str, dict]]:
    """The reference tables (damage values, movement, mounts, capacities): table -> key -> row."""
    tables: dict[str, dict[str, dict]] = {}
    for reference in system.reference_set.all():
        tables.setdefault(reference.table, {})[reference.key] = {"name": reference.name, **reference.data}
    return tables


def _model_line(line: dict, by_key: dict[str, WeaponInfo]) -> ModelLine:
    """A model an option adds, from its pack mapping; a weapon given with a count is carried that many times."""
    return ModelLine(
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


def model_lines(system: models.GameSystem, weapons: dict[int, WeaponInfo]) -> dict[int, list[ModelLine]]:
    """Each unit's composition, by unit type id, in the pack's order."""
    model_weapons = _grouped(
        models.UnitModel.weapons.through.objects.filter(unitmodel__unit_type__system=system)
        .order_by("weapon__position")
        .values_list("unitmodel_id", "weapon_id")
    )
    return _grouped(
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
        for row in models.UnitModel.objects.filter(unit_type__system=system)
        .order_by("position")
        .values("id", "unit_type_id", "count", "role", "name", "fs", "morale", "equipment", "figures", "weapon_counts")
    )


# The UnitOption columns an OptionInfo holds, read as they are (the rest is built in `_option_info`).
_OPTION_COLUMNS = (
    "key",
    *models.OPTION_PLAIN_FIELDS,
    "group",
    "shares",
    "model",
    "service_start",
    "service_end",
    "service_period",
    "period_points",
)


@dataclass
class UnitOptions:
    """The options section: each unit's options by key, and the option ids both ways."""

    by_unit: dict[int, dict[str, OptionInfo]] = field(default_factory=dict)
    keys: dict[int, tuple[int, str]] = field(default_factory=dict)  # UnitOption id -> (unit type id, key)
    ids: dict[tuple[int, str], int] = field(default_factory=dict)  # (unit type id, key) -> UnitOption id


def _option_force_limit(limit: dict) -> OptionForceLimitInfo:
    return OptionForceLimitInfo(**(limit | {"armies": tuple(limit.get("armies", ()))}))


def unit_options(system: models.GameSystem, weapons: dict[int, WeaponInfo]) -> UnitOptions:
    """Every unit's options, in the pack's order."""
    by_key = {weapon.key: weapon for weapon in weapons.values()}
    option_weapons = _grouped(
        models.UnitOption.weapons.through.objects.filter(unitoption__unit_type__system=system)
        .order_by("weapon__position")
        .values_list("unitoption_id", "weapon_id")
    )
    found = UnitOptions()
    for option in (
        models.UnitOption.objects.filter(unit_type__system=system)
        .order_by("position")
        .values(
            "id",
            "unit_type_id",
            "adds_models",
            "replaces",
            "officer_rank__key",
            "qualities",
            "armies",
            "needs_units",
            "force_limits",
            *_OPTION_COLUMNS,
        )
    ):
        unit_id = option["unit_type_id"]
        found.keys[option["id"]] = (unit_id, option["key"])
        found.ids[(unit_id, option["key"])] = option["id"]
        found.by_unit.setdefault(unit_id, {})[option["key"]] = OptionInfo(
            **{column: option[column] for column in _OPTION_COLUMNS},
            adds_models=tuple(_model_line(line, by_key) for line in option["adds_models"]),
            weapons=tuple(weapons[weapon_id] for weapon_id in option_weapons.get(option["id"], [])),
            replaces=tuple(option["replaces"]),
            officer_rank=option["officer_rank__key"],
            qualities=tuple(option["qualities"]),
            armies=tuple(option["armies"]),
            needs_units=tuple(option["needs_units"]),
            force_limits=tuple(_option_force_limit(limit) for limit in option["force_limits"]),
        )
    return found


# The UnitType columns a UnitTypeInfo holds, read as they are (the rest is built in `unit_types`).
_UNIT_COLUMNS = (
    "key",
    "name",
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
    "shared_limits",
    "transport_capacity",
    "capacity_counts",
    "service_start",
    "service_end",
    "service_period",
    "source",
)


def unit_rows(system: models.GameSystem) -> list[dict]:
    """The units section as plain rows, army by army in the pack's order."""
    return list(
        models.UnitType.objects.filter(system=system)
        .order_by("army", "category__position", "position")
        .values(
            "id",
            "army_id",
            "category__key",
            "category__name",
            "category__kind",
            "force_limits",
            "officer_rank__key",
            "weapon_categories",
            *_UNIT_COLUMNS,
        )
    )


def _unit_prices(system: models.GameSystem) -> dict[int, list[tuple[str, QualityPrice]]]:
    """Each unit's price at each troop quality, by unit type id, in the qualities' order."""
    return _grouped(
        (unit_id, (quality, QualityPrice(points, per_extra, tuple(armies), army_points, **sizes)))
        for unit_id, quality, points, per_extra, armies, army_points, sizes in models.QualityCost.objects.filter(
            unit_type__system=system
        )
        .order_by("quality__position")
        .values_list("unit_type_id", "quality__key", "points", "per_extra_model", "armies", "army_points", "sizes")
    )


def unit_types(
    system: models.GameSystem, rows: list[dict], weapons: dict[int, WeaponInfo], options: UnitOptions
) -> dict[int, UnitTypeInfo]:
    """Every unit with its prices, composition, ranks, rules and options, by unit type id."""
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
    prices = _unit_prices(system)
    lines = model_lines(system, weapons)
    names_in_army = Counter((row["army_id"], row["name"]) for row in rows)
    return {
        row["id"]: UnitTypeInfo(
            **{column: row[column] for column in _UNIT_COLUMNS},
            category=row["category__key"],
            category_name=row["category__name"],
            category_kind=row["category__kind"],
            quality_prices=dict(prices.get(row["id"], [])),
            composition=tuple(lines.get(row["id"], [])),
            force_limits=tuple(
                ForceLimitInfo(**(limit | {"armies": tuple(limit.get("armies", ()))})) for limit in row["force_limits"]
            ),
            officer_rank=row["officer_rank__key"],
            officer_ranks=tuple(unit_ranks.get(row["id"], [])),
            options=options.by_unit.get(row["id"], {}),
            weapon_categories=tuple(row["weapon_categories"]) if row["weapon_categories"] is not None else None,
            rules=tuple(unit_rules.get(row["id"], [])),
            name_shared=names_in_army[(row["army_id"], row["name"])] > 1,
        )
        for row in rows
    }


def armies(system: models.GameSystem, rows: list[dict]) -> dict[int, ArmyInfo]:
    """The armies section with the ids of their units (from `unit_rows`), by army id."""
    army_units: dict[int, list[int]] = {}
    for row in rows:
        army_units.setdefault(row["army_id"], []).append(row["id"])
    return {
        army.id: ArmyInfo(
            id=army.id,
            key=army.key,
            name=army.name,
            unit_type_ids=tuple(army_units.get(army.id, [])),
            rules=tuple(rule.key for rule in army.rules.all()),
            rule_choices=tuple(army.rule_choices or ()),
            borrows_from=tuple(other.id for other in army.borrows_from.all()),
            borrow_units=tuple(army.borrow_units),
            shared=army.shared,
        )
        for army in models.Army.objects.filter(system=system).prefetch_related("borrows_from", "rules")
    }


def _slot_info(slot: dict) -> SlotInfo:
    return SlotInfo(
        key=slot["key"],
        name=slot["name"],
        categories=tuple(slot["categories"]),
        min=slot.get("min", 0),
        max=slot.get("max"),
        max_in=slot.get("max_in", {}),
        min_in=slot.get("min_in", {}),
        officer_ranks=tuple(slot.get("officer_ranks", [])),
        ranks_counted=tuple(slot.get("ranks_counted", [])),
        half_choice_at_most_points=slot.get("half_choice_at_most_points"),
        half_choice_categories=tuple(slot.get("half_choice_categories", [])),
        requires_setting=slot.get("requires_setting"),
    )


def organisations(system: models.GameSystem) -> tuple[dict[int, OrganisationInfo], dict[int, list[int]]]:
    """The organisations section by id, and the organisation ids each army may use, by army id."""
    category_names = dict(system.unitcategory_set.values_list("key", "name"))
    found: dict[int, OrganisationInfo] = {}
    army_organisations: dict[int, list[int]] = {}
    for organisation in models.Organisation.objects.filter(system=system).prefetch_related("armies"):
        found[organisation.id] = OrganisationInfo(
            category_names=category_names,
            key=organisation.key,
            name=organisation.name,
            slots=tuple(_slot_info(slot) for slot in organisation.slots),
        )
        for army in organisation.armies.all():
            army_organisations.setdefault(army.id, []).append(organisation.id)
    return found, army_organisations
