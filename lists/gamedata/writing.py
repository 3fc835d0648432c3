"""Writing checked packs to the database, one function per pack section, matched by key.

A changed pack updates rows in place (ids kept, so saved rosters stay valid);
an unchanged one (same content hash) writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from lists import models
from lists.gamedata.reading import Pack
from lists.gamedata.schema import WeaponRuleRef


@dataclass
class LoadReport:
    system: str
    version: str
    changed: bool
    counts: dict[str, int]


def _sync(model, scope: dict, rows: list[dict], key_fields: tuple[str, ...] = ("key",)) -> dict[tuple, object]:
    """Make the rows of `model` within `scope` exactly `rows`, matched by key.

    Existing rows keep their ids; missing ones are created, extra ones deleted.
    Returns the saved objects by key.
    """
    existing = {tuple(getattr(obj, f) for f in key_fields): obj for obj in model.objects.filter(**scope)}
    wanted: dict[tuple, object] = {}
    to_create, to_update = [], []
    for row in rows:
        row_key = tuple(row[f] for f in key_fields)
        obj = existing.pop(row_key, None)
        if obj is None:
            obj = model(**scope, **row)
            to_create.append(obj)
        elif _assign(obj, row):
            to_update.append(obj)
        wanted[row_key] = obj
    if existing:
        model.objects.filter(pk__in=[obj.pk for obj in existing.values()]).delete()
    model.objects.bulk_create(to_create)
    if to_update and rows:
        model.objects.bulk_update(to_update, [name for name in rows[0] if name not in key_fields], batch_size=500)
    return wanted


def _assign(obj, values: dict) -> bool:
    """Set the values on a row; True when any of them changed (unchanged rows are not rewritten)."""
    changed = False
    for name, value in values.items():
        field = obj._meta.get_field(name)
        if field.is_relation:
            current, wanted = getattr(obj, field.attname), (value.pk if value is not None else None)
        else:
            current, wanted = getattr(obj, name), value
        if current != wanted:
            changed = True
            setattr(obj, name, value)
    return changed


def _ids(rows) -> list[int]:
    """The rows' ids as a list, so a delete filters on its own column: PostgreSQL planned the delete with a join
    to a table just rewritten in this transaction (no statistics yet) as a nested loop that ran for many minutes."""
    return list(rows.values_list("pk", flat=True))


def _relink(relation, links: list[tuple[object, list]]) -> None:
    """Rewrite a many-to-many relation for many rows at once: one delete, one insert.

    `relation` is the model's descriptor (`models.UnitType.rules`); `links` pairs
    each row with the rows it links to. Saves a query pair per row on big packs.
    """
    through = relation.through
    source = relation.field.m2m_field_name()
    target = relation.field.m2m_reverse_field_name()
    through.objects.filter(**{f"{source}__in": [owner.pk for owner, _ in links]}).delete()
    through.objects.bulk_create(
        through(**{f"{source}_id": owner.pk, f"{target}_id": other.pk}) for owner, others in links for other in others
    )


def _dump(model) -> dict | None:
    return None if model is None else model.model_dump(mode="json", exclude_defaults=True)


def _service_fields(service) -> dict:
    return {
        "service_start": service.start if service else None,
        "service_end": service.end if service else None,
        "service_period": (service.period or "") if service else "",
    }


def write_pack(pack: Pack) -> LoadReport:
    """Write one checked pack; unchanged content (same hash) writes nothing."""
    system = pack.system
    assert system is not None
    existing = models.GameSystem.objects.filter(key=system.key).first()
    counts = {section: len(located) for section, located in pack.sections.items() if located}
    if existing is not None and existing.content_hash == pack.content_hash:
        return LoadReport(system.key, system.version, False, counts)

    game = _write_system(pack)
    scope = {"system": game}
    rules = _write_rules(pack, scope)
    _write_charts(pack, scope)
    weapons = _write_weapons(pack, game, scope, _write_weapon_categories(pack, scope), rules)
    qualities = _write_qualities(pack, scope)
    ranks = _write_officer_ranks(pack, scope)
    unit_categories = _write_unit_categories(pack, scope)
    _write_references(pack, scope)
    armies = _write_armies(pack, scope, rules)
    units = _write_units(pack, scope, armies, unit_categories, ranks)
    _write_compositions(pack, game, units, rules, ranks, qualities, weapons)
    _write_options(pack, game, units, weapons, ranks)
    _write_organisations(pack, scope, armies)
    _write_errata(pack, game)
    return LoadReport(system.key, system.version, True, counts)


def _write_system(pack: Pack) -> models.GameSystem:
    """The GameSystem row: its own columns, and everything else of the system section as config."""
    system = pack.system
    # Everything but the columns of GameSystem itself: sources, periods, settings, roles...
    config = system.model_dump(
        mode="json", exclude={"key", "name", "short_name", "version", "summary", "kind", "extends"}
    )
    game, _ = models.GameSystem.objects.update_or_create(
        key=system.key,
        defaults={
            "name": system.name,
            "short_name": system.short_name,
            "kind": system.kind,
            "extends": models.GameSystem.objects.filter(key=system.extends).first() if system.extends else None,
            "summary": system.summary,
            "version": system.version,
            "content_hash": pack.content_hash,
            "config": config,
        },
    )
    return game


def _write_rules(pack: Pack, scope: dict) -> dict:
    """Special rules, by key."""
    rules = _sync(
        models.SpecialRule,
        scope,
        [
            {
                "key": r.key,
                "name": r.name,
                "kind": r.kind,
                "summary": r.summary.strip(),
                "source": _dump(r.source),
                "points": r.points,
                "points_note": r.points_note or "",
                "takes_value": r.takes_value,
                "purchase": _dump(r.purchase) if r.purchase else {},
                "applies_to": _dump(r.applies_to),
                "modifies": [_dump(note) for note in r.modifies],
                "reminder": r.reminder or "",
                "source_id": r.source_id or "",
            }
            for r in pack.items("rules")
        ],
    )
    return rules


def _write_charts(pack: Pack, scope: dict) -> None:
    """Reference charts."""
    _sync(
        models.Chart,
        scope,
        [
            {
                "key": c.key,
                "name": c.name,
                "columns": c.columns,
                "rows": c.rows,
                "notes": c.notes,
                "source": _dump(c.source),
            }
            for c in pack.items("charts")
        ],
    )


def _write_weapon_categories(pack: Pack, scope: dict) -> dict:
    """Weapon categories, by key."""
    categories = _sync(
        models.WeaponCategory,
        scope,
        [
            {"key": c.key, "name": c.name, "family": c.family, "summary": c.summary}
            for c in pack.items("weapon_categories")
        ],
    )
    return categories


def _write_weapons(pack: Pack, game, scope: dict, categories: dict, rules: dict) -> dict:
    """Weapons with their rules, by key."""
    weapons = _sync(
        models.Weapon,
        scope,
        [
            {
                "key": w.key,
                "name": w.name,
                "group": w.group,
                "category": categories[(w.category,)] if w.category else None,
                "range": w.range,
                "indirect_min": w.indirect_range.min if w.indirect_range else None,
                "indirect_max": str(w.indirect_range.max) if w.indirect_range else "",
                "range_short": "" if w.range_short is None else str(w.range_short),
                "range_effective": "" if w.range_effective is None else str(w.range_effective),
                "range_long": "" if w.range_long is None else str(w.range_long),
                "shots": w.shots or "",
                "pen": w.pen,
                "power": w.power,
                "attack_short": w.attack_short or "",
                "attack_effective": w.attack_effective or "",
                "attack_long": w.attack_long or "",
                "he": w.he or "",
                "weapon_type": w.weapon_type or "",
                "notes": w.notes,
                "source": _dump(w.source),
                "position": index,
            }
            for index, w in enumerate(pack.items("weapons"))
        ],
    )
    models.WeaponRule.objects.filter(weapon_id__in=_ids(models.Weapon.objects.filter(system=game))).delete()
    models.WeaponRule.objects.bulk_create(
        models.WeaponRule(
            weapon=weapons[(w.key,)],
            rule=rules[(ref.rule if isinstance(ref, WeaponRuleRef) else ref,)],
            value=ref.value if isinstance(ref, WeaponRuleRef) else "",
            position=index,
        )
        for w in pack.items("weapons")
        for index, ref in enumerate(w.rules)
    )
    return weapons


def _write_qualities(pack: Pack, scope: dict) -> dict:
    """Troop qualities, by key."""
    qualities = _sync(
        models.TroopQuality,
        scope,
        [
            {
                "key": q.key,
                "name": q.name,
                "morale": q.morale,
                "damage_value": q.damage_value or "",
                "damage_value_gun_shield": q.damage_value_gun_shield or "",
                "summary": q.summary,
                "source": _dump(q.source),
                "position": index,
            }
            for index, q in enumerate(pack.items("qualities"))
        ],
    )
    return qualities


def _write_officer_ranks(pack: Pack, scope: dict) -> dict:
    """Officer ranks, by key."""
    ranks = _sync(
        models.OfficerRank,
        scope,
        [
            {
                "key": r.key,
                "name": r.name,
                "morale_bonus": r.morale_bonus,
                "extra_orders": r.extra_orders,
                "order_range": r.order_range,
                "source": _dump(r.source),
                "position": index,
            }
            for index, r in enumerate(pack.items("officer_ranks"))
        ],
    )
    return ranks


def _write_unit_categories(pack: Pack, scope: dict) -> dict:
    """Unit categories, by key."""
    unit_categories = _sync(
        models.UnitCategory,
        scope,
        [
            {"key": c.key, "name": c.name, "kind": c.kind, "summary": c.summary, "position": index}
            for index, c in enumerate(pack.items("unit_categories"))
        ],
    )
    return unit_categories


def _write_references(pack: Pack, scope: dict) -> None:
    """The reference tables: damage values, movement, weapon mounts, capacities."""
    reference_rows = []
    for table in ("damage_values", "movement", "mounts", "capacities"):
        for index, item in enumerate(pack.items(table)):
            data = item.model_dump(mode="json", exclude={"key", "name"})
            if table == "movement":
                data["order"] = list(item.values)  # PostgreSQL's jsonb keeps no key order: advance before run
            reference_rows.append({"table": table, "key": item.key, "name": item.name, "data": data, "position": index})
    _sync(models.Reference, scope, reference_rows, key_fields=("table", "key"))


def _write_armies(pack: Pack, scope: dict, rules: dict) -> dict:
    """Armies with their rules and borrowed armies, by key."""
    by_key = {a.key: a for a in pack.items("armies")}
    armies = _sync(
        models.Army,
        scope,
        [
            {
                "key": a.key,
                "name": a.name,
                "summary": a.summary,
                "borrow_note": a.borrow_note,
                "borrow_units": a.borrow_units,
                "rule_choices": rule_choices(a, by_key),
                "shared": a.shared,
                "source": _dump(a.source),
                "source_id": a.source_id or "",
            }
            for a in pack.items("armies")
        ],
    )
    army_list = pack.items("armies")
    _relink(
        models.Army.rules, [(armies[(a.key,)], [rules[(key,)] for key in army_rules(a, by_key)]) for a in army_list]
    )
    _relink(
        models.Army.borrows_from, [(armies[(a.key,)], [armies[(key,)] for key in a.borrows_from]) for a in army_list]
    )
    return armies


def army_rules(army, armies_by_key: dict) -> list[str]:
    """An army's rules: those of the army it takes its national rules from (less those it leaves out), then its own."""
    parent = armies_by_key.get(army.rules_from) if army.rules_from else None
    national = [key for key in (parent.rules if parent else []) if key not in army.rules_left_out]
    return list(dict.fromkeys([*national, *army.rules]))


