"""The graph of entries and links in compiled data, checked for cycles, depth and size in linear time.

An entry holds its selection entries, groups and entry links; an entry link stands for its target
(and holds what it holds itself). `entry_graph_problems` walks that graph once, depth first and
without recursion, and names by file and id:

- an entry link whose target leads back to the link (directly, as a group linking to itself, or
  through groups, selection entries and shared entries of any catalogue): BattleScribe's option tree
  would be endless;
- entries nested deeper than `MAX_DEPTH`, counting every level a link reaches;
- an entry with more than `MAX_OPTIONS_UNDER_ENTRY` entries under it at every depth, counted
  through its links (a chain of links each reaching the next twice doubles at every step).

`info_graph_problems` does the same for info groups: an info link to an info group that holds
(or links to) the group the link is in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .gamedata import GameData
from .limits import MAX_DEPTH, MAX_OPTIONS_UNDER_ENTRY
from .model import ENTRY_LINK, Entry, InfoGroup

MAX_CYCLES = 20  # cycles named one by one; a folder with more is named by its first ones

Children = Callable[[object], list]


def entry_children(data: GameData) -> Children:
    """What an entry (or link) leads to: its own entries, groups and links, and a link's target."""

    def children(entry: Entry) -> list[Entry]:
        found = [*entry.selection_entries, *entry.selection_entry_groups, *entry.entry_links]
        if entry.kind == ENTRY_LINK:
            target = data.link_target(entry)
            if target is not None:
                found.append(target)
        return found

    return children  # type: ignore[return-value]


def info_children(data: GameData) -> Children:
    """What an info group leads to: its nested groups and the groups its info links reach."""

    def children(group: InfoGroup) -> list[InfoGroup]:
        found = list(group.info_groups)
        for link in group.info_links:
            target = data.info_groups.get(link.target_id) if link.type == "infoGroup" else None
            if target is not None:
                found.append(target)
        return found

    return children  # type: ignore[return-value]


def walk(roots: Iterable[object], children: Children, cycle: Callable[[list[object], int], None], done) -> None:
    """Depth first from every root, each node once: `cycle(path, start)` for each edge back into the path
    (the path from `path[start]` to its end closes the cycle), `done(node, kids)` after a node's children."""
    state: dict[int, int] = {}  # id(node) -> its index on the path while on it, -1 once done
    for root in roots:
        if id(root) in state:
            continue
        path: list[object] = [root]
        kids_of = [children(root)]
        positions = [0]
        state[id(root)] = 0
        while path:
            node, kids = path[-1], kids_of[-1]
            if positions[-1] < len(kids):
                child = kids[positions[-1]]
                positions[-1] += 1
                seen = state.get(id(child))
                if seen is None:
                    state[id(child)] = len(path)
                    path.append(child)
                    kids_of.append(children(child))
                    positions.append(0)
                elif seen >= 0:
                    cycle(path, seen)
                continue
            state[id(node)] = -1
            done(node, kids)
            path.pop(), kids_of.pop(), positions.pop()


def book_roots(data: GameData) -> list[Entry]:
    """Every entry at the top of a catalogue or game system, shared ones too."""
    return [entry for book in data.books() for entry in book_roots_of(book)]


def describe(entry: Entry) -> str:
    return f"{entry.kind} {entry.id} ({entry.name})"


def entry_graph_problems(data: GameData, file_of: dict[str, str]) -> list[str]:
    """Cycles of entry links, nesting too deep, entries with too much under them (see the module)."""
    problems: list[str] = []
    depth: dict[int, int] = {}
    size: dict[int, int] = {}
    cycles: list[str] = []

    def file(entry: Entry) -> str:
        return file_of.get(entry.catalogue_id, entry.catalogue_id)

    def cycle(path: list[object], start: int) -> None:
        if len(cycles) >= MAX_CYCLES:
            return
        loop: list[Entry] = path[start:]  # type: ignore[assignment]
        link = next((e for e in reversed(loop) if e.kind == ENTRY_LINK), loop[-1])
        through = " -> ".join(describe(e) for e in loop)
        cycles.append(f"{file(link)}: {describe(link)} leads back to itself, a cycle of links: {through}")

    def done(entry: Entry, kids: list[Entry]) -> None:
        own = 0 if entry.kind == ENTRY_LINK else 1  # a link and its target are one level
        depth[id(entry)] = own + max((depth.get(id(k), 0) for k in kids), default=0)
        below = own + sum(size.get(id(k), 0) for k in kids)
        size[id(entry)] = min(below, MAX_OPTIONS_UNDER_ENTRY + 1)
        if len(problems) >= MAX_CYCLES:
            return
        if depth[id(entry)] == MAX_DEPTH + 1:
            problems.append(f"{file(entry)}: {describe(entry)}: entries nested more than {MAX_DEPTH} deep under it")
        # Named where the count first passes the bound, not at every entry above it.
        if below > MAX_OPTIONS_UNDER_ENTRY and all(size.get(id(k), 0) <= MAX_OPTIONS_UNDER_ENTRY for k in kids):
            problems.append(
                f"{file(entry)}: {describe(entry)}: more than {MAX_OPTIONS_UNDER_ENTRY:,} entries under it, "
                "counted through its links"
            )

    walk(book_roots(data), entry_children(data), cycle, done)
    return cycles + (problems if not cycles else [])


def info_graph_problems(data: GameData, file_of: dict[str, str]) -> list[str]:
    """Info groups that hold or link to themselves, directly or through other groups."""
    cycles: list[str] = []
    owner_file = info_group_files(data, file_of)

    def cycle(path: list[object], start: int) -> None:
        if len(cycles) < MAX_CYCLES:
            loop: list[InfoGroup] = path[start:]  # type: ignore[assignment]
            where = next((owner_file[id(g)] for g in loop if id(g) in owner_file), "")
            through = " -> ".join(f"infoGroup {g.id} ({g.name})" for g in loop)
            cycles.append(f"{where + ': ' if where else ''}infoGroup {loop[0].id} links back to itself: {through}")

    walk(list(data.info_groups.values()), info_children(data), cycle, lambda node, kids: None)
    return cycles


def info_group_files(data: GameData, file_of: dict[str, str]) -> dict[int, str]:
    """The file each info group is written in (by the group's id()), shared or inside an entry."""
    found: dict[int, str] = {}
    for book in data.books():
        name = file_of.get(book.id, book.id)
        groups: list[InfoGroup] = list(book.shared_info_groups)
        entries: list[Entry] = [*book_roots_of(book), *book.force_entries, *book.category_entries]
        while entries:
            entry = entries.pop()
            groups.extend(entry.info_groups)
            entries.extend(
                [*entry.selection_entries, *entry.selection_entry_groups, *entry.entry_links, *entry.force_entries]
            )
        while groups:
            group = groups.pop()
            if id(group) not in found:
                found[id(group)] = name
                groups.extend(group.info_groups)
    return found


def book_roots_of(book) -> list[Entry]:
    return [
        *book.selection_entries,
        *book.entry_links,
        *book.shared_selection_entries,
        *book.shared_selection_entry_groups,
    ]
