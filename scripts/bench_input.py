"""Hostile-input figures (`make bench` runs it): a file's refusal must cost time linear in its size.

Prints how long a YAML and a JSON roster file of many unknown keys (just under the
512 KB cap) take to be refused, and every reader's hostile shapes at 128, 256 and
512 KB (a .ros of empty forces or of unknown selections, a text roster of stray
lines or of one-unit forces): a refusal is located problem by problem, so a
quadratic step shows here long before it reaches a visitor (the time must about
double with the size, not quadruple). Each figure is the median of five runs, with
the fastest and slowest beside it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="armybuilder-bench-input-"))
os.environ["DJANGO_SQLITE_PATH"] = str(TMP / "bench.sqlite3")
os.environ["ARMYBUILDER_CACHE_DIR"] = str(TMP / "cache")
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
os.environ["ARMYBUILDER_UNIT_ADD_RATE"] = "100000/m"
os.environ["ARMYBUILDER_EDIT_RATE"] = "100000/m"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django  # noqa: E402

django.setup()

from bench_runs import FIVE, runs_ms  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from lists.rosters import battlescribe_ids  # noqa: E402
from lists.rosters.files import RosterFileInvalid, load_roster_file  # noqa: E402

SIZES_KB = (128, 256, 512)


def repeated(head: str, item: str, tail: str, kilobytes: int) -> bytes:
    """head, then item as often as fits in `kilobytes` (less a little, to stay under the cap), then tail."""
    room = kilobytes * 1024 - len(head) - len(tail) - 64
    return (head + item * (room // len(item)) + tail).encode()


def empty_forces_ros(kilobytes: int) -> bytes:
    system = battlescribe_ids.ids()["game_system"]["id"]
    return repeated(f'<roster gameSystemId="{system}"><forces>', "<force/>", "</forces></roster>", kilobytes)


def unknown_selections_ros(kilobytes: int) -> bytes:
    known = battlescribe_ids.ids()
    system, catalogue = known["game_system"]["id"], next(iter(known["catalogues"].values()))["id"]
    head = f'<roster gameSystemId="{system}"><forces><force catalogueId="{catalogue}"><selections>'
    return repeated(head, '<selection entryId="x"/>', "</selections></force></forces></roster>", kilobytes)


def stray_lines_text(kilobytes: int) -> bytes:
    head = "Hostile\nSkirmish · Blue army [skirmish/blue]\n\n"
    return repeated(head, "Platoon\n   65 pts  Rifle squad [rifle-squad]\nRegular\nstray line\n", "", kilobytes)


def one_unit_forces_text(kilobytes: int) -> bytes:
    head = "Hostile\nSkirmish · Blue army [skirmish/blue]\n"
    return repeated(head, "\nPlatoon\n   65 pts  Rifle squad [rifle-squad]\nRegular\n", "", kilobytes)


READER_SHAPES = (
    (empty_forces_ros, "roster.ros", ".ros of empty <force/> elements"),
    (unknown_selections_ros, "roster.ros", ".ros of unknown selections"),
    (stray_lines_text, "roster.txt", "text roster with a stray line per unit"),
    (one_unit_forces_text, "roster.txt", "text roster of one-unit forces"),
)


def unknown_keys_yaml(count: int) -> bytes:
    """A roster file whose top level holds `count` keys the format does not know."""
    return ("game: bolt-action-2e\narmy: generic\n" + "".join(f"k{i}: 1\n" for i in range(count))).encode()


def unknown_keys_in_units_yaml(count: int) -> bytes:
    """The same keys spread over units of 199 each: every mapping and list within its cap, so all are checked."""
    unit = "  - {unit: rifle-squad, " + ", ".join(f"k{i}: 1" for i in range(199)) + "}\n"
    return ("game: bolt-action-2e\narmy: generic\nunits:\n" + unit * (count // 199)).encode()


def unknown_keys_json(count: int) -> bytes:
    document = {"game": "bolt-action-2e", "army": "generic", **{f"k{i}": 1 for i in range(count)}}
    return json.dumps(document, separators=(",", ":")).encode()


def refusal(raw: bytes, filename: str) -> tuple[str, int]:
    """The time to refuse the file, median (fastest-slowest) of five runs; and how many problems it was told."""
    problems = []

    def refuse() -> None:
        try:
            load_roster_file(raw, filename)
        except RosterFileInvalid as invalid:
            problems.append(len(invalid.problems))
            return
        raise SystemExit("the file was accepted: the figure would be wrong")

    return f"{runs_ms(refuse):.0f} ms", max(problems)


def add_unit_ms(client: Client, edit: str, unit_type: str):
    """Adding a unit in the editor: median (fastest-slowest) of five additions, each to the roster's newest version."""
    version = []

    def read_version() -> None:
        page = client.get(edit).content.decode()
        version.append(re.search(r'name="version" value="(\d+)"', page).group(1))

    def add() -> None:
        answer = client.post(f"{edit}units/", {"unit_type": unit_type, "version": version[-1]})
        assert answer.status_code == 302, answer.status_code

    return runs_ms(add, setup=read_version)


def main() -> None:
    print("Refusing hostile roster files (target: linear in size, well under 2 s at the 512 KB cap)")
    print("  median of 5 runs (fastest-slowest)")
    for count in (5_000, 10_000, 45_000):
        shapes = (
            (unknown_keys_yaml, "roster.yaml", "YAML"),
            (unknown_keys_in_units_yaml, "roster.yaml", "YAML, in units"),
            (unknown_keys_json, "roster.json", "JSON"),
        )
        for make, name, shape in shapes:
            raw = make(count)
            figure, problems = refusal(raw, name)
            label = f"{count:,} unknown keys, {shape}, {len(raw) // 1024} KB"
            print(f"  {label:<58} {figure:>20}  ({problems} problems reported)")

    call_command("migrate", verbosity=0)
    call_command("loadpacks", packs_dir=ROOT / "tests" / "fixtures" / "packs", verbosity=0)
    print("Refusing every reader's hostile shapes (target: time doubling with the size; at most 50 problems told)")
    for make, name, shape in READER_SHAPES:
        for kilobytes in SIZES_KB:
            figure, problems = refusal(make(kilobytes), name)
            label = f"{shape}, {kilobytes} KB"
            print(f"  {label:<58} {figure:>20}  ({problems} problems reported)")

    print("Editor changes on a large roster (each checked as an import, saved in place)")
    for count in (50, 400 - FIVE):  # the last addition fills the roster to its cap of 400 units
        client = Client()
        units = "".join("  - {unit: rifle-squad}\n" for _ in range(count))
        edit = client.post("/rosters/import/", {"text": f"game: skirmish\narmy: blue\nunits:\n{units}"})["Location"]
        page = client.get(edit).content.decode()
        unit_type = re.search(r'name="unit_type" value="(\d+)"', page).group(1)
        figure = f"{add_unit_ms(client, edit, unit_type):.0f} ms"
        print(f"  {f'add a unit to a roster of {count}-{count + FIVE - 1} units':<58} {figure:>20}")


if __name__ == "__main__":
    main()
