"""Validation errors as BattleScribe reports them: broken constraints, hidden selections, cost limits.

Each error names its owner (roster, force, category or selection) and where it came from (the
entry and constraint, `costLimits` and the cost type, or the entry and `hidden`), as the
conformance suite's error-assertions describe. Over-limit errors are reported on the selection of
the entry that is over its limit; errors for too few stay where BattleScribe counts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .counting import evaluation_pass
from .elements import Force, Selection
from .entry_view import group_fields, view_entry
from .incremental import Recorder, reads_hold
from .model import ENTRY_LINK, Constraint, Entry
from .options import GroupOption, Node, Option
from .queries import Context, query_value
from .selecting import is_collective

if TYPE_CHECKING:
    from .roster import Roster


@dataclass(slots=True, frozen=True)
class ValidationError:
    """One validation error of a roster."""

    message: str
    owner_type: str
    owner_id: str | None
    owner_entry_id: str | None
    entry_id: str | None
    constraint_id: str | None

    def as_protocol(self) -> dict[str, str]:
        """The error as the conformance protocol writes it (null fields left out)."""
        found = {
            "message": self.message,
            "ownerType": self.owner_type,
            "ownerId": self.owner_id,
            "ownerEntryId": self.owner_entry_id,
            "entryId": self.entry_id,
            "constraintId": self.constraint_id,
        }
        return {k: v for k, v in found.items() if v is not None}


class Validator:
    """Collects a roster's validation errors."""

    def __init__(self, roster: Roster) -> None:
        self.roster = roster
        self.found: list[tuple[ValidationError, str | None]] = []

    def add(self, error: ValidationError, extra: str | None = None) -> None:
        """Record an error (`extra` tells apart errors that are otherwise the same)."""
        self.found.append((error, extra))

    def run(self) -> list[ValidationError]:
        """Every error of the roster, each once."""
        self.check_cost_limits()
        found = [self.found]
        for force in self.roster.all_forces():
            found.append(self.force_errors(force))
        errors = []
        seen: set[tuple[str | None, ...]] = set()
        for error, extra in (item for items in found for item in items):
            key = (error.owner_type, error.owner_entry_id, error.entry_id, error.constraint_id, error.owner_id, extra)
            if key not in seen:
                seen.add(key)
                errors.append(error)
        return errors

    def force_errors(self, force: Force) -> list[tuple[ValidationError, str | None]]:
        """A force's errors: those found last time while nothing they were found from has changed (see
        `incremental`), else checked again."""
        roster = self.roster
        record = roster.checked.get(force)
        if record is not None and reads_hold(record.external):
            return record.found
        roster.recorder = recorder = Recorder(force)
        self.found = recorder.record.found
        try:
            self.check_force(force)
        finally:
            roster.recorder = None
        roster.checked[force] = recorder.record
        return recorder.record.found

    def check_cost_limits(self) -> None:
        """A roster over a cost limit."""
        for type_id, limit in self.roster.cost_limits.items():
            if limit < 0:
                continue
            total = self.roster.total_cost(type_id)
            if total > limit + 1e-9:
                cost_type = self.roster.data.cost_type_by_id.get(type_id)
                name = cost_type.name if cost_type else type_id
                message = f"Roster is over the {name} limit by {format_number(total - limit)}{name}"
                self.add(ValidationError(message, "roster", self.roster.id, None, "costLimits", type_id))

    def check_force_entry(self, force: Force) -> None:
        """A force entry's constraints, checked for each force of it (counting forces of it)."""
        parent = force.parent
        context = Context(self.roster, parent, parent, force)
        view = view_entry(self.roster.data, force.entry, context)
        if view.hidden and not force.forces:
            return
        for constraint in force.entry.constraints:
            limit = view.constraint_values.get(constraint.id, constraint.value)
            value = query_value(constraint.query, context, child_id=force.entry.id, shared=True)
            if parent is None or constraint.query.scope == "roster":
                owner: tuple[str, str | None, str | None] = ("roster", self.roster.id, None)
            else:
                owner = ("force", parent.id, parent.entry.id)
            self.compare(
                constraint, limit, value, owner, force.entry.id, force.entry.name, keep_owner=True, key=force.id
            )

    def check_force(self, force: Force) -> None:
        """A force's own constraints, its categories' and its root selections'."""
        self.check_force_entry(force)
        self.check_categories(force)
        by_option: dict[int, list[Selection]] = {}
        for selection in force.selections:
            by_option.setdefault(id(selection.option), []).append(selection)
        entries = {id(s.option.entry) for s in force.selections}
        for option in force.options:
            if id(option.entry) in entries or not quiet_when_empty(option):
                self.check_option(option, force, by_option.get(id(option), []))
        for group in force.groups:
            self.check_group(group, force)
        for selection in force.selections:
            self.check_selection(selection)

    def check_categories(self, force: Force) -> None:
        """Constraints of the force's categories (on the category links and category entries).

        A category hidden (by itself, its link, or their modifiers) has its constraints skipped, and
        selections in it are an error on the force, as BattleScribe reports them."""
        context = Context(self.roster, force, force, None)
        for link in force.entry.category_links:
            holders = category_holders(self.roster, link)
            views = [view_entry(self.roster.data, holder, context) for holder in holders]
            if any(view.hidden for view in views):
                self.hidden_category(force, link, views[-1].name)
                if not force.forces:
                    continue
            for holder, view in zip(holders, views, strict=True):
                for constraint in holder.constraints:
                    limit = view.constraint_values.get(constraint.id, constraint.value)
                    value = query_value(constraint.query, context, child_id=link.target_id, shared=True)
                    if constraint.query.scope == "parent":
                        value = query_value(
                            constraint.query,
                            Context(self.roster, force, force, force),
                            child_id=link.target_id,
                            shared=True,
                        )
                    roster_category = next((c for c in force.categories if c.entry_id == link.target_id), None)
                    owner = ("category", roster_category.id if roster_category else None, link.target_id)
                    self.compare(constraint, limit, value, owner, holder.id, link.name or holder.name, keep_owner=True)

    def check_option(self, option: Option, parent: Force | Selection, selections: list[Selection]) -> None:
        """The constraints of one option under a parent, and whether it is hidden yet selected."""
        target = selections[0] if selections else None
        view = self.roster.view_option(option, parent, target)
        in_category = isinstance(parent, Selection) or in_force_category(option, parent)
        if view.hidden:
            if selections and in_category:
                self.hidden_error(option, parent, selections, view.name)
            return
        context = self.roster.context(parent, target)
        for constraint, holder in option.constraints():
            if constraint.query.scope == "parent" and not in_category:
                continue
            limit = view.constraint_values.get(constraint.id, constraint.value)
            self.check_constraint(option, holder, constraint, limit, parent, context, view.name)

    def check_group(self, group: GroupOption, parent: Force | Selection) -> None:
        """The constraints of a group under a parent, after the group's (and its link's) modifiers,
        evaluated where the group sits (its `parent` scope is the selection holding it). A hidden
        group's constraints are skipped, as BattleScribe skips every hidden entry's."""
        context = self.roster.context(parent, None)
        fields = group_fields(self.roster.data, group, context)
        if fields.hidden:
            return
        for constraint, holder in group.constraints():
            value = self.group_count(group, constraint, parent, context)
            per_model = isinstance(parent, Selection) and constraint.query.scope == "parent" and all_collective(group)
            if per_model and isinstance(parent, Selection) and parent.number:
                value = value / parent.number
            limit = fields.limit(constraint.id, constraint.value)
            if not broken(constraint, limit, value):
                continue
            owner = owner_of(parent, constraint)
            self.compare(constraint, limit, value, owner, holder.id, fields.name)

    def group_count(
        self, group: GroupOption, constraint: Constraint, parent: Force | Selection, context: Context
    ) -> float:
        """How many selections of a group's options a constraint counts."""
        if constraint.query.field != "selections":
            return query_value(constraint.query, context, child_id=group.entry.id, shared=True)
        if constraint.query.scope == "parent":
            children = parent.children if isinstance(parent, Selection) else parent.selections
            return float(sum(s.number for s in children if s.in_group(group)))
        return query_value(constraint.query, context, child_id=group.entry.id, shared=True)

    def check_constraint(
        self,
        option: Option,
        holder: Entry,
        constraint: Constraint,
        limit: float,
        parent: Force | Selection,
        context: Context,
        name: str,
    ) -> None:
        """Compare one constraint of an option with what its query counts."""
        query = constraint.query
        if query.scope == "self" and context.target is None:
            return
        if query.shared:
            value = query_value(query, context, child_id=option.entry.id, shared=True)
        else:
            value = query_value(query, context, child_id=option.id, shared=False)
        if query.percent_value:
            total = query_value(query, context, child_id="any", shared=True)
            limit = total * limit / 100.0
        per_model = is_collective(option) and query.scope == "parent" and isinstance(parent, Selection)
        if per_model and isinstance(parent, Selection) and parent.number:
            value = value / parent.number
        if not broken(constraint, limit, value):
            return
        entry_id, constraint_id = attribution(option, holder, constraint)
        owner = owner_of(parent, constraint, option)
        self.compare(constraint, limit, value, owner, entry_id, name, constraint_id, remap_entry=option.entry.id)

    def compare(
        self,
        constraint: Constraint,
        limit: float,
        value: float,
        owner: tuple[str, str | None, str | None],
        entry_id: str,
        name: str,
        constraint_id: str | None = None,
        keep_owner: bool = False,
        key: str | None = None,
        remap_entry: str | None = None,
    ) -> None:
        """Record an error if a value breaks a constraint's limit."""
        if value != value:
            return
        if constraint.type == "min" and value < limit - 1e-9:
            message = (
                f"must have {format_number(limit - value)} more selections of {name} (minimum {format_number(limit)})"
            )
            self.add(
                ValidationError(message, owner[0], owner[1], owner[2], entry_id, constraint_id or constraint.id), key
            )
        elif constraint.type == "max" and limit >= 0 and value > limit + 1e-9:
            message = f"has too many selections of {name} (maximum {format_number(limit)})"
            if not keep_owner and owner[0] != "selection":
                owner = ("selection", None, remap_entry or entry_id)
            self.add(
                ValidationError(message, owner[0], owner[1], owner[2], entry_id, constraint_id or constraint.id), key
            )

    def hidden_category(self, force: Force, link: Entry, name: str) -> None:
        """Selections at a force's root in a category hidden there."""
        category_id = link.target_id or ""
        held = sum(s.number for s in force.selections if any(c.entry_id == category_id for c in s.categories))
        if held:
            message = f"cannot have any selections of {name or link.name} (hidden)"
            self.add(ValidationError(message, "force", force.id, force.entry.id, category_id, "hidden"))

    def hidden_error(self, option: Option, parent: Force | Selection, selections: list[Selection], name: str) -> None:
        """A hidden entry that is selected."""
        message = f"cannot have any selections of {name} (hidden)"
        self.add(ValidationError(message, "selection", None, option.entry.id, option.entry.id, "hidden"))

    def check_selection(self, selection: Selection) -> None:
        """The constraints of what may be selected under a selection, then its children's."""
        by_option: dict[int, list[Selection]] = {}
        for child in selection.children:
            by_option.setdefault(id(child.option), []).append(child)
        entries = {id(c.option.entry) for c in selection.children}
        for option in selection.option.children:
            if id(option.entry) in entries or not quiet_when_empty(option):
                self.check_option(option, selection, by_option.get(id(option), []))
        for group in selection.option.groups:
            self.check_group(group, selection)
        for child in selection.children:
            self.check_selection(child)


