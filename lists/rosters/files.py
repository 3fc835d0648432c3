"""Roster files: YAML or JSON in, a checked roster out; and back again.

Reading never trusts its input: size, nesting and aliases are limited, every
problem is collected with its field (and line, for YAML) before anything is
saved, and unknown names come back with the nearest names the game has.
See docs/roster-format.md. The format is in `format`, parsing in
`parsing`, matching names to the game data in `resolving`, saving
and exporting in `writing`; every public name is importable from here.
"""

from __future__ import annotations

from lists.rosters import text_files
from lists.rosters.battlescribe_reading import is_battlescribe, load_battlescribe
from lists.rosters.format import (
    FORMAT,
    MAX_COUNT,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_FILE_BYTES,
    MAX_HOUSE_RULES,
    MAX_PROBLEMS,
    MAX_UNITS,
    ForceEntry,
    HouseRuleEntry,
    OptionEntry,
    Problem,
    RosterFile,
    RosterFileInvalid,
    UnitEntry,
)
from lists.rosters.parsing import _read, _with_lines, check_document, parse, read_roster_file
from lists.rosters.resolving import ResolvedRoster, default_force_name, default_label, resolve
from lists.rosters.writing import dump_json, dump_yaml, export_roster, export_unit, replace_units, save_new_roster

__all__ = [
    "FORMAT",
    "MAX_COUNT",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_FILE_BYTES",
    "MAX_HOUSE_RULES",
    "MAX_PROBLEMS",
    "MAX_UNITS",
    "ForceEntry",
    "HouseRuleEntry",
    "OptionEntry",
    "Problem",
    "RosterFile",
    "RosterFileInvalid",
    "UnitEntry",
    "check_document",
    "parse",
    "read_roster_file",
    "ResolvedRoster",
    "default_force_name",
    "default_label",
    "resolve",
    "dump_json",
    "dump_yaml",
    "export_roster",
    "export_unit",
    "replace_units",
    "save_new_roster",
    "load_roster_file",
]


def load_roster_file(raw: bytes, filename: str = "") -> ResolvedRoster:
    """Parse, check and resolve a roster file; RosterFileInvalid lists every problem with its line."""
    if is_battlescribe(
        raw, filename
    ):  # .ros/.rosz: BattleScribe and New Recruit (lists/rosters/battlescribe_reading.py)
        return load_battlescribe(raw)
    if text_files.is_roster_text(raw, filename):  # roster.txt, as the share page writes it
        return text_files.load_roster_text(raw)
    entry, node = _read(raw, filename)
    try:
        return resolve(entry)
    except RosterFileInvalid as invalid:
        raise RosterFileInvalid(_with_lines(invalid.problems, node)) from None
