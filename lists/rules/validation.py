"""What a roster may hold: the one judge of input for the editor's forms and roster files.

A value that can never be saved (an option bought more often than its maximum,
a quality the unit has no price for, a unit of no men, a year outside the war)
is refused here, with the field it belongs to and a message a player can act
on. Choices that can be saved but break a game rule (too many men for a
transport, a rank the organisation does not allow) are not refused: the rule
checks report them as findings. The editor's Django forms take their HTML
limits from the constants below, so the browser and the server agree.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from dataclasses import dataclass

from lists.gamedata.snapshot import OptionInfo, SystemInfo, UnitTypeInfo

NAME_MAX_LENGTH = 120
NOTE_MAX_LENGTH = 300  # a unit's note: a painting scheme or which models, not an essay
SIZE_MIN, SIZE_MAX = 1, 100
OPTION_COUNT_MAX = 100  # for options whose pack gives no maximum
HOUSE_RULE_COUNT_MAX = 100  # a house rule's own maximum is a game rule: going past it is a finding
HERO_POINTS_MAX = 50
POINTS_LIMIT_MAX = 100_000
YEAR_MIN, YEAR_MAX = 1900, 1960
SETTING_NUMBER_MAX = 100_000  # a number setting, such as a tournament's limit of order dice
FORCES_MAX = 20  # forces (platoons) in one roster
# Control characters, line and paragraph separators and bidirectional marks, embeddings, overrides and
# isolates: a name holding one could print lines of its own (a fake "Legal" in roster.txt) or read backwards;
# and lone surrogates and the noncharacters U+FFFE and U+FFFF, which no XML (a .ros, a card) may hold.
CONTROL_CHARACTERS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)
ONE_LINE_MESSAGE = (
    "names and labels are one line of text: no line breaks, tabs or other control characters, nor direction marks"
    " or characters no text file may hold (U+FFFF, lone surrogates)"
)
# Characters that show nothing (zero-width spaces and joiners, soft hyphens, fillers, variation selectors,
# tags): two names differing only by them read the same, so they are removed (with every other format
# character, Unicode's category Cf).
INVISIBLE = re.compile(
    "[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
# Letters of other scripts that print as a Latin letter (after Unicode's confusables, TR39, for the Latin,
# Cyrillic and Greek letters a name is likely to mix): "Аnna" with a Cyrillic А reads as "Anna".
CONFUSABLES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУҮӀԚԜавеѕіјорсухһԁԛԝӏүкΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορτυχγıɑɡ‐‑‒–—―‘’‛′“”″",
    "ABESIJKMHOPCTXYYIQWabesijopcyxhdqwlykABEZHIKMNOPTYXaikvoptuxyiag------''''\"\"\"",
)


def one_line(text: str) -> str:
    """`text` as a name is kept: NFC, invisible characters removed, runs of spaces made one space.

    ValueError (pydantic and forms show its message) if it holds a control or direction character.
    """
    if CONTROL_CHARACTERS.search(text):
        raise ValueError(ONE_LINE_MESSAGE)
    return " ".join(unicodedata.normalize("NFC", _visible(text)).split())


def name_key(text: str) -> str:
    """What a name reads as, for telling whether two names can be told apart: compatibility forms
    (NFKC), case, invisible characters and letters of other scripts that look Latin all made one."""
    return _name_key(text[: NAME_MAX_LENGTH * 4])


@functools.lru_cache(maxsize=4096)
def _name_key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", _visible(text)).translate(CONFUSABLES)
    return " ".join(unicodedata.normalize("NFKC", decomposed.casefold()).split())


def _visible(text: str) -> str:
    if text.isascii():
        return text
    return "".join(char for char in INVISIBLE.sub("", text) if unicodedata.category(char) != "Cf")


def look_alike(name: str, taken: dict[str, str]) -> tuple[str, str] | None:
    """The name in `taken` (mapped to where it is) that `name` reads the same as, and where; or None."""
    key = name_key(name)
    for other, where in taken.items():
        if name_key(other) == key:
            return other, where
    return None


def _same_name(name: str, other: str) -> str:
    """How a refusal names the name taken: as it is, or as the look-alike it is."""
    return repr(name) if name == other else f"{name!r} (it reads the same as {other!r})"


@dataclass(frozen=True)
class Refusal:
    """One refused value: `field` names the input ("size", "options.lmg", "settings.hero-points")."""

    field: str
    message: str


def option_max(option: OptionInfo) -> int:
    """How many times an option may be bought at most (the most another option taken beside it allows)."""
    return max([option.max, *option.max_with.values()]) if option.max is not None else OPTION_COUNT_MAX


def open_options(unit_type: UnitTypeInfo, army_key: str, quality: str | None = None) -> list[OptionInfo]:
    """The options a unit offers to this army (some options are only for named armies), and to a unit of
    this quality when one is given (some options are only for some qualities)."""
    return [
        option
        for option in unit_type.options.values()
        if (not option.armies or army_key in option.armies)
        and (quality is None or not option.qualities or quality in option.qualities)
    ]


def open_qualities(unit_type: UnitTypeInfo, army_key: str) -> list[str]:
    """The qualities a unit is priced at in this army (a theatre list may not field some of them)."""
    return [key for key, price in unit_type.quality_prices.items() if not price.armies or army_key in price.armies]


def label_refusals(label: str, taken: dict[str, str]) -> list[Refusal]:
    """A roster unit's label must be its own: `taken` maps the other units' labels to where they are."""
    found = look_alike(label, taken)
    if found is not None:
        return [Refusal("label", f"The label {_same_name(label, found[0])} is already used by {found[1]}.")]
    return []


def force_refusals(names: list[str]) -> list[Refusal]:
    """A roster has from one to FORCES_MAX forces, each with a name of its own (findings name forces by it)."""
    refusals: list[Refusal] = []
    if not 1 <= len(names) <= FORCES_MAX:
        refusals.append(Refusal("", f"A roster has from 1 to {FORCES_MAX} forces, not {len(names)}."))
    seen: dict[str, str] = {}
    for index, name in enumerate(names):
        if not name.strip() or len(name) > NAME_MAX_LENGTH:
            refusals.append(Refusal(f"{index}.name", f"A force's name has 1 to {NAME_MAX_LENGTH} characters."))
        elif name_key(name) in seen:
            other = seen[name_key(name)]
            refusals.append(Refusal(f"{index}.name", f"Another force is already called {_same_name(name, other)}."))
        seen.setdefault(name_key(name), name)
    return refusals


def unit_refusals(
    system: SystemInfo,
    army_key: str,
    unit_type: UnitTypeInfo,
    *,
    quality: str | None = None,
    size: int | None = None,
    officer_rank: str | None = None,
    options: dict[str, int] | None = None,
    hero_points: int = 0,
) -> list[Refusal]:
    """Every value of one roster unit that cannot be saved; keys are the pack's keys."""
    refusals: list[Refusal] = []
    if quality is not None:
        priced = unit_type.quality_prices
        fielded = open_qualities(unit_type, army_key)
        if quality not in system.qualities:
            refusals.append(Refusal("quality", f"{quality!r} is not a troop quality of {system.name}."))
        elif priced and quality not in fielded:
            offered = " or ".join(system.qualities[key].name for key in fielded)
            name = system.qualities[quality].name
            where = "" if quality not in priced else " in this army list"
            refusals.append(Refusal("quality", f"{unit_type.name} has no {name} price{where}: choose {offered}."))
    if size is not None and not SIZE_MIN <= size <= SIZE_MAX:
        refusals.append(Refusal("size", f"A unit has from {SIZE_MIN} to {SIZE_MAX} men, not {size}."))
    if officer_rank is not None and officer_rank not in system.ranks:
        refusals.append(Refusal("officer_rank", f"{officer_rank!r} is not an officer rank of {system.name}."))
    offered = {option.key: option for option in open_options(unit_type, army_key)}
    for key, count in (options or {}).items():
        option = offered.get(key)
        if option is None:
            refusals.append(Refusal(f"options.{key}", f"{unit_type.name} offers no option {key!r} to this army."))
        elif count and quality is not None and option.qualities and quality not in option.qualities:
            allowed = " or ".join(system.qualities[key].name for key in option.qualities if key in system.qualities)
            refusals.append(
                Refusal(f"options.{key}", f"{option.name} is only for {allowed} units of {unit_type.name}.")
            )
        elif not 0 <= count <= option_max(option):
            most = option_max(option)
            times = "once" if most == 1 else f"{most} times"
            refusals.append(Refusal(f"options.{key}", f"{option.name} may be taken at most {times}, not {count}."))
    if hero_points and not system.config.get("hero_points"):
        refusals.append(Refusal("hero_points", f"{system.name} has no hero points."))
    elif not 0 <= hero_points <= HERO_POINTS_MAX:
        refusals.append(Refusal("hero_points", f"Hero points are a number from 0 to {HERO_POINTS_MAX}."))
    return refusals


