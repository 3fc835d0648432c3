"""Every BattleScribe data folder beside the repository through the engine: nothing may crash.

    python scripts/battlescribe_all_data.py [FOLDER ...]

For each folder of ../shared/bsdata/* and ../shared/community-data/* (or the folders given): load
its game system and catalogues, then for each catalogue (but libraries) add one force of each force
entry, select up to five of its root entries (and the first child of each), and evaluate the roster
(costs, every validation error, the state). Prints per folder the time, the rosters built and any
crash with its traceback's last line; exits 1 if anything crashed.
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lists.battlescribe.engine import Roster  # noqa: E402
from lists.battlescribe.engine.compiled import without_collection  # noqa: E402
from lists.battlescribe.engine.state import roster_state  # noqa: E402
from lists.battlescribe.engine.xml_loading import load_data_folder  # noqa: E402

SHARED = ROOT.parent / "shared"
ROOT_ENTRIES = 5


def data_folders() -> list[Path]:
    """The data folders beside the repository."""
    found = []
    for parent in (SHARED / "bsdata", SHARED / "community-data"):
        if parent.is_dir():
            found.extend(p for p in sorted(parent.iterdir()) if p.is_dir())
    return found


def exercise(data, catalogue, force_entry) -> int:
    """A roster of one force with a few root entries (and a child of each), evaluated."""
    roster = Roster(data, f"{catalogue.name} {force_entry.name}")
    force = roster.add_force(force_entry.id, catalogue.id)
    chosen = [o for o in force.options if not o.entry.hidden][:ROOT_ENTRIES]
    for option in chosen:
        selection = roster.select(force, option)
        children = roster.options_under(selection)
        if children:
            roster.select(selection, children[0])
    roster_state(roster)
    return 1


def check_folder(folder: Path) -> tuple[int, list[str]]:
    """Rosters built for a folder, and the crashes met."""
    crashes: list[str] = []
    try:
        data = without_collection(lambda: load_data_folder(folder))
    except Exception as error:  # noqa: BLE001 - reported, not raised: every folder is tried
        return 0, [f"loading: {type(error).__name__}: {error}"]
    built = 0
    force_entries = [f for book in data.books() for f in book.force_entries]
    for catalogue in data.catalogues:
        if catalogue.library:
            continue
        for force_entry in force_entries:
            try:
                built += exercise(data, catalogue, force_entry)
            except Exception as error:  # noqa: BLE001
                where = traceback.extract_tb(error.__traceback__)[-1]
                crashes.append(
                    f"{catalogue.name} / {force_entry.name}: {type(error).__name__}: {error} "
                    f"({Path(where.filename).name}:{where.lineno})"
                )
    return built, crashes


def main() -> int:
    """Check every folder and print what was found."""
    folders = [Path(a) for a in sys.argv[1:]] or data_folders()
    crashed = False
    for folder in folders:
        started = time.perf_counter()
        built, crashes = check_folder(folder)
        print(f"{folder.name}: {built} rosters, {len(crashes)} crashes, {time.perf_counter() - started:.1f} s")
        for crash in crashes[:10]:
            print(f"  {crash}")
        crashed = crashed or bool(crashes)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
