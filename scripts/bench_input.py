"""Hostile-input figures (`make bench` runs it): a file's refusal must cost time linear in its size.

Prints how long a YAML and a JSON roster file of many unknown keys (just under the
512 KB cap) take to be refused; a refusal is located problem by problem, so a
quadratic step shows here long before it reaches a visitor.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django  # noqa: E402

django.setup()

from lists.roster_files import RosterFileInvalid, load_roster_file  # noqa: E402


def unknown_keys_yaml(count: int) -> bytes:
    """A roster file whose top level holds `count` keys the format does not know."""
    return ("game: bolt-action-2e\narmy: generic\n" + "".join(f"k{i}: 1\n" for i in range(count))).encode()


def unknown_keys_json(count: int) -> bytes:
    return json.dumps({"game": "bolt-action-2e", "army": "generic", **{f"k{i}": 1 for i in range(count)}}).encode()


def refusal_seconds(raw: bytes, filename: str) -> tuple[float, int]:
    start = time.perf_counter()
    try:
        load_roster_file(raw, filename)
    except RosterFileInvalid as invalid:
        return time.perf_counter() - start, len(invalid.problems)
    raise SystemExit("the file was accepted: the figure would be wrong")


def main() -> None:
    print("Refusing hostile roster files (target: linear in size, well under 2 s at the 512 KB cap)")
    for count in (5_000, 10_000, 45_000):
        for make, name in ((unknown_keys_yaml, "roster.yaml"), (unknown_keys_json, "roster.json")):
            raw = make(count)
            seconds, problems = refusal_seconds(raw, name)
            label = f"{count:,} unknown keys, {name.rsplit('.', 1)[1].upper()}, {len(raw) // 1024} KB"
            print(f"  {label:<58} {seconds * 1000:>9.0f} ms  ({problems} problems reported)")


if __name__ == "__main__":
    main()
