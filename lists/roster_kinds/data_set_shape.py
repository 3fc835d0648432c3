"""What the BattleScribe roster editor and share page show, read off the engine's roster.

Forces with their child forces; for each force the root entries it may take, by category (hidden ones
and those outside its categories not offered); for each selection the choices its entry nests: a group
whose limit is one selection is a one-of choice, every other entry a count. Costs are the engine's
after modifiers; each validation error is shown at the selection, force or category it is owned by,
the rest at the roster.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lists.battlescribe.engine import (
    Force,
    GroupFields,
    GroupOption,
    Option,
    Roster,
    Selection,
    ValidationError,
    effective_count,
    evaluation_pass,
    group_fields,
    hidden_categories,
    roster_errors,
)
from lists.rosters.battlescribe_card_content import (
    ProfileTable,
    Reference,
    ShownInfo,
    may_show_info,
    selection_profiles_and_rules,
    shown_selections,
)
from lists.rosters.battlescribe_data_editing import held_under, selections_of
from lists.rosters.battlescribe_data_rosters import number, primary_cost_type
from lists.rosters.battlescribe_offers import root_offer


@dataclass
class Offer:
    """An entry that may be selected: its id, name, cost now and how many are held."""

    entry_id: str
    name: str
    points: int | float
    count: int = 0
    most: int | None = None  # the most the data allows here, where it says
    least: int = 0  # the least the data asks for here (a compulsory entry: more than 0)
    has_info: bool = False  # its entry names profiles or rules (the picker folds them, fetched when unfolded)


@dataclass
class Control:
    """The choices for one child entry (`count`) or one group (`one-of`, `group`) under a selection."""

    kind: str
    name: str
    offers: list[Offer]
    group_id: str = ""
    chosen: str = ""
    optional: bool = True  # a one-of choice may be left empty


@dataclass
class SelectionShape:
    id: str
    name: str
    number: int
    points: int | float
    controls: list[Control] = field(default_factory=list)
    children: list[SelectionShape] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    top: bool = False  # a force's own selection: a unit, which its player may name and note
    custom_name: str = ""
    custom_notes: str = ""
    compulsory: bool = False  # the data asks for it at its place (min > 0, or the only choice of a group that does)
    tables: list[ProfileTable] = field(default_factory=list)  # its profiles, and those of what is shown under it
    references: list[Reference] = field(default_factory=list)  # its rules and abilities, with the data's text
    has_info: bool = False  # it (or what under it has no block of its own) names profiles or rules


@dataclass
class ForceShape:
    id: str
    name: str
    catalogue: str
    catalogue_id: str
    points: int | float
    offers: list[tuple[str, list[Offer]]] = field(default_factory=list)  # (category, entries)
    category_errors: dict[str, list[str]] = field(default_factory=dict)
    selections: list[SelectionShape] = field(default_factory=list)
    children: list[ForceShape] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    child_forces: list[tuple[str, str]] = field(default_factory=list)  # (force entry id, name) it may add


@dataclass
class RosterShape:
    name: str
    points: int | float
    limit: int | float | None
    cost_name: str
    forces: list[ForceShape]
    errors: list[str]  # the roster's own, and any not shown where they apply
    error_count: int
    other_costs: list[tuple[str, int | float]]


class Shaper:
    """Reads one roster into shapes; every error is used once, at its owner or at the roster."""

    def __init__(self, roster: Roster, with_offers: bool = True, with_info: bool | None = None) -> None:
        self.roster = roster
        self.with_offers = with_offers
        # The share page prints each selection's profiles and rules; the editor only knows which have any and
        # fetches one's when it is unfolded (`selection_info`), so an edit's answer stays as fast as before.
        self.with_info = not with_offers if with_info is None else with_info
        self.points_type = primary_cost_type(roster.data) or ""
        self.errors = roster_errors(roster)
        self.unplaced = list(self.errors)
        self.info = ShownInfo(roster)

    def take(self, owner_type: str, owner_id: str | None) -> list[str]:
        mine = [e for e in self.unplaced if e.owner_type == owner_type and e.owner_id == owner_id and owner_id]
        self.unplaced = [e for e in self.unplaced if e not in mine]
        return [e.message for e in mine]

    def take_entry(self, entry_ids: set[str]) -> list[str]:
        """Errors reported at an entry rather than at a selection (too many of it)."""
        mine = [
            e for e in self.unplaced if e.owner_type == "selection" and not e.owner_id and e.owner_entry_id in entry_ids
        ]
        self.unplaced = [e for e in self.unplaced if e not in mine]
        return [e.message for e in mine]

    def cost(self, costs: dict[str, float]) -> int | float:
        return number(costs.get(self.points_type, 0.0))

    def roster_shape(self) -> RosterShape:
        with evaluation_pass(self.roster):
            forces = [self.force_shape(force) for force in self.roster.forces]
        limit = self.roster.cost_limits.get(self.points_type, -1.0)
        names = {c.id: c.name for c in self.roster.data.cost_types}
        return RosterShape(
            name=self.roster.name,
            points=number(self.roster.totals.get(self.points_type, 0.0)),
            limit=number(limit) if limit >= 0 else None,
            cost_name=names.get(self.points_type, "points"),
            forces=forces,
            errors=[describe(e) for e in self.unplaced],
            error_count=len(self.errors),
            other_costs=[(names.get(t, t), number(v)) for t, v in self.roster.totals.items() if t != self.points_type],
        )

    def force_shape(self, force: Force) -> ForceShape:
        shape = ForceShape(
            id=force.id,
            name=force.name,
            catalogue=force.catalogue.name,
            catalogue_id=force.catalogue.id,
            points=number(sum(self.cost(s.costs) for s in force.all_selections())),
        )
        shape.selections = [self.selection_shape(s, top=True) for s in force.selections]
        if self.with_offers:
            shape.offers = self.force_offers(force)
            shape.child_forces = [(e.id, e.name) for e in force.entry.force_entries if not e.hidden]
        shape.errors = self.take("force", force.id)
        offered = {name for name, _ in shape.offers}
        for category in force.categories:
            found = [e for e in self.unplaced if e.owner_type == "category" and e.owner_entry_id == category.entry_id]
            self.unplaced = [e for e in self.unplaced if e not in found]
            if not found:
                continue
            if category.name in offered:  # beside the entries that answer it, else at the force's head
                shape.category_errors[category.name] = [e.message for e in found]
            else:
                shape.errors += [e.message for e in found]
        shape.children = [self.force_shape(child) for child in force.forces]
        return shape

    def force_offers(self, force: Force) -> list[tuple[str, list[Offer]]]:
        """The root entries a force may take, under its categories in the data's order."""
        # A category hidden in this force is not shown, nor the entries under it (as in BattleScribe).
        hidden = hidden_categories(self.roster, force)
        by_category: dict[str, list[Offer]] = {c.entry_id: [] for c in force.categories if c.entry_id not in hidden}
        for option in force.options:
            offered = root_offer(self.roster, force, option, hidden)  # what a post may add: the same check
            if offered is None:
                continue
            category, view = offered
            offer = Offer(option.id, view.name, self.cost(view.costs), len(selections_of(force, option)))
            offer.has_info = may_show_info(option)
            by_category.setdefault(category, []).append(offer)
        names = {c.entry_id: c.name for c in force.categories}
        return [(names.get(key, key), offers) for key, offers in by_category.items() if offers]

    def selection_shape(
        self, selection: Selection, top: bool = False, compulsory: frozenset[str] = frozenset()
    ) -> SelectionShape:
        shape = SelectionShape(
            id=selection.id,
            name=selection.name if selection.number == 1 else f"{selection.number}× {selection.name}",
            number=selection.number,
            points=number(sum(self.cost(s.costs) for s in selection.walk())),
            top=top,
            custom_name=(selection.custom_name or "").strip(),
            custom_notes=(selection.custom_notes or "").strip(),
        )
        shape.compulsory = selection.option.id in compulsory
        if self.with_offers:
            shape.controls = self.controls(selection)
        required = compulsory_entries(shape.controls)
        children = [self.selection_shape(child, compulsory=required) for child in selection.children]
        # In the editor a child gets its own block where it has something of its own to show; read-only, always.
        kept = [not self.with_offers or c.controls or c.children or c.errors for c in children]
        shape.children = [c for c, shown in zip(children, kept, strict=True) if shown]
        # Its profiles and rules, and those of what under it has no block of its own, as its card prints them.
        own_blocks = frozenset(id(c) for c, shown in zip(selection.children, kept, strict=True) if shown)
        if self.with_info:
            shape.tables, shape.references = selection_profiles_and_rules(self.roster, selection, self.info, own_blocks)
            shape.has_info = bool(shape.tables or shape.references)
        else:
            shape.has_info = any(may_show_info(s) for s in shown_selections(selection, own_blocks))
        shape.errors = self.take("selection", selection.id) + self.take_entry({selection.entry_id})
        return shape

    def controls(self, selection: Selection) -> list[Control]:
        """The choices under a selection: each group, then each entry in no group."""
        controls = []
        for group in selection.option.groups:
            fields = group_fields(self.roster.data, group, self.roster.context(selection, None))
            offers = [self.offer(o, selection) for o in group.direct_options]
            # A hidden group offers nothing new: only what is already held in it stays shown.
            offers = [o for o in offers if o is not None and (o.count or not fields.hidden)]
            if offers:
                controls.append(self.group_control(group, offers, fields))
        loose = [self.offer(o, selection) for o in selection.option.children if o.group is None]
        controls += [Control("count", o.name, [o]) for o in loose if o is not None]
        return controls

    def group_control(self, group: GroupOption, offers: list[Offer], fields: GroupFields) -> Control:
        most, least = limits(group, fields)
        if most == 1:
            chosen = next((o.entry_id for o in offers if o.count), "")
            return Control("one-of", fields.name, offers, group.id, chosen, optional=not least)
        return Control("group", fields.name, offers, group.id)

    def offer(self, option: Option, parent: Selection) -> Offer | None:
        held = selections_of(parent, option)
        view = self.roster.view_option(option, parent, held[0] if held else None)
        if view.hidden and not held:
            return None
        most, least = None, 0
        for constraint, _holder in option.constraints():
            query = constraint.query
            if query.field == "selections" and query.scope == "parent" and not query.percent_value:
                value = view.constraint_values.get(constraint.id, constraint.value)
                if constraint.type == "max" and value >= 0:
                    most = int(value) if most is None else min(most, int(value))
                elif constraint.type == "min" and value > 0:
                    least = max(least, int(value))
        count = effective_count(parent, option)
        return Offer(option.id, view.name, self.cost(view.costs), count, most, least, has_info=may_show_info(option))


