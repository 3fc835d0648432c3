"""Games loaded from an address in the background, by the same worker and queue that render PDFs.

Fetching and checking a game's files takes seconds, a minute for the largest (Flames of War), longer
than a web request may hold a worker. The operator's page queues `load_game` (as heavy work, behind
every waiting PDF, see `tasks.sized`) and answers at once; the job's state is kept in the shared cache
under an id of its own, written by the page when queued and by the worker when loading and done, so
the page reads it whichever backend runs the task (one that runs it at once has finished already).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django_tasks import task

from lists import models
from lists.gamedata.battlescribe_data import DataFolderInvalid, LoadedDataSet
from lists.gamedata.data_sources import SourceRefused, load_source
from lists.pdfs import wake
from lists.pdfs.tasks import sized

JOBS_KEY = "game-loads"  # the ids of the latest loads, newest first
JOBS_KEPT = 10
JOB_SECONDS = 24 * 60 * 60
MAX_PROBLEMS_SHOWN = 20


@dataclass(frozen=True)
class GameLoad:
    """A load as the operator's page shows it."""

    address: str
    state: str  # "queued", "loading", "loaded" or "refused"
    lines: tuple[str, ...]
    queued: float

    @property
    def finished(self) -> bool:
        return self.state in ("loaded", "refused")


def _key(job: str) -> str:
    return f"game-load:{job}"


def _write(job: str, **fields) -> None:
    cache.set(_key(job), {**(cache.get(_key(job)) or {}), **fields}, JOB_SECONDS)


def loaded_line(loaded: LoadedDataSet, before: models.BattleScribeDataSet | None) -> str:
    """What the operator is told of a load that worked."""
    data_set = loaded.data_set
    if not loaded.created:
        return f"{data_set} is already loaded, unchanged."
    if before is not None and before.pk != data_set.pk:
        return f"Loaded {data_set} beside {before}; its rosters stay on theirs until moved."
    return f"Loaded {data_set}: players can start rosters of it now."


def refusal_lines(error: SourceRefused | DataFolderInvalid) -> list[str]:
    """Why nothing was loaded, each problem a line (at most MAX_PROBLEMS_SHOWN)."""
    if isinstance(error, SourceRefused):
        return [f"{error}; nothing was loaded."]
    shown = error.problems[:MAX_PROBLEMS_SHOWN]
    more = len(error.problems) - len(shown)
    return [*shown, f"and {more} more; nothing was loaded." if more else "Nothing was loaded."]


@task()
def load_game(job: str, address: str, game: str = "", update_of: int | None = None) -> None:
    """Load a game from its address (see `data_sources`), writing how it went under the job's id."""
    _write(job, state="loading")
    before = models.BattleScribeDataSet.objects.filter(pk=update_of).first() if update_of else None
    try:
        loaded = load_source(address, game)
    except (SourceRefused, DataFolderInvalid) as error:
        _write(job, state="refused", lines=refusal_lines(error))
        return
    _write(job, state="loaded", lines=[loaded_line(loaded, before)])


def queue_load(address: str, game: str = "", update_of: int | None = None) -> str:
    """Queue the load of a game from `address` (or of a newer revision of data set `update_of`); its job id."""
    job = secrets.token_urlsafe(12)
    cache.set(_key(job), {"address": address, "state": "queued", "lines": [], "queued": time.time()}, JOB_SECONDS)
    cache.set(JOBS_KEY, [job, *(cache.get(JOBS_KEY) or [])][:JOBS_KEPT], JOB_SECONDS)
    sized(load_game, heavy=True).enqueue(job, address, game, update_of)
    transaction.on_commit(wake.ring)
    return job


def latest_loads() -> list[GameLoad]:
    """The latest loads queued, newest first, as far as the cache still keeps them."""
    loads = []
    for job in cache.get(JOBS_KEY) or []:
        kept = cache.get(_key(job))
        if kept:
            loads.append(GameLoad(kept["address"], kept["state"], tuple(kept.get("lines", ())), kept["queued"]))
    return loads