def category_holders(roster: Roster, link: Entry) -> list[Entry]:
    """A force's category link, then the category entry it links to (both hold constraints and modifiers)."""
    category = roster.data.category_entries.get(link.target_id or "")
    return [link] + ([category] if category is not None else [])


def hidden_categories(roster: Roster, force: Force) -> set[str]:
    """The ids of a force's categories hidden there (by their entry, their link, or a modifier)."""
    context = Context(roster, force, force, None)
    return {
        link.target_id or ""
        for link in force.entry.category_links
        if any(view_entry(roster.data, holder, context).hidden for holder in category_holders(roster, link))
    }


def broken(constraint: Constraint, limit: float, value: float) -> bool:
    """Whether a value breaks a constraint's limit (as `Validator.compare` records it; NaN breaks nothing)."""
    if constraint.type == "min":
        return value < limit - 1e-9
    return constraint.type == "max" and limit >= 0 and value > limit + 1e-9


def quiet_when_empty(option: Option) -> bool:
    """Whether an option no selection under a parent is of (nor of its entry) can break nothing there:
    its constraints are all maxima counted within the parent (or itself), which nothing exceeds."""
    quiet = option.quiet_when_empty
    if quiet is None:
        quiet = all(c.type == "max" and c.query.scope in ("parent", "self") for c, _ in option.constraints())
        option.quiet_when_empty = quiet
    return quiet


