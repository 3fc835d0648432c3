"""BattleScribe game data compiled once per data set and kept where every process reads it.

`battlescribe_game_data(data_set)` hands out the engine's `GameData` from the process's own few
(`lists.battlescribe.engine.compiled`, keyed by the digest the data set was loaded with); a process
that has none reads the compiled form from the app's cache (Django's: the diskcache folder, or Redis
with REDIS_URL), pickled under the data set's id, revision and digest and the engine's code version
(`engine.pickled`). Only where the cache has none is the data compiled from its stored files, and
then kept there for every other process. `load_battlescribe` keeps what it has just checked
(`keep_compiled`), and the PDF worker and the web server fill in any missing at start
(`warm_battlescribe_data`), so no request waits for a compile. A data set never changes once
loaded, so its key names its content for good.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import DatabaseError

from lists import models
from lists.battlescribe.engine import (
    ENGINE_VERSION,
    GameData,
    clear_cache,
    kept,
    load_data_files,
    pickled_game_data,
    unpickled_game_data,
    without_collection,
)

logger = logging.getLogger(__name__)


def shared_key(data_set: models.BattleScribeDataSet) -> str:
    """The cache key of a data set's compiled form: the data set, its revision, its files and the engine's code."""
    return f"battlescribe-compiled:{ENGINE_VERSION}:{data_set.pk}:{data_set.revision}:{data_set.digest[:32]}"


def battlescribe_game_data(data_set: models.BattleScribeDataSet) -> GameData:
    """The engine's game data of a loaded data set: this process's, else the shared cache's, else compiled."""
    return kept(data_set.digest, lambda: shared_or_compiled(data_set))


def shared_or_compiled(data_set: models.BattleScribeDataSet) -> GameData:
    """The compiled form the shared cache keeps, or the data compiled now (and kept there)."""
    blob = _cached(data_set)
    if blob is not None:
        try:
            return unpickled_game_data(blob)
        except Exception:  # noqa: BLE001 - a damaged or foreign entry is compiled again, never trusted
            logger.warning("compiled data of %s in the cache could not be read; compiling it", data_set)
    data = compile_data_set(data_set)
    keep_compiled(data_set, data)
    return data


def compile_data_set(data_set: models.BattleScribeDataSet) -> GameData:
    """The data set compiled from its stored files."""
    files = [(f.name, f.content) for f in data_set.files.order_by("name")]
    return without_collection(lambda: load_data_files(files))


def keep_compiled(data_set: models.BattleScribeDataSet, data: GameData, unless_kept: bool = False) -> None:
    """Keep a data set's compiled form in the shared cache (a cache that cannot take it is logged, not fatal)."""
    if unless_kept and _is_kept(data_set):
        return
    try:
        cache.set(shared_key(data_set), pickled_game_data(data), timeout=None)
    except Exception:  # noqa: BLE001 - without the shared copy each process compiles for itself, as before
        logger.warning("compiled data of %s could not be kept in the cache", data_set, exc_info=True)


def _is_kept(data_set: models.BattleScribeDataSet) -> bool:
    try:
        return cache.has_key(shared_key(data_set))
    except Exception:  # noqa: BLE001 - as in _cached
        return False


def _cached(data_set: models.BattleScribeDataSet) -> bytes | None:
    try:
        return cache.get(shared_key(data_set))
    except Exception:  # noqa: BLE001 - an unreachable cache means compiling, not failing the page
        logger.warning("the cache could not be read for %s", data_set, exc_info=True)
        return None


def warm_battlescribe_data() -> list[models.BattleScribeDataSet]:
    """Compile every loaded data set the shared cache lacks, and keep it there (not in this process);
    returns those compiled. A database not migrated yet is left for the first request."""
    compiled = []
    try:
        for data_set in models.BattleScribeDataSet.objects.all():
            if not _is_kept(data_set):
                keep_compiled(data_set, compile_data_set(data_set))
                compiled.append(data_set)
    except DatabaseError:
        pass
    return compiled


def forget_compiled() -> None:
    """Drop every compiled data set this process holds (the shared cache keeps its own)."""
    clear_cache()