def compulsory_entries(controls: list[Control]) -> frozenset[str]:
    """The entries the data asks for under a selection: each with a minimum of its own, and the only choice of
    a group with one (a Flames of War company's "Formation HQ (Compulsory)")."""
    found = set()
    for control in controls:
        found.update(o.entry_id for o in control.offers if o.least)
        if not control.optional and len(control.offers) == 1:
            found.add(control.offers[0].entry_id)
    return frozenset(found)


def limits(group: GroupOption, fields: GroupFields) -> tuple[int | None, int]:
    """A group's most and least selections under its parent, where its constraints say (after the
    group's modifiers there, as the engine checks them)."""
    most, least = None, 0
    for constraint, _holder in group.constraints():
        query = constraint.query
        if query.field != "selections" or query.scope != "parent":
            continue
        value = fields.limit(constraint.id, constraint.value)
        if constraint.type == "max" and value >= 0:
            most = int(value) if most is None else min(most, int(value))
        elif constraint.type == "min":
            least = max(least, int(value))
    return most, least


def describe(error: ValidationError) -> str:
    return error.message


def roster_shape(roster: Roster, with_offers: bool = True) -> RosterShape:
    """The roster as the editor (`with_offers`) or the share page shows it."""
    return Shaper(roster, with_offers).roster_shape()


def selection_info(roster: Roster, selection: Selection) -> SelectionShape:
    """One selection as the editor shows it, with its profiles and rules (those the editor folds and fetches
    when unfolded: the selection's own and those of what under it has no block of its own)."""
    with evaluation_pass(roster):
        return Shaper(roster, with_offers=True, with_info=True).selection_shape(selection)


__all__ = ["roster_shape", "selection_info", "RosterShape", "held_under"]
