"""Speed of the BattleScribe roster editor: one edit of a 2,000-point roster, answered as the browser gets it.

    python scripts/bench_battlescribe_editor.py [--runs 15] [--points 2000] [DATA_FOLDER]

Loads a data folder (Konflikt '47 from ../shared by default) into a scratch database, starts a roster
through the start page, adds squads and tanks until it passes `--points`, then times edits made as
the editor makes them (an htmx POST raising and lowering one squad's soldiers): the whole request
(the roster as this process saved it last, one engine action, written back, the roster's part of
the page rendered), and each part alone (the roster read from its kept XML, as when another
process made the last edit). Figures: the median and min-max of `--runs` edits, in milliseconds (the whole request also in this
process's CPU time, steadier on a busy machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_FOLDER = ROOT.parent / "shared" / "bsdata" / "konflikt47"
# The army, its force and the root entries added in turn until the roster reaches its points.
CATALOGUE, FORCE, ENTRIES = "Finland", "Reinforced Platoon", ["Officer", "Rifle Squad", "Rifle Squad", "Panzer IV"]


def spread(times: list[float]) -> str:
    return f"{statistics.median(times):7.1f} ms (min {min(times):.1f}, max {max(times):.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--points", type=int, default=2000)
    args = parser.parse_args()
    if not args.folder.is_dir():
        print(f"no data at {args.folder}: skipped")
        return 0
    scratch = tempfile.mkdtemp(prefix="bench-bs-editor-")
    os.environ.update(DJANGO_SETTINGS_MODULE="armybuilder.settings", DJANGO_DEBUG="1")
    os.environ["DJANGO_SQLITE_PATH"] = str(Path(scratch) / "db.sqlite3")
    os.environ.setdefault("ROSTER_CREATE_RATE", "10000/m")
    os.environ["ARMYBUILDER_EDIT_RATE"] = os.environ["ARMYBUILDER_UNIT_ADD_RATE"] = (
        "1000000/m"  # the editor, not its limits
    )
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    settings.RATELIMIT_ENABLE = False
    call_command("migrate", verbosity=0)
    call_command("load_battlescribe", str(args.folder), stdout=StringIO())

    from lists import models
    from lists.roster_kinds.data_set_shape import roster_shape
    from lists.rosters import battlescribe_data_editing as editing

    data_set = models.BattleScribeDataSet.objects.get()
    catalogue = data_set.catalogues.get(name=CATALOGUE)
    force = data_set.battlescribeforce_set.filter(name=FORCE).first()
    client = Client(HTTP_HOST="localhost")
    response = client.post(
        "/bs/new/",
        {"catalogue": f"{data_set.pk}:{catalogue.catalogue_id}", "force": f"{data_set.pk}:{force.bs_id}"},
    )
    secret = response["Location"].split("/")[3]
    kept = models.BattleScribeRoster.objects.get()
    roster = editing.open_roster(kept)
    offers = {o.name: o.entry_id for _, group in roster_shape(roster).forces[0].offers for o in group}
    index = 0
    while roster.totals.get(editing.primary_cost_type(roster.data), 0) < args.points:
        editing.apply(roster, "add", {"force": roster.forces[0].id, "entry": offers[ENTRIES[index % len(ENTRIES)]]})
        index += 1
    editing.save(kept, roster, None)
    squad = next(s for s in roster.forces[0].selections if s.name == "Rifle Squad")
    soldier = next(c for c in squad.option.children if c.name == "Soldier with Rifle")
    selections = sum(1 for _ in roster.all_selections())
    print(
        f"{data_set.name}: {kept.points:.0f} points, {len(roster.forces[0].selections)} units, {selections} selections"
    )

    cpu: list[float] = []

    def edit(count: int) -> float:
        kept.refresh_from_db()
        fields = {
            "action": "count",
            "version": kept.version,
            "selection": squad.id,
            "entry": soldier.id,
            "count": count,
        }
        started, started_cpu = time.perf_counter(), time.process_time()
        answer = client.post(f"/bs/e/{secret}/change/", fields, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200 and b"Not changed" not in answer.content, answer.content[:500]
        cpu.append((time.process_time() - started_cpu) * 1000)
        return (time.perf_counter() - started) * 1000

    edit(5)  # the first request compiles the data in this process
    cpu.clear()
    whole = [edit(4 + run % 2) for run in range(args.runs)]
    parts: dict[str, list[float]] = {
        "read the kept .ros": [],
        "one engine action": [],
        "write it back": [],
        "shape": [],
    }
    for run in range(args.runs):
        kept.refresh_from_db()
        editing.RECENT.clear()  # each part alone: the roster read from its XML, as after another process's edit
        marks = [time.perf_counter()]
        roster = editing.open_roster(kept)
        marks.append(time.perf_counter())
        editing.apply(roster, "count", {"selection": squad.id, "entry": soldier.id, "count": 4 + run % 2})
        marks.append(time.perf_counter())
        editing.save(kept, roster, None)
        marks.append(time.perf_counter())
        roster_shape(roster)
        marks.append(time.perf_counter())
        for times, start, end in zip(parts.values(), marks, marks[1:], strict=False):
            times.append((end - start) * 1000)
    print(f"an edit, the whole request:  {spread(whole)} wall-clock, {spread(cpu)} CPU")
    for name, times in parts.items():
        print(f"  {name + ':':26s} {spread(times)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
