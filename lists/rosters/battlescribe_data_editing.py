"""Rosters of a loaded BattleScribe data set, kept (`BattleScribeRoster`) and changed through the engine.

A kept roster is the .ros XML the engine writes (without the profiles and rules it shows, which
reading back never uses: `export_xml` writes the whole file for BattleScribe). Every change reads it back against the data set it is
pinned to (compiled once per process), makes one engine action (add a force, select an entry, set a
count, choose in a one-of group, remove), and writes it again with its summary: name, points, limit
and how many validation errors. The engine is the judge: nothing here prices or checks anything.
"""

from __future__ import annotations

import itertools
import re
from collections import OrderedDict

from django.db import transaction

from lists import models
from lists.battlescribe.engine import (
    DataLimitExceeded,
    Force,
    Option,
    Roster,
    Selection,
    children_named,
    effective_count,
    read_roster_xml,
    roster_errors,
    write_roster_xml,
)
from lists.battlescribe.safe_xml import parse_xml
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.rosters.battlescribe_data_rosters import DataSetRoster, primary_cost_type
from lists.rosters.battlescribe_offers import offered_force_entry, offered_group, offered_option
from lists.rosters.numbers import whole_number
from lists.rosters.plain_names import plain_text
from lists.rules.validation import POINTS_LIMIT_MAX

MAX_COUNT = 100  # a count above any roster's: refused rather than stepped through
MAX_NAME = 200
MAX_CUSTOM_NAME = 120  # a unit's own name, as its player gives it
MAX_CUSTOM_NOTES = 300  # and its notes: a line or two for the card
ID_NUMBER = re.compile(r"-(\d+)$")


class EditRefused(Exception):
    """A change the roster cannot take; the message says why and what to do instead."""


# The rosters this process saved last, by share id and version: the next edit of one starts from it
# rather than from its XML. A version names one state of a roster, so a kept copy is never stale.
RECENT: OrderedDict[tuple[str, int], Roster] = OrderedDict()
RECENT_SIZE = 32


def open_roster(kept: models.BattleScribeRoster, to_change: bool = False) -> Roster:
    """The engine's roster of a kept one. One `to_change` is taken out of the recent rosters (a change
    that fails leaves nothing half-made behind); `save` puts it back under its new version."""
    key = (kept.share_id, kept.version)
    recent = RECENT.pop(key, None) if to_change else RECENT.get(key)
    if recent is not None:
        return recent
    roster = read_roster_xml(battlescribe_game_data(kept.data_set), kept.ros_xml)
    continue_ids(roster)
    return roster


def remember(kept: models.BattleScribeRoster, roster: Roster) -> None:
    RECENT[(kept.share_id, kept.version)] = roster
    while len(RECENT) > RECENT_SIZE:
        RECENT.popitem(last=False)


def continue_ids(roster: Roster) -> None:
    """New forces and selections get ids after every id read (the engine counts from what it read)."""
    numbers = [0]
    for force in roster.all_forces():
        numbers += [int(m.group(1)) for item in (force, *force.all_selections()) if (m := ID_NUMBER.search(item.id))]
        numbers += [int(m.group(1)) for c in force.categories if (m := ID_NUMBER.search(c.id))]
    roster._serial = itertools.count(max(numbers) + 1)  # noqa: SLF001 - the engine's one id counter


