"""Read-only JSON API over the loaded game data.

Every object carries its `name` as the source prints it, its pack `key`, and
`url`s to its parts, so a client can walk from /api/ to any weapon profile.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, Prefetch
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_GET

from lists import models
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.battlescribe_data_json import roster_document
from lists.rosters.sharing import data_set_roster_for_share
from lists.web.page_helpers import limit_pages


def _json(data) -> JsonResponse:
    return JsonResponse(data, safe=False, json_dumps_params={"ensure_ascii": False, "allow_nan": False})


def _game(system_key: str) -> models.GameSystem:
    return get_object_or_404(models.GameSystem, key=system_key)


def _url(name: str, *args) -> str:
    return reverse(f"lists:api-{name}", args=args)


def _rule_ref(system: models.GameSystem, rule: models.SpecialRule, value: str = "") -> dict:
    ref = {"key": rule.key, "name": rule.name, "url": _url("rule", system.key, rule.key)}
    if value:
        ref["value"] = value
    return ref


def weapon_dict(system: models.GameSystem, weapon: models.Weapon) -> dict:
    return {
        "key": weapon.key,
        "name": weapon.name,
        "url": _url("weapon", system.key, weapon.key),
        "group": weapon.group,
        "category": {"key": weapon.category.key, "name": weapon.category.name, "family": weapon.category.family}
        if weapon.category
        else None,
        "range": weapon.range,
        "indirect_range": {"min": weapon.indirect_min, "max": _number(weapon.indirect_max)}
        if weapon.indirect_min is not None
        else None,
        "range_bands": {
            "short": _number(weapon.range_short),
            "effective": _number(weapon.range_effective),
            "long": _number(weapon.range_long),
        }
        if weapon.range_short or weapon.range_effective or weapon.range_long
        else None,
        "shots": weapon.shots or None,
        "pen": weapon.pen,
        "power": weapon.power,
        "attack": {
            "short": weapon.attack_short or None,
            "effective": weapon.attack_effective or None,
            "long": weapon.attack_long or None,
        }
        if weapon.attack_short or weapon.attack_effective or weapon.attack_long
        else None,
        "he": weapon.he or None,
        "type": weapon.weapon_type or None,
        "rules": [_rule_ref(system, link.rule, link.value) for link in weapon.rule_links.all()],
        "notes": weapon.notes,
        "profile": [{"label": label, "value": value} for label, value in weapon.profile()],
        "source": weapon.source,
    }


def _number(text: str):
    if text == "":
        return None
    return int(text) if text.isdigit() else text


def _weapons(system: models.GameSystem):
    return (
        models.Weapon.objects.filter(system=system)
        .select_related("category", "system")
        .prefetch_related(Prefetch("rule_links", queryset=models.WeaponRule.objects.select_related("rule")))
    )


def unit_summary(system: models.GameSystem, unit: models.UnitType) -> dict:
    return {
        "key": unit.key,
        "name": unit.name,
        "url": _url("unit", system.key, unit.key),
        "category": unit.category.name,
        "points": unit.points,
        "points_by_quality": {cost.quality.name: cost.points for cost in unit.quality_costs.all()} or None,
    }


@require_GET
def index(request: HttpRequest) -> JsonResponse:
    return _json({"games": _url("games")})


@require_GET
def games(request: HttpRequest) -> JsonResponse:
    return _json(
        [
            {"key": s.key, "name": s.name, "kind": s.kind, "version": s.version, "url": _url("game", s.key)}
            for s in models.GameSystem.objects.all()
        ]
    )


@require_GET
def game(request: HttpRequest, system_key: str) -> JsonResponse:
    system = _game(system_key)
    config = system.config
    return _json(
        {
            "key": system.key,
            "name": system.name,
            "kind": system.kind,
            "version": system.version,
            "content_hash": system.content_hash,
            "summary": system.summary,
            "sources": config.get("sources", []),
            "periods": config.get("periods", []),
            "settings": config.get("settings", []),
            "hero_points": config.get("hero_points", []),
            "weapon_columns": config.get("weapon_columns", []),
            "armies": _url("armies", system.key),
            "weapons": _url("weapons", system.key),
            "rules": _url("rules", system.key),
            "officer_ranks": _url("ranks", system.key),
            "qualities": _url("qualities", system.key),
            "organisations": [
                {"key": o.key, "name": o.name, "summary": o.summary, "slots": o.slots, "source_id": o.source_id or None}
                for o in system.organisation_set.all()
            ],
            "errata": [
                {"where": e.where, "source_value": e.source_value, "used_value": e.used_value, "reason": e.reason}
                for e in system.errata.all()
            ],
        }
    )


@require_GET
def armies(request: HttpRequest, system_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json(
        [
            {"key": a.key, "name": a.name, "units": a.unit_count, "url": _url("army", system.key, a.key)}
            for a in system.army_set.annotate(unit_count=Count("unit_types"))
        ]
    )


@require_GET
def army(request: HttpRequest, system_key: str, army_key: str) -> JsonResponse:
    system = _game(system_key)
    army = get_object_or_404(models.Army.objects.prefetch_related("rules", "borrows_from"), system=system, key=army_key)
    units = army.unit_types.select_related("category").prefetch_related("quality_costs__quality")
    return _json(
        {
            "key": army.key,
            "name": army.name,
            "summary": army.summary,
            "rules": [_rule_dict(system, rule) for rule in army.rules.all()],  # national and theatre rules
            "rule_choices": army.rule_choices,  # sets of national rules a player takes one of (rule keys)
            "borrows_from": [
                {"key": a.key, "name": a.name, "url": _url("army", system.key, a.key)} for a in army.borrows_from.all()
            ],
            "borrow_units": army.borrow_units,
            "shared": army.shared,
            "source_id": army.source_id or None,
            "units": [unit_summary(system, unit) for unit in units],
        }
    )


@require_GET
def unit(request: HttpRequest, system_key: str, unit_key: str) -> JsonResponse:
    system = _game(system_key)
    unit = get_object_or_404(
        models.UnitType.objects.select_related("army", "category", "officer_rank").prefetch_related(
            "rules",
            "officer_ranks",
            "quality_costs__quality",
            "options__weapons",
            Prefetch(
                "models",
                queryset=models.UnitModel.objects.prefetch_related(Prefetch("weapons", queryset=_weapons(system))),
            ),
        ),
        system=system,
        key=unit_key,
    )
    return _json(
        {
            **unit_summary(system, unit),
            "army": {"key": unit.army.key, "name": unit.army.name, "url": _url("army", system.key, unit.army.key)},
            "kind": unit.kind,
            "points_note": unit.points_note or None,
            "citation": unit.citation,
            "qualities": _unit_qualities(unit),
            "size": {"min": unit.min_size, "max": unit.max_size},
            "army_limits": unit.army_limits,
            "max_in_roster": unit.max_in_roster,
            "limit_per": unit.limit_per,
            "composition": _unit_composition(system, unit),
            "officer_rank": unit.officer_rank.name if unit.officer_rank else None,
            "officer_ranks": [rank.name for rank in unit.officer_ranks.all()],
            "options": _unit_options(system, unit),
            "weapon_categories": unit.weapon_categories,
            "armour": unit.armour,
            "speed": unit.speed or None,
            "transport_capacity": unit.transport_capacity,
            "capacity_counts": unit.capacity_counts,
            "service": {"start": unit.service_start, "end": unit.service_end, "period": unit.service_period or None},
            "rules": [_rule_ref(system, rule) for rule in unit.rules.all()],
            "notes": unit.notes,
            "source": unit.source,
            "source_id": unit.source_id or None,
        }
    )


def _unit_qualities(unit: models.UnitType) -> list[dict]:
    """A unit's price at each troop quality, with the armies a price is for and its citation."""
    return [
        {
            "quality": c.quality.name,
            "points": c.points,
            "per_extra_model": c.per_extra_model,
            "armies": c.armies,
            "citation": c.citation,
        }
        for c in unit.quality_costs.all()
    ]


