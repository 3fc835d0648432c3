"""Reading, checking and loading game-system packs.

A pack is a folder under `settings.PACKS_DIR` holding YAML files; their
sections are merged. Loading runs in two stages: every pack is read and
checked (schema, then references) before anything touches the database,
then all of them are written in one transaction, matched by key so that a
changed pack updates rows in place.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from django.db import transaction
from django.db.models import ProtectedError
from pydantic import ValidationError

from lists import models
from lists.pack_schema import LIST_SECTIONS, PackFile, System, WeaponRuleRef

MAX_PACK_FILE_BYTES = 5_000_000
# Part of every content hash: bump it when the loader writes rows differently,
# so that the next loadpacks rewrites packs whose YAML did not change.
LOADER_VERSION = b"2"


@dataclass(frozen=True)
class PackError:
    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


class PackInvalid(Exception):
    def __init__(self, errors: list[PackError]):
        self.errors = errors
        super().__init__("\n".join(str(error) for error in errors))


@dataclass
class Located:
    """A pack item with the file and path it came from, for error messages."""

    item: object
    file: str
    path: str


@dataclass
class Pack:
    folder: Path
    system: System | None = None
    system_file: str = ""
    sections: dict[str, list[Located]] = field(default_factory=lambda: {name: [] for name in LIST_SECTIONS})
    content_hash: str = ""

    def items(self, section: str) -> list:
        return [located.item for located in self.sections[section]]


class _StrictLoader(yaml.SafeLoader):
    """A safe YAML loader that refuses a mapping with the same key twice."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice in one mapping", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _location(loc: Iterable) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def read_pack(folder: Path) -> Pack:
    """Read and schema-check every YAML file of one pack folder."""
    pack = Pack(folder=folder)
    errors: list[PackError] = []
    digest = hashlib.sha256(LOADER_VERSION)
    files = sorted(folder.glob("*.yaml"))
    if not files:
        raise PackInvalid([PackError(_display(folder), "(folder)", "the pack folder holds no .yaml file")])
    for path in files:
        name = _display(path)
        raw = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + raw)
        if len(raw) > MAX_PACK_FILE_BYTES:
            errors.append(PackError(name, "(file)", f"the file is larger than {MAX_PACK_FILE_BYTES} bytes"))
            continue
        try:
            data = yaml.load(raw, Loader=_StrictLoader)  # noqa: S506 - _StrictLoader is a SafeLoader
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(file)"
            problem = getattr(error, "problem", None) or str(error)
            errors.append(PackError(name, where, f"not valid YAML: {problem}"))
            continue
        if data is None:
            data = {}
        if not isinstance(data, dict):
            errors.append(PackError(name, "(top level)", "a pack file must be a mapping of sections"))
            continue
        try:
            part = PackFile.model_validate(data)
        except ValidationError as error:
            for problem in error.errors():
                errors.append(PackError(name, _location(problem["loc"]), problem["msg"]))
            continue
        if part.system is not None:
            if pack.system is not None:
                errors.append(PackError(name, "system", f"the system is already given in {pack.system_file}"))
            pack.system, pack.system_file = part.system, name
        for section in LIST_SECTIONS:
            for index, item in enumerate(getattr(part, section)):
                pack.sections[section].append(Located(item, name, f"{section}.{index}"))
    if errors:
        raise PackInvalid(errors)
    if pack.system is None:
        raise PackInvalid([PackError(_display(folder), "system", "no file of the pack gives its system")])
    pack.content_hash = digest.hexdigest()
    return pack


