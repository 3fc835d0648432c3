"""roster.txt as players post lists: one line a unit, its options and points, and no keys; and its reader.

"Panzer Grenadier Squad (Regular, 8 men): 2× LMG, NCO SMG — 116 pts". A unit is matched by its
plain name (lists/rosters/plain_names.py), its options by their names on that unit, and the men a
player counts are turned back into the unit's size after a first reading (text_files.py).
See docs/roster-format.md, "Text rosters".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rosters.plain_names import plain_unit_names

DASH = " — "
NOTE_PREFIX = "Note: "
POINTS_TAIL = re.compile(r"^(.*?\S)\s+[—–-]+\s+(\d{1,7})\s*pts?\.?$")  # "… — 116 pts" (a typed "-" too)
_MEN = re.compile(r"^(\d{1,4}) (?:man|men)$")
_HERO = re.compile(r"^(\d{1,4}) hero points?$")
_COUNT_BEFORE = re.compile(r"^(\d{1,4})\s*[×x]\s*(\S.*)$")  # "2× LMG"
_COUNT_AFTER = re.compile(r"^(.*\S)\s*×(\d{1,4})$")  # "LMG ×2", as the keyed form writes it
_HOUSE_RULE = re.compile(r"^house rule (.+?)(?: ×(\d{1,4}))?(?: \(\+\d+ pts\))?$")
_LONGEST_NAME = 250  # no unit's name (with its category) is longer: a longer bracket names no unit
_LONGEST_HEAD = 600  # a label, a unit's name and its details fit before the options' ": " in this many characters
_LONGEST_OPTION = 8  # an option's name holds at most this many ", ": a line is read in linear time


def _normal(text: str) -> str:
    return " ".join(text.casefold().replace("’", "'").split())


# --- writing -----------------------------------------------------------------


def men_text(men: int) -> str:
    return f"{men} man" if men == 1 else f"{men} men"


def points_line(points: int, limit: int | None) -> str:
    return f"{points} / {limit} pts" if limit is not None else f"{points} pts"


def plain_unit_line(roster: RosterSnapshot, unit: UnitChoice, points: int, names: dict[str, str], house_rules) -> str:
    """One unit as players write it: name (label first where it has one), quality and men, options, points."""
    name = names.get(unit.unit_type.key, unit.unit_type.name)
    shown = name if unit.label in {name, unit.unit_type.name} else f"{unit.label} ({name})"
    quality = roster.system.qualities.get(unit.quality) if unit.quality else None
    rank = roster.system.ranks.get(unit.officer_rank) if unit.officer_rank else None
    details = [
        quality.name if quality else "",
        men_text(unit.men) if unit.unit_type.kind not in {"vehicle", "transport", "artillery"} else "",
        rank.name if rank else "",
    ]
    extras = [
        *(f"{count}× {option.name}" if count > 1 else option.name for option, count in unit.chosen_options),
        f"{unit.hero_points} hero points" if unit.hero_points else "",
        *(f"house rule {line['name']}" + (f" ×{line['count']}" if line["count"] > 1 else "") for line in house_rules),
        f"rides in {roster.units[unit.transport].label}" if unit.transport is not None else "",
    ]
    details, extras = [d for d in details if d], [e for e in extras if e]
    line = shown + (f" ({', '.join(details)})" if details else "") + (": " + ", ".join(extras) if extras else "")
    return f"{line}{DASH}{points} pts"


# --- reading -----------------------------------------------------------------


@dataclass
class PlainNames:
    """What a plain unit line may name in one army: units (by plain name, name or key), their options'
    names, the game's qualities and ranks."""

    units: dict[str, tuple[str, int]]  # normal name -> (the name to resolve, unit id)
    options: dict[int, set[str]]  # unit id -> its options' normal names
    qualities: set[str]
    ranks: set[str]

    @classmethod
    def of(cls, data, army) -> PlainNames:
        if data is None or army is None:
            return cls({}, {}, set(), set())
        units: dict[str, tuple[str, int]] = {}
        for unit_id, name in plain_unit_names(data, army.key).items():
            unit_type = data.unit_types[unit_id]
            for ref in (name, unit_type.name, unit_type.key):
                units.setdefault(_normal(ref), (ref, unit_id))
        return cls(
            units=units,
            options={},
            qualities={_normal(q.name) for q in data.system.qualities.values()},
            ranks={_normal(r.name) for r in data.system.ranks.values()},
        )

    def option_names(self, data, unit_id: int) -> set[str]:
        if unit_id not in self.options:
            options = data.unit_types[unit_id].options.values()
            self.options[unit_id] = {_normal(name) for o in options for name in (o.name, o.key)}
        return self.options[unit_id]


