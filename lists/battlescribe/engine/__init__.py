"""A BattleScribe roster engine in pure Python.

This package holds everything needed to evaluate BattleScribe data (a game system and its
catalogues) at roster time, as BattleScribe does, for any game system: the data model and its
loading (from the conformance protocol's JSON, or from .gst/.cat XML and zipped .gstz/.catz),
entry ids, costs, constraints, modifiers and conditions, roster state (forces, selections,
categories), validation errors, and .ros roster files. `adapter` speaks the conformance suite's
JSON-lines protocol over it (the suite's runner is test tooling: `tests/battlescribe_spec_runner.py`).

It imports nothing of `lists/` but `lists.battlescribe.archives` (the bounded unzip every reader
shares) and nothing from Django (only the standard library and lxml for XML), so it can be used
and tested on its own. Modules outside it use it only through this package's names (`__all__`,
below), never its submodules (`tests/test_architecture.py` holds them to it), so its inside can
change without them; `scripts/` and the engine's own tests may reach further in.

Entry points:
- `load_protocol_data(game_system, catalogues)` / `load_data_folder(path)` -> `GameData`;
  `compiled.compiled_game_data(path)`: the same, loaded once per process for each revision (the
  files' digest)
- `data_folder.read_data_folder(path)`: a folder read and checked whole (or `DataFolderInvalid` naming
  each file and id), with its digest; `data_report.data_report` counts what it holds per catalogue
- `limits`: the bounds hostile data is refused by at load (`data_limits`, `data_graph`) and kept by the
  engine at roster time (`DataLimitExceeded`); `pickled.dumps`/`loads`: compiled data as bytes, for a
  cache every process reads
- `Roster(game_data)`: `add_force`, `select`, `deselect`, `remove`, `set_count`, `set_cost_limit`...; each
  evaluates the roster once, and `with roster.action():` makes many of them one evaluation; an
  evaluation re-evaluates only the forces the action can reach (`incremental`), `refresh()` everything
- `roster_state(roster)` and `roster.errors()`; `read_roster_xml` / `write_roster_xml` for .ros files.
"""

from .adapter import serve
from .compiled import clear_cache, kept, without_collection
from .counting import evaluation_pass
from .data_folder import DataFolder, DataFolderInvalid, nodes, read_data_folder
from .data_report import data_report as data_folder_report
from .data_report import report_lines
from .elements import NO_CATEGORY_ID, Force, Selection
from .entry_view import EntryView, GroupFields, group_fields
from .gamedata import GameData
from .info import ShownProfile, shown_info
from .limits import MAX_REVISION, DataLimitExceeded, bounds_text
from .loading import load_protocol_data
from .model import CATEGORY_LINK, ENTRY_LINK, SELECTION_ENTRY, Catalogue, Entry, InfoGroup, Profile, Rule
from .options import GroupOption, Option, find_option, root_options
from .pickled import ENGINE_VERSION
from .pickled import dumps as pickled_game_data
from .pickled import loads as unpickled_game_data
from .queries import Context
from .roster import Roster
from .roster_files import children_named, read_roster_tree, read_roster_xml, write_roster_xml
from .selecting import effective_count
from .validation import ValidationError, hidden_categories, in_force_category, roster_errors
from .xml_loading import (
    DATA_SUFFIXES,
    MAX_XML_BYTES,
    load_data_files,
    load_data_folder,
    local_name,
    unzip_if_needed,
)

__all__ = [
    "CATEGORY_LINK",
    "DATA_SUFFIXES",
    "ENGINE_VERSION",
    "ENTRY_LINK",
    "MAX_REVISION",
    "MAX_XML_BYTES",
    "NO_CATEGORY_ID",
    "SELECTION_ENTRY",
    "Catalogue",
    "Context",
    "DataFolder",
    "DataFolderInvalid",
    "DataLimitExceeded",
    "Entry",
    "EntryView",
    "Force",
    "GameData",
    "GroupFields",
    "GroupOption",
    "InfoGroup",
    "Option",
    "Profile",
    "Roster",
    "Rule",
    "Selection",
    "ShownProfile",
    "ValidationError",
    "bounds_text",
    "children_named",
    "clear_cache",
    "data_folder_report",
    "effective_count",
    "evaluation_pass",
    "find_option",
    "group_fields",
    "hidden_categories",
    "in_force_category",
    "kept",
    "load_data_files",
    "load_data_folder",
    "load_protocol_data",
    "local_name",
    "nodes",
    "pickled_game_data",
    "read_data_folder",
    "read_roster_tree",
    "read_roster_xml",
    "report_lines",
    "root_options",
    "roster_errors",
    "serve",
    "shown_info",
    "unpickled_game_data",
    "unzip_if_needed",
    "without_collection",
    "write_roster_xml",
]