def check_references(pack: Pack, known_systems: set[str]) -> list[PackError]:
    """Every key a pack item refers to must exist, and keys must be unique per section."""
    errors: list[PackError] = []
    system = pack.system
    assert system is not None

    def error(located: Located, path: str, message: str) -> None:
        errors.append(PackError(located.file, f"{located.path}{path}", message))

    keys: dict[str, set[str]] = {}
    for section, located_items in pack.sections.items():
        if section in {"errata"}:
            continue
        seen: set[str] = set()
        for located in located_items:
            key = located.item.key
            if key in seen:
                error(located, ".key", f"the key {key!r} is used twice in {section}")
            seen.add(key)
        keys[section] = seen

    documents = {source.key for source in system.sources}
    periods = {period.key for period in system.periods}
    setting_keys = {setting.key for setting in system.settings}

    def need(located: Located, path: str, value: str | None, section: str, what: str) -> None:
        if value is not None and value not in keys[section]:
            error(located, path, f"unknown {what} {value!r}")

    def need_source(located: Located, path: str, source) -> None:
        if source is not None and source.document not in documents:
            error(located, f"{path}.document", f"unknown source document {source.document!r}")

    system_located = Located(system, pack.system_file, "system")
    for index, quality in enumerate(system.spotter_no_benefit_qualities):
        need(system_located, f".spotter_no_benefit_qualities.{index}", quality, "qualities", "troop quality")
    for role, rule_keys in system.rule_roles:
        for index, rule_key in enumerate(rule_keys) if isinstance(rule_keys, list) else [(None, rule_keys)]:
            where = f".rule_roles.{role}" if index is None else f".rule_roles.{role}.{index}"
            need(system_located, where, rule_key, "rules", "rule")
    if system.extends is not None and system.extends not in known_systems:
        error(system_located, ".extends", f"unknown game system {system.extends!r}")
    for r_index, ride in enumerate(system.rides):
        need(system_located, f".rides.{r_index}.rule", ride.rule, "rules", "rule")
        for category in [*ride.carriers, *ride.passengers]:
            need(system_located, f".rides.{r_index}", category, "unit_categories", "unit category")
    if system.period_costs is not None:
        for index, category in enumerate(system.period_costs.applies_to):
            need(system_located, f".period_costs.applies_to.{index}", category, "unit_categories", "unit category")
        for service_period, row in system.period_costs.multipliers.items():
            for game_period in [service_period, *row]:
                if game_period not in periods:
                    error(
                        system_located, f".period_costs.multipliers.{service_period}", f"unknown period {game_period!r}"
                    )

    for section in [
        "rules",
        "charts",
        "weapon_categories",
        "qualities",
        "officer_ranks",
        "damage_values",
        "movement",
        "capacities",
        "armies",
        "organisations",
    ]:
        for located in pack.sections[section]:
            need_source(located, ".source", getattr(located.item, "source", None))

    for located in pack.sections["rules"]:
        purchase = located.item.purchase
        if purchase is None:
            continue
        if located.item.points is None:
            error(located, ".purchase", "only a rule with points can be bought")
        for c_index, condition in enumerate(purchase.any_of):
            for index, rule_key in enumerate(condition.with_house_rules):
                need(located, f".purchase.any_of.{c_index}.with_house_rules.{index}", rule_key, "rules", "rule")

    rules_taking_values = {rule.key for rule in pack.items("rules") if rule.takes_value}
    for located in pack.sections["weapons"]:
        weapon = located.item
        need_source(located, ".source", weapon.source)
        need(located, ".category", weapon.category, "weapon_categories", "weapon category")
        for index, ref in enumerate(weapon.rules):
            rule_key = ref.rule if isinstance(ref, WeaponRuleRef) else ref
            need(located, f".rules.{index}", rule_key, "rules", "rule")
            if rule_key in rules_taking_values and not isinstance(ref, WeaponRuleRef):
                error(
                    located,
                    f".rules.{index}",
                    f"the rule {rule_key!r} needs a value, e.g. {{rule: {rule_key}, value: ...}}",
                )

    option_keys = {option.key for unit in pack.items("units") for option in unit.options}
    for located in pack.sections["rules"]:
        scope = located.item.applies_to
        if scope is None:
            continue
        for name, section, what in [
            ("categories", "unit_categories", "unit category"),
            ("units", "units", "unit"),
            ("weapons", "weapons", "weapon"),
        ]:
            for index, key in enumerate(getattr(scope, name)):
                need(located, f".applies_to.{name}.{index}", key, section, what)
        for index, option_key in enumerate(scope.options):
            if option_key not in option_keys:
                error(located, f".applies_to.options.{index}", f"no unit has an option {option_key!r}")

    for located in pack.sections["armies"]:
        for index, rule_key in enumerate(located.item.rules):
            need(located, f".rules.{index}", rule_key, "rules", "rule")
        for index, army_key in enumerate(located.item.borrows_from):
            need(located, f".borrows_from.{index}", army_key, "armies", "army")
        borrowable = {unit.key for unit in pack.items("units") if unit.army in located.item.borrows_from}
        for index, unit_key in enumerate(located.item.borrow_units):
            if unit_key not in borrowable:
                error(located, f".borrow_units.{index}", f"{unit_key!r} is not a unit of an army it borrows from")

    def check_models(located: Located, path: str, entries) -> None:
        for m_index, entry in enumerate(entries):
            for w_index, (weapon_key, _) in enumerate(entry.weapon_counts()):
                need(located, f"{path}.{m_index}.weapons.{w_index}", weapon_key, "weapons", "weapon")

    def check_service(located: Located, path: str, service) -> None:
        if service is not None and service.period is not None and service.period not in periods:
            error(located, f"{path}.period", f"unknown period {service.period!r}")

    for located in pack.sections["units"]:
        unit = located.item
        need_source(located, ".source", unit.source)
        need(located, ".army", unit.army, "armies", "army")
        need(located, ".category", unit.category, "unit_categories", "unit category")
        need(located, ".officer_rank", unit.officer_rank, "officer_ranks", "officer rank")
        if unit.armour is not None:
            need(located, ".armour.damage_value", unit.armour.damage_value, "damage_values", "damage value")
        check_models(located, ".composition", unit.composition)
        check_service(located, ".service", unit.service)
        need(located, ".capacity_from", unit.capacity_from, "capacities", "capacity")
        for index, rank in enumerate(unit.officer_ranks):
            need(located, f".officer_ranks.{index}", rank, "officer_ranks", "officer rank")
        for index, cost in enumerate(unit.qualities):
            need(located, f".qualities.{index}.quality", cost.quality, "qualities", "troop quality")
        for index, rule_key in enumerate(unit.rules):
            need(located, f".rules.{index}", rule_key, "rules", "rule")
        for index, category in enumerate(unit.weapon_categories or []):
            need(located, f".weapon_categories.{index}", category, "weapon_categories", "weapon category")
        if unit.points is None and not unit.qualities:
            error(located, ".points", "a unit needs points, or points by quality under qualities")
        for index, option in enumerate(unit.options):
            path = f".options.{index}"
            check_models(located, f"{path}.adds_models", option.adds_models)
            check_service(located, f"{path}.service", option.service)
            need(located, f"{path}.officer_rank", option.officer_rank, "officer_ranks", "officer rank")
            if option.model is not None and option.model not in {entry.name for entry in unit.composition}:
                error(located, f"{path}.model", f"the unit has no model line named {option.model!r}")
            for w_index, weapon_key in enumerate(option.weapons):
                need(located, f"{path}.weapons.{w_index}", weapon_key, "weapons", "weapon")
            for a_index, army_key in enumerate(option.armies):
                need(located, f"{path}.armies.{a_index}", army_key, "armies", "army")
            for w_index, weapon_key in enumerate(option.replaces):
                need(located, f"{path}.replaces.{w_index}", weapon_key, "weapons", "weapon")
            for period in option.periods:
                if period not in periods:
                    error(located, f"{path}.periods", f"unknown period {period!r}")

    for located in pack.sections["organisations"]:
        organisation = located.item
        for index, army_key in enumerate(organisation.armies):
            need(located, f".armies.{index}", army_key, "armies", "army")
        for s_index, slot in enumerate(organisation.slots):
            path = f".slots.{s_index}"
            for index, category in enumerate(slot.categories):
                need(located, f"{path}.categories.{index}", category, "unit_categories", "unit category")
            for index, category in enumerate(slot.half_choice_categories):
                if category not in slot.categories:
                    error(
                        located,
                        f"{path}.half_choice_categories.{index}",
                        f"{category!r} is not one of the slot's categories",
                    )
            for index, rank in enumerate(slot.officer_ranks):
                need(located, f"{path}.officer_ranks.{index}", rank, "officer_ranks", "officer rank")
            if slot.requires_setting is not None and slot.requires_setting not in setting_keys:
                error(located, f"{path}.requires_setting", f"unknown roster setting {slot.requires_setting!r}")
            for bound in ("min", "max"):
                limit = getattr(slot, bound)
                for t_index, term in enumerate(getattr(limit, "per", [])):
                    for index, category in enumerate(term.categories):
                        need(
                            located,
                            f"{path}.{bound}.per.{t_index}.categories.{index}",
                            category,
                            "unit_categories",
                            "unit category",
                        )
    return errors