def new_roster(
    data_set: models.BattleScribeDataSet, catalogue_id: str, force_entry_id: str, name: str, limit: float | None
) -> Roster:
    """A roster of one force of the data set, with what the data selects in it from the start."""
    data = battlescribe_game_data(data_set)
    if catalogue_id not in data.catalogues_by_id:
        raise EditRefused(f"{data_set.name} has no catalogue {catalogue_id[:100]}: choose one of its armies.")
    catalogue = data.catalogues_by_id[catalogue_id]
    if offered_force_entry(data, catalogue, force_entry_id, None) is None:
        books = [data.game_system, *data.catalogues_by_id.values()]
        other = next((e.name for book in books for e in book.force_entries if e.id == force_entry_id), None)
        named = f"the force {other!r} (another army's)" if other else f"a force {force_entry_id[:100]}"
        raise EditRefused(f"{catalogue.name} does not field {named}: choose one of the forces listed under it.")
    roster = Roster(data, plain_name(name)[:MAX_NAME] or f"{catalogue.name} roster")
    set_points_limit(roster, limit)
    try:
        roster.add_force(force_entry_id, catalogue_id)
    except DataLimitExceeded as beyond:
        raise EditRefused(f"{data_set.name}'s data cannot be used here: {beyond}.") from None
    return roster


def set_points_limit(roster: Roster, limit: float | None) -> None:
    """The limit of the game's points (none: -1, as BattleScribe writes no limit)."""
    points = primary_cost_type(roster.data)
    if points is not None:
        roster.set_cost_limit(points, -1.0 if limit is None else float(limit))


def summary(roster: Roster) -> dict:
    """The fields kept beside the XML."""
    points = primary_cost_type(roster.data) or ""
    limit = roster.cost_limits.get(points, -1.0)
    catalogues = [force.catalogue.name for force in roster.forces]
    return {
        "name": roster.name[:MAX_NAME],
        "catalogue_name": ", ".join(dict.fromkeys(catalogues))[:200],
        "points": roster.totals.get(points, 0.0),
        "points_limit": limit if limit >= 0 else None,
        "error_count": len(roster_errors(roster)),
        "ros_xml": write_roster_xml(roster, with_info=False),
    }


def keep_new(
    data_set: models.BattleScribeDataSet, roster: Roster, share_id: str, secret_hash: str
) -> models.BattleScribeRoster:
    """A new kept roster."""
    return models.BattleScribeRoster.objects.create(
        data_set=data_set, share_id=share_id, edit_secret_hash=secret_hash, **summary(roster)
    )


def keep_imported(found: DataSetRoster, share_id: str, secret_hash: str) -> models.BattleScribeRoster:
    """A roster read from a .ros/.rosz file, kept against the data set it was read with."""
    continue_ids(found.roster)
    return keep_new(found.data_set, found.roster, share_id, secret_hash)


def save(kept: models.BattleScribeRoster, roster: Roster, version: int | None) -> bool:
    """Write a changed roster back; False when it was changed elsewhere since `version` was read."""
    fields = summary(roster)
    with transaction.atomic():
        rosters = models.BattleScribeRoster.objects.filter(pk=kept.pk)
        if version is not None:
            rosters = rosters.filter(version=version)
        changed = rosters.update(version=kept.version + 1, **fields)
    if changed:
        for name, value in fields.items():
            setattr(kept, name, value)
        kept.version += 1
        remember(kept, roster)
    return bool(changed)


def export_xml(kept: models.BattleScribeRoster) -> str:
    """The whole .ros file, as BattleScribe writes it, profiles and rules included."""
    return write_roster_xml(open_roster(kept))


def unit_count(kept: models.BattleScribeRoster) -> int:
    """How many units (top-level selections of its forces and child forces) a kept roster has, read from its XML
    without the game's data: what a page says of a roster it has not opened."""
    root = parse_xml(kept.ros_xml.encode())
    return sum(len(children_named(force, "selections", "selection")) for force in root.iter("{*}force"))


# --- the editor's actions: each takes the roster and the form's fields ---------------------------


def find_force(roster: Roster, force_id: str) -> Force:
    try:
        return roster.find_force(force_id)
    except KeyError:
        raise EditRefused("That force is no longer in the roster: the page now shows the roster as it is.") from None


def find_selection(roster: Roster, selection_id: str) -> Selection:
    try:
        return roster.find_selection(selection_id)
    except KeyError:
        raise EditRefused("That selection is no longer in the roster: the page now shows it as it is.") from None


