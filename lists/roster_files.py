"""Roster files: YAML or JSON in, a checked roster out; and back again.

Reading never trusts its input: size, nesting and aliases are limited, every
problem is collected with its field (and line, for YAML) before anything is
saved, and unknown names come back with the nearest names the game has.
See docs/roster-format.md.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Annotated, Any

import yaml
from django.db import transaction
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from lists import models
from lists.battlescribe.rosters import is_battlescribe, load_battlescribe
from lists.loading import ForceRow, GameData, HouseRuleRow, UnitRow, game_data, priced_house_rules
from lists.overlays import overlays_played
from lists.snapshot import RosterSnapshot, UnitChoice
from lists.validation import (
    FORCES_MAX,
    HOUSE_RULE_COUNT_MAX,
    NAME_MAX_LENGTH,
    Refusal,
    force_refusals,
    label_refusals,
    one_line,
    open_options,
    roster_refusals,
    unit_refusals,
)

FORMAT = "armybuilder-roster/1"
MAX_FILE_BYTES = 512 * 1024
MAX_DEPTH = 20
MAX_UNITS = 400
MAX_HOUSE_RULES = 100
MAX_COUNT = HOUSE_RULE_COUNT_MAX
MAX_DIGITS = 18  # no number in a roster file is longer; a longer one is refused before it is converted

Label = Annotated[
    str, StringConstraints(min_length=1, max_length=NAME_MAX_LENGTH, strip_whitespace=True), AfterValidator(one_line)
]
Ref = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class OptionEntry(_Input):
    option: Ref
    count: int = 1


class HouseRuleEntry(_Input):
    house_rule: Ref
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    unit: Label | int | None = None  # the label (or 1-based position) of the unit it is bought for


class UnitEntry(_Input):
    unit: Ref
    label: Label | None = None
    quality: Ref | None = None
    size: int | None = None
    officer_rank: Ref | None = None
    options: list[Ref | OptionEntry] = []
    transport: Label | int | None = None
    hero_points: int = 0


class ForceEntry(_Input):
    """One force (platoon): its organisation (default: the first the army may use), name and units."""

    organisation: Ref | None = None
    name: Label | None = None
    units: list[UnitEntry] = Field(default=[], max_length=MAX_UNITS)


class RosterFile(_Input):
    format: str = FORMAT
    game: Ref
    army: Ref
    organisation: Ref | None = None  # the older form: one force, its units at the top level
    name: Label = "Untitled roster"
    points_limit: int | None = None
    year: int | None = None
    period: Ref | None = None
    settings: dict[Ref, bool | int | str | None] = {}
    overlays: list[Ref] = Field(default=[], max_length=20)  # the house-rule overlays played (lists/overlays.py)
    house_rules: list[Ref | HouseRuleEntry] = Field(default=[], max_length=MAX_HOUSE_RULES)
    forces: list[ForceEntry] | None = Field(default=None, max_length=FORCES_MAX)
    units: list[UnitEntry] = Field(default=[], max_length=MAX_UNITS)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value != FORMAT:
            raise ValueError(f"this site reads roster files of format {FORMAT}, not {value[:40]!r}")
        return value

    @model_validator(mode="after")
    def _one_form(self) -> RosterFile:
        if self.forces is not None and (self.units or self.organisation is not None):
            raise ValueError("give either forces (each with its organisation and units) or organisation and units")
        if sum(len(force.units) for force in self.force_entries()) > MAX_UNITS:
            raise ValueError(f"a roster holds at most {MAX_UNITS} units")
        return self

    def force_entries(self) -> list[ForceEntry]:
        """The file's forces; the older form (organisation and units at the top level) is one force."""
        if self.forces is not None:
            return self.forces
        return [ForceEntry.model_construct(organisation=self.organisation, name=None, units=self.units)]

    def unit_entries(self) -> list[tuple[str, int, UnitEntry]]:
        """Every unit in roster order, with its path in the file and the position of its force."""
        prefix = "forces.{}.units" if self.forces is not None else "units"
        return [
            (f"{prefix.format(f_index)}.{u_index}", f_index, unit)
            for f_index, force in enumerate(self.force_entries())
            for u_index, unit in enumerate(force.units)
        ]


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = ", ".join(part for part in (f"line {self.line}" if self.line else "", self.path) if part)
        return f"{where}: {self.message}" if where else self.message