def owner_of(
    parent: Force | Selection, constraint: Constraint, option: Node | None = None
) -> tuple[str, str | None, str | None]:
    """Where BattleScribe reports a constraint broken under a parent."""
    scope = constraint.query.scope
    if constraint.query.field == "forces" or scope == "roster":
        return ("roster", None, None)
    force = parent if isinstance(parent, Force) else parent.force
    if scope == "force":
        return ("force", force.id, force.entry.id)
    if isinstance(parent, Selection):
        return ("selection", parent.id, parent.entry_id)
    category = option_primary_category(option) if option is not None else None
    if category is not None:
        return ("category", None, category)
    return ("force", force.id, force.entry.id)


def in_force_category(option: Node, force: Force | Selection) -> bool:
    """Whether a root option's primary category is one of its force's categories (BattleScribe checks
    root entries category by category, so entries outside the force's categories go unchecked)."""
    category = option_primary_category(option)
    return isinstance(force, Force) and category is not None and any(c.entry_id == category for c in force.categories)


def option_categories(option: Node) -> list[Entry]:
    """The category links of an option's entry and link."""
    return [link for source in option.sources for link in source.category_links]


def option_primary_category(option: Node) -> str | None:
    """The category an option's entry is primarily in."""
    links = option_categories(option)
    for link in links:
        if link.primary:
            return link.target_id
    return links[0].target_id if links else None


def attribution(option: Option, holder: Entry, constraint: Constraint) -> tuple[str, str]:
    """The entry and constraint an error names: a link's constraint is named by the entry it
    links to when that entry has a constraint of the same kind (as BattleScribe's error ids do)."""
    if holder.kind != ENTRY_LINK:
        return option.entry.id, constraint.id
    same = [c for c in option.entry.constraints if c.type == constraint.type]
    if same:
        matching = next((c for c in same if c.value == constraint.value), same[0])
        return option.entry.id, matching.id
    return holder.id, constraint.id


def all_collective(group: GroupOption) -> bool:
    """Whether every option in a group is collective."""
    return all(is_collective(o) for o in group.options)


def format_number(value: float) -> str:
    """A number as messages show it."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def roster_errors(roster: Roster) -> list[ValidationError]:
    """Every validation error of a roster."""
    with evaluation_pass(roster):
        return Validator(roster).run()
