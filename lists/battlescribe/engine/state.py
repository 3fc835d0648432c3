"""A roster's state in the conformance protocol's shape (the `state` message).

Forces, selections and child forces are listed as BattleScribe's roster tree shows them: sorted
by name, case-insensitively, keeping insertion order between equal names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .counting import evaluation_pass
from .elements import Force, Selection
from .info import ShownProfile, ShownRule, gather, shown_info
from .queries import Context
from .validation import roster_errors

if TYPE_CHECKING:
    from .roster import Roster

State = dict[str, Any]


def number_out(value: float) -> float | int:
    """A cost as BattleScribe reports it: a double read to 15 significant digits."""
    rounded = float(f"{value:.15g}")
    return int(rounded) if rounded.is_integer() else rounded


def by_name(items: list[Any]) -> list[Any]:
    """Items in the roster tree's order: by name, ignoring case."""
    return sorted(items, key=lambda item: item.name.lower())


def costs_out(roster: Roster, costs: dict[str, float]) -> list[State]:
    """Cost values with their cost types' names."""
    found = []
    for type_id, value in costs.items():
        cost_type = roster.data.cost_type_by_id.get(type_id)
        cost: State = {"name": cost_type.name if cost_type else type_id, "typeId": type_id, "value": number_out(value)}
        if cost_type is not None and cost_type.hidden:
            cost["hidden"] = True
        found.append(cost)
    return found


def profile_out(profile: ShownProfile) -> State:
    """A profile's state."""
    found: State = {
        "name": profile.name,
        "typeId": profile.type_id,
        "typeName": profile.type_name,
        "hidden": profile.hidden,
        "characteristics": [{"name": c[0], "typeId": c[1], "value": c[2]} for c in profile.characteristics],
    }
    if profile.page is not None:
        found["page"] = profile.page
    if profile.publication_id:
        found["publicationId"] = profile.publication_id
    return found


def rule_out(rule: ShownRule) -> State:
    """A rule's state."""
    found: State = {"name": rule.name, "description": rule.description, "hidden": rule.hidden}
    if rule.page is not None:
        found["page"] = rule.page
    if rule.publication_id:
        found["publicationId"] = rule.publication_id
    return found


def selection_out(roster: Roster, selection: Selection) -> State:
    """A selection's state, with its children's."""
    context = Context.of_selection(roster, selection)
    profiles, rules = shown_info(roster.data, selection.option.sources, context)
    found: State = {
        "id": selection.id,
        "name": selection.name,
        "entryId": selection.entry_id,
        "type": selection.type,
        "number": selection.number,
        "hidden": selection.hidden,
        "costs": costs_out(roster, selection.costs),
        "children": [selection_out(roster, child) for child in by_name(selection.children)],
        "profiles": [profile_out(p) for p in profiles if not p.hidden],
        "rules": [rule_out(r) for r in rules if not r.hidden],
        "categories": [{"name": c.name, "entryId": c.entry_id, "primary": c.primary} for c in selection.categories],
    }
    optional = {
        "entryGroupId": selection.entry_group_id,
        "page": selection.page,
        "publicationId": selection.publication_id,
        "publicationName": roster.data.publication_name(selection.publication_id),
        "customName": selection.custom_name,
        "customNotes": selection.custom_notes,
    }
    found.update({k: v for k, v in optional.items() if v})
    return found


def force_out(roster: Roster, force: Force) -> State:
    """A force's state, with its selections and child forces."""
    profiles, rules = force_info(roster, force)
    found: State = {
        "id": force.id,
        "name": force.name,
        "entryId": force.entry.id,
        "catalogueId": force.catalogue.id,
        "catalogueName": force.catalogue.name,
        "hidden": force.hidden,
        "availableEntryCount": available_entry_count(force),
        "selections": [selection_out(roster, s) for s in by_name(force.selections)],
        "childForces": [force_out(roster, f) for f in by_name(force.forces)],
        "profiles": [profile_out(p) for p in profiles],
        "rules": [rule_out(r) for r in rules],
        "categories": [category_out(c) for c in force.categories],
    }
    publications = [*force.catalogue.publications, *roster.data.game_system.publications]
    if publications:
        found["publications"] = [{"id": p.id, "name": p.name} for p in publications]
    optional = {
        "page": force.entry.page,
        "publicationId": force.entry.publication_id,
        "customName": force.custom_name,
        "customNotes": force.custom_notes,
    }
    found.update({k: v for k, v in optional.items() if v})
    return found


def available_entry_count(force: Force) -> int:
    """How many entries a force offers at its root, as BattleScribe counts them: selection entries and
    links to them (a root group's members are not counted; BattleScribe lists no groups at the root)."""
    return sum(1 for option in force.options if option.group is None)


def force_info(roster: Roster, force: Force) -> tuple[list[ShownProfile], list[ShownRule]]:
    """A force's profiles and rules: its entry's, then its catalogue's and the game system's root rules."""
    context = Context.of_force(roster, force)
    profiles, rules = shown_info(roster.data, (force.entry,), context)
    books = (
        [force.catalogue] if force.catalogue is roster.data.game_system else [force.catalogue, roster.data.game_system]
    )
    for book in books:
        rules.extend(shown_info_lists(roster, book.rules, book.info_links, context)[1])
    return profiles, rules


def shown_info_lists(
    roster: Roster, rules: list[Any], links: list[Any], context: Context
) -> tuple[list[ShownProfile], list[ShownRule]]:
    """Profiles and rules from a book's root rules and info links."""
    shown_profiles: list[ShownProfile] = []
    shown_rules: list[ShownRule] = []
    gather(roster.data, [], rules, [], links, context, shown_profiles, shown_rules)
    return shown_profiles, shown_rules


def category_out(category: Any) -> State:
    """A force category's state."""
    found: State = {"name": category.name, "entryId": category.entry_id, "primary": False}
    if category.custom_name:
        found["customName"] = category.custom_name
    if category.custom_notes:
        found["customNotes"] = category.custom_notes
    return found


def roster_state(roster: Roster) -> State:
    """The whole roster's state, as the protocol's `state` message."""
    with evaluation_pass(roster):
        return state_of(roster)


def state_of(roster: Roster) -> State:
    """The whole roster's state, within an evaluation pass."""
    found: State = {
        "type": "state",
        "name": roster.name,
        "gameSystemId": roster.data.game_system.id,
        "gameSystemName": roster.data.game_system.name,
        "forces": [force_out(roster, f) for f in by_name(roster.forces)],
        "costs": costs_out(roster, roster.totals),
        "validationErrors": [e.as_protocol() for e in roster_errors(roster)],
    }
    limits = {type_id: value for type_id, value in roster.cost_limits.items() if value >= 0}
    if limits:
        found["costLimits"] = costs_out(roster, limits)
    return found
