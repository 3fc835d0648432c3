"""A BattleScribe roster engine in pure Python.

This package holds everything needed to evaluate BattleScribe data (a game system and its
catalogues) at roster time, as BattleScribe does, for any game system: the data model and its
loading (from the conformance protocol's JSON, or from .gst/.cat XML and zipped .gstz/.catz),
entry ids, costs, constraints, modifiers and conditions, roster state (forces, selections,
categories), validation errors, and .ros roster files. `adapter` speaks the conformance suite's
JSON-lines protocol over it (the suite's runner is test tooling: `tests/battlescribe_spec_runner.py`).

It imports nothing of `lists/` but `lists.battlescribe.archives` (the bounded unzip every reader
shares) and nothing from Django (only the standard library and lxml for XML), so it can be used
and tested on its own.

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

from .gamedata import GameData
from .loading import load_protocol_data
from .roster import Roster
from .xml_loading import load_data_files, load_data_folder

__all__ = ["GameData", "Roster", "load_data_files", "load_data_folder", "load_protocol_data"]
