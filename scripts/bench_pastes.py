"""Pasted lists' figures: reading BattleScribe's text (lists/rosters/pasted_rosters.py) in time linear in its size.

    python scripts/bench_pastes.py      (needs ../shared/bsdata beside the repository for the real rosters)

Prints, median of five runs (fastest-slowest): a Bolt Action paste of the German two-platoon list written as
BattleScribe's text, and of that list's units repeated up to the 400-unit cap (refused past it); a Konflikt '47
paste rebuilt by the engine; and hostile pastes of 128, 256 and 512 KB (lines naming no entry under a Bolt
Action force, each told up to 50; selections nested ever deeper), whose time must about double with the size.
"""

from __future__ import annotations

import os
import sys
import tempfile
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="armybuilder-bench-pastes-"))
os.environ["DJANGO_SQLITE_PATH"] = str(TMP / "bench.sqlite3")
os.environ["ARMYBUILDER_CACHE_DIR"] = str(TMP / "cache")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django  # noqa: E402

django.setup()

from bench_runs import runs_ms  # noqa: E402
from django.core.management import call_command  # noqa: E402

from lists.rosters.battlescribe_reading import parse_xml  # noqa: E402
from lists.rosters.files import RosterFileInvalid, load_any_roster_file  # noqa: E402
from lists.rosters.pasted_text import pasted_text_of  # noqa: E402

SHARED = ROOT.parent / "shared"
SIZES_KB = (128, 256, 512)


def read_ms(raw: bytes) -> tuple[str, str]:
    """The time to read (or refuse) a paste, median (fastest-slowest) of five, and what came of it."""
    outcome = []

    def read() -> None:
        try:
            found = load_any_roster_file(raw, "list.txt")
            outcome.append(f"read, {len(found.unread)} lines told")
        except RosterFileInvalid as invalid:
            outcome.append(f"refused: {str(invalid.problems[0])[:50]}")

    return f"{runs_ms(read):.0f} ms", outcome[-1]


def sized(head: str, item: str, kilobytes: int) -> bytes:
    room = kilobytes * 1024 - len(head) - 64
    return (head + item * (room // len(item))).encode()


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from tests import battlescribe_engine_rosters as made

    if not made.BOLT_ACTION.is_dir():
        raise SystemExit("../shared/bsdata/boltaction is absent: no real rosters to write as text")
    call_command("migrate", verbosity=0)
    call_command("loadpacks", verbosity=0)
    text = pasted_text_of(parse_xml(made.germany().xml().encode()))
    print("Reading pasted lists (median of 5 runs, fastest-slowest)")
    figure, outcome = read_ms(text.encode())
    print(f"  {'Bolt Action, German two platoons (7 units)':<62} {figure:>18}  {outcome}")
    squad = text[text.index("Heer Grenadier Squad [120pts]") : text.index("Heer Grenadier Squad [50pts]")]
    at = text.index("+ Transports +")
    for squads in (50, 100, 200, 393, 394):  # the list holds 7 units: 393 squads more fill the cap of 400
        raw = (text[:at] + squad * squads + text[at:]).encode()
        figure, outcome = read_ms(raw)
        label = f"Bolt Action, {squads} squads more ({squads + 7} units, {len(raw) // 1024} KB)"
        print(f"  {label:<62} {figure:>18}  {outcome}")
    konflikt = SHARED / "bsdata" / "konflikt47"
    if konflikt.is_dir():
        from lists.battlescribe.engine.roster_files import write_roster_xml
        from tests.test_battlescribe_data_rosters import built

        call_command("load_battlescribe", str(konflikt), stdout=StringIO())
        from lists.models import BattleScribeDataSet

        data_set = BattleScribeDataSet.objects.get()
        roster = built(data_set, "Finland", "Reinforced Platoon", ["Officer"] + ["Rifle Squad"] * 20)
        raw = pasted_text_of(parse_xml(write_roster_xml(roster).encode())).encode()
        figure, outcome = read_ms(raw)
        print(f"  {'Konflikt 47, a platoon of 21 units (engine)':<62} {figure:>18}  {outcome}")
    print("Hostile pastes (target: time doubling with the size)")
    force = (
        "++ Reinforced Platoon (Armies of Germany) [0pts] ++\n\nTheatre Selector: 1944: Normandy (Armies of Germany)\n"
    )
    for kilobytes in SIZES_KB:
        figure, outcome = read_ms(sized(force, "No Such Unit [10pts]: No Such Option, Another\n", kilobytes))
        print(f"  {f'lines naming no entry, {kilobytes} KB':<62} {figure:>18}  {outcome}")
    for kilobytes in SIZES_KB:
        deep = "".join(". " * depth + "Rifle\n" for depth in range(1, 200))
        figure, outcome = read_ms(sized(force + "Heer Grenadier Squad [10pts]\n", deep, kilobytes))
        print(f"  {f'selections nested 1 to 199 deep, {kilobytes} KB':<62} {figure:>18}  {outcome}")


if __name__ == "__main__":
    main()
