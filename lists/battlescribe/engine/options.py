"""The entries a roster can select, resolved through entry links, with BattleScribe's composite ids.

An `Option` is a selection entry at one place in the tree of what may be selected: reached from a
force's root or from a parent option, directly or through entry links and groups. Every entry link
on the way prefixes the ids below it with its own id and `::` (see entry-id-construction in the
conformance suite): a selection's `entryId` is its option's `id`, its `entryGroupId` is the id of
the group option holding it. Options are built lazily and kept, so each is resolved once.
"""

from __future__ import annotations

from .gamedata import GameData
from .limits import MAX_DEPTH, MAX_OPTIONS_UNDER_ENTRY, DataLimitExceeded
from .model import ENTRY_LINK, SELECTION_ENTRY_GROUP, Constraint, Entry


class Node:
    """What options and group options share: where they are and what they hold."""

    __slots__ = (
        "_children",
        "_groups",
        "base_fields",
        "count_keys",
        "data",
        "_constraints",
        "duplicate",
        "entry",
        "group",
        "id",
        "link",
        "parent",
        "prefix",
        "quiet_when_empty",
    )

    def __init__(
        self,
        data: GameData,
        entry: Entry,
        link: Entry | None,
        parent: Option | None,
        group: GroupOption | None,
        prefix: tuple[str, ...],
    ) -> None:
        self.data = data
        self.entry = entry
        self.link = link
        self.parent = parent
        self.group = group
        self.prefix = prefix
        self.id = "::".join((*prefix, entry.id))
        self._children: list[Option] | None = None
        self._groups: list[GroupOption] | None = None
        self.count_keys: tuple[frozenset[str], frozenset[str]] | None = None
        self.base_fields: object | None = None
        self.quiet_when_empty: bool | None = None
        self.duplicate: bool | None = None  # selecting.is_duplicate, worked out once
        self._constraints: list[tuple[Constraint, Entry]] | None = None

    @property
    def name(self) -> str:
        """The entry's name, or its link's where the entry has none."""
        return self.entry.name or (self.link.name if self.link else "")

    @property
    def sources(self) -> tuple[Entry, ...]:
        """The entry, then the link reaching it: both carry costs, constraints and modifiers."""
        return (self.entry,) if self.link is None else (self.entry, self.link)

    def constraints(self) -> list[tuple[Constraint, Entry]]:
        """Every constraint on the entry and on its link, with the element holding it (the data's, never changed)."""
        found = self._constraints
        if found is None:
            found = [(c, self.entry) for c in self.entry.constraints]
            if self.link is not None:
                found.extend((c, self.link) for c in self.link.constraints)
            self._constraints = found
        return found

    def _expand(self, holder_option: Option | None, own_group: GroupOption | None) -> None:
        children: list[Option] = []
        groups: list[GroupOption] = []
        for source in self.sources:
            expand_children(self.data, source, holder_option, own_group, self.prefix, children, groups)
        self._children, self._groups = children, groups


class Option(Node):
    """A selection entry that can be selected at one place in the roster."""

    __slots__ = ()

    @property
    def children(self) -> list[Option]:
        """Every option selectable under a selection of this one, through its groups too."""
        if self._children is None:
            self._expand(self, None)
        return self._children  # type: ignore[return-value]

    @property
    def groups(self) -> list[GroupOption]:
        """Every group option under this one, nested groups included."""
        if self._groups is None:
            self._expand(self, None)
        return self._groups  # type: ignore[return-value]

    @property
    def group_id(self) -> str | None:
        """The id of the group this option sits in (the selection's entryGroupId)."""
        return self.group.id if self.group else None

    def child(self, entry_id: str) -> Option | None:
        """The child option with this id, composite or plain."""
        return find_option(self.children, entry_id)


class GroupOption(Node):
    """A selection entry group at one place in the tree."""

    __slots__ = ()

    @property
    def options(self) -> list[Option]:
        """The options in this group, its nested groups' too."""
        if self._children is None:
            self._expand(self.parent, self)
        return self._children  # type: ignore[return-value]

    @property
    def nested_groups(self) -> list[GroupOption]:
        """The groups nested in this one, at any depth."""
        if self._groups is None:
            self._expand(self.parent, self)
        return self._groups  # type: ignore[return-value]

    @property
    def direct_options(self) -> list[Option]:
        """The options sitting directly in this group."""
        return [o for o in self.options if o.group is self]

    def default_option(self) -> Option | None:
        """The option named as this group's default, if any."""
        wanted = self.entry.default_selection_entry_id or (self.link.default_selection_entry_id if self.link else None)
        if not wanted:
            return None
        for option in self.options:
            if wanted in (option.entry.id, option.id) or (option.link is not None and option.link.id == wanted):
                return option
            if option.id.endswith("::" + wanted):
                return option
        return None


def expand_children(
    data: GameData,
    source: Entry,
    parent: Option | None,
    group: GroupOption | None,
    prefix: tuple[str, ...],
    children: list[Option],
    groups: list[GroupOption],
) -> None:
    """Add the options and groups an entry (or link) holds, resolving links on the way."""
    for entry in source.selection_entries:
        children.append(Option(data, entry, None, parent, group, prefix))
    for entry in source.selection_entry_groups:
        add_group(data, GroupOption(data, entry, None, parent, group, prefix), children, groups)
    for link in source.entry_links:
        target = data.link_target(link)
        if target is None:
            continue
        if len(prefix) >= MAX_DEPTH:
            raise DataLimitExceeded(
                f"entry link {link.id} ({link.name}) is reached through more than {MAX_DEPTH} links "
                "(a cycle of entry links or groups?): the data set must be corrected and loaded again"
            )
        link_prefix = (*prefix, link.id)
        if target.kind == SELECTION_ENTRY_GROUP:
            add_group(data, GroupOption(data, target, link, parent, group, link_prefix), children, groups)
        else:
            children.append(Option(data, target, link, parent, group, link_prefix))


def add_group(data: GameData, group: GroupOption, children: list[Option], groups: list[GroupOption]) -> None:
    """A group option and everything in it."""
    groups.append(group)
    groups.extend(group.nested_groups)
    children.extend(group.options)
    # Groups are expanded whole: links doubling at every level would otherwise build millions of options.
    if len(children) + len(groups) > MAX_OPTIONS_UNDER_ENTRY:
        raise DataLimitExceeded(
            f"group {group.entry.id} ({group.name}) holds more than {MAX_OPTIONS_UNDER_ENTRY:,} entries through its "
            "links: the data set must be corrected and loaded again"
        )


def root_options(data: GameData, roots: list[Entry]) -> tuple[list[Option], list[GroupOption]]:
    """The options and groups a force may select at its root."""
    children: list[Option] = []
    groups: list[GroupOption] = []
    for entry in roots:
        if entry.kind == ENTRY_LINK:
            holder = Entry(kind="root", id="", entry_links=[entry])
        else:
            holder = Entry(kind="root", id="", selection_entries=[entry])
        expand_children(data, holder, None, None, (), children, groups)
    return children, groups


def find_option(options: list[Option], entry_id: str) -> Option | None:
    """The option answering to an id: its composite id, or the id of its entry or link."""
    for option in options:
        if option.id == entry_id:
            return option
    for option in options:
        if option.entry.id == entry_id or (option.link is not None and option.link.id == entry_id):
            return option
    for option in options:
        if entry_id in option.id.split("::"):
            return option
    return None