def rule_choices(army, armies_by_key: dict) -> list[dict]:
    """The sets of national rules the army's player takes one of: its own, else its nation's."""
    parent = armies_by_key.get(army.rules_from) if army.rules_from else None
    return [choice.model_dump() for choice in army.rule_choices or (parent.rule_choices if parent else [])]


def _write_units(pack: Pack, scope: dict, armies: dict, unit_categories: dict, ranks: dict) -> dict:
    """Unit rows, by key."""
    capacities = {row.key: row.capacity for row in pack.items("capacities")}
    units = _sync(
        models.UnitType,
        scope,
        [
            {
                "key": u.key,
                "name": u.name,
                "army": armies[(u.army,)],
                "category": unit_categories[(u.category,)],
                "kind": u.kind,
                "points": u.points,
                "points_note": u.points_note or "",
                "citation": _dump(u.citation),
                "min_size": u.min_size,
                "max_size": u.max_size,
                "max_in_roster": u.max_in_roster,
                "army_limits": u.army_limits,
                "limit_per": u.limit_per,
                "force_limits": [limit.model_dump(mode="json", exclude_none=True) for limit in u.force_limits],
                "shared_limits": {key: limit.model_dump(mode="json") for key, limit in u.shared_limits.items()},
                "officer_rank": ranks[(u.officer_rank,)] if u.officer_rank else None,
                "weapon_categories": u.weapon_categories,
                "armour": _dump(u.armour),
                "speed": u.speed or "",
                "constitution": u.constitution,
                "transport_capacity": u.transport_capacity if u.capacity_from is None else capacities[u.capacity_from],
                "capacity_counts": u.capacity_counts,
                "carries": u.carries or "",
                **_service_fields(u.service),
                "service_note": (u.service.note or "") if u.service else "",
                "notes": u.notes,
                "source": _dump(u.source),
                "source_id": u.source_id or "",
                "position": index,
            }
            for index, u in enumerate(pack.items("units"))
        ],
    )
    return units