def parent_of(roster: Roster, fields: dict) -> Force | Selection:
    """The force or selection a change is made under."""
    if fields.get("selection"):
        return find_selection(roster, fields["selection"])
    return find_force(roster, fields.get("force", ""))


def option_under(roster: Roster, parent: Force | Selection, entry_id: str) -> Option:
    """The option `parent` offers now by that entry id (battlescribe_offers); refused, naming it, if none."""
    option = offered_option(roster, parent, entry_id)
    if option is None:
        raise EditRefused(f"{parent.name} offers no entry {entry_id[:100]} now: pick one of those listed.")
    return option


def count_of(fields: dict) -> int:
    text = str(fields.get("count", "")).strip()
    count = whole_number(text, most=MAX_COUNT)
    if count is None:
        raise EditRefused(f"A count is a whole number (digits 0-9) from 0 to {MAX_COUNT}; {text[:20]!r} is not.")
    return count


def plain_name(text, notes: bool = False) -> str:
    """A name (or `notes`) as every name of ours is kept (`plain_names.plain_text`); refused, saying why, if it
    holds control characters, direction marks or what no XML may hold."""
    try:
        return plain_text(str(text or ""), notes).strip()
    except ValueError as refused:
        raise EditRefused(f"That {'note' if notes else 'name'} cannot be kept: {refused}.") from None


def add_force(roster: Roster, fields: dict) -> None:
    """A force (a child force when `parent` names one) of a force entry the catalogue (or parent force) offers."""
    entry_id, catalogue_id = fields.get("force_entry", ""), fields.get("catalogue", "")
    parent = find_force(roster, fields["parent"]) if fields.get("parent") else None
    catalogue = parent.catalogue if parent is not None else roster.data.catalogues_by_id.get(catalogue_id)
    if catalogue is None or (parent is not None and catalogue_id and catalogue_id != catalogue.id):
        raise EditRefused("Choose an army (catalogue) of this game; a child force is of its parent's army.")
    if offered_force_entry(roster.data, catalogue, entry_id, parent) is None:
        where = f"{parent.name} offers" if parent is not None else f"{catalogue.name} offers"
        raise EditRefused(f"{where} no force {entry_id[:100]}: choose one of the forces listed.")
    roster.add_force(entry_id, catalogue.id, parent)


def remove_force(roster: Roster, fields: dict) -> None:
    roster.remove_force(find_force(roster, fields.get("force", "")))


def add_entry(roster: Roster, fields: dict) -> None:
    """Select an entry once more under a force or a selection."""
    parent = parent_of(roster, fields)
    roster.select(parent, option_under(roster, parent, fields.get("entry", "")))


def set_count(roster: Roster, fields: dict) -> None:
    """How many of an entry a force or selection holds: selected, stepped up or down, or removed at 0."""
    parent = parent_of(roster, fields)
    wanted = count_of(fields)
    option = option_under(roster, parent, fields.get("entry", ""))
    held = selections_of(parent, option)
    if not held and wanted:
        roster.select(parent, option)
        held = selections_of(parent, option)
    if held:
        roster.set_count(held[0], wanted)
    # An entry whose every selection is a node of its own (a unit with choices of its own, a company's HQ) keeps
    # its count through the engine's spinner: it is removed, or selected again, node by node, so an unticked box
    # or a lowered count is never silently put back.
    for _ in range(MAX_COUNT):
        held = selections_of(parent, option)
        if len(held) > wanted and all(s.number == 1 for s in held):
            roster.remove(held[-1])
        elif held and len(held) < wanted and effective_count(parent, option) < wanted:
            roster.select(parent, option)
        else:
            break


def choose(roster: Roster, fields: dict) -> None:
    """One entry of a one-of group chosen: the group's others removed (none chosen: all removed)."""
    parent = parent_of(roster, fields)
    group = offered_group(parent, fields.get("group", ""))
    if group is None:
        raise EditRefused(f"{parent.name} has no such choice now: the page now shows what it offers.")
    chosen = fields.get("entry", "")
    option = option_under(roster, parent, chosen) if chosen else None
    if option is not None and not any(other is option for other in group.options):
        raise EditRefused(f"{option.name} is not one of the choices of {group.name}: pick one of those listed.")
    for other in group.options:
        if other is not option:
            for selection in selections_of(parent, other):
                roster.deselect(selection)
    if option is not None and not selections_of(parent, option):
        roster.select(parent, option)


