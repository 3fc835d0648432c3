"""Resolving a checked roster file against the game data: every name found, or the nearest names suggested."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from lists import models
from lists.battlescribe.names import slug
from lists.gamedata.loading import ArmyInfo, ForceRow, GameData, HouseRuleRow, UnitRow, game_data, priced_house_rules
from lists.gamedata.overlays import overlays_played
from lists.gamedata.snapshot import RosterSnapshot, UnitTypeInfo
from lists.rosters.format import MAX_COUNT, HouseRuleEntry, Problem, RosterFile, RosterFileInvalid, UnitEntry
from lists.rosters.plain_names import plain_unit_names
from lists.rules.defaults import compulsory_defaults
from lists.rules.validation import (
    Refusal,
    force_refusals,
    label_refusals,
    name_key,
    open_options,
    roster_refusals,
    unit_refusals,
)


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
    unread: list = field(default_factory=list)  # a pasted list's lines not read (lists/rosters/pasted_rosters.py)

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


@dataclass
class _ArmyNames:
    """What a roster file's units may name in one army, by key or name: its units, qualities and ranks."""

    data: GameData
    army: ArmyInfo
    units: dict[str, int]
    qualities: dict[str, str]
    ranks: dict[str, str]
    quality_ids: dict[str, int]
    rank_ids: dict[str, int]

    @classmethod
    def of(cls, data: GameData, army: ArmyInfo) -> _ArmyNames:
        units: dict[str, int] = {}
        for _, unit_id in data.available_units(army.id):
            units.setdefault(data.unit_types[unit_id].key, unit_id)
            units.setdefault(data.unit_types[unit_id].name, unit_id)
        for unit_id, plain in plain_unit_names(data, army.key).items():  # "Heer Grenadier Squad (Infantry)"
            units.setdefault(plain, unit_id)
        # The name its source prints (a BattleScribe entry's, before a typo in it was corrected) still finds it.
        for _, unit_id in data.available_units(army.id):
            units.setdefault(data.unit_types[unit_id].source.get("entry") or data.unit_types[unit_id].key, unit_id)
        qualities, ranks = data.system.qualities.values(), data.system.ranks.values()
        return cls(
            data=data,
            army=army,
            units=units,
            qualities={**{q.key: q.key for q in qualities}, **{q.name: q.key for q in qualities}},
            ranks={**{r.key: r.key for r in ranks}, **{r.name: r.key for r in ranks}},
            quality_ids=data.ids_by_key(data.quality_ids),
            rank_ids=data.ids_by_key(data.rank_ids),
        )


def resolve(entry: RosterFile) -> ResolvedRoster:
    """Match every name in a roster file to the game data; raise with every problem found."""
    problems: list[Problem] = []
    system = _resolve_game(entry, problems)
    data = game_data(system)
    army = _resolve_army(entry, data, problems)
    forces = _resolve_forces(entry, data, army.id, problems)
    period = _resolve_period(entry, data, problems)
    problems += _problems(
        roster_refusals(
            data.system,
            points_limit=entry.points_limit,
            year=entry.year,
            settings=entry.settings,
            rule_choices=tuple(choice["name"] for choice in army.rule_choices),
        )
    )
    resolved = ResolvedRoster(
        system=system,
        data=data,
        army_id=army.id,
        name=entry.name,
        points_limit=entry.points_limit,
        year=entry.year,
        period=period,
        settings=dict(entry.settings),
        forces=forces,
    )
    names = _ArmyNames.of(data, army)
    labels: dict[str, int] = {}
    units = entry.unit_entries()
    for index, (path, force, unit) in enumerate(units):
        row = _resolve_unit(unit, path, force, names, labels, problems)
        if row is not None:
            labels[row.label] = index
            resolved.units.append(row)
    _resolve_transports(units, resolved.units, labels, problems)
    resolved.house_rules = _resolve_house_rules(entry, labels, problems)
    resolved.overlays = overlays_played(entry.overlays, resolved.house_rules, _pick, problems)
    if problems:
        raise RosterFileInvalid(problems)
    return resolved


def _resolve_game(entry: RosterFile, problems: list[Problem]) -> models.GameSystem:
    """The game the file names, by key, name or short name; without it nothing else can be read."""
    systems = {s.key: s for s in models.GameSystem.objects.filter(kind="game")}
    choices = {
        **{s.key: s for s in systems.values()},
        **{s.name: s for s in systems.values()},
        **{s.short_name: s for s in systems.values()},
    }
    system = _pick(entry.game, choices, "game", "game", problems)
    if system is None:
        raise RosterFileInvalid(problems)
    return system


def _resolve_army(entry: RosterFile, data: GameData, problems: list[Problem]) -> ArmyInfo:
    """The army the file names; a name several armies share must be given as a key."""
    shared = data.shared_army_names.get(" ".join(entry.army.casefold().split()))
    if shared:
        keys = " or ".join(repr(key) for key in shared)
        raise RosterFileInvalid([Problem("army", f"several armies are called {entry.army!r}: give its key, {keys}.")])
    armies = {**{a.key: a for a in data.armies.values()}, **{a.name: a for a in data.armies.values()}}
    army = _pick(entry.army, armies, "army", "army", problems)
    if army is None:
        raise RosterFileInvalid(problems)
    return army


