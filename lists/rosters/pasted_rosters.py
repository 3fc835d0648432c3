"""A list pasted as BattleScribe or New Recruit export it as text, read as a roster of the game it names.

The reading of the text is `pasted_text`; the game is found from the forces' catalogue names: Bolt Action
2nd edition's nations go to our packs (`pasted_packs`), the catalogue of any loaded BattleScribe data set
to that data set's engine (`pasted_data_sets`). Nothing is dropped silently and the paste is never refused
for a line it holds: every line that is not read (an e-mail's greeting, a unit or option no entry of the
data is named by) comes back as a warning naming the line and why, beside the verdict of what was read.
The paste's own total is compared with ours as a .ros file's is (`file_points`).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass

from lists import models
from lists.battlescribe.engine import write_roster_xml
from lists.rosters import pasted_data_sets, pasted_packs
from lists.rosters.battlescribe_reading import load_reading, parse_xml, read_roster_element
from lists.rosters.format import MAX_PROBLEMS, Problem, RosterFileInvalid
from lists.rosters.parsing import decoded_text
from lists.rosters.pasted_text import looks_like_pasted_list, pasted_text_of, read_pasted_list
from lists.rosters.resolving import ResolvedRoster

CODE_UNREAD = "paste.unread"  # a finding: a line of a pasted list that was not read into the roster
RULE_UNREAD = "battlescribe-text"  # the format the line did not fit (docs/roster-format.md)


@dataclass(frozen=True)
class Unread:
    """A line of a pasted list left out of the roster, and why."""

    line: int
    message: str

    def finding(self) -> dict:
        """As validate_roster's findings are written (a warning: the verdict is of what was read)."""
        return {
            "code": CODE_UNREAD,
            "severity": "warning",
            "message": f"line {self.line}: {self.message}; not read into the roster.",
            "unit": None,
            "rule": RULE_UNREAD,
        }


def is_pasted_list(raw: bytes, filename: str = "") -> bool:
    """Text (pasted, or a .txt/.md file) with a force heading as BattleScribe and New Recruit write one."""
    if filename.lower().endswith((".yaml", ".yml", ".json", ".ros", ".rosz")):
        return False
    return looks_like_pasted_list(raw[:65536].decode("utf-8", errors="replace"))


@contextmanager
def _collector_paused():
    """The cyclic garbage collector held while a paste is read: its many small objects (no cycles among them)
    would otherwise set off collections that walk the whole heap, the game data too, and make reading a
    512 KB paste grow faster than its size (measured: scripts/bench_pastes.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_pasted_list(raw: bytes):
    """A pasted list as a roster of ours (ResolvedRoster) or of a loaded data set (DataSetRoster), its `unread`
    lines kept beside it; RosterFileInvalid where no loaded game has a catalogue its forces name."""
    with _collector_paused():
        return _load_pasted_list(raw)


def _load_pasted_list(raw: bytes):
    pasted = read_pasted_list(decoded_text(raw))
    unread: list[Unread] = []

    def left_out(line: int, message: str) -> None:
        if len(unread) < MAX_PROBLEMS:
            unread.append(Unread(line, message))
        elif len(unread) == MAX_PROBLEMS:
            unread.append(Unread(line, "and the lines after it that were not read either"))

    for line, text in pasted.unread:
        left_out(line, f"{text[:80]!r} is not part of the list (a force heading, a category or a selection)")
    if pasted_packs.claims(pasted):
        root = pasted_packs.PackPaste(pasted, left_out).roster_element()
        resolved = load_reading(lambda: read_roster_element(root))  # no file size: the paste's own was checked
        total = pasted.total
        if total is not None and resolved.file_points is not None:
            resolved.file_points["total"] = round(total)
    else:
        data_set = pasted_data_sets.data_set_of(pasted)
        if data_set is None:
            raise RosterFileInvalid(_no_game(pasted))
        resolved = pasted_data_sets.DataSetPaste(pasted, data_set, left_out).read()
    resolved.unread = sorted(unread, key=lambda u: u.line)
    return resolved


def _no_game(pasted) -> list[Problem]:
    loaded = sorted(set(models.BattleScribeDataSet.objects.values_list("name", flat=True)))
    games = ", ".join(["Bolt Action 2nd edition", *loaded])
    return [
        Problem("", f"no loaded game has a catalogue named {force.catalogue!r} (loaded: {games})", force.line)
        for force in pasted.forces
        if force.catalogue
    ][:MAX_PROBLEMS] or [Problem("", "the list names no catalogue: its forces' headings end in '(Catalogue)'")]


def battlescribe_text(xml: bytes, markdown: bool = False) -> str:
    """A .ros roster (ours exported, or a data set's) as BattleScribe's text export players paste: plain or markdown."""
    return pasted_text_of(parse_xml(xml), markdown=markdown)


def pasted_ros(raw: bytes) -> bytes | None:
    """A pasted list of a loaded data set as the .ros it stands for (an event of that data set takes that), else
    None (a list of our packs); RosterFileInvalid where it names no loaded game."""
    found = load_pasted_list(raw)
    return None if isinstance(found, ResolvedRoster) else write_roster_xml(found.roster).encode()