MAX_PROBLEMS = 50  # a file with thousands of problems is told its first ones: the page and any log stay small


class RosterFileInvalid(Exception):
    def __init__(self, problems: list[Problem], more: int = 0):
        more += max(0, len(problems) - MAX_PROBLEMS)
        if more:
            problems = [*problems[:MAX_PROBLEMS], Problem("", f"and {more:,} more problems; fix these first")]
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))


# --- parsing -----------------------------------------------------------------


# libyaml's parser where PyYAML has it (its wheels do): the pure-Python one takes seconds on a 512 KB file.
_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _SafeLoader(_Parser):
    """Safe YAML without aliases (no exponential expansion), duplicate keys or values it cannot read.

    Aliases and depth are checked on the parser's events before any node is
    composed (`_check_events`). Dates are not a roster file's business: they stay
    text, like any other value that only looks like a date. A value whose tag
    cannot be read (`!!int ""`, `!!timestamp "x"`, a 5,000-digit number) is a located error.
    """

    def construct_object(self, node, deep=False):
        if isinstance(node, yaml.ScalarNode) and node.tag in _NUMBER_TAGS and _too_long(node.value):
            raise yaml.constructor.ConstructorError(
                None, None, f"a number longer than {MAX_DIGITS} digits", node.start_mark
            )
        try:
            return super().construct_object(node, deep=deep)
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError):
            shown = node.value if isinstance(node.value, str) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"{shown[:40]!r} cannot be read as {node.tag.rsplit(':', 1)[-1]}", node.start_mark
            ) from None

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str | int | float | bool) or key is None:
                raise yaml.constructor.ConstructorError(
                    None, None, "mapping keys must be plain text", key_node.start_mark
                )
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} appears twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}


MAX_KEYS = 200  # no mapping of a roster file has near as many keys (settings have a few dozen at most)
MAX_ITEMS = 1000  # nor any list as many items (400 units, 100 house rules)


def _check_events(text: str) -> None:
    """Refuse aliases, nesting deeper than MAX_DEPTH and oversized mappings or lists, in one pass over the events.

    A file refused here costs the parser's time alone, not the composing and checking of every node.
    """
    sizes: list[list] = []  # for each open mapping or list: [is a mapping, nodes so far, its start mark]
    for event in yaml.parse(text, Loader=_Parser):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", event.start_mark)
        if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            sizes.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        if sizes:
            sizes[-1][1] += 1
            mapping, nodes, mark = sizes[-1]
            if (mapping and nodes > 2 * MAX_KEYS) or (not mapping and nodes > MAX_ITEMS):
                what = f"more than {MAX_KEYS} keys" if mapping else f"more than {MAX_ITEMS} items"
                raise yaml.composer.ComposerError(None, None, f"a {'mapping' if mapping else 'list'} of {what}", mark)
        if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            sizes.append([isinstance(event, yaml.MappingStartEvent), 0, event.start_mark])
            if len(sizes) > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark
                )


# Plain dates and times are read as text: drop the resolver that would make them timestamps.
_SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _too_long(number: str) -> bool:
    return sum(character.isdigit() for character in number) > MAX_DIGITS


def _json_number(text: str) -> int | float:
    if _too_long(text):
        raise ValueError(f"a number longer than {MAX_DIGITS} digits")
    return float(text) if any(c in text for c in ".eE") else int(text)


def _json_mapping(pairs: list[tuple[str, Any]]) -> dict:
    mapping: dict = {}
    for key, value in pairs:
        if key in mapping:
            raise ValueError(f"the key {key!r} appears twice")
        mapping[key] = value
    return mapping