@dataclass
class PlainUnit:
    entry: dict  # the roster file's unit entry
    unit_id: int | None = None  # the unit the line names, if it names one
    men: int | None = None  # the men the line counts, made the unit's size once its options are known
    house_rules: tuple[tuple[str, int], ...] = ()  # bought for the unit: (rule, count)


def read_plain_unit(body: str, names: PlainNames, data) -> PlainUnit:
    """A unit line without its points: "Label (Unit name) (Regular, 10 men): LMG, 2× SMG, rides in Truck"."""
    start = 0
    while (colon := body.find(": ", start, _LONGEST_HEAD)) != -1:
        head = _read_head(body[:colon], names)
        if head is not None:
            return _with_extras(head, body[colon + 2 :], names, data)
        start = colon + 2
    head = _read_head(body, names)
    if head is not None:
        return head
    shown, _ = _details(body.partition(": ")[0], names)
    return PlainUnit({"unit": shown})  # unknown: resolving says so, with the nearest names


def _details(head: str, names: PlainNames) -> tuple[str, list[str]]:
    """The head's last bracket, if it holds only a unit's quality, men and rank: (the rest, those parts)."""
    if not head.endswith(")"):
        return head, []
    depth = 0
    for index in range(len(head) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(head[index], 0)
        if depth == 0:
            parts = [part.strip() for part in head[index + 1 : -1].split(",")]
            known = names.qualities | names.ranks
            if all(_normal(part) in known or _MEN.match(part) for part in parts):
                return head[:index].rstrip(), parts
            return head, []
    return head, []


def _unit_of(shown: str, names: PlainNames) -> dict | None:
    found = names.units.get(_normal(shown))
    if found:
        return {"unit": found[0], "id": found[1]}
    if shown.endswith(")"):
        offset = max(0, len(shown) - _LONGEST_NAME)  # a unit's name is in the last brackets: look no further back
        for match in re.finditer(r" \(", shown[offset:]):
            found = names.units.get(_normal(shown[offset + match.end() : -1]))
            if found:
                return {"unit": found[0], "id": found[1], "label": shown[: offset + match.start()]}
    return None


def _read_head(head: str, names: PlainNames) -> PlainUnit | None:
    """The unit, its label and details in the part before the options; None if it names no unit."""
    whole = _unit_of(head, names)  # a unit whose own name ends in brackets
    shown, parts = (head, []) if whole else _details(head, names)
    unit = whole or _unit_of(shown, names)
    if unit is None:
        return None
    read = PlainUnit(unit, unit.pop("id"))
    for part in parts:
        men = _MEN.match(part)
        if men:
            read.men = int(men.group(1))
        elif _normal(part) in names.qualities and "quality" not in unit:
            unit["quality"] = part
        else:
            unit["officer_rank"] = part
    return read


def _with_extras(read: PlainUnit, text: str, names: PlainNames, data) -> PlainUnit:
    """Options ("2× LMG"), hero points, house rules bought for the unit and its transport, ", " between."""
    unit = read.entry
    known = names.option_names(data, read.unit_id) if data is not None else set()
    tokens = text.split(", ")
    index, house_rules = 0, []
    while index < len(tokens):
        token = tokens[index].strip()
        hero, house_rule = _HERO.match(token), _HOUSE_RULE.match(token)
        if token.startswith("rides in "):
            unit["transport"] = ", ".join(tokens[index:]).strip()[len("rides in ") :]
            break
        if hero:
            unit["hero_points"] = int(hero.group(1))
        elif house_rule:
            house_rules.append((house_rule.group(1), int(house_rule.group(2) or 1)))
        else:
            option, index = _option(tokens, index, known)
            unit.setdefault("options", []).append(option)
            continue
        index += 1
    read.house_rules = tuple(house_rules)
    return read


def _option(tokens: list[str], index: int, known: set[str]) -> tuple[str | dict, int]:
    """The longest run of tokens from `index` naming one of the unit's options, with its count."""
    for end in range(min(len(tokens), index + _LONGEST_OPTION), index, -1):
        text = ", ".join(tokens[index:end]).strip()
        if _normal(text) in known:
            return text, end
        counted = _COUNT_BEFORE.match(text) or _COUNT_AFTER.match(text)
        if counted:
            count, name = (counted.group(1), counted.group(2)) if counted.re is _COUNT_BEFORE else counted.group(2, 1)
            if _normal(name) in known:
                return {"option": name, "count": int(count)}, end
    return tokens[index].strip(), index + 1  # unknown: resolving names the options the unit has
