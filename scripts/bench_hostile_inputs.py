"""Hostile roster files of a loaded BattleScribe data set, posted to the home page's import: each one's time.

    python scripts/bench_hostile_inputs.py [--runs 5] [DATA_FOLDER]

Loads a data folder (Konflikt '47 from ../shared by default) into a scratch database and posts, as a
visitor would, roster files shaped to find work that grows faster than the file: a small .rosz of
1,200 and 2,400 squads without ids (each label and cost looked up once, not in a growing list), a
512 KB .ros of empty forces, a 512 KB .ros of squads without ids, one of squads sharing one id,
and names full of control characters. Each line: the input, its size, the status the import
answered, and the median (fastest-slowest) of `--runs` posts in milliseconds; a linear reader
doubles its time when the file doubles.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import zipfile
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
DEFAULT_FOLDER = ROOT.parent / "shared" / "bsdata" / "konflikt47"
CATALOGUE, FORCE, SQUAD = "Finland", "Reinforced Platoon", "Rifle Squad"
KILOBYTES = 512


def zipped(xml: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("roster.ros", xml)
    return buffer.getvalue()


def roster_xml(head: str, forces: str) -> bytes:
    return f'<?xml version="1.0"?>\n<roster {head}><forces>{forces}</forces></roster>'.encode()


def fill(head: str, force_open: str, item: str, force_close: str, kilobytes: int = KILOBYTES) -> bytes:
    """A roster whose one force holds `item` as often as fits in `kilobytes`."""
    room = kilobytes * 1024 - len(roster_xml(head, force_open + force_close)) - 16
    return roster_xml(head, force_open + item * (room // len(item)) + force_close)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not args.folder.is_dir():
        print(f"no data at {args.folder}: skipped")
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    os.environ.update(DJANGO_SETTINGS_MODULE="armybuilder.settings", DJANGO_DEBUG="1")
    os.environ["DJANGO_SQLITE_PATH"] = str(scratch / "db.sqlite3")
    os.environ["ARMYBUILDER_CACHE_DIR"] = str(scratch / "cache")
    os.environ["ARMYBUILDER_ROSTER_CREATE_RATE"] = "100000/m"
    import django

    django.setup()
    from bench_runs import runs_ms
    from django.conf import settings
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from lists import models
    from lists.gamedata.battlescribe_cache import battlescribe_game_data

    settings.ALLOWED_HOSTS = ["*"]
    settings.RATELIMIT_ENABLE = False
    call_command("migrate", verbosity=0)
    call_command("load_battlescribe", str(args.folder), stdout=StringIO())
    data_set = models.BattleScribeDataSet.objects.get()
    data = battlescribe_game_data(data_set)
    book = next(c for c in data.catalogues if c.name == CATALOGUE)
    entry = next(f for f in [*data.game_system.force_entries, *book.force_entries] if f.name == FORCE)
    squad = next(o for o in data.root_entries(book) if o.name == SQUAD)
    head = f'name="Bench" gameSystemId="{data.game_system.id}" gameSystemRevision="{data_set.revision}"'
    force_open = f'<force entryId="{entry.id}" catalogueId="{book.id}"><selections>'
    force_close = "</selections></force>"
    squad_xml = f'<selection entryId="{squad.id}" name="{SQUAD}" number="1"/>'
    client = Client(HTTP_HOST="localhost")
    inputs = {
        "rosz of 1,200 squads without ids": zipped(roster_xml(head, force_open + squad_xml * 1200 + force_close)),
        "rosz of 2,400 squads without ids": zipped(roster_xml(head, force_open + squad_xml * 2400 + force_close)),
        f"{KILOBYTES} KB of empty <force/>": fill(head, "", "<force/>", ""),
        f"{KILOBYTES} KB of squads without ids": fill(head, force_open, squad_xml, force_close),
        f"{KILOBYTES} KB of squads sharing one id": fill(
            head, force_open, squad_xml.replace("<selection ", '<selection id="same" '), force_close
        ),
        f"{KILOBYTES} KB of names of control characters": fill(
            head, force_open, squad_xml.replace('number="1"', 'customName="&#1;&#xFFFF;"'), force_close
        ),
    }
    print(f"{data_set.name} revision {data_set.revision}: {args.runs} posts of each to /rosters/import/")
    for label, raw in inputs.items():
        statuses = set()

        def post(raw=raw, statuses=statuses):
            response = client.post("/rosters/import/", {"file": SimpleUploadedFile("hostile.rosz", raw)})
            statuses.add(response.status_code)

        figure = runs_ms(post, args.runs, setup=lambda: models.BattleScribeRoster.objects.all().delete())
        print(f"  {label:<44} {len(raw):>7} bytes  status {sorted(statuses)}  {figure:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