def discover(packs_dir: Path) -> list[Path]:
    return sorted(path for path in packs_dir.iterdir() if path.is_dir() and not path.name.startswith((".", "_")))


def read_all(packs_dir: Path) -> list[Pack]:
    """Read and check every pack; raise PackInvalid listing every problem found."""
    packs: list[Pack] = []
    errors: list[PackError] = []
    for folder in discover(packs_dir):
        try:
            packs.append(read_pack(folder))
        except PackInvalid as invalid:
            errors.extend(invalid.errors)
    system_keys: dict[str, str] = {}
    for pack in packs:
        assert pack.system is not None
        if pack.system.key in system_keys:
            errors.append(
                PackError(
                    pack.system_file,
                    "system.key",
                    f"the system key {pack.system.key!r} is also used by {system_keys[pack.system.key]}",
                )
            )
        system_keys[pack.system.key] = pack.system_file
    for pack in packs:
        errors.extend(check_references(pack, set(system_keys)))
    if errors:
        raise PackInvalid(errors)
    return packs


# --- writing to the database -------------------------------------------------


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
        else:
            for name, value in row.items():
                setattr(obj, name, value)
            to_update.append(obj)
        wanted[row_key] = obj
    if existing:
        model.objects.filter(pk__in=[obj.pk for obj in existing.values()]).delete()
    model.objects.bulk_create(to_create)
    if to_update and rows:
        model.objects.bulk_update(to_update, [name for name in rows[0] if name not in key_fields])
    return wanted


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
    scope = {"system": game}

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
                "reminder": r.reminder or "",
            }
            for r in pack.items("rules")
        ],
    )
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
    categories = _sync(
        models.WeaponCategory,
        scope,
        [
            {"key": c.key, "name": c.name, "family": c.family, "summary": c.summary}
            for c in pack.items("weapon_categories")
        ],
    )
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
    models.WeaponRule.objects.filter(weapon__system=game).delete()
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
    unit_categories = _sync(
        models.UnitCategory,
        scope,
        [
            {"key": c.key, "name": c.name, "kind": c.kind, "summary": c.summary, "position": index}
            for index, c in enumerate(pack.items("unit_categories"))
        ],
    )
    reference_rows = []
    for table in ("damage_values", "movement", "capacities"):
        for index, item in enumerate(pack.items(table)):
            data = item.model_dump(mode="json", exclude={"key", "name"})
            reference_rows.append({"table": table, "key": item.key, "name": item.name, "data": data, "position": index})
    _sync(models.Reference, scope, reference_rows, key_fields=("table", "key"))

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
                "shared": a.shared,
                "source": _dump(a.source),
            }
            for a in pack.items("armies")
        ],
    )
    for army in pack.items("armies"):
        obj = armies[(army.key,)]
        obj.rules.set([rules[(key,)] for key in army.rules])
        obj.borrows_from.set([armies[(key,)] for key in army.borrows_from])

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
                "position": index,
            }
            for index, u in enumerate(pack.items("units"))
        ],
    )
    # Composition and quality costs have no identity of their own: rewrite them.
    models.UnitModel.objects.filter(unit_type__system=game).delete()
    models.QualityCost.objects.filter(unit_type__system=game).delete()
    model_weapons = []
    quality_costs = []
    for unit in pack.items("units"):
        obj = units[(unit.key,)]
        obj.rules.set([rules[(key,)] for key in unit.rules])
        obj.officer_ranks.set([ranks[(key,)] for key in unit.officer_ranks])
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
                    citation=_dump(cost.citation),
                )
            )
    models.UnitModel.objects.bulk_create([entry for entry, _ in model_weapons])
    models.QualityCost.objects.bulk_create(quality_costs)
    through = models.UnitModel.weapons.through
    through.objects.bulk_create(
        through(unitmodel_id=entry.pk, weapon_id=weapons[(key,)].pk) for entry, keys in model_weapons for key in keys
    )
    _write_options(pack, game, units, weapons, ranks)

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
            }
            for o in pack.items("organisations")
        ],
    )
    for organisation in pack.items("organisations"):
        organisations[(organisation.key,)].armies.set([armies[(key,)] for key in organisation.armies])

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
    return LoadReport(system.key, system.version, True, counts)