def _resolve_period(entry: RosterFile, data: GameData, problems: list[Problem]) -> str:
    """The key of the period the file names, by key or name; "" for none."""
    if entry.period is None:
        return ""
    periods = data.system.periods
    period_choices = {**{p["key"]: p["key"] for p in periods}, **{p["name"]: p["key"] for p in periods}}
    return _pick(entry.period, period_choices, "period", "period", problems) or ""


def _resolve_unit(
    unit: UnitEntry, path: str, force: int, names: _ArmyNames, labels: dict[str, int], problems: list[Problem]
) -> UnitRow | None:
    """One unit entry by database ids, its problems recorded; None when its unit is not in the army."""
    data, army = names.data, names.army
    wanted = _normal(unit.unit)
    fielded = any(_normal(name) == wanted for name in names.units)
    if not fielded and any(wanted in (_normal(other.key), _normal(other.name)) for other in data.unit_types.values()):
        # A unit of the game this list does not field (a Panther in a 1941 list): say so, not "unknown".
        message = f"{unit.unit!r} is not fielded by the {army.name} list; choose one of its units, or an army list"
        problems.append(Problem(f"{path}.unit", message + " that fields it."))
        return None
    unit_id = _pick(unit.unit, names.units, f"unit for the {army.name}", f"{path}.unit", problems)
    if unit_id is None:
        return None
    unit_type = data.unit_types[unit_id]
    quality = rank = None
    if unit.quality is not None:
        quality = _pick(unit.quality, names.qualities, "troop quality", f"{path}.quality", problems)
    if unit.officer_rank is not None:
        rank = _pick(unit.officer_rank, names.ranks, "officer rank", f"{path}.officer_rank", problems)
    counts, option_paths = _resolve_options(unit, path, unit_type, army.key, problems, quality)
    counts = compulsory_defaults(unit_type, army.key, quality, counts)  # a half-track's pintle HMG stays on
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
    quality_id, rank_id = names.quality_ids.get(quality), names.rank_ids.get(rank)
    label = unit.label or default_label(unit_type.name, labels)
    taken = {other: f"unit {position + 1}" for other, position in labels.items()}
    problems += [Problem(f"{path}.label", refusal.message) for refusal in label_refusals(label, taken)]
    return UnitRow(unit_id, label, quality_id, unit.size, rank_id, options, None, unit.hero_points, force, unit.note)


def _resolve_options(
    unit: UnitEntry,
    path: str,
    unit_type: UnitTypeInfo,
    army_key: str,
    problems: list[Problem],
    quality: str | None = None,
) -> tuple[dict[str, int], dict[str, str]]:
    """The options a unit entry buys, as {key: count}, and the path in the file of each. A name two options
    share (a section's Anti-tank Grenades, priced one way for Inexperienced men and another for the rest)
    means the one a unit of its quality may take."""
    offered = open_options(unit_type, army_key)
    fitting = open_options(unit_type, army_key, quality) if quality else []
    option_choices = {o.name: o.key for o in [*offered, *fitting]} | {o.key: o.key for o in offered}
    elsewhere = {_normal(name) for o in unit_type.options.values() for name in (o.name, o.key)}
    normal_names = {_normal(name) for name in option_choices}
    counts: dict[str, int] = {}
    option_paths: dict[str, str] = {}
    for o_index, option_ref in enumerate(unit.options):
        ref, count = (option_ref, 1) if isinstance(option_ref, str) else (option_ref.option, option_ref.count)
        if _normal(ref) in elsewhere and not any(_normal(ref) == _normal(name) for name in option_choices):
            # An option other army lists offer (a theatre's own upgrade): say so, not "unknown".
            message = f"{ref!r} is an option of {unit_type.name} this army list does not offer; drop it, or choose"
            problems.append(Problem(f"{path}.options.{o_index}", message + " an army list that offers it."))
            continue
        # A name as the data spelt it before a typo was corrected makes the option's key (keys keep that spelling).
        ref = option_choices.get(slug(ref), ref) if _normal(ref) not in normal_names else ref
        key = _pick(ref, option_choices, f"option of {unit_type.name}", f"{path}.options.{o_index}", problems)
        if key is not None:
            # An option listed twice is bought twice: one meaning, whatever the spelling.
            counts[key] = counts.get(key, 0) + count
            option_paths.setdefault(key, f"{path}.options.{o_index}")
    return counts, option_paths


def _resolve_transports(
    units: list[tuple[str, int, UnitEntry]], rows: list[UnitRow], labels: dict[str, int], problems: list[Problem]
) -> None:
    """Each unit's transport, by label or 1-based position, as the position of the carrying unit."""
    for index, (path, _, unit) in enumerate(units):
        if unit.transport is None or index >= len(rows):
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
            rows[index].transport = target


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
    """The unit's name, numbered ("Rifle Squad 2") when another unit already has it (or a look-alike)."""
    keys = {name_key(label) for label in taken}
    if name_key(name) not in keys:
        return name
    number = 2
    while name_key(f"{name} {number}") in keys:
        number += 1
    return f"{name} {number}"


def _problems(refusals: list[Refusal]) -> list[Problem]:
    return [Problem(refusal.field, refusal.message) for refusal in refusals]
