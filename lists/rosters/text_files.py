"""roster.txt both ways: the plain-text roster players paste into forums, and its reader.

The text is written to be read by people first; everything a roster file holds
is in it all the same (the keys in square brackets, the options and men on each
unit's details line), so the reader turns it into the same mapping a YAML file
gives and checks it the same way. See docs/roster-format.md, "Text rosters".
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

from lists import models
from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rosters.format import MAX_PROBLEMS, MAX_UNITS, Problem, RosterFileInvalid
from lists.rosters.parsing import check_document, decoded_text
from lists.rosters.plain_names import army_by_plain_name
from lists.rosters.plain_text import NOTE_PREFIX, POINTS_TAIL, PlainNames, points_line, read_plain_unit
from lists.rosters.resolving import resolve
from lists.rules.pricing import house_rule_points
from lists.rules.validation import FORCES_MAX

SEPARATOR = " · "
TOTAL_PREFIX = "Total:"
HOUSE_RULE_PREFIX = "House rule: "
PLAYS_PREFIX = "Plays: "
SETTINGS_PREFIX = "Settings: "

_KEYS = re.compile(r"\[([^\[\]]+)\]\s*$")  # a trailing "[key]" or "[game-key/army-key]" (no leading \s*: linear)
_UNIT_LINE = re.compile(r"^\s*(\d+)(?:\s*pts\s+|\s{2,})(\S.*)$")  # "   65 pts  Label (Type) [key]"
_POINTS_FACT = re.compile(r"^\d{1,7}\s*(?:/\s*(\d{1,6})\s*)?pts?$")  # "824 / 1000 pts", "824 pts"
_YAML_KEY = re.compile(r"^(format|game|army|forces|units):(\s|$)")
_MEN = re.compile(r"^(\d+) (?:man|men)( as listed)?$")
_HERO = re.compile(r"^(\d+) hero points?$")
_COUNT = re.compile(r"^(.*\S) ×(\d+)$")
_HOUSE_RULE_DETAILS = re.compile(r"^(?:×(\d+))?\s*(?:for (.+))?$")
_UNIT_HOUSE_RULE = re.compile(r"^house rule (.+?)(?: ×(\d+))?(?: \(\+\d+ pts\))?$")  # on a unit's details line


# --- writing -----------------------------------------------------------------


def header_lines(roster: RosterSnapshot, points: int | None = None, army_name: str = "") -> list[str]:
    """The roster's name, game and army, and what else it sets, one thing a line. Given the roster's
    `points` and the army's plain name (lists/rosters/plain_names.py), the plain form: "824 / 1000 pts", no keys."""
    if points is None:
        game_line = f"{roster.system.name}{SEPARATOR}{roster.army_name} [{roster.system.key}/{roster.army_key}]"
    else:
        game_line = f"{roster.system.name}{SEPARATOR}{army_name or roster.army_name}"
    lines = [roster.name, game_line]
    periods = {p["key"]: p["name"] for p in roster.system.periods}
    limit = f"Points limit: {roster.points_limit}" if roster.points_limit is not None else ""
    facts = [
        points_line(points, roster.points_limit) if points is not None else limit,
        f"Year: {roster.year}" if roster.year is not None else "",
        f"Period: {periods.get(roster.period, roster.period)}" if roster.period else "",
    ]
    if any(facts):
        lines.append(SEPARATOR.join(fact for fact in facts if fact))
    definitions = {d["key"]: d for d in roster.system.config.get("settings", [])}
    if roster.settings:
        shown = [
            f"{definitions.get(key, {}).get('name', key)}: {_setting_text(value)}"
            for key, value in roster.settings.items()
        ]
        lines.append(SETTINGS_PREFIX + "; ".join(shown))
    if roster.overlays:
        lines.append(PLAYS_PREFIX + "; ".join(roster.overlays))
    return lines


def _setting_text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def force_line(force) -> str:
    """A force's heading; its organisation always in brackets, so the reader can tell the two apart."""
    return f"{force.name} ({force.organisation.name})" if force.organisation else force.name


