"""Reading, checking and loading game-system packs.

A pack is a folder under `settings.PACKS_DIR` holding YAML files; their
sections are merged. Loading runs in two stages: every pack is read and
checked (schema, then references) before anything touches the database,
then all of them are written in one transaction, matched by key so that a
changed pack updates rows in place.
"""

from __future__ import annotations

import hashlib
import json
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
LOADER_VERSION = b"3"


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


# libyaml's parser where PyYAML was built with it: the generated armies are ~5 MB of YAML.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeLoader):
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


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} appears twice in one mapping")
        seen[key] = value
    return seen


def _parse(raw: bytes):
    """A pack file's data. Generated files are JSON-style YAML (a YAML subset), read by the fast JSON parser."""
    body = raw
    while body.startswith(b"#"):  # comment lines before the document
        body = body.partition(b"\n")[2]
    if body.lstrip().startswith(b"{"):
        return json.loads(body, object_pairs_hook=_refuse_duplicates)
    return yaml.load(raw, Loader=_StrictLoader)  # noqa: S506 - _StrictLoader is a SafeLoader


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
    files = sorted(folder.rglob("*.yaml"))
    if not files:
        raise PackInvalid([PackError(_display(folder), "(folder)", "the pack folder holds no .yaml file")])
    for path in files:
        name = _display(path)
        raw = path.read_bytes()
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + raw)
        if len(raw) > MAX_PACK_FILE_BYTES:
            errors.append(PackError(name, "(file)", f"the file is larger than {MAX_PACK_FILE_BYTES} bytes"))
            continue
        try:
            data = _parse(raw)
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(file)"
            problem = getattr(error, "problem", None) or str(error)
            errors.append(PackError(name, where, f"not valid YAML: {problem}"))
            continue
        except ValueError as error:
            where = (
                f"line {error.lineno}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else "(file)"
            )
            errors.append(PackError(name, where, f"not valid JSON-style YAML: {getattr(error, 'msg', error)}"))
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
    return _ReferenceCheck(pack, known_systems).run()


# Sections whose items carry a `source` the system's documents must name (weapons and units check theirs).
SOURCED_SECTIONS = [
    "rules",
    "charts",
    "weapon_categories",
    "qualities",
    "officer_ranks",
    "damage_values",
    "movement",
    "mounts",
    "capacities",
    "armies",
    "organisations",
]