def _write_compositions(
    pack: Pack, game, units: dict, rules: dict, ranks: dict, qualities: dict, weapons: dict
) -> None:
    """Each unit's rules, ranks, men (with their weapons) and costs by quality."""
    # Composition and quality costs have no identity of their own: rewrite them.
    unit_ids = _ids(models.UnitType.objects.filter(system=game))
    models.UnitModel.objects.filter(unit_type_id__in=unit_ids).delete()
    models.QualityCost.objects.filter(unit_type_id__in=unit_ids).delete()
    model_weapons = []
    quality_costs = []
    unit_list = pack.items("units")
    _relink(models.UnitType.rules, [(units[(u.key,)], [rules[(key,)] for key in u.rules]) for u in unit_list])
    _relink(
        models.UnitType.officer_ranks,
        [(units[(u.key,)], [ranks[(key,)] for key in u.officer_ranks]) for u in unit_list],
    )
    for unit in unit_list:
        obj = units[(unit.key,)]
        for index, entry in enumerate(unit.composition):
            model_weapons.append(
                (
                    models.UnitModel(
                        unit_type=obj,
                        count=entry.count,
                        role=entry.role,
                        name=entry.name,
                        fs=entry.fs,
                        morale=entry.morale,
                        equipment=entry.equipment or "",
                        figures=entry.figures,
                        weapon_counts={key: count for key, count in entry.weapon_counts() if count > 1},
                        position=index,
                    ),
                    [key for key, _ in entry.weapon_counts()],
                )
            )
        for cost in unit.qualities:
            quality_costs.append(
                models.QualityCost(
                    unit_type=obj,
                    quality=qualities[(cost.quality,)],
                    points=cost.points,
                    per_extra_model=cost.per_extra_model,
                    armies=cost.armies,
                    army_points=cost.army_points,
                    sizes=cost.model_dump(
                        include={"base_size", "min_size", "max_size", "min_own_size"}, exclude_none=True
                    ),
                    citation=_dump(cost.citation),
                )
            )
    models.UnitModel.objects.bulk_create([entry for entry, _ in model_weapons])
    models.QualityCost.objects.bulk_create(quality_costs)
    through = models.UnitModel.weapons.through
    through.objects.bulk_create(
        through(unitmodel_id=entry.pk, weapon_id=weapons[(key,)].pk) for entry, keys in model_weapons for key in keys
    )


