"""Making and unmaking selections as BattleScribe does: new nodes or a higher number, defaults,
collective children, counts and copies."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .elements import Force, Selection
from .entry_view import group_fields, view_node
from .limits import MAX_AUTO_SELECTIONS, MAX_MIN_SELECTIONS, DataLimitExceeded
from .options import GroupOption, Option
from .queries import Context
from .roster_protocol import RosterProtocol


def is_duplicate(option: Option, seen: frozenset[str] = frozenset()) -> bool:
    """Whether selecting the option again makes a new node (it has a visible, non-collective
    descendant) rather than raising one node's number."""
    if not seen and option.duplicate is not None:
        return option.duplicate
    if option.entry.id in seen:
        return False
    found = False
    for child in option.children:
        if (
            not (child.entry.collective or (child.link is not None and child.link.collective))
            and not child.entry.hidden
        ) or is_duplicate(child, seen | {option.entry.id}):
            found = True
            break
    if not seen:
        option.duplicate = found
    return found


def is_collective(option: Option) -> bool:
    """Whether an option's entry (or its link) is collective."""
    return option.entry.collective or (option.link is not None and option.link.collective)


def select_option(roster: RosterProtocol, parent: Force | Selection, option: Option) -> Selection:
    """Select an option once under a parent; returns the selection made or raised.

    A collective entry under a nested selection is chosen per model: BattleScribe gives it to
    every model of the parent and of the parent's sibling instances.
    """
    if isinstance(parent, Selection) and parent.parent is not None and is_collective(option):
        made: Selection | None = None
        for sibling in sibling_instances(parent):
            chosen = select_per_model(roster, sibling, option)
            if sibling is parent:
                made = chosen
        if made is not None:
            return made
    return select_single(roster, parent, option)


def sibling_instances(selection: Selection) -> list[Selection]:
    """The selections of the same option beside a selection (itself included)."""
    siblings = selection.container.children if isinstance(selection.container, Selection) else []
    return [s for s in siblings if s.option is selection.option] or [selection]


def select_per_model(roster: RosterProtocol, parent: Selection, option: Option) -> Selection:
    """One of a collective option for each model of a parent."""
    existing = None if is_duplicate(option) else next((c for c in parent.children if c.option is option), None)
    if existing is None:
        return new_selection(roster, parent, option)
    for _ in range(parent.number):
        raise_number(existing)
    return existing


def select_single(roster: RosterProtocol, parent: Force | Selection, option: Option) -> Selection:
    """Raise an existing selection's number, or make a new one (at a force's root, or for entries
    that must stay separate)."""
    if isinstance(parent, Selection) and not is_duplicate(option):
        for existing in parent.children:
            if existing.option is option:
                raise_number(existing)
                return existing
    return new_selection(roster, parent, option)


def collective_children(selection: Selection) -> list[Selection]:
    """The children that follow a selection's number (collective, counted on one node)."""
    return [c for c in selection.children if is_collective(c.option) and not is_duplicate(c.option)]


def raise_number(selection: Selection) -> None:
    """One more of a selection; its collective children grow with it, per model."""
    previous = selection.number
    selection.number += 1
    if previous <= 0:
        return
    for child in collective_children(selection):
        for _ in range(math.ceil(child.number / previous)):
            raise_number(child)
    # BattleScribe raises a collective group's default a second time (its n-squared quirk).
    for child in collective_group_defaults(selection):
        for _ in range(math.ceil(child.number / previous)):
            raise_number(child)


def collective_group_defaults(selection: Selection) -> list[Selection]:
    """The children chosen as defaults of the selection's collective groups."""
    found = []
    for group in selection.option.groups:
        if not (group.entry.collective or (group.link is not None and group.link.collective)):
            continue
        default = group.default_option()
        child = next((c for c in selection.children if default is not None and c.option is default), None)
        if child is not None and is_collective(child.option) and not is_duplicate(child.option):
            found.append(child)
    return found