def set_options(roster: Roster, fields: dict) -> None:
    """A selection's choices as its form sends them all (`group:<id>` one-of choices, `count:<entry id>`
    counts): each that differs from what the selection holds is made, in the form's order."""
    parent = find_selection(roster, fields.get("selection", ""))
    for key, value in fields.items():
        kind, _, target = key.partition(":")
        if kind == "group":
            group = next((g for g in parent.option.groups if g.id == target), None)
            held = [s.option.id for s in parent.children if group is not None and s.in_group(group)]
            if held != ([value] if value else []):
                choose(roster, {"selection": parent.id, "group": target, "entry": value})
        elif kind == "count":
            option = option_under(roster, parent, target)
            if count_of({"count": value}) != effective_count(parent, option):
                set_count(roster, {"selection": parent.id, "entry": target, "count": value})


def remove(roster: Roster, fields: dict) -> None:
    """A selection removed with everything under it."""
    roster.remove(find_selection(roster, fields.get("target", "")))


def duplicate(roster: Roster, fields: dict) -> None:
    roster.duplicate(find_selection(roster, fields.get("target", "")))


def customise(roster: Roster, fields: dict) -> None:
    """A unit's own name and notes, as its player writes them (blank: none), kept as BattleScribe keeps them."""
    selection = find_selection(roster, fields.get("selection", ""))
    name, notes = plain_name(fields.get("custom_name")), plain_name(fields.get("custom_notes"), notes=True)
    if len(name) > MAX_CUSTOM_NAME or len(notes) > MAX_CUSTOM_NOTES:
        raise EditRefused(
            f"A unit's name is at most {MAX_CUSTOM_NAME} characters and its notes at most {MAX_CUSTOM_NOTES}: "
            "shorten them and save again."
        )
    selection.custom_name, selection.custom_notes = name or None, notes or None


def settings(roster: Roster, fields: dict) -> None:
    """The roster's name and points limit (blank: no limit)."""
    name = plain_name(fields.get("name"))
    if not name:
        raise EditRefused("A roster needs a name.")
    text = str(fields.get("points_limit", "")).strip()
    limit = whole_number(text, most=POINTS_LIMIT_MAX) if text else None
    if text and limit is None:
        raise EditRefused(
            f"The points limit is a whole number (digits 0-9) up to {POINTS_LIMIT_MAX:,} (or blank for none); "
            f"{text[:20]!r} is not."
        )
    roster.name = name[:MAX_NAME]
    set_points_limit(roster, limit)


ACTIONS = {
    "add-force": add_force,
    "remove-force": remove_force,
    "add": add_entry,
    "count": set_count,
    "choose": choose,
    "options": set_options,
    "remove": remove,
    "duplicate": duplicate,
    "customise": customise,
    "settings": settings,
}


def apply(roster: Roster, action: str, fields: dict) -> None:
    """One editor action; EditRefused says why it cannot be made."""
    handler = ACTIONS.get(action)
    if handler is None:
        raise EditRefused(f"Unknown change {action[:40]!r}.")
    try:
        with roster.action():  # however many engine steps it takes, one evaluation
            handler(roster, fields)
    except DataLimitExceeded as beyond:
        raise EditRefused(f"The game's data does not allow that change: {beyond}.") from None


# --- what a parent holds ---------------------------------------------------------------------------


def held_under(parent: Force | Selection) -> list[Selection]:
    return parent.selections if isinstance(parent, Force) else parent.children


def selections_of(parent: Force | Selection, option: Option) -> list[Selection]:
    return [s for s in held_under(parent) if s.option is option]