def _unit_composition(system: models.GameSystem, unit: models.UnitType) -> list[dict]:
    """A unit's models, each with its weapons and how many of each it carries."""
    return [
        {
            "count": m.count,
            "figures": m.figures,
            "role": m.role,
            "name": m.name,
            "fs": m.fs,
            "morale": m.morale,
            "equipment": m.equipment or None,
            "weapons": [{**weapon_dict(system, w), "count": m.weapon_counts.get(w.key, 1)} for w in m.weapons.all()],
        }
        for m in unit.models.all()
    ]


def _unit_options(system: models.GameSystem, unit: models.UnitType) -> list[dict]:
    """A unit's options as the pack prices them."""
    return [
        {
            "key": o.key,
            **{name: getattr(o, name) for name in models.OPTION_PLAIN_FIELDS},
            "qualities": o.qualities,
            "force_limits": o.force_limits,
            "percent": o.percent or None,
            "service_start": o.service_start,
            "weapons": [_url("weapon", system.key, w.key) for w in o.weapons.all()],
            "armies": o.armies,
            "note": o.note or None,
            "citation": o.citation,
            "source_id": o.source_id or None,
        }
        for o in unit.options.all()
    ]


@require_GET
def weapons(request: HttpRequest, system_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json([weapon_dict(system, w) for w in _weapons(system)])


@require_GET
def weapon(request: HttpRequest, system_key: str, weapon_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json(weapon_dict(system, get_object_or_404(_weapons(system), key=weapon_key)))


def _rule_dict(system: models.GameSystem, rule: models.SpecialRule) -> dict:
    return {
        **_rule_ref(system, rule),
        "kind": rule.kind,
        "text": rule.summary,
        "points": rule.points,
        "points_note": rule.points_note or None,
        "source": rule.source,
        "source_id": rule.source_id or None,
        "modifies": rule.modifies or [],  # notes on the weapon lines it changes: {"weapons": [keys], "note": ...}
    }


@require_GET
def rules(request: HttpRequest, system_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json([_rule_dict(system, rule) for rule in system.specialrule_set.all()])


@require_GET
def rule(request: HttpRequest, system_key: str, rule_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json(_rule_dict(system, get_object_or_404(models.SpecialRule, system=system, key=rule_key)))


@require_GET
def ranks(request: HttpRequest, system_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json(
        [
            {
                "key": r.key,
                "name": r.name,
                "morale_bonus": r.morale_bonus,
                "extra_orders": r.extra_orders,
                "order_range": r.order_range,
            }
            for r in system.officerrank_set.all()
        ]
    )


@require_GET
def qualities(request: HttpRequest, system_key: str) -> JsonResponse:
    system = _game(system_key)
    return _json(
        [
            {
                "key": q.key,
                "name": q.name,
                "morale": q.morale,
                "damage_value": q.damage_value or None,
                "damage_value_gun_shield": q.damage_value_gun_shield or None,
                "summary": q.summary or None,
            }
            for q in system.troopquality_set.all()
        ]
    )


@require_GET
@limit_pages
def battlescribe_roster(request: HttpRequest, share_id: str) -> JsonResponse:
    """A shared roster of a loaded BattleScribe data set as the engine prices and judges it (docs: README, JSON API)."""
    kept = data_set_roster_for_share(share_id)
    # Read far more than changed: kept until its next edit or move (either changes the version); a share id never comes back.
    key = f"api-bs:{kept.share_id}:{kept.version}:{kept.data_set_id}"
    document = cache.get(key)
    if document is None:
        document = roster_document(editing.open_roster(kept), kept.data_set)
        document["url"] = reverse("lists:bs-share", args=[kept.share_id])
        cache.set(key, document, 60 * 60)
    response = _json(document)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