def lower_number(selection: Selection) -> None:
    """One fewer of a selection, removing it at the last one; its collective children shrink with it."""
    if selection.number <= 1:
        siblings = (
            selection.container.children if isinstance(selection.container, Selection) else selection.force.selections
        )
        if selection in siblings:
            siblings.remove(selection)
        return
    current = selection.number
    for child in collective_children(selection):
        for _ in range(math.ceil(child.number / current)):
            lower_number(child)
    selection.number -= 1


def new_selection(roster: RosterProtocol, parent: Force | Selection, option: Option) -> Selection:
    """A new selection node, with the children it must start with."""
    force = parent if isinstance(parent, Force) else parent.force
    holder = parent if isinstance(parent, Selection) else None
    selection = Selection(roster.next_id("selection"), option, force, holder, serial=roster.next_serial())
    if holder is not None and is_collective(option) and holder.parent is not None and not is_duplicate(option):
        selection.number = holder.number
    selection.name = option.name
    (parent.children if isinstance(parent, Selection) else parent.selections).append(selection)
    select_child_defaults(roster, selection)
    return selection


def minimum_of(roster: RosterProtocol, node: Option | GroupOption, parent: Force | Selection) -> int:
    """The least number of selections a node's own min constraints ask for, after its modifiers
    (a hidden group asks for none: BattleScribe skips a hidden entry's constraints)."""
    if isinstance(node, Option):
        values = view_node(roster.data, node, Context.under(roster, parent)).constraint_values
    else:
        fields = group_fields(roster.data, node, Context.under(roster, parent))
        if fields.hidden:
            return 0
        values = fields.constraint_values
    least = 0.0
    for constraint, _holder in node.constraints():
        if constraint.type == "min" and constraint.query.field == "selections" and not constraint.query.percent_value:
            least = max(least, values.get(constraint.id, constraint.value))
    if not least <= MAX_MIN_SELECTIONS:  # NaN too
        raise DataLimitExceeded(
            f"{node.name} ({node.entry.id}) must be selected at least {least:g} times; the engine makes at most "
            f"{MAX_MIN_SELECTIONS:,} of one entry: the data set must be corrected and loaded again"
        )
    return int(least)


def select_child_defaults(roster: RosterProtocol, selection: Selection) -> None:
    """Select what a new selection must hold: children with a minimum, and groups' defaults."""
    with defaults_budget():
        option = selection.option
        for child in option.children:
            for _ in range(minimum_of(roster, child, selection)):
                count_default(child)
                select_option(roster, selection, child)
        for group in option.groups:
            # Members already selected for their own minimum count toward the group's (a man's Weapon group
            # of least 1 holding an SMG of least 1 gets the one SMG, not a second as the group's default).
            members = set(map(id, group.options))
            held = sum(own_number(c) for c in selection.children if id(c.option) in members)
            needed = minimum_of(roster, group, selection) - held
            if needed <= 0:
                continue
            default = group.default_option()
            if default is None:
                members = group.options
                default = members[0] if len(members) == 1 else None
            if default is None:
                continue
            for _ in range(needed):
                count_default(default)
                select_option(roster, selection, default)


# The selections made for minimums and defaults by the action under way (minimums nested in one another
# multiply: a thousand of a thousand would be a million).
_defaults_made: ContextVar[list[int] | None] = ContextVar("defaults_made", default=None)


@contextmanager
def defaults_budget() -> Iterator[None]:
    """Count the selections made for minimums and defaults, from the outermost call on."""
    if _defaults_made.get() is not None:
        yield
        return
    token = _defaults_made.set([0])
    try:
        yield
    finally:
        _defaults_made.reset(token)


def count_default(option: Option) -> None:
    """One more selection made for a minimum or a default; refused past MAX_AUTO_SELECTIONS."""
    made = _defaults_made.get()
    if made is None:
        return
    made[0] += 1
    if made[0] > MAX_AUTO_SELECTIONS:
        raise DataLimitExceeded(
            f"the minimums under {option.name} ({option.entry.id}) ask for more than {MAX_AUTO_SELECTIONS:,} "
            "selections at once: the data set must be corrected and loaded again"
        )


