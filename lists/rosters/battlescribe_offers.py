"""What the data of a roster of a loaded BattleScribe data set offers at one place: the editor's offers, and
the check of every post against them (a forged post names an entry, group or force from elsewhere).

A force offers the root entries of its catalogue that are not hidden there and stand in one of its
categories shown there (as BattleScribe lists them); a selection offers its entry's own children; a
catalogue offers the force entries of the game system, its own and those of the catalogues it imports
root entries from; a force offers as child forces its entry's own child force entries.
"""

from __future__ import annotations

from lists.battlescribe.engine import (
    NO_CATEGORY_ID,
    Catalogue,
    Entry,
    EntryView,
    Force,
    GameData,
    GroupOption,
    Option,
    Roster,
    Selection,
    find_option,
    hidden_categories,
    in_force_category,
)


def root_offer(
    roster: Roster, force: Force, option: Option, hidden: set[str] | None = None
) -> tuple[str, EntryView] | None:
    """The category of `force` a root option is offered under (NO_CATEGORY_ID for none of them) and its
    fields there, or None where the force does not offer it. `hidden`: the force's hidden categories, where
    the caller has them."""
    hidden = hidden_categories(roster, force) if hidden is None else hidden
    view = roster.view_option(option, force)
    ranked = sorted(view.categories, key=lambda c: not c.primary)  # its primary category of this force first
    if view.hidden or any(c.primary and c.entry_id in hidden for c in ranked):
        return None
    shown = {c.entry_id for c in force.categories if c.entry_id not in hidden}
    category = next((c.entry_id for c in ranked if c.entry_id in shown), None)
    if category is None and not in_force_category(option, force):
        return None
    return category or NO_CATEGORY_ID, view


def listed_at_root(roster: Roster, force: Force, option: Option) -> bool:
    """Whether a file may hold a root option in `force`: one the force lists under one of its categories,
    shown or hidden now (one hidden now is the engine's finding, `battlescribe.hidden`), or one the data asks
    for by a min constraint (the engine selects it when the force starts, as Order Dice)."""
    categories = {c.entry_id for c in force.categories}
    view = roster.view_option(option, force)
    if any(c.entry_id in categories for c in view.categories) or in_force_category(option, force):
        return True
    return any(c.type == "min" and c.query.field == "selections" for c, _ in option.constraints())


def offered_option(roster: Roster, parent: Force | Selection, entry_id: str) -> Option | None:
    """The option an entry id names that `parent` offers now (a selection already held stays offered)."""
    option = find_option(roster.options_under(parent), entry_id)
    if option is None:
        return None
    if isinstance(parent, Force):
        return option if root_offer(roster, parent, option) is not None else None
    held = next((s for s in parent.children if s.option is option), None)
    return option if held is not None or not roster.view_option(option, parent).hidden else None


def offered_group(parent: Force | Selection, group_id: str) -> GroupOption | None:
    """The one-of or count group of `parent` that a group id names, or None."""
    groups = parent.groups if isinstance(parent, Force) else parent.option.groups
    return next((group for group in groups if group.id == group_id), None)


def catalogue_force_entries(data: GameData, catalogue: Catalogue) -> list[Entry]:
    """The top-level force entries a catalogue offers: the game system's, its own, and those of the catalogues
    it imports root entries from."""
    books, pending = [data.game_system], [catalogue]
    while pending:
        book = pending.pop()
        if book in books:
            continue
        books.append(book)
        pending += [
            data.catalogues_by_id[link.target_id]
            for link in book.catalogue_links
            if link.import_root_entries and link.target_id in data.catalogues_by_id
        ]
    return [entry for book in books for entry in book.force_entries if not entry.hidden]


def offered_force_entry(data: GameData, catalogue: Catalogue, entry_id: str, parent: Force | None) -> Entry | None:
    """The force entry an id names that a new force of `catalogue` may be of: a child force entry of the parent
    force's entry (of the parent's catalogue), or a top-level one of the catalogue; else None."""
    if parent is not None:
        if catalogue is not parent.catalogue:
            return None
        entries = [entry for entry in parent.entry.force_entries if not entry.hidden]
    else:
        entries = catalogue_force_entries(data, catalogue)
    return next((entry for entry in entries if entry.id == entry_id), None)
