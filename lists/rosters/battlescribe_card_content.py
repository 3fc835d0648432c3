"""What the cards of any BattleScribe roster say: a card per unit as the data nests them, its profiles as
tables, its rules and abilities with the loaded data's own text.

A card is built from the engine's roster as BattleScribe shows it (profiles and rules after modifiers,
hidden ones left out). Which selections are units is read from the data's nesting: a top-level selection
is one, unless it is a formation (nothing of its own to show, and a child of type "unit" that has), whose
children that show something are units themselves, at any depth (a Flames of War company's HQ and each
platoon). Models and upgrades under a unit stay on its card. A top-level selection that is not of type
"unit" and shows nothing anywhere under it (a roster's configuration, a count of order dice) is a setting:
the settings share one card and are never counted as units.

Each profile type the game defines becomes a table whose columns are the data's own characteristic
names, one row per distinct profile with how many of it the unit has. A characteristic is prose when a
twentieth or more of its values across the whole data set run to `PROSE_WORDS` words: it is printed as
text under the tables, as the rules are. Rules and abilities carry the description of the data the
operator loaded (never text of this repository) with the publication and page the data names; where the
data gives no text, the card says which publication to read.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from lists.battlescribe.engine import (
    Context,
    Force,
    GameData,
    InfoGroup,
    Profile,
    Roster,
    Selection,
    ShownProfile,
    shown_info,
)
from lists.rosters.battlescribe_data_rosters import primary_cost_type

PROSE_WORDS = 12
PROSE_SHARE = 0.05  # a column is prose when at least this share of its values are PROSE_WORDS long
UNIT_TYPE = "unit"  # the selection type BattleScribe's data gives a unit


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
    """A rule or ability: its text as the loaded data gives it, and where the data says it is printed."""

    name: str
    kind: str  # "rule", or the profile type's name (with the characteristic of a prose value)
    publication: str
    page: str
    summary: str = ""  # our own one line, printed where the data gives no text
    text: str = ""  # the data's description

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
    formation: str = ""  # the formation the unit is part of, as the data nests it (a company of platoons)


Shown = tuple[list[ShownProfile], list]  # its profiles and its rules (the engine's ShownRule)


class ShownInfo:
    """Each selection's own shown profiles and rules (hidden ones left out), worked out once per roster."""

    def __init__(self, roster: Roster) -> None:
        self.roster = roster
        self.known: dict[int, Shown] = {}

    def of(self, selection: Selection) -> Shown:
        if id(selection) not in self.known:
            context = Context.of_selection(self.roster, selection)
            profiles, rules = shown_info(self.roster.data, selection.option.sources, context)
            self.known[id(selection)] = ([p for p in profiles if not p.hidden], [r for r in rules if not r.hidden])
        return self.known[id(selection)]

    def has_own(self, selection: Selection) -> bool:
        profiles, rules = self.of(selection)
        return bool(profiles or rules)

    def shows_anything(self, selection: Selection) -> bool:
        return any(self.has_own(s) for s in selection.walk() if not s.hidden)


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
    """The most characteristics any profile type of the data prints in its table (prose is printed as text)."""
    prose = prose_columns(data)
    columns: dict[str, set[str]] = {}
    for profile in all_profiles(data):
        kept = {c.name for c in profile.characteristics if (profile.type_name, c.name) not in prose}
        columns.setdefault(profile.type_name, set()).update(kept)
    return max((len(names) for names in columns.values()), default=0)


def publication_name(data: GameData, publication_id: str | None) -> str:
    publication = data.publications.get(publication_id or "")
    return publication.name.strip() if publication is not None else ""


def _shown(selections: list[Selection]) -> list[Selection]:
    return [s for s in selections if not s.hidden]


def is_formation(selection: Selection, info: ShownInfo) -> bool:
    """Nothing of its own to show, and a child unit that has: a formation of units (a company of platoons)."""
    children = _shown(selection.children)
    return not info.has_own(selection) and any(c.type == UNIT_TYPE and info.has_own(c) for c in children)


def is_setting(selection: Selection, info: ShownInfo) -> bool:
    """Not a unit and nothing to show under it: a roster's configuration, a game option."""
    return selection.type != UNIT_TYPE and not info.shows_anything(selection)


@dataclass
class CardUnit:
    """A selection that gets a card, the selections under it that have cards of their own, and its formations."""

    selection: Selection
    split_off: frozenset[int] = frozenset()  # id() of the children printed on cards of their own
    formations: tuple[Selection, ...] = ()
    formation_only: bool = False  # a formation's card of what was chosen for the formation itself


def card_units(selection: Selection, info: ShownInfo, formations: tuple[Selection, ...] = ()) -> list[CardUnit]:
    """The cards a selection's units take, in the roster's order (see the module)."""
    if not is_formation(selection, info):
        return [CardUnit(selection, formations=formations)]
    children = _shown(selection.children)
    units = [c for c in children if c.type == UNIT_TYPE or info.shows_anything(c)]
    found = []
    if len(units) < len(children):  # what was chosen for the formation itself gets the formation's card
        found.append(CardUnit(selection, frozenset(map(id, units)), formations, formation_only=True))
    for child in units:
        found += card_units(child, info, (*formations, selection))
    return found


