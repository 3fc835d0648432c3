"""BattleScribe game data compiled once per data set per process, not per request.

`battlescribe_game_data(data_set)` compiles the data set's stored files with the engine the first
time a process asks for it and keeps the result, keyed by the files' digest (a data set never
changes once loaded, so the digest names its content). A few data sets are kept, the least
recently used dropped first: a large game system compiles to a few hundred MB.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from lists import models
from lists.battlescribe.engine import GameData, load_data_files

MAX_KEPT = 4
_compiled: OrderedDict[str, GameData] = OrderedDict()
_lock = threading.Lock()


def battlescribe_game_data(data_set: models.BattleScribeDataSet) -> GameData:
    """The engine's game data of a loaded data set, compiled once per process."""
    with _lock:
        found = _compiled.get(data_set.digest)
        if found is not None:
            _compiled.move_to_end(data_set.digest)
            return found
        # Compiled under the lock: two threads asking at once compile once, the second waits.
        files = [(f.name, f.content) for f in data_set.files.order_by("name")]
        compiled = load_data_files(files)
        _compiled[data_set.digest] = compiled
        while len(_compiled) > MAX_KEPT:
            _compiled.popitem(last=False)
        return compiled


def forget_compiled() -> None:
    """Drop every compiled data set (for tests)."""
    with _lock:
        _compiled.clear()
