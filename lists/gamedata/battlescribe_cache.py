"""BattleScribe game data compiled once per data set per process, not per request.

`battlescribe_game_data(data_set)` hands the data set's stored files to the engine's per-process
cache (`lists.battlescribe.engine.compiled`), keyed by the digest the data set was loaded with:
a data set never changes once loaded, so its digest names its content, and the files are read
from the database only the first time a process needs them.
"""

from __future__ import annotations

from lists import models
from lists.battlescribe.engine import GameData
from lists.battlescribe.engine.compiled import clear_cache, compiled


def battlescribe_game_data(data_set: models.BattleScribeDataSet) -> GameData:
    """The engine's game data of a loaded data set, compiled once per process."""
    return compiled(data_set.digest, lambda: [(f.name, f.content) for f in data_set.files.order_by("name")])


def forget_compiled() -> None:
    """Drop every compiled data set (for tests)."""
    clear_cache()