def _unit_selections(unit: CardUnit) -> list[tuple[Selection, int]]:
    """The unit and everything under it that is shown, each with how many of it the unit holds.

    A child's number is already the unit's whole count of it (four riflemen's rifles: number 4), as
    BattleScribe writes it; the unit itself counts once (its own number is printed beside its name).
    """
    top, found, pending = unit.selection, [], [unit.selection]
    while pending:
        selection = pending.pop(0)
        if selection.hidden or id(selection) in unit.split_off:
            continue
        found.append((selection, 1 if selection is top else selection.number))
        pending += selection.children
    return found


def _name(selection: Selection | Force) -> str:
    return (selection.custom_name or "").strip() or selection.name


def unit_card(
    roster: Roster,
    top: Selection,
    summaries: dict[str, str] | None = None,
    unit: CardUnit | None = None,
    info: ShownInfo | None = None,
) -> UnitCard:
    """The card of one unit (by default a whole top-level selection, everything under it on the card)."""
    data, unit, info = roster.data, unit or CardUnit(top), info or ShownInfo(roster)
    chosen: Counter[str] = Counter()
    selections = _unit_selections(unit)
    for selection, times in selections:
        if selection is not top:
            chosen[selection.name] += times
    tables, references = profiles_and_rules(data, [(info.of(s), times) for s, times in selections], summaries)
    # The category's own name: a link's name is the data editor's label ("New CategoryLink"), never shown to players.
    # A nested unit without a primary category of its own is in its formation's.
    category = next(
        (
            data.category_name(c.entry_id) or c.name
            for s in (top, *unit.formations[::-1])
            for c in s.categories
            if c.primary
        ),
        "",
    )
    return UnitCard(
        name=_name(top),
        entry_name=top.name,
        force=(top.force.custom_name or "").strip() or top.force.catalogue.name,
        category=category,
        number=top.number,
        costs=_unit_costs(roster, list(_priced(unit.selection, unit.split_off))),
        chosen=[f"{n}× {name}" if n > 1 else name for name, n in chosen.items()],
        tables=tables,
        references=references,
        notes=(top.custom_notes or "").strip(),
        formation=" · ".join(_name(s) for s in unit.formations),
    )


def profiles_and_rules(
    data: GameData, shown: list[tuple[Shown, int]], summaries: dict[str, str] | None = None
) -> tuple[list[ProfileTable], list[Reference]]:
    """The tables of profiles (a row per distinct profile, with how many of it) and the rules and abilities of
    what is shown (each selection's or entry's shown info, with how many of it there are), as a card prints them."""
    prose, summaries = prose_columns(data), summaries or {}
    tables: dict[str, ProfileTable] = {}
    counts: dict[tuple, int] = {}
    references: dict[tuple[str, str], Reference] = {}
    for (profiles, rules), times in shown:
        for profile in profiles:
            _add_profile(data, profile, prose, times, tables, counts, references, summaries)
        for rule in rules:
            pub, text = publication_name(data, rule.publication_id), _text(rule.description)
            summary = summaries.get(rule.name, "")
            references.setdefault(
                ("rule", rule.name), Reference(rule.name, "rule", pub, rule.page or "", summary, text)
            )
    for (type_name, name, values), count in counts.items():
        table, by_column = tables[type_name], dict(values)
        table.rows.append(ProfileRow(name, count, [by_column.get(column, "") for column in table.columns]))
    ranked = sorted(references.values(), key=lambda r: (r.kind != "rule", r.kind, r.name.lower()))
    return [t for t in tables.values() if t.rows], ranked


def selection_profiles_and_rules(
    roster: Roster, selection: Selection, info: ShownInfo, split_off: frozenset[int] = frozenset()
) -> tuple[list[ProfileTable], list[Reference]]:
    """What a selection and everything shown under it (but `split_off`, the selections shown on their own)
    print as a card does: the editor's and the share page's folded profiles and rules of a selection."""
    selections = _unit_selections(CardUnit(selection, split_off))
    return profiles_and_rules(roster.data, [(info.of(s), times) for s, times in selections])


def shown_selections(selection: Selection, split_off: frozenset[int] = frozenset()) -> list[Selection]:
    """A selection and everything shown under it but `split_off` (and what is under those)."""
    return [s for s, _times in _unit_selections(CardUnit(selection, split_off))]


def may_show_info(node) -> bool:
    """Whether a selection's entry (or an option's, or one of the entries an option nests) names any profile or
    rule, before modifiers: a quick test of whether there is anything to fold, without working out what is shown."""
    if isinstance(node, Selection):
        return _names_info(node.option)
    return _names_info(node) or any(_names_info(child) for child in node.children)


def _names_info(option) -> bool:
    return any(s.profiles or s.rules or s.info_groups or s.info_links for s in option.sources)