def _write_options(pack: Pack, game, units: dict, weapons: dict, ranks: dict) -> None:
    existing = {
        (option.unit_type_id, option.key): option for option in models.UnitOption.objects.filter(unit_type__system=game)
    }
    keep: list[models.UnitOption] = []
    option_weapons: list[tuple[models.UnitOption, list[str]]] = []
    for unit in pack.items("units"):
        unit_obj = units[(unit.key,)]
        for index, option in enumerate(unit.options):
            values = {
                "name": option.name,
                "points": option.points,
                "per": option.per,
                "max": option.max,
                "group": option.group or "",
                "adds_models": [m.model_dump(mode="json") for m in option.adds_models],
                "replaces": option.replaces,
                "model": option.model or "",
                "officer_rank": ranks[(option.officer_rank,)] if option.officer_rank else None,
                **_service_fields(option.service),
                "period_points": option.periods,
                "percent": option.percent,
                "armies": option.armies,
                "copies_unit": option.copies_unit,
                "crew": option.crew,
                "note": option.note,
                "citation": _dump(option.citation),
                "position": index,
            }
            obj = existing.pop((unit_obj.pk, option.key), None)
            if obj is None:
                obj = models.UnitOption(unit_type=unit_obj, key=option.key)
            for name, value in values.items():
                setattr(obj, name, value)
            keep.append(obj)
            option_weapons.append((obj, option.weapons))
    if existing:
        models.UnitOption.objects.filter(pk__in=[obj.pk for obj in existing.values()]).delete()
    for obj in keep:
        obj.save()
    through = models.UnitOption.weapons.through
    through.objects.filter(unitoption__unit_type__system=game).delete()
    through.objects.bulk_create(
        through(unitoption_id=obj.pk, weapon_id=weapons[(key,)].pk) for obj, keys in option_weapons for key in keys
    )


def load_all(packs_dir: Path, prune: bool = False) -> list[LoadReport]:
    """Check every pack, then write them all in one transaction.

    Games are written before the overlays that extend them. With `prune`, systems
    whose pack folder is gone are removed too. Game data that saved rosters still
    use cannot be removed: the whole load is refused, saying what is in use.
    """
    packs = read_all(packs_dir)
    packs.sort(key=lambda pack: pack.system.kind != "game")
    try:
        with transaction.atomic():
            reports = [write_pack(pack) for pack in packs]
            if prune:
                models.GameSystem.objects.exclude(key__in=[pack.system.key for pack in packs]).delete()
    except ProtectedError as protected:
        used = sorted({str(obj) for obj in protected.protected_objects})[:10]
        raise PackInvalid(
            [
                PackError(
                    str(packs_dir), "(rosters)", f"saved rosters still use {', '.join(used)}; keep them in the pack"
                )
            ]
        ) from None
    return reports