class _ReferenceCheck:
    """Collects every reference problem of one pack."""

    def __init__(self, pack: Pack, known_systems: set[str]):
        self.pack = pack
        self.system = pack.system
        assert self.system is not None
        self.known_systems = known_systems
        self.errors: list[PackError] = []
        self.keys: dict[str, set[str]] = {}
        self.documents = {source.key for source in self.system.sources}
        self.periods = {period.key for period in self.system.periods}
        self.setting_keys = {setting.key for setting in self.system.settings}
        self.system_located = Located(self.system, pack.system_file, "system")

    def run(self) -> list[PackError]:
        self.unique_keys()
        self.system_section()
        self.sources()
        self.purchases()
        self.rule_scopes()
        self.weapons()
        self.armies()
        self.units()
        self.organisations()
        return self.errors

    # Helpers -------------------------------------------------------------------------------------

    def error(self, located: Located, path: str, message: str) -> None:
        self.errors.append(PackError(located.file, f"{located.path}{path}", message))

    def need(self, located: Located, path: str, value: str | None, section: str, what: str) -> None:
        if value is not None and value not in self.keys[section]:
            self.error(located, path, f"unknown {what} {value!r}")

    def need_source(self, located: Located, path: str, source) -> None:
        if source is not None and source.document not in self.documents:
            self.error(located, f"{path}.document", f"unknown source document {source.document!r}")

    def need_period(self, located: Located, path: str, period: str | None) -> None:
        if period is not None and period not in self.periods:
            self.error(located, path, f"unknown period {period!r}")

    def model_weapons(self, located: Located, path: str, entries) -> None:
        for m_index, entry in enumerate(entries):
            for w_index, (weapon_key, _) in enumerate(entry.weapon_counts()):
                self.need(located, f"{path}.{m_index}.weapons.{w_index}", weapon_key, "weapons", "weapon")

    def service(self, located: Located, path: str, service) -> None:
        if service is not None:
            self.need_period(located, f"{path}.period", service.period)

    # Sections ------------------------------------------------------------------------------------

    def unique_keys(self) -> None:
        for section, located_items in self.pack.sections.items():
            if section == "errata":
                continue
            seen: set[str] = set()
            for located in located_items:
                key = located.item.key
                if key in seen:
                    self.error(located, ".key", f"the key {key!r} is used twice in {section}")
                seen.add(key)
            self.keys[section] = seen

    def system_section(self) -> None:
        system, located = self.system, self.system_located
        for index, quality in enumerate(system.spotter_no_benefit_qualities):
            self.need(located, f".spotter_no_benefit_qualities.{index}", quality, "qualities", "troop quality")
        for role, rule_keys in system.rule_roles:
            for index, rule_key in enumerate(rule_keys) if isinstance(rule_keys, list) else [(None, rule_keys)]:
                where = f".rule_roles.{role}" if index is None else f".rule_roles.{role}.{index}"
                self.need(located, where, rule_key, "rules", "rule")
        if system.extends is not None and system.extends not in self.known_systems:
            self.error(located, ".extends", f"unknown game system {system.extends!r}")
        for r_index, ride in enumerate(system.rides):
            self.need(located, f".rides.{r_index}.rule", ride.rule, "rules", "rule")
            for category in [*ride.carriers, *ride.passengers]:
                self.need(located, f".rides.{r_index}", category, "unit_categories", "unit category")
        if system.period_costs is not None:
            for index, category in enumerate(system.period_costs.applies_to):
                self.need(located, f".period_costs.applies_to.{index}", category, "unit_categories", "unit category")
            for service_period, row in system.period_costs.multipliers.items():
                for game_period in [service_period, *row]:
                    self.need_period(located, f".period_costs.multipliers.{service_period}", game_period)

    def sources(self) -> None:
        for section in SOURCED_SECTIONS:
            for located in self.pack.sections[section]:
                self.need_source(located, ".source", getattr(located.item, "source", None))

    def purchases(self) -> None:
        for located in self.pack.sections["rules"]:
            purchase = located.item.purchase
            if purchase is None:
                continue
            if located.item.points is None:
                self.error(located, ".purchase", "only a rule with points can be bought")
            for c_index, condition in enumerate(purchase.any_of):
                for index, rule_key in enumerate(condition.with_house_rules):
                    where = f".purchase.any_of.{c_index}.with_house_rules.{index}"
                    self.need(located, where, rule_key, "rules", "rule")

    def weapons(self) -> None:
        rules_taking_values = {rule.key for rule in self.pack.items("rules") if rule.takes_value}
        for located in self.pack.sections["weapons"]:
            weapon = located.item
            self.need_source(located, ".source", weapon.source)
            self.need(located, ".category", weapon.category, "weapon_categories", "weapon category")
            for index, ref in enumerate(weapon.rules):
                rule_key = ref.rule if isinstance(ref, WeaponRuleRef) else ref
                self.need(located, f".rules.{index}", rule_key, "rules", "rule")
                if rule_key in rules_taking_values and not isinstance(ref, WeaponRuleRef):
                    self.error(
                        located,
                        f".rules.{index}",
                        f"the rule {rule_key!r} needs a value, e.g. {{rule: {rule_key}, value: ...}}",
                    )

    def armies(self) -> None:
        units_by_army: dict[str, set[str]] = {}
        for unit in self.pack.items("units"):
            units_by_army.setdefault(unit.army, set()).add(unit.key)
        for located in self.pack.sections["armies"]:
            army = located.item
            for index, rule_key in enumerate(army.rules):
                self.need(located, f".rules.{index}", rule_key, "rules", "rule")
            for index, army_key in enumerate(army.borrows_from):
                self.need(located, f".borrows_from.{index}", army_key, "armies", "army")
            borrowable = set().union(*(units_by_army.get(key, set()) for key in army.borrows_from))
            for index, unit_key in enumerate(army.borrow_units):
                if unit_key not in borrowable:
                    self.error(
                        located, f".borrow_units.{index}", f"{unit_key!r} is not a unit of an army it borrows from"
                    )

    def rule_scopes(self) -> None:
        """The units, categories, weapons and options an army rule says it applies to must exist."""
        option_keys = {option.key for unit in self.pack.items("units") for option in unit.options}
        for located in self.pack.sections["rules"]:
            scope = located.item.applies_to
            if scope is None:
                continue
            for name, section, what in [
                ("categories", "unit_categories", "unit category"),
                ("units", "units", "unit"),
                ("weapons", "weapons", "weapon"),
            ]:
                for index, key in enumerate(getattr(scope, name)):
                    self.need(located, f".applies_to.{name}.{index}", key, section, what)
            for index, option_key in enumerate(scope.options):
                if option_key not in option_keys:
                    self.error(located, f".applies_to.options.{index}", f"no unit has an option {option_key!r}")

    def units(self) -> None:
        for located in self.pack.sections["units"]:
            unit = located.item
            self.need_source(located, ".source", unit.source)
            self.need(located, ".army", unit.army, "armies", "army")
            self.need(located, ".category", unit.category, "unit_categories", "unit category")
            self.need(located, ".officer_rank", unit.officer_rank, "officer_ranks", "officer rank")
            if unit.armour is not None:
                self.need(located, ".armour.damage_value", unit.armour.damage_value, "damage_values", "damage value")
                self.need(located, ".armour.movement", unit.armour.movement, "movement", "movement")
                for index, mounted in enumerate(unit.armour.mounts):
                    self.need(located, f".armour.mounts.{index}.mount", mounted.mount, "mounts", "mount")
                    self.need(located, f".armour.mounts.{index}.weapon", mounted.weapon, "weapons", "weapon")
            self.model_weapons(located, ".composition", unit.composition)
            self.service(located, ".service", unit.service)
            self.need(located, ".capacity_from", unit.capacity_from, "capacities", "capacity")
            for index, rank in enumerate(unit.officer_ranks):
                self.need(located, f".officer_ranks.{index}", rank, "officer_ranks", "officer rank")
            for army_key in unit.army_limits:
                self.need(located, ".army_limits", army_key, "armies", "army")
            for index, limit in enumerate(unit.force_limits):
                self.need(
                    located, f".force_limits.{index}.organisation", limit.organisation, "organisations", "organisation"
                )
            for index, cost in enumerate(unit.qualities):
                self.need(located, f".qualities.{index}.quality", cost.quality, "qualities", "troop quality")
                for a_index, army_key in enumerate(cost.armies):
                    self.need(located, f".qualities.{index}.armies.{a_index}", army_key, "armies", "army")
                for army_key in cost.army_points:
                    self.need(located, f".qualities.{index}.army_points", army_key, "armies", "army")
            for index, rule_key in enumerate(unit.rules):
                self.need(located, f".rules.{index}", rule_key, "rules", "rule")
            for index, category in enumerate(unit.weapon_categories or []):
                self.need(located, f".weapon_categories.{index}", category, "weapon_categories", "weapon category")
            if unit.points is None and not unit.qualities:
                self.error(located, ".points", "a unit needs points, or points by quality under qualities")
            for index, option in enumerate(unit.options):
                self.option(located, f".options.{index}", option, unit)

    def option(self, located: Located, path: str, option, unit) -> None:
        self.model_weapons(located, f"{path}.adds_models", option.adds_models)
        if option.model is not None and option.model not in {entry.name for entry in unit.composition}:
            self.error(located, f"{path}.model", f"the unit has no model line named {option.model!r}")
        self.service(located, f"{path}.service", option.service)
        self.need(located, f"{path}.officer_rank", option.officer_rank, "officer_ranks", "officer rank")
        for w_index, weapon_key in enumerate(option.weapons):
            self.need(located, f"{path}.weapons.{w_index}", weapon_key, "weapons", "weapon")
        for a_index, army_key in enumerate(option.armies):
            self.need(located, f"{path}.armies.{a_index}", army_key, "armies", "army")
        for w_index, weapon_key in enumerate(option.replaces):
            self.need(located, f"{path}.replaces.{w_index}", weapon_key, "weapons", "weapon")
        for period in option.periods:
            self.need_period(located, f"{path}.periods", period)
        for quality in option.quality_points:
            self.need(located, f"{path}.quality_points", quality, "qualities", "quality")
        for quality in option.quality_max:
            self.need(located, f"{path}.quality_max", quality, "qualities", "quality")
        for q_index, quality in enumerate(option.qualities):
            self.need(located, f"{path}.qualities.{q_index}", quality, "qualities", "quality")
        for n_index, needed in enumerate(option.needs_units):
            self.need(located, f"{path}.needs_units.{n_index}", needed, "units", "unit")
        offered = {other.key for other in unit.options}
        for other in option.points_with:
            if other not in offered or other == option.key:
                self.error(located, f"{path}.points_with", f"{other!r} is not another option of the unit")

    def organisations(self) -> None:
        for located in self.pack.sections["organisations"]:
            for index, army_key in enumerate(located.item.armies):
                self.need(located, f".armies.{index}", army_key, "armies", "army")
            for s_index, slot in enumerate(located.item.slots):
                self.slot(located, f".slots.{s_index}", slot)

    def slot(self, located: Located, path: str, slot) -> None:
        for index, category in enumerate(slot.categories):
            self.need(located, f"{path}.categories.{index}", category, "unit_categories", "unit category")
        for index, category in enumerate(slot.half_choice_categories):
            if category not in slot.categories:
                self.error(
                    located,
                    f"{path}.half_choice_categories.{index}",
                    f"{category!r} is not one of the slot's categories",
                )
        for index, rank in enumerate(slot.officer_ranks):
            self.need(located, f"{path}.officer_ranks.{index}", rank, "officer_ranks", "officer rank")
        for index, rank in enumerate(slot.ranks_counted):
            self.need(located, f"{path}.ranks_counted.{index}", rank, "officer_ranks", "officer rank")
        if slot.requires_setting is not None and slot.requires_setting not in self.setting_keys:
            self.error(located, f"{path}.requires_setting", f"unknown roster setting {slot.requires_setting!r}")
        for bound in ("min", "max"):
            for t_index, term in enumerate(getattr(getattr(slot, bound), "per", [])):
                for index, category in enumerate(term.categories):
                    where = f"{path}.{bound}.per.{t_index}.categories.{index}"
                    self.need(located, where, category, "unit_categories", "unit category")


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
                "source_id": a.source_id or "",
            }
            for a in pack.items("armies")
        ],
    )
    army_list = pack.items("armies")
    _relink(models.Army.rules, [(armies[(a.key,)], [rules[(key,)] for key in a.rules]) for a in army_list])
    _relink(
        models.Army.borrows_from, [(armies[(a.key,)], [armies[(key,)] for key in a.borrows_from]) for a in army_list]
    )
    return armies


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
                    sizes=cost.model_dump(include={"base_size", "min_size", "max_size"}, exclude_none=True),
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
                "quality_points": option.quality_points,
                "quality_max": option.quality_max,
                "points_with": option.points_with,
                "needs_units": option.needs_units,
                "qualities": option.qualities,
                "points_once": option.points_once,
                "percent": option.percent,
                "armies": option.armies,
                "copies_unit": option.copies_unit,
                "in_size": option.in_size,
                "crew": option.crew,
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


def load_all(packs_dir: Path, prune: bool = False) -> list[LoadReport]:
    """Check every pack, then write them all in one transaction.

    Games are written before the overlays that extend them. With `prune`, systems
    whose pack folder is gone are removed too. Game data that saved rosters still
    use cannot be removed: the whole load is refused, saying what is in use.
    """
    return write_all(read_all(packs_dir), packs_dir, prune)


def write_all(packs: list[Pack], packs_dir: Path, prune: bool = False) -> list[LoadReport]:
    """Write packs `read_all` checked, in one transaction (see `load_all`)."""
    packs = sorted(packs, key=lambda pack: pack.system.kind != "game")
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
