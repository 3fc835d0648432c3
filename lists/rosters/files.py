"""Roster files: YAML or JSON in, a checked roster out; and back again.

Reading never trusts its input: size, nesting and aliases are limited, every
problem is collected with its field (and line, for YAML) before anything is
saved, and unknown names come back with the nearest names the game has.
See docs/roster-format.md. The format is in `format`, parsing in
`parsing`, matching names to the game data in `resolving`, saving
and exporting in `writing`; every public name is importable from here.
"""

from __future__ import annotations

from lists.rosters import battlescribe_data_json, battlescribe_data_rosters, pasted_rosters, text_files
from lists.rosters.battlescribe_data_rosters import DataSetRoster
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
from lists.rosters.pasted_rosters import battlescribe_text
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
    "load_any_roster_file",
    "DataSetRoster",
    "battlescribe_text",
    "data_set_roster_document",
]


def data_set_roster_document(roster, data_set) -> dict:
    """A roster of a loaded BattleScribe data set as its JSON/YAML export, with the entry ids it is read back by
    (lists/rosters/battlescribe_data_json.py); write it with `dump_json` or `dump_yaml`."""
    return battlescribe_data_json.roster_document(roster, data_set, with_ids=True)


def load_roster_file(raw: bytes, filename: str = "") -> ResolvedRoster:
    """Parse, check and resolve a roster file; RosterFileInvalid lists every problem with its line."""
    if is_battlescribe(
        raw, filename
    ):  # .ros/.rosz: BattleScribe and New Recruit (lists/rosters/battlescribe_reading.py)
        root, _ = battlescribe_data_rosters.read_root(raw)  # parsed once, then read from this tree
        if battlescribe_data_rosters.is_data_set_roster(root):
            game = root.get("gameSystemName") or root.get("gameSystemId")
            raise RosterFileInvalid(
                [
                    Problem(
                        "",
                        f"this is a roster of {game}; rosters of BattleScribe data sets are checked by "
                        "`validate_roster` for now",
                    )
                ]
            )
        return load_battlescribe(raw, root)
    if pasted_rosters.is_pasted_list(raw, filename):  # BattleScribe's and New Recruit's text, as players paste it
        return _ours(pasted_rosters.load_pasted_list(raw))
    if text_files.is_roster_text(raw, filename):  # roster.txt, as the share page writes it
        return text_files.load_roster_text(raw)
    entry, node = _read(raw, filename)
    try:
        return resolve(entry)
    except RosterFileInvalid as invalid:
        raise RosterFileInvalid(_with_lines(invalid.problems, node)) from None


def _ours(resolved):
    """A roster of our packs, where only those are taken: a pasted list of a data set is refused, as its .ros is."""
    if isinstance(resolved, DataSetRoster):
        message = (
            f"this is a list of {resolved.game_name}, a loaded BattleScribe data set: it is read as a roster of "
            "that game (the home page's import, `validate_roster`, an event of that game)"
        )
        raise RosterFileInvalid([Problem("", message)])
    return resolved


def load_any_roster_file(raw: bytes, filename: str = "") -> ResolvedRoster | DataSetRoster:
    """A roster file of ours (as `load_roster_file`) or, for a `.ros`/`.rosz` of a game system our packs do not
    claim, a roster of its loaded BattleScribe data set read by the engine (lists/rosters/battlescribe_data_rosters.py).
    RosterFileInvalid lists every problem (for a game system without data: that none is loaded)."""
    if is_battlescribe(raw, filename):
        root, _ = battlescribe_data_rosters.read_root(raw)  # parsed once, then read from this tree
        if not battlescribe_data_rosters.claimed_by_packs(root.get("gameSystemId") or ""):
            return battlescribe_data_rosters.read_data_set_roster(raw, root=root)
        return load_battlescribe(raw, root)
    if pasted_rosters.is_pasted_list(raw, filename):  # of our packs' Bolt Action, or of a loaded data set
        return pasted_rosters.load_pasted_list(raw)
    if not text_files.is_roster_text(raw, filename):
        data, _ = parse(raw, filename)
        if battlescribe_data_json.is_document(data):  # our JSON/YAML export of such a roster, rebuilt by the engine
            return battlescribe_data_json.read_document(data)
    return load_roster_file(raw, filename)