def own_number(child: Selection) -> int:
    """How many of a child its parent holds, one parent's worth (a collective child's number counts its
    parent's number over again)."""
    parent = child.parent
    if is_collective(child.option) and isinstance(parent, Selection) and parent.number > 1:
        return child.number // parent.number
    return child.number


def select_root_defaults(roster: RosterProtocol, force: Force) -> None:
    """Select the root entries a new roster's first force must have (min constraints)."""
    with defaults_budget():
        for option in force.options:
            if option.group is not None:
                continue
            for _ in range(minimum_of(roster, option, force)):
                count_default(option)
                new_selection(roster, force, option)


def deselect_selection(roster: RosterProtocol, selection: Selection) -> None:
    """Remove one of a selection: per model for collective children, else one (or the node)."""
    parent = selection.container
    if isinstance(parent, Selection) and is_collective(selection.option) and not is_duplicate(selection.option):
        for sibling in sibling_instances(parent) if parent.parent is not None else [parent]:
            child = next((c for c in sibling.children if c.option is selection.option), None)
            for _ in range(sibling.number if child is not None else 0):
                lower_number(child)
        return
    if isinstance(parent, Selection) and selection.number > 1 and not is_duplicate(selection.option):
        lower_number(selection)
        return
    siblings = parent.children if isinstance(parent, Selection) else parent.selections
    siblings.remove(selection)


def remove_selection(roster: RosterProtocol, selection: Selection) -> None:
    """A selection removed with everything under it, as deselecting it as many times as its number does."""
    parent = selection.container
    siblings = parent.children if isinstance(parent, Selection) else parent.selections
    if not (isinstance(parent, Selection) and is_collective(selection.option) and not is_duplicate(selection.option)):
        # Lowered one by one it ends taken out whole, and lowering touches nothing outside it.
        if selection in siblings:
            siblings.remove(selection)
        return
    # A collective child goes per model, from every instance of its parent: step by step, without evaluating.
    for _ in range(selection.number):
        deselect_selection(roster, selection)
        if not any(s is selection for s in siblings):
            return


def effective_count(parent: Force | Selection, option: Option) -> int:
    """How many of an option a parent holds, per model for collective entries."""
    siblings = parent.children if isinstance(parent, Selection) else parent.selections
    count = sum(s.number for s in siblings if s.option is option)
    if isinstance(parent, Selection) and is_collective(option) and parent.number:
        return count // parent.number
    return count


def set_selection_count(roster: RosterProtocol, selection: Selection, count: int) -> None:
    """Raise or lower an entry's count under its parent one selection at a time, as the desktop's
    count spinner does (the roster evaluated once, after the last step: `Roster.set_count`)."""
    parent = selection.container
    option = selection.option
    if isinstance(parent, Selection) and is_duplicate(option):
        return
    delta = count - effective_count(parent, option)
    for _ in range(max(delta, 0)):
        roster.select(parent, option)
    siblings = parent.children if isinstance(parent, Selection) else parent.selections
    for _ in range(max(-delta, 0)):
        # At a force's root each one is its own node: once this one is gone, the others of its entry go.
        held = selection if any(s is selection for s in siblings) else None
        held = held or next((s for s in reversed(siblings) if s.option is option), None)
        if held is None:
            return
        roster.deselect(held)


def duplicate_selection(roster: RosterProtocol, selection: Selection) -> Selection:
    """A deep copy of a selection, placed beside it."""
    copy = copy_tree(roster, selection, selection.parent)
    siblings = selection.parent.children if selection.parent is not None else selection.force.selections
    siblings.append(copy)
    return copy


def copy_tree(roster: RosterProtocol, selection: Selection, parent: Selection | None) -> Selection:
    """A copy of a selection with fresh ids."""
    copy = Selection(
        roster.next_id("selection"),
        selection.option,
        selection.force,
        parent,
        selection.number,
        roster.next_serial(),
        custom_name=selection.custom_name,
        custom_notes=selection.custom_notes,
        name=selection.name,
    )
    copy.children = [copy_tree(roster, child, copy) for child in selection.children]
    return copy