def _depth(value: Any, limit: int = MAX_DEPTH) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def parse(raw: bytes, filename: str = "") -> tuple[dict, yaml.Node | None]:
    """Bytes to a mapping; the YAML node tree comes back too, to give line numbers."""
    if len(raw) > MAX_FILE_BYTES:
        raise RosterFileInvalid([Problem("", f"the file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RosterFileInvalid([Problem("", f"the file is not UTF-8 text (byte {exc.start})")]) from None
    if not text.strip():
        raise RosterFileInvalid([Problem("", "the file is empty")])
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RosterFileInvalid([Problem("", "the file holds a NUL character; a roster file is plain text", line)])
    node = None
    try:
        if filename.lower().endswith(".json") or text.lstrip().startswith(("{", "[")):
            try:
                data = json.loads(
                    text, object_pairs_hook=_json_mapping, parse_int=_json_number, parse_float=_json_number
                )
            except ValueError as exc:
                if isinstance(exc, json.JSONDecodeError):
                    raise
                raise RosterFileInvalid([Problem("", f"not valid JSON: {exc}")]) from None
            if _depth(data) > MAX_DEPTH:
                raise RosterFileInvalid([Problem("", f"nested more than {MAX_DEPTH} levels deep")])
        else:
            _check_events(text)
            loader = _SafeLoader(text)
            try:
                node = loader.get_single_node()
                data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
    except json.JSONDecodeError as exc:
        raise RosterFileInvalid([Problem("", f"not valid JSON: {exc.msg}", exc.lineno)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise RosterFileInvalid([Problem("", f"not valid YAML: {problem}", mark.line + 1 if mark else None)]) from None
    except RecursionError:
        raise RosterFileInvalid([Problem("", f"nested more than {MAX_DEPTH} levels deep")]) from None
    if not isinstance(data, dict):
        raise RosterFileInvalid([Problem("", "a roster file is a mapping with game, army and units")])
    return data, node


def _line_index(node: yaml.Node | None) -> dict[tuple, int]:
    """Every path in the YAML node tree with the line it starts on, found in one walk (linear in the file)."""
    lines: dict[tuple, int] = {}
    stack = [((), node)] if node is not None else []
    while stack:
        path, item = stack.pop()
        lines[path] = item.start_mark.line + 1
        if isinstance(item, yaml.MappingNode):
            stack.extend(((*path, str(key.value)), value) for key, value in item.value)
        elif isinstance(item, yaml.SequenceNode):
            stack.extend(((*path, index), value) for index, value in enumerate(item.value))
    return lines


def _line_of(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line a path starts on; for a path the file lacks, the line of its nearest part the file has."""
    for end in range(len(path), 0, -1):
        found = lines.get(tuple(str(part) if isinstance(part, str) else part for part in path[:end]))
        if found is not None:
            return found
    return lines.get(())


def read_roster_file(raw: bytes, filename: str = "") -> RosterFile:
    return _read(raw, filename)[0]


def _read(raw: bytes, filename: str) -> tuple[RosterFile, yaml.Node | None]:
    data, node = parse(raw, filename)
    return check_document(data, node), node


def check_document(data: dict, node: yaml.Node | None = None) -> RosterFile:
    """A roster file's mapping checked against the format: every editor change passes here too, like an import."""
    try:
        return RosterFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        lines = _line_index(node)
        problems = []
        for error in errors[:MAX_PROBLEMS]:  # only the problems shown are located
            # pydantic names union members in the path; keep the fields only.
            loc = tuple(
                part for part in error["loc"] if not (isinstance(part, str) and ("[" in part or part in {"str", "int"}))
            )
            problems.append(Problem(".".join(str(p) for p in loc), error["msg"], _line_of(lines, loc)))
        raise RosterFileInvalid(problems, more=len(errors) - len(problems)) from None


def _with_lines(problems: list[Problem], node: yaml.Node | None) -> list[Problem]:
    """Give each problem the YAML line of its field, where it can be found."""
    located = []
    lines = _line_index(node)
    for problem in problems:
        parts = tuple(
            int(part) if part.isdecimal() and part.isascii() else part for part in problem.path.split(".") if part
        )
        line = problem.line or (_line_of(lines, parts) if parts else None)
        located.append(Problem(problem.path, problem.message, line))
    return located


# --- resolving names against the game data ---------------------------------


def _normal(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _pick(ref: str, choices: dict[str, Any], what: str, path: str, problems: list[Problem]) -> Any:
    """Find `ref` by key or name among `choices` (name or key -> value); record a problem if absent."""
    wanted = _normal(ref)
    for name, value in choices.items():
        if _normal(name) == wanted:
            return value
    names = sorted({name for name in choices if not name.islower() or " " in name} or choices)
    close = difflib.get_close_matches(ref, names, n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    problems.append(Problem(path, f"unknown {what} {ref!r}.{hint}"))
    return None


@dataclass
class ResolvedRoster:
    system: models.GameSystem
    data: GameData
    army_id: int
    name: str
    points_limit: int | None
    year: int | None
    period: str
    settings: dict
    forces: list[ForceRow] = field(default_factory=list)
    house_rules: list[HouseRuleRow] = field(default_factory=list)
    units: list[UnitRow] = field(default_factory=list)
    overlays: list[models.GameSystem] = field(default_factory=list)
    file_points: dict | None = None  # a BattleScribe file's own points (total, by label), never used as ours

    def snapshot(self) -> RosterSnapshot:
        return self.data.snapshot(
            army_id=self.army_id,
            name=self.name,
            points_limit=self.points_limit,
            year=self.year,
            period=self.period,
            settings=self.settings,
            forces=self.forces,
            units=self.units,
            house_rules=self.house_rules,
            overlays=tuple(overlay.name for overlay in self.overlays),
        )


def resolve(entry: RosterFile) -> ResolvedRoster:
    """Match every name in a roster file to the game data; raise with every problem found."""
    problems: list[Problem] = []
    systems = {s.key: s for s in models.GameSystem.objects.filter(kind="game")}
    choices = {
        **{s.key: s for s in systems.values()},
        **{s.name: s for s in systems.values()},
        **{s.short_name: s for s in systems.values()},
    }
    system = _pick(entry.game, choices, "game", "game", problems)
    if system is None:
        raise RosterFileInvalid(problems)
    data = game_data(system)

    shared = data.shared_army_names.get(" ".join(entry.army.casefold().split()))
    if shared:
        keys = " or ".join(repr(key) for key in shared)
        raise RosterFileInvalid([Problem("army", f"several armies are called {entry.army!r}: give its key, {keys}.")])
    armies = {**{a.key: a for a in data.armies.values()}, **{a.name: a for a in data.armies.values()}}
    army = _pick(entry.army, armies, "army", "army", problems)
    if army is None:
        raise RosterFileInvalid(problems)

    forces = _resolve_forces(entry, data, army.id, problems)

    period = ""
    periods = data.system.periods
    if entry.period is not None:
        period_choices = {**{p["key"]: p["key"] for p in periods}, **{p["name"]: p["key"] for p in periods}}
        period = _pick(entry.period, period_choices, "period", "period", problems) or ""

    problems += _problems(
        roster_refusals(data.system, points_limit=entry.points_limit, year=entry.year, settings=entry.settings)
    )
    settings = dict(entry.settings)

    unit_choices = {}
    for _, unit_id in data.available_units(army.id):
        unit_choices.setdefault(data.unit_types[unit_id].key, unit_id)
        unit_choices.setdefault(data.unit_types[unit_id].name, unit_id)
    qualities = {
        **{q.key: q.key for q in data.system.qualities.values()},
        **{q.name: q.key for q in data.system.qualities.values()},
    }
    ranks = {
        **{r.key: r.key for r in data.system.ranks.values()},
        **{r.name: r.key for r in data.system.ranks.values()},
    }
    quality_ids = data.ids_by_key(data.quality_ids)
    rank_ids = data.ids_by_key(data.rank_ids)

    resolved = ResolvedRoster(
        system=system,
        data=data,
        army_id=army.id,
        name=entry.name,
        points_limit=entry.points_limit,
        year=entry.year,
        period=period,
        settings=settings,
        forces=forces,
    )
    labels: dict[str, int] = {}
    units = entry.unit_entries()
    for index, (path, force, unit) in enumerate(units):
        unit_id = _pick(unit.unit, unit_choices, f"unit for the {army.name}", f"{path}.unit", problems)
        if unit_id is None:
            continue
        unit_type = data.unit_types[unit_id]
        quality = rank = None
        if unit.quality is not None:
            quality = _pick(unit.quality, qualities, "troop quality", f"{path}.quality", problems)
        if unit.officer_rank is not None:
            rank = _pick(unit.officer_rank, ranks, "officer rank", f"{path}.officer_rank", problems)
        offered = open_options(unit_type, army.key)
        option_choices = {**{o.key: o.key for o in offered}, **{o.name: o.key for o in offered}}
        counts: dict[str, int] = {}
        option_paths: dict[str, str] = {}
        for o_index, option_ref in enumerate(unit.options):
            ref, count = (option_ref, 1) if isinstance(option_ref, str) else (option_ref.option, option_ref.count)
            key = _pick(ref, option_choices, f"option of {unit_type.name}", f"{path}.options.{o_index}", problems)
            if key is not None:
                # An option listed twice is bought twice: one meaning, whatever the spelling.
                counts[key] = counts.get(key, 0) + count
                option_paths.setdefault(key, f"{path}.options.{o_index}")
        refusals = unit_refusals(
            data.system,
            army.key,
            unit_type,
            quality=quality,
            size=unit.size,
            officer_rank=rank,
            options=counts,
            hero_points=unit.hero_points,
        )
        fields = {"options." + key: option_path for key, option_path in option_paths.items()}
        problems += [Problem(fields.get(r.field, f"{path}.{r.field}"), r.message) for r in refusals]
        options = {data.option_ids[(unit_id, key)]: count for key, count in counts.items() if count}
        quality_id, rank_id = quality_ids.get(quality), rank_ids.get(rank)
        label = unit.label or default_label(unit_type.name, labels)
        taken = {other: f"unit {position + 1}" for other, position in labels.items()}
        problems += [Problem(f"{path}.label", refusal.message) for refusal in label_refusals(label, taken)]
        labels[label] = index
        resolved.units.append(
            UnitRow(unit_id, label, quality_id, unit.size, rank_id, options, None, unit.hero_points, force)
        )
    for index, (path, _, unit) in enumerate(units):
        if unit.transport is None or index >= len(resolved.units):
            continue
        # A unit may ride a transport of any force of the roster (see docs/roster-format.md).
        target = _unit_position(unit.transport, labels, len(units))
        if target is None or target == index:
            problems.append(
                Problem(
                    f"{path}.transport",
                    f"no other unit {unit.transport!r} in this roster to ride in; give its label or its position (1 = first unit)",
                )
            )
        else:
            resolved.units[index].transport = target
    resolved.house_rules = _resolve_house_rules(entry, labels, problems)
    resolved.overlays = overlays_played(entry.overlays, resolved.house_rules, _pick, problems)
    if problems:
        raise RosterFileInvalid(problems)
    return resolved


def _resolve_forces(entry: RosterFile, data: GameData, army_id: int, problems: list[Problem]) -> list[ForceRow]:
    """Each force's name and organisation; a force naming none takes the first the army may use."""
    open_orgs = data.organisations_for(army_id)
    orgs = {}
    for org_id in open_orgs:
        orgs[data.organisations[org_id].key] = org_id
        orgs[data.organisations[org_id].name] = org_id
    forces = entry.force_entries()
    rows = []
    for index, force in enumerate(forces):
        path = f"forces.{index}.organisation" if entry.forces is not None else "organisation"
        organisation_id = open_orgs[0] if open_orgs else None
        if force.organisation is not None:
            organisation_id = _pick(force.organisation, orgs, "organisation", path, problems)
        rows.append(ForceRow(force.name or default_force_name(index), organisation_id))
    problems += [
        Problem(".".join(part for part in ("forces", refusal.field) if part), refusal.message)
        for refusal in force_refusals([row.name for row in rows])
    ]
    return rows


def default_force_name(index: int, taken: set[str] = frozenset()) -> str:
    """The name a force gets when the player gives none: "Platoon 1", "Platoon 2" (one not taken)."""
    number = index + 1
    while f"Platoon {number}" in taken:
        number += 1
    return f"Platoon {number}"


def _unit_position(ref: str | int, labels: dict[str, int], count: int) -> int | None:
    """The 0-based position of the unit a file names by label or by 1-based position, if there is one."""
    if isinstance(ref, int):
        return ref - 1 if 1 <= ref <= count else None
    return labels.get(ref)


def _resolve_house_rules(entry: RosterFile, labels: dict[str, int], problems: list[Problem]) -> list[HouseRuleRow]:
    """The house rules bought; one listed twice for the same roster or unit is bought twice (its count adds up)."""
    if not entry.house_rules:
        return []
    priced = priced_house_rules()
    rule_choices = {**{r.key: r for r in priced}, **{r.name: r for r in priced}}
    bought: dict[tuple[int, int | None], HouseRuleRow] = {}
    for index, ref in enumerate(entry.house_rules):
        path = f"house_rules.{index}"
        item = ref if isinstance(ref, HouseRuleEntry) else HouseRuleEntry(house_rule=ref)
        rule = _pick(item.house_rule, rule_choices, "house rule", path, problems)
        if rule is None:
            continue
        for_unit = (rule.purchase or {}).get("bought_for") == "unit"
        unit = None
        if item.unit is not None:
            unit = _unit_position(item.unit, labels, len(entry.unit_entries()))
            if unit is None:
                problems.append(Problem(f"{path}.unit", f"no unit {item.unit!r} in this roster"))
                continue
            if not for_unit:
                problems.append(Problem(f"{path}.unit", f"{rule.name} is bought for the roster, not for a unit"))
                continue
        elif for_unit:
            problems.append(Problem(path, f"{rule.name} is bought for a unit: give unit: and the unit's label"))
            continue
        row = bought.setdefault((rule.id, unit), HouseRuleRow(rule, 0, unit))
        row.count += item.count
        if row.count > MAX_COUNT:
            problems.append(Problem(path, f"{rule.name} is bought more than {MAX_COUNT} times"))
    return list(bought.values())


def default_label(name: str, taken: dict[str, int]) -> str:
    """The unit's name, numbered ("Rifle Squad 2") when another unit already has it."""
    if name not in taken:
        return name
    number = 2
    while f"{name} {number}" in taken:
        number += 1
    return f"{name} {number}"


def _problems(refusals: list[Refusal]) -> list[Problem]:
    return [Problem(refusal.field, refusal.message) for refusal in refusals]


def load_roster_file(raw: bytes, filename: str = "") -> ResolvedRoster:
    """Parse, check and resolve a roster file; RosterFileInvalid lists every problem with its line."""
    if is_battlescribe(raw, filename):  # .ros/.rosz: BattleScribe and New Recruit (lists/battlescribe/rosters.py)
        return load_battlescribe(raw)
    from lists import roster_text_files  # it reads through this module's checks: imported here, not above

    if roster_text_files.is_roster_text(raw, filename):  # roster.txt, as the share page writes it
        return roster_text_files.load_roster_text(raw)
    entry, node = _read(raw, filename)
    try:
        return resolve(entry)
    except RosterFileInvalid as invalid:
        raise RosterFileInvalid(_with_lines(invalid.problems, node)) from None


# --- saving and exporting ---------------------------------------------------


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
    return entry


def dump_yaml(document: dict) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


def dump_json(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