def unit_line(unit: UnitChoice, points: int) -> str:
    name = unit.unit_type.name
    shown = unit.label if unit.label == name else f"{unit.label} ({name})"
    return f"{points:>5} pts  {shown} [{unit.unit_type.key}]"


def unit_details(roster: RosterSnapshot, unit: UnitChoice) -> str:
    """The unit's choices in words, "; " between them: quality, men, rank, options, hero points, transport."""
    quality = roster.system.qualities.get(unit.quality) if unit.quality else None
    rank = roster.system.ranks.get(unit.officer_rank) if unit.officer_rank else None
    if unit.size is not None:
        men = f"{unit.size} man" if unit.size == 1 else f"{unit.size} men"
    elif unit.unit_type.kind not in {"vehicle", "transport", "artillery"}:
        men = f"{unit.men} man as listed" if unit.men == 1 else f"{unit.men} men as listed"
    else:
        men = ""
    parts = [
        quality.name if quality else "",
        men,
        rank.name if rank else "",
        *(option.name + (f" ×{count}" if count > 1 else "") for option, count in unit.chosen_options),
        f"{unit.hero_points} hero points" if unit.hero_points else "",
        f"rides in {roster.units[unit.transport].label}" if unit.transport is not None else "",
        *(
            f"house rule {b.rule.name}"
            + (f" ×{b.count}" if b.count > 1 else "")
            + f" (+{house_rule_points(roster, b)} pts)"
            for b in roster.house_rules
            if b.unit == unit.index
        ),
    ]
    return "; ".join(part for part in parts if part)


# --- reading -----------------------------------------------------------------


def is_roster_text(raw: bytes, filename: str = "") -> bool:
    """A .txt file, or pasted text that reads as a text roster rather than YAML or JSON."""
    if filename.lower().endswith(".txt"):
        return True
    if filename.lower().endswith((".yaml", ".yml", ".json")):
        return False
    return looks_like_roster_text(raw[:4096].decode("utf-8", errors="replace"))


def looks_like_roster_text(text: str) -> bool:
    """Whether pasted or uploaded text is a text roster rather than YAML or JSON: its second line names
    the game and army ("Bolt Action (2nd edition) · Generic army"), or it has a priced unit line."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2 or lines[0].lstrip().startswith(("{", "[")):
        return False
    if any(_YAML_KEY.match(line) for line in lines):  # a YAML roster's own keys: read as YAML, with its lines
        return False
    return SEPARATOR.strip() in lines[1] or any(" pts  " in line and _UNIT_LINE.match(line) for line in lines)


@dataclass
class _Text:
    """The mapping read so far, and the line each of its paths came from (for the problems found later)."""

    document: dict = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    problems: list[tuple[int, str]] = field(default_factory=list)
    units: int = 0  # units read so far, in every force
    stopped: bool = False  # more problems than MAX_PROBLEMS: the text was read no further
    men: list[tuple[int, dict, int]] = field(default_factory=list)  # plain lines' men: (unit, its entry, men)

    def problem(self, number: int, message: str) -> None:
        """A problem of the text's layout at line `number`; past MAX_PROBLEMS, reading stops."""
        if len(self.problems) == MAX_PROBLEMS:
            self.stopped = True
            raise _Stopped
        self.problems.append((number, message))

    def refuse(self, number: int, message: str) -> None:
        """A limit no roster passes, met at line `number`: the text is refused with it, read no further."""
        self.problems.append((number, message))
        raise _Stopped


class _Stopped(Exception):
    """The text is read no further (lists/rosters/text_files.py `_Text.problem`, `_Text.refuse`)."""


