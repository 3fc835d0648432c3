"""What a unit card of any BattleScribe roster says: its costs, its profiles as tables, its rules by reference.

A card is built from the engine's roster as BattleScribe shows it (profiles and rules after modifiers,
hidden ones left out). Each profile type the game defines becomes a table whose columns are the data's
own characteristic names, one row per distinct profile with how many of it the unit has.

The data's rule descriptions and prose characteristics are the books' words: they never reach a card.
A rule is named with its publication and page; a characteristic is prose when a twentieth or more of
its values across the whole data set run to `PROSE_WORDS` words (the length our copied-text check
looks for), and its column is left out; a single long value elsewhere is cut to its first words and a
reference. A profile left with no column (a "Special Rule" type holding only its description) is
named like a rule.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from lists.battlescribe.engine import Context, GameData, InfoGroup, Profile, Roster, Selection, ShownProfile, shown_info
from lists.rosters.battlescribe_data_rosters import primary_cost_type

PROSE_WORDS = 12
PROSE_SHARE = 0.05  # a column is prose when at least this share of its values are PROSE_WORDS long
KEPT_WORDS = 6  # the first words of a long value kept before the reference


@dataclass
class ProfileRow:
    name: str
    count: int
    values: list[str]


@dataclass
class ProfileTable:
    type_name: str
    columns: list[str]
    rows: list[ProfileRow] = field(default_factory=list)


@dataclass(frozen=True)
class Reference:
    """A rule (or a profile of prose only) named where to read it: never its text."""

    name: str
    kind: str  # "rule", or the profile type's name
    publication: str
    page: str
    summary: str = ""  # our own one line, where we have written one

    @property
    def where(self) -> str:
        page = f"p. {self.page}" if self.page else ""
        return ", ".join(part for part in (self.publication, page) if part)


@dataclass
class UnitCard:
    name: str
    entry_name: str
    force: str
    category: str
    number: int
    costs: list[tuple[str, int | float]]
    chosen: list[str]
    tables: list[ProfileTable]
    references: list[Reference]
    notes: str = ""


def number(value: float) -> int | float:
    rounded = float(f"{value:.15g}")
    return int(rounded) if rounded.is_integer() else rounded


def all_profiles(data: GameData) -> list[Profile]:
    found = list(data.profiles.values())

    def in_group(group: InfoGroup) -> None:
        found.extend(group.profiles)
        for inner in group.info_groups:
            in_group(inner)

    for entry in data.entries.values():
        found.extend(entry.profiles)
        for group in entry.info_groups:
            in_group(group)
    for group in data.info_groups.values():
        in_group(group)
    return found


T = TypeVar("T")


def per_data(compute: Callable[[GameData], T]) -> Callable[[GameData], T]:
    """`compute` once per game data, forgotten with it (the compiled data's cache may drop a revision)."""
    known: weakref.WeakKeyDictionary[GameData, T] = weakref.WeakKeyDictionary()

    def once(data: GameData) -> T:
        if data not in known:
            known[data] = compute(data)
        return known[data]

    return once


@per_data
def prose_columns(data: GameData) -> frozenset[tuple[str, str]]:
    """The (profile type, characteristic) pairs of the data whose values are prose (see the module)."""
    long: Counter[tuple[str, str]] = Counter()
    every: Counter[tuple[str, str]] = Counter()
    for profile in all_profiles(data):
        for characteristic in profile.characteristics:
            key = (profile.type_name, characteristic.name)
            every[key] += 1
            long[key] += len((characteristic.value or "").split()) >= PROSE_WORDS
    return frozenset(key for key, total in every.items() if long[key] >= max(1, total * PROSE_SHARE))


@per_data
def widest_profile(data: GameData) -> int:
    """The most characteristics any profile type of the data prints (prose ones are not printed)."""
    prose = prose_columns(data)
    columns: dict[str, set[str]] = {}
    for profile in all_profiles(data):
        kept = {c.name for c in profile.characteristics if (profile.type_name, c.name) not in prose}
        columns.setdefault(profile.type_name, set()).update(kept)
    return max((len(names) for names in columns.values()), default=0)


def publication_name(data: GameData, publication_id: str | None) -> str:
    publication = data.publications.get(publication_id or "")
    return publication.name.strip() if publication is not None else ""


def short_value(value: str, where: str) -> str:
    """A characteristic as printed: a long one cut to its first words and where to read the rest."""
    words = (value or "").split()
    if len(words) < PROSE_WORDS:
        return " ".join(words)
    return " ".join(words[:KEPT_WORDS]) + " … (see " + (where or "the rules") + ")"


def _unit_selections(top: Selection) -> list[tuple[Selection, int]]:
    """The unit and everything under it that is shown, each with how many of it the unit holds.

    A child's number is already the unit's whole count of it (four riflemen's rifles: number 4), as
    BattleScribe writes it; the unit itself counts once (its own number is printed beside its name).
    """
    found = []
    pending = [top]
    while pending:
        selection = pending.pop(0)
        if selection.hidden:
            continue
        found.append((selection, 1 if selection is top else selection.number))
        pending += selection.children
    return found


def unit_card(roster: Roster, top: Selection, summaries: dict[str, str] | None = None) -> UnitCard:
    """The card of one top-level selection."""
    data = roster.data
    prose = prose_columns(data)
    summaries = summaries or {}
    tables: dict[str, ProfileTable] = {}
    counts: dict[tuple, int] = {}
    references: dict[tuple[str, str], Reference] = {}
    chosen: Counter[str] = Counter()
    for selection, times in _unit_selections(top):
        if selection is not top:
            chosen[selection.name] += times
        profiles, rules = shown_info(data, selection.option.sources, Context.of_selection(roster, selection))
        for profile in (p for p in profiles if not p.hidden):
            _add_profile(data, profile, prose, times, tables, counts, references, summaries)
        for rule in (r for r in rules if not r.hidden):
            pub = publication_name(data, rule.publication_id)
            key = ("rule", rule.name)
            references.setdefault(key, Reference(rule.name, "rule", pub, rule.page or "", summaries.get(rule.name, "")))
    for (type_name, name, values), count in counts.items():
        table, by_column = tables[type_name], dict(values)
        table.rows.append(ProfileRow(name, count, [by_column.get(column, "") for column in table.columns]))
    costs = _unit_costs(roster, top)
    # The category's own name: a link's name is the data editor's label ("New CategoryLink"), never shown to players.
    category = next((data.category_name(c.entry_id) or c.name for c in top.categories if c.primary), "")
    return UnitCard(
        name=(top.custom_name or "").strip() or top.name,
        entry_name=top.name,
        force=(top.force.custom_name or "").strip() or top.force.catalogue.name,
        category=category,
        number=top.number,
        costs=costs,
        chosen=[f"{n}× {name}" if n > 1 else name for name, n in chosen.items()],
        tables=[t for t in tables.values() if t.rows],
        references=sorted(references.values(), key=lambda r: (r.kind != "rule", r.kind, r.name.lower())),
        notes=(top.custom_notes or "").strip(),
    )


def _add_profile(data, profile: ShownProfile, prose, times, tables, counts, references, summaries) -> None:
    where = ", ".join(
        part for part in (publication_name(data, profile.publication_id), profile.page and f"p. {profile.page}") if part
    )
    kept = [(name, value) for name, _, value in profile.characteristics if (profile.type_name, name) not in prose]
    if not kept:
        pub = publication_name(data, profile.publication_id)
        reference = Reference(profile.name, profile.type_name, pub, profile.page or "", summaries.get(profile.name, ""))
        references.setdefault((profile.type_name, profile.name), reference)
        return
    table = tables.setdefault(profile.type_name, ProfileTable(profile.type_name, []))
    for name, _ in kept:
        if name not in table.columns:
            table.columns.append(name)
    by_column = dict(kept)
    # Values are keyed by column name so rows of one type line up even when a profile lacks a column.
    values = tuple((name, short_value(by_column[name], where)) for name, _ in kept)
    key = (profile.type_name, profile.name, values)
    counts[key] = counts.get(key, 0) + times


def _unit_costs(roster: Roster, top: Selection) -> list[tuple[str, int | float]]:
    """The unit's costs by the game's cost type names: the shown types it declares or has a value of."""
    totals: dict[str, float] = {}
    for selection in top.walk():
        for type_id, value in selection.costs.items():
            totals[type_id] = totals.get(type_id, 0.0) + value
    points = primary_cost_type(roster.data)
    return [
        (cost_type.name, number(totals.get(cost_type.id, 0.0)))
        for cost_type in roster.data.cost_types
        if cost_type.id == points or (not cost_type.hidden and totals.get(cost_type.id))
    ]


SETTINGS_CARD = "Roster settings"


def roster_cards(roster: Roster, summaries: dict[str, str] | None = None) -> list[UnitCard]:
    """One card per top-level selection of each force (child forces after their parents), hidden ones left out.

    A selection with nothing to print (no profile, rule or note: a roster's configuration, a count of order
    dice) is no unit: such selections share one "Roster settings" card at the front instead of a card each.
    """
    cards, settings = [], []
    for force in roster.all_forces():
        for top in force.selections:
            if not top.hidden:
                card = unit_card(roster, top, summaries)
                (cards if card.tables or card.references or card.notes else settings).append(card)
    return ([_settings_card(settings)] if settings else []) + cards


def _settings_card(settings: list[UnitCard]) -> UnitCard:
    """The card of the selections that are settings, each with what was chosen under it, and their costs."""
    totals: dict[str, int | float] = {}
    for card in settings:
        for name, value in card.costs:
            totals[name] = number(totals.get(name, 0) + value)
    return UnitCard(
        name=SETTINGS_CARD,
        entry_name=SETTINGS_CARD,
        force=", ".join(dict.fromkeys(card.force for card in settings)),
        category="",
        number=1,
        costs=list(totals.items()),
        chosen=[f"{card.name}: {', '.join(card.chosen)}" if card.chosen else card.name for card in settings],
        tables=[],
        references=[],
    )