def house_rule_refusals(name: str, count: int, field: str) -> list[Refusal]:
    """A house rule is bought from 0 to HOUSE_RULE_COUNT_MAX times (for the roster or for one unit)."""
    if not 0 <= count <= HOUSE_RULE_COUNT_MAX:
        return [Refusal(field, f"{name} is bought from 0 to {HOUSE_RULE_COUNT_MAX} times, not {count}.")]
    return []


def roster_refusals(
    system: SystemInfo,
    *,
    points_limit: int | None = None,
    year: int | None = None,
    period: str | None = None,
    settings: dict | None = None,
    rule_choices: tuple[str, ...] = (),
) -> list[Refusal]:
    """Every roster-wide value that cannot be saved: limit, year, period and the game's settings.

    `rule_choices` names the army's sets of national rules, which a `rule_choice` setting picks from.
    """
    refusals: list[Refusal] = []
    if points_limit is not None and not 0 <= points_limit <= POINTS_LIMIT_MAX:
        refusals.append(Refusal("points_limit", f"The points limit is a number from 0 to {POINTS_LIMIT_MAX:,}."))
    if year is not None and not YEAR_MIN <= year <= YEAR_MAX:
        refusals.append(Refusal("year", f"The year is a year from {YEAR_MIN} to {YEAR_MAX}, such as 1944."))
    if period and period not in {p["key"] for p in system.periods}:
        refusals.append(Refusal("period", f"{system.name} has no period {period!r}."))
    definitions = {definition["key"]: definition for definition in system.config.get("settings", [])}
    for key, value in (settings or {}).items():
        definition = definitions.get(key)
        if definition is None:
            close = difflib.get_close_matches(key, list(definitions), n=3)
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            known = ", ".join(definitions) or "none"
            refusals.append(Refusal(f"settings.{key}", f"unknown setting.{hint} This game's settings: {known}."))
        elif definition["kind"] == "rule_choice":
            if value is not None and value not in rule_choices:
                sets = "; ".join(rule_choices)
                said = (
                    f"one of this army's sets: {sets}" if sets else "left out: this army has one set of national rules"
                )
                refusals.append(Refusal(f"settings.{key}", f"{definition['name']} must be {said}."))
        elif value is not None and not _setting_fits(definition, value):
            refusals.append(Refusal(f"settings.{key}", f"{definition['name']} must be {_setting_kind(definition)}."))
    return refusals


def setting_choices(system: SystemInfo, definition: dict) -> list[tuple[str, str]]:
    """A choice setting's (key, name) pairs; a choice naming a hero-point reading shows that reading's name."""
    names = {reading["key"]: reading["name"] for reading in system.config.get("hero_points") or []}
    return [(choice, names.get(choice, choice)) for choice in definition.get("choices", [])]


def _setting_fits(definition: dict, value) -> bool:
    kind = definition["kind"]
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= SETTING_NUMBER_MAX
    return value in definition.get("choices", [])


def _setting_kind(definition: dict) -> str:
    kind = definition["kind"]
    if kind == "choice":
        return "one of " + ", ".join(definition.get("choices", []))
    return {"bool": "true or false", "int": f"a whole number from 0 to {SETTING_NUMBER_MAX:,}"}[kind]