def _normal(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _game_and_army(line: str):
    """The game and army a second line names, by their keys in brackets or else by their names."""
    keys = _KEYS.search(line)
    names = line[: keys.start()].rstrip() if keys else line
    game_name, _, army_name = names.partition(SEPARATOR.strip())
    if keys and keys.group(1).count("/") == 1:
        return tuple(part.strip() for part in keys.group(1).split("/"))
    return game_name.strip(), army_name.strip()


def _find_game(ref: str) -> models.GameSystem | None:
    wanted = _normal(ref)
    for system in models.GameSystem.objects.filter(kind="game"):
        if wanted in {_normal(system.key), _normal(system.name), _normal(system.short_name)}:
            return system
    return None


def read_roster_text(text: str) -> _Text:
    """Text to the mapping a roster file gives, each path's line, and the problems of the text's layout
    (at most MAX_PROBLEMS: reading stops there, or at a limit no roster passes, in time linear in the text)."""
    read = _Text()
    with contextlib.suppress(_Stopped):  # the problems so far are what is told
        _read_text(read, text)
    return read


def _read_text(read: _Text, text: str) -> None:
    from lists.gamedata.loading import game_data

    body = [(number, line.rstrip()) for number, line in enumerate(text.splitlines(), start=1)]
    first = next((index for index, (_, line) in enumerate(body) if line.strip()), len(body))
    body = body[first:]
    if len(body) < 2:
        read.problem(1, "a text roster starts with its name, then the game and army (as roster.txt does)")
        return
    (name_line, name), (game_line, game_text) = body[0], body[1]
    read.document["name"] = name.strip()
    read.lines["name"] = name_line
    game, army = _game_and_army(game_text)
    if not army:
        read.problem(
            game_line, f"the second line names the game and the army, with{SEPARATOR}between: 'Game{SEPARATOR}Army'"
        )
        return
    read.document.update(game=game, army=army)
    read.lines.update(game=game_line, army=game_line)
    system = _find_game(game)
    data = game_data(system) if system else None
    army_named = _army_of(data, army)
    if army_named is not None:  # named as the plain list names it ("1944: Normandy (Armies of Germany)")
        read.document["army"] = army_named.key
    rest = body[2:]
    position = _read_facts(read, rest, system)
    _read_forces(read, rest[position:], data, army)


def _read_facts(read: _Text, lines: list[tuple[int, str]], system) -> int:
    """The lines under the game's: points limit, year, period, settings, overlays; up to the first blank line."""
    definitions = {}
    if system is not None:
        for definition in system.config.get("settings", []):
            definitions[_normal(definition["name"])] = definition
            definitions[_normal(definition["key"])] = definition
    for index, (number, line) in enumerate(lines):
        if not line.strip():
            return index
        if line.startswith(SETTINGS_PREFIX):
            settings = read.document.setdefault("settings", {})
            for part in line[len(SETTINGS_PREFIX) :].split("; "):
                setting, _, value = part.rpartition(": ")
                definition = definitions.get(_normal(setting), {"key": setting.strip(), "kind": "text"})
                settings[definition["key"]] = _setting_value(value.strip(), definition.get("kind"))
                read.lines[f"settings.{definition['key']}"] = number
            read.lines["settings"] = number
        elif line.startswith(PLAYS_PREFIX):
            read.document["overlays"] = [part.strip() for part in line[len(PLAYS_PREFIX) :].split(";") if part.strip()]
            read.lines["overlays"] = number
        else:
            _read_fact_line(read, number, line)
    return len(lines)


def _read_fact_line(read: _Text, number: int, line: str) -> None:
    fields = {"points limit": "points_limit", "year": "year", "period": "period"}
    for fact in line.split(SEPARATOR.strip()):
        points = _POINTS_FACT.match(fact.strip())
        if points:  # the plain form's "824 / 1000 pts": the limit is the roster's, the total is worked out
            if points.group(1):
                read.document["points_limit"] = int(points.group(1))
                read.lines["points_limit"] = number
            continue
        what, _, value = fact.partition(":")
        key = fields.get(_normal(what))
        if key is None:
            read.problem(
                number,
                f"{fact.strip()!r} is not a roster fact; write 'Points limit: 1000 · Year: 1944 · Period: Late war'",
            )
            continue
        value = value.strip()
        if key != "period":
            if not value.isdecimal() or len(value) > 6:
                read.problem(number, f"{what.strip()} should be a whole number, not {value!r}")
                continue
            value = int(value)
        read.document[key] = value
        read.lines[key] = number


def _setting_value(value: str, kind: str | None):
    if kind == "bool" and value.lower() in {"yes", "no"}:
        return value.lower() == "yes"
    if kind == "int" and value.lower() == "none":
        return None
    if kind == "int" and value.lstrip("-").isdecimal() and len(value) <= 7:
        return int(value)
    return value


def _read_forces(read: _Text, lines: list[tuple[int, str]], data, army_ref: str) -> None:
    """Forces, their units and each unit's details line, and the house rules bought; up to the total."""
    army = _army_of(data, army_ref)
    unit_names = _unit_names(data, army)
    names = PlainNames.of(data, army)
    organisations = [data.organisations[o].name for o in data.organisations_for(army.id)] if army else []
    forces = read.document.setdefault("forces", [])
    unit = None  # the unit whose details line may come next
    after_blank = True
    for number, line in lines:
        stripped = line.strip()
        if stripped.startswith(TOTAL_PREFIX):
            break
        if not stripped:
            after_blank, unit = True, None
            continue
        match, plain = _UNIT_LINE.match(line), POINTS_TAIL.match(stripped)
        if stripped.startswith(NOTE_PREFIX) and not after_blank and forces and forces[-1]["units"]:
            forces[-1]["units"][-1]["note"] = stripped[len(NOTE_PREFIX) :]  # the unit above's note
            read.lines[f"forces.{len(forces) - 1}.units.{len(forces[-1]['units']) - 1}.note"] = number
            unit = None
        elif match and match.group(2).startswith(HOUSE_RULE_PREFIX):
            _read_house_rule(read, number, match.group(2)[len(HOUSE_RULE_PREFIX) :])
            unit = None
        elif plain and stripped.startswith(HOUSE_RULE_PREFIX):  # "House rule: Field telephones (×2) — 20 pts"
            _read_house_rule(read, number, plain.group(1)[len(HOUSE_RULE_PREFIX) :])
        elif not match and unit is None and plain and (not after_blank or _names_a_unit(plain.group(1), names)):
            if not forces:
                forces.append({"units": []})
            _read_plain_unit(read, number, plain.group(1), forces[-1], names, data)
        elif match:
            if not forces:
                forces.append({"units": []})
            read.units += 1
            if read.units > MAX_UNITS:
                read.refuse(number, f"more than {MAX_UNITS} units: a roster holds at most {MAX_UNITS}")
            path = f"forces.{len(forces) - 1}.units.{len(forces[-1]['units'])}"
            unit = _unit_entry(match.group(2), unit_names)
            forces[-1]["units"].append(unit)
            read.lines[path] = number
        elif unit is not None:
            position = read.units  # 1-based: the unit just read
            for rule, count in _read_details(stripped, unit, data):
                rules = read.document.setdefault("house_rules", [])
                read.lines[f"house_rules.{len(rules)}"] = number
                rules.append({"house_rule": rule, "count": count, "unit": position})
            # A problem with any of the unit's choices is told at its details line.
            read.lines.update({f"{path}.{key}": number for key in _DETAILS})
            unit = None
        elif after_blank:
            if len(forces) == FORCES_MAX:
                read.refuse(number, f"more than {FORCES_MAX} forces (platoons): a roster holds at most {FORCES_MAX}")
            forces.append(_force_entry(plain.group(1) if plain else stripped, organisations))
            read.lines[f"forces.{len(forces) - 1}"] = number
        else:
            read.problem(
                number,
                f"{stripped[:60]!r} is neither a unit ('Rifle Squad (Regular, 10 men): LMG — 65 pts'), its note "
                "('Note: …') nor a force's name after a blank line",
            )
        after_blank = False
    _roster_wide_first(read)
    if not any(force.get("units") for force in forces):
        read.problem(lines[-1][0] if lines else 2, "the text lists no units ('65 pts  Unit name' lines)")


def _names_a_unit(body: str, names: PlainNames) -> bool:
    """Whether a line after a blank one is a unit (a list typed without a force's name) rather than a force."""
    return read_plain_unit(body, names, None).unit_id is not None


def _read_plain_unit(read: _Text, number: int, body: str, force: dict, names: PlainNames, data) -> None:
    """A plain unit line into the force's units; its men and house rules kept for after its options are known."""
    read.units += 1
    if read.units > MAX_UNITS:
        read.refuse(number, f"more than {MAX_UNITS} units: a roster holds at most {MAX_UNITS}")
    path = f"forces.{len(read.document['forces']) - 1}.units.{len(force['units'])}"
    unit = read_plain_unit(body, names, data)
    force["units"].append(unit.entry)
    read.lines[path] = number
    read.lines.update({f"{path}.{key}": number for key in _DETAILS})
    if unit.men is not None:
        read.men.append((read.units - 1, unit.entry, unit.men))
    for rule, count in unit.house_rules:
        rules = read.document.setdefault("house_rules", [])
        read.lines[f"house_rules.{len(rules)}"] = number
        rules.append({"house_rule": rule, "count": count, "unit": read.units})


def _roster_wide_first(read: _Text) -> None:
    """House rules bought for the roster before those bought for a unit, as the editor saves them."""
    rules = read.document.get("house_rules", [])
    numbered = sorted(
        ((entry, read.lines.get(f"house_rules.{index}")) for index, entry in enumerate(rules)),
        key=lambda pair: "unit" in pair[0],
    )
    read.document["house_rules"] = [entry for entry, _ in numbered]
    read.lines.update({f"house_rules.{index}": number for index, (_, number) in enumerate(numbered) if number})


def _army_of(data, ref: str):
    return army_by_plain_name(data, ref) if data is not None else None


def _unit_names(data, army) -> dict[str, str]:
    """The army's units: key -> name, and each name (normalised) -> itself, to tell a label from its unit."""
    names: dict[str, str] = {}
    if army is not None:
        for _, unit_id in data.available_units(army.id):
            unit_type = data.unit_types[unit_id]
            names[unit_type.key] = unit_type.name
    return names


def _unit_entry(text: str, unit_names: dict[str, str]) -> dict:
    """A unit line's label and unit: "Lt. Harris (Second Lieutenant) [key]", or just the unit's name."""
    keys = _KEYS.search(text)
    shown = text[: keys.start()].rstrip() if keys else text
    if keys:
        key = keys.group(1).strip()
        name = unit_names.get(key, "")
        if name and shown == name:
            return {"unit": key}
        if name and shown.endswith(f" ({name})"):
            return {"unit": key, "label": shown[: -len(name) - 3]}
        return {"unit": key, "label": shown} if shown else {"unit": key}
    by_name = {_normal(name): name for name in unit_names.values()}
    if _normal(shown) in by_name:
        return {"unit": shown}
    for start in [m.start() for m in re.finditer(r" \(", shown)]:
        if shown.endswith(")") and _normal(shown[start + 2 : -1]) in by_name:
            return {"unit": shown[start + 2 : -1], "label": shown[:start]}
    return {"unit": shown}


def _force_entry(text: str, organisations: list[str]) -> dict:
    for organisation in organisations:
        if text.endswith(f" ({organisation})"):
            return {"name": text[: -len(organisation) - 3], "organisation": organisation, "units": []}
    if any(_normal(text) == _normal(organisation) for organisation in organisations):
        return {"organisation": text, "units": []}
    return {"name": text, "units": []}


_DETAILS = ("quality", "size", "officer_rank", "options", "hero_points", "transport")


def _read_details(text: str, unit: dict, data) -> list[tuple[str, int]]:
    """A details line: "Regular; 10 men; LMG; Anti-tank grenades ×10; rides in Truck"; the house rules
    bought for the unit ("house rule British 6pdr (APDS) (+20 pts)") come back, with their counts."""
    house_rules = []
    qualities = {_normal(q.name) for q in data.system.qualities.values()} if data else set()
    ranks = {_normal(r.name) for r in data.system.ranks.values()} if data else set()
    for index, part in enumerate(p.strip() for p in text.split(";")):
        men, hero, house_rule = _MEN.match(part), _HERO.match(part), _UNIT_HOUSE_RULE.match(part)
        if not part:
            continue
        if house_rule:
            house_rules.append((house_rule.group(1), int((house_rule.group(2) or "1")[:4])))
        elif men:
            if not men.group(2):
                unit["size"] = int(men.group(1)[:4])
        elif hero:
            unit["hero_points"] = int(hero.group(1)[:4])
        elif part.startswith("rides in "):
            unit["transport"] = part[len("rides in ") :].strip()
        elif index == 0 and _normal(part) in qualities:
            unit["quality"] = part
        elif _normal(part) in ranks and "officer_rank" not in unit:
            unit["officer_rank"] = part
        else:
            counted = _COUNT.match(part)
            option = {"option": counted.group(1), "count": int(counted.group(2)[:4])} if counted else part
            unit.setdefault("options", []).append(option)
    return house_rules


def _read_house_rule(read: _Text, number: int, text: str) -> None:
    """ "Field telephones (×2)", "British 6pdr (APDS) (for 6pdr guns)": the rule, its count, its unit."""
    rule, count, unit = text, 1, None
    if text.endswith(")") and " (" in text:
        start = text.rindex(" (")
        details = _HOUSE_RULE_DETAILS.match(text[start + 2 : -1])
        if details and any(details.groups()):
            rule = text[:start]
            count = int(details.group(1)[:4]) if details.group(1) else 1
            unit = details.group(2)
    entry: dict = {"house_rule": rule.strip(), "count": count}
    if unit:
        entry["unit"] = unit.strip()
    rules = read.document.setdefault("house_rules", [])
    read.lines[f"house_rules.{len(rules)}"] = number
    rules.append(entry)


def line_of(lines: dict[str, int], path: str) -> int | None:
    """The line a problem's path came from, or that of its nearest part the text has."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        found = lines.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


def load_roster_text(raw: bytes):
    """A text roster checked and resolved as a roster file is; every problem names its line, not a field."""
    read = read_roster_text(decoded_text(raw))
    if read.problems:
        problems = [Problem("", message, number) for number, message in read.problems]
        raise RosterFileInvalid(problems, stopped=read.stopped)
    lines = read.lines
    try:
        resolved = resolve(check_document(read.document))
        if _sized_by_men(read, resolved):
            resolved = resolve(check_document(read.document))
        return resolved
    except RosterFileInvalid as invalid:
        located = [
            Problem("", _in_words(problem), problem.line or line_of(lines, problem.path))
            for problem in invalid.problems
        ]
        raise RosterFileInvalid(located) from None


def _sized_by_men(read: _Text, resolved) -> bool:
    """Give each plain line's unit the size that fields the men it counts (with what its options add);
    a unit as listed stays so. Whether any size was set (the roster is then resolved again)."""
    if not read.men:
        return False
    units = resolved.snapshot().units
    sized = False
    for index, entry, men in read.men:
        listed = units[index]
        if listed.men != men:
            entry["size"] = max(0, men - (listed.men - listed.own_size))
            sized = True
    return sized


def _in_words(problem) -> str:
    """A problem of the mapping told without its field's path, which the text does not show."""
    field_name = problem.path.rsplit(".", 1)[-1] if problem.path else ""
    message = problem.message
    too_long = re.fullmatch(r"String should have at most (\d+) characters", message)
    if too_long:
        message = f"this name is longer than {too_long.group(1)} characters: shorten it"
    if message.startswith("unknown ") and "Did you mean" not in message:
        message += " Correct its spelling as the editor shows it, or remove it."
    if field_name and not field_name.isdecimal() and field_name not in {"unit", "house_rule", "option"}:
        return f"{field_name.replace('_', ' ')}: {message}"
    return message