def _write_organisations(pack: Pack, scope: dict, armies: dict) -> None:
    """Organisations with the armies that use them."""
    organisations = _sync(
        models.Organisation,
        scope,
        [
            {
                "key": o.key,
                "name": o.name,
                "summary": o.summary,
                "slots": [slot.model_dump(mode="json") for slot in o.slots],
                "source": _dump(o.source),
                "source_id": o.source_id or "",
                "position": index,
            }
            for index, o in enumerate(pack.items("organisations"))
        ],
    )
    _relink(
        models.Organisation.armies,
        [(organisations[(o.key,)], [armies[(key,)] for key in o.armies]) for o in pack.items("organisations")],
    )


def _write_errata(pack: Pack, game) -> None:
    """The pack's errata."""
    models.Erratum.objects.filter(system=game).delete()
    models.Erratum.objects.bulk_create(
        models.Erratum(
            system=game,
            where=e.where,
            source_value=e.source_value,
            used_value=e.used_value,
            reason=e.reason,
            position=index,
        )
        for index, e in enumerate(pack.items("errata"))
    )


def _write_options(pack: Pack, game, units: dict, weapons: dict, ranks: dict) -> None:
    existing = {
        (option.unit_type_id, option.key): option for option in models.UnitOption.objects.filter(unit_type__system=game)
    }
    to_create: list[models.UnitOption] = []
    to_update: list[models.UnitOption] = []
    option_weapons: list[tuple[models.UnitOption, list[str]]] = []
    for unit in pack.items("units"):
        unit_obj = units[(unit.key,)]
        for index, option in enumerate(unit.options):
            values = {
                **{name: getattr(option, name) for name in models.OPTION_PLAIN_FIELDS},
                "group": option.group or "",
                "shares": option.shares or "",
                "adds_models": [m.model_dump(mode="json") for m in option.adds_models],
                "replaces": option.replaces,
                "model": option.model or "",
                "officer_rank": ranks[(option.officer_rank,)] if option.officer_rank else None,
                **_service_fields(option.service),
                "period_points": option.periods,
                "needs_units": option.needs_units,
                "force_limits": [limit.model_dump(mode="json", exclude_defaults=True) for limit in option.force_limits],
                "qualities": option.qualities,
                "armies": option.armies,
                "note": option.note,
                "citation": _dump(option.citation),
                "source_id": option.source_id or "",
                "position": index,
            }
            obj = existing.pop((unit_obj.pk, option.key), None)
            if obj is None:
                obj = models.UnitOption(unit_type=unit_obj, key=option.key, **values)
                to_create.append(obj)
            elif _assign(obj, values):
                to_update.append(obj)
            option_weapons.append((obj, option.weapons))
    if existing:
        models.UnitOption.objects.filter(pk__in=[obj.pk for obj in existing.values()]).delete()
    models.UnitOption.objects.bulk_create(to_create)
    if to_update:
        models.UnitOption.objects.bulk_update(to_update, list(values), batch_size=500)
    _relink(models.UnitOption.weapons, [(obj, [weapons[(key,)] for key in keys]) for obj, keys in option_weapons])