def entry_profiles_and_rules(roster: Roster, option, parent: Force | Selection) -> tuple[list[ProfileTable], list]:
    """What an entry not yet selected would show under `parent` (hidden ones left out), with what the entries it
    nests show (a squad's men and their weapons), each once: the picker's folded profiles and rules. Modifiers are
    applied as at `parent` (the entry is not selected yet, so nothing of its own can change them)."""
    context = Context.under(roster, parent)
    shown = []
    for node in (option, *option.children):
        profiles, rules = shown_info(roster.data, node.sources, context)
        shown.append((([p for p in profiles if not p.hidden], [r for r in rules if not r.hidden]), 1))
    return profiles_and_rules(roster.data, shown)


def _text(value: str | None) -> str:
    """The data's text as printed: its paragraphs kept, each paragraph's white space made single spaces."""
    paragraphs = (" ".join(line.split()) for line in (value or "").strip().splitlines())
    return "\n".join(p for p in paragraphs if p)


def _add_profile(data, profile: ShownProfile, prose, times, tables, counts, references, summaries) -> None:
    pub, page = publication_name(data, profile.publication_id), profile.page or ""
    kept = [(name, value) for name, _, value in profile.characteristics if (profile.type_name, name) not in prose]
    for name, _, value in profile.characteristics:
        if (profile.type_name, name) in prose and any(c.isalnum() for c in value or ""):  # not a "-" for none
            kind = profile.type_name if not kept else f"{profile.type_name}: {name}"
            reference = Reference(profile.name, kind, pub, page, summaries.get(profile.name, ""), _text(value))
            references.setdefault((kind, profile.name), reference)
    if not kept:  # named like a rule (with its text, when a prose value gave it one above)
        reference = Reference(profile.name, profile.type_name, pub, page, summaries.get(profile.name, ""))
        references.setdefault((profile.type_name, profile.name), reference)
        return
    table = tables.setdefault(profile.type_name, ProfileTable(profile.type_name, []))
    for name, _ in kept:
        if name not in table.columns:
            table.columns.append(name)
    # Values are keyed by column name so rows of one type line up even when a profile lacks a column.
    values = tuple((name, " ".join((value or "").split())) for name, value in kept)
    key = (profile.type_name, profile.name, values)
    counts[key] = counts.get(key, 0) + times


def _priced(selection: Selection, split_off: frozenset[int] = frozenset()) -> Iterator[Selection]:
    """The selections whose costs are the unit's: all under it (hidden ones too, as the roster's totals count
    them) but those on cards of their own."""
    yield selection
    for child in selection.children:
        if id(child) not in split_off:
            yield from _priced(child, split_off)


def _unit_costs(roster: Roster, selections: list[Selection]) -> list[tuple[str, int | float]]:
    """The unit's costs by the game's cost type names: the shown types it declares or has a value of."""
    totals: dict[str, float] = {}
    for selection in selections:
        for type_id, value in selection.costs.items():
            totals[type_id] = totals.get(type_id, 0.0) + value
    points = primary_cost_type(roster.data)
    return [
        (cost_type.name, number(totals.get(cost_type.id, 0.0)))
        for cost_type in roster.data.cost_types
        if cost_type.id == points or (not cost_type.hidden and totals.get(cost_type.id))
    ]


SETTINGS_CARD = "Roster settings"


def force_units(force: Force, info: ShownInfo) -> tuple[list[CardUnit], list[Selection]]:
    """A force's units as the data nests them, in the roster's order, and its settings."""
    units: list[CardUnit] = []
    settings = []
    for top in _shown(force.selections):
        if is_setting(top, info):
            settings.append(top)
        else:
            units += card_units(top, info)
    return units, settings


def roster_cards(roster: Roster, summaries: dict[str, str] | None = None) -> list[UnitCard]:
    """One card per unit of each force (child forces after their parents), hidden ones left out, the settings
    of every force on one "Roster settings" card at the front."""
    info, cards, settings = ShownInfo(roster), [], []
    for force in roster.all_forces():
        units, found = force_units(force, info)
        cards += [unit_card(roster, unit.selection, summaries, unit, info) for unit in units]
        settings += [unit_card(roster, top, summaries, info=info) for top in found]
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


@dataclass
class ListedUnit:
    """A row of the organiser's list: a unit, or a formation heading the units nested in it."""

    name: str
    entry: str
    number: int
    depth: int  # how many formations it is nested in
    costs: dict[str, int | float]
    formation: bool = False


def listed_units(roster: Roster, force: Force, info: ShownInfo | None = None) -> list[ListedUnit]:
    """Every unit of a force for the organiser's list, nested ones under their formations; settings left out."""
    info = info or ShownInfo(roster)
    rows: list[ListedUnit] = []
    listed: set[int] = set()
    for unit in force_units(force, info)[0]:
        for depth, formation in enumerate(unit.formations):
            if id(formation) not in listed:
                listed.add(id(formation))
                costs = dict(_unit_costs(roster, list(_priced(formation))))
                rows.append(ListedUnit(_name(formation), formation.name, formation.number, depth, costs, True))
        if unit.formation_only:
            continue  # the formation's own row above stands for its card
        top = unit.selection
        costs = dict(_unit_costs(roster, list(_priced(top, unit.split_off))))
        rows.append(ListedUnit(_name(top), top.name, top.number, len(unit.formations), costs))
    return rows
