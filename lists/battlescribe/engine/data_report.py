"""What a checked folder of BattleScribe data holds, per catalogue, as a report to print and keep.

`data_report(folder, seconds)` counts, for the game system and each catalogue, its entries (selection
entries, groups and entry links, nested ones too, outside the shared lists), shared entries (the
same within the shared lists), profiles, rules, forces, modifiers, conditions and constraints; and
lists every item it could not read by file and id. `report_lines` prints it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from .data_folder import DataFolder, nodes
from .model import (
    ENTRY_LINK,
    FORCE_ENTRY,
    SELECTION_ENTRY,
    SELECTION_ENTRY_GROUP,
    Catalogue,
    Condition,
    Constraint,
    Entry,
    Modifier,
    Profile,
    Rule,
)

COUNTED = ("entries", "shared entries", "profiles", "rules", "forces", "modifiers", "conditions", "constraints")
ENTRY_KINDS = {SELECTION_ENTRY, SELECTION_ENTRY_GROUP, ENTRY_LINK}
SHARED_LISTS = ("shared_selection_entries", "shared_selection_entry_groups")


def book_counts(book: Catalogue) -> dict[str, int]:
    """The counts of one catalogue or game system (see the module's docstring)."""
    counts: Counter[str] = Counter({name: 0 for name in COUNTED})
    for name in SHARED_LISTS:
        for top in getattr(book, name):
            counts["shared entries"] += sum(1 for node, _ in nodes(top) if _is_entry(node))
    for node, _ in nodes(book, book.id):
        if _is_entry(node):
            counts["entries"] += 1
        elif isinstance(node, Entry) and node.kind == FORCE_ENTRY:
            counts["forces"] += 1
        elif isinstance(node, Profile):
            counts["profiles"] += 1
        elif isinstance(node, Rule):
            counts["rules"] += 1
        elif isinstance(node, Modifier):
            counts["modifiers"] += 1
        elif isinstance(node, Condition):
            counts["conditions"] += 1
        elif isinstance(node, Constraint):
            counts["constraints"] += 1
    counts["entries"] -= counts["shared entries"]
    return dict(counts)


def _is_entry(node: Any) -> bool:
    return isinstance(node, Entry) and node.kind in ENTRY_KINDS


def data_report(folder: DataFolder, seconds: float) -> dict[str, Any]:
    """The report of a checked folder, as plain data (kept beside the data set as JSON)."""
    data = folder.game_data
    system = data.game_system
    return {
        "game_system": {"id": system.id, "name": system.name, "revision": system.revision},
        "folder": str(folder.path),
        "digest": folder.digest,
        "seconds": round(seconds, 2),
        "bounds_seconds": round(folder.bounds_seconds, 2),
        "books": [
            {
                "file": folder.file_of.get(book.id, ""),
                "id": book.id,
                "name": book.name,
                "revision": book.revision,
                "library": book.library,
                "game_system": book.is_game_system,
                "counts": book_counts(book),
            }
            for book in data.books()
        ],
        "left_out": folder.left_out,
        "not_read": [{"file": n.file, "id": n.item_id, "name": n.name, "reason": n.reason} for n in folder.notes],
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as lines to print: the game system, a line per catalogue, what was not read."""
    system = report["game_system"]
    lines = [f"{system['name']} revision {system['revision']} ({system['id']}) from {report['folder']}"]
    totals: Counter[str] = Counter()
    for book in report["books"]:
        counts = book["counts"]
        totals.update(counts)
        kind = "game system" if book["game_system"] else ("library" if book["library"] else "catalogue")
        figures = ", ".join(f"{counts[name]} {name}" for name in COUNTED)
        lines.append(f"  {book['name']} ({kind}, revision {book['revision']}, {book['file']}): {figures}")
    lines.append("  total: " + ", ".join(f"{totals[name]} {name}" for name in COUNTED))
    if report["left_out"]:
        lines.append("  not data, left out: " + ", ".join(report["left_out"]))
    lines += not_read_lines(report["not_read"])
    bounds = f" (bounds and cycles {report['bounds_seconds']:.2f} s)" if "bounds_seconds" in report else ""
    lines.append(f"  digest {report['digest']}; read and checked in {report['seconds']:.2f} s{bounds}")
    return lines


def not_read_lines(not_read: list[dict[str, str]]) -> list[str]:
    """Every item not read, by file and reason, with the ids of the items."""
    if not not_read:
        return ["  every item was read"]
    grouped: dict[tuple[str, str], list[str]] = defaultdict(list)
    for item in not_read:
        grouped[(item["file"], item["reason"])].append(f"{item['id']} ({item['name']})")
    lines = [f"  {len(not_read)} item(s) not read:"]
    for (file_name, reason), items in grouped.items():
        lines.append(f"    {file_name}: {reason}: {', '.join(items)}")
    return lines
