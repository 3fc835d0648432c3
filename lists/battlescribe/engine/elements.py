"""The elements of a roster: forces, their categories, and selections."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .model import Catalogue, Entry
from .options import GroupOption, Option

NO_CATEGORY_ID = "(No Category)"
NO_CATEGORY_NAME = "Uncategorised"


@dataclass(slots=True, eq=False)
class RosterCategory:
    """A category of a force, as BattleScribe lists it in the force."""

    id: str
    entry_id: str
    name: str
    custom_name: str | None = None
    custom_notes: str | None = None


@dataclass(slots=True, eq=False)
class SelectionCategory:
    """A category a selection belongs to."""

    entry_id: str
    name: str
    primary: bool
    link: Entry | None = None


@dataclass(slots=True, eq=False)
class Selection:
    """A selection of an option, `number` times, with its child selections.

    `costs` hold the live values BattleScribe shows: each refresh sets them anew, in roster order,
    and a selection made since the last refresh has none yet.
    """

    id: str
    option: Option
    force: Force
    parent: Selection | None
    number: int = 1
    serial: int = 0
    children: list[Selection] = field(default_factory=list)
    custom_name: str | None = None
    custom_notes: str | None = None
    name: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    costs: dict[str, float] = field(default_factory=dict)
    declared_costs: set[str] = field(default_factory=set)
    categories: list[SelectionCategory] = field(default_factory=list)
    # The ids it is counted by, with the categories list they were worked out from (`counting.selection_keys`).
    count_keys: tuple | None = None

    @property
    def entry_id(self) -> str:
        """The composite entry id (entry-link ids, then the entry's own)."""
        return self.option.id

    @property
    def entry_group_id(self) -> str | None:
        """The composite id of the group the selection was made from."""
        return self.option.group_id

    @property
    def type(self) -> str:
        """unit, model or upgrade."""
        return self.option.entry.type

    @property
    def container(self) -> Selection | Force:
        """The selection or force holding this one."""
        return self.parent if self.parent is not None else self.force

    def walk(self) -> Iterator[Selection]:
        """This selection and every one under it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def primary_category(self) -> str | None:
        """The id of the selection's primary category."""
        for category in self.categories:
            if category.primary:
                return category.entry_id
        return None

    def in_group(self, group: GroupOption) -> bool:
        """Whether this selection was made from `group` or a group nested in it."""
        current = self.option.group
        while current is not None:
            if current is group:
                return True
            current = current.group
        return False


@dataclass(slots=True, eq=False)
class Force:
    """A force of a force entry, from one catalogue, with its selections and child forces."""

    id: str
    entry: Entry
    catalogue: Catalogue
    parent: Force | None = None
    serial: int = 0
    selections: list[Selection] = field(default_factory=list)
    forces: list[Force] = field(default_factory=list)
    categories: list[RosterCategory] = field(default_factory=list)
    custom_name: str | None = None
    custom_notes: str | None = None
    name: str = ""
    hidden: bool = False
    options: list[Option] = field(default_factory=list)
    groups: list[GroupOption] = field(default_factory=list)

    def all_selections(self) -> Iterator[Selection]:
        """Every selection of this force (not of its child forces), depth first."""
        for selection in self.selections:
            yield from selection.walk()

    def walk_forces(self) -> Iterator[Force]:
        """This force and its child forces, at any depth."""
        yield self
        for child in self.forces:
            yield from child.walk_forces()
