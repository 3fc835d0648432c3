"""Game data compiled once per revision: a per-process cache keyed by the data files' digest.

Loading a game system's data (Bolt Action's 26 files, 24 MB of XML) takes seconds; evaluating a
roster over it takes milliseconds. `compiled_game_data(folder)` loads a folder once per process
and hands the same `GameData` to every later caller while the files' bytes are unchanged (a new
revision of the data has another digest, and is loaded anew). The cyclic garbage collector is
paused while the model is built: the load makes hundreds of thousands of small objects and no
cycles worth collecting, and each collection would walk them all again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .counting import collector_paused
from .gamedata import GameData
from .xml_loading import data_files, load_data_files

T = TypeVar("T")
CACHE_SIZE = 4

_cache: OrderedDict[str, GameData] = OrderedDict()
_lock = threading.Lock()  # guards _cache and _building, held only for a look-up, never for a build
_building: dict[str, threading.Lock] = {}  # a lock per key being built


def without_collection(build: Callable[[], T]) -> T:
    """The result of `build`, made with the collector paused."""
    with collector_paused():
        return build()


def digest_of(files: list[tuple[str, bytes]]) -> str:
    """SHA-256 over the files' names and contents, in name order: the same files give the same digest."""
    digest = hashlib.sha256()
    for name, content in sorted(files):
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(content).digest())
    return digest.hexdigest()


def compiled(key: str, files: Callable[[], list[tuple[str, bytes]]]) -> GameData:
    """The game data known by `key` (a digest of its files), loaded from `files()` once per process.

    The least recently used is dropped past CACHE_SIZE: a large game system compiles to a few hundred MB.
    Loading happens under the lock, so two threads asking at once load once; the second waits.
    """
    return kept(key, lambda: load_data_files(list(files())))


def kept(key: str, build: Callable[[], GameData]) -> GameData:
    """The game data known by `key`, made by `build()` (with the collector paused) once per process;
    the least recently used dropped past CACHE_SIZE, as `compiled` does.

    Each key has its own lock: two threads asking for one data set build it once (the second waits),
    while a thread asking for another data set, or one already kept, never waits behind the build.
    """
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
        building = _building.setdefault(key, threading.Lock())
    with building:
        with _lock:
            found = _cache.get(key)
        if found is None:
            found = without_collection(build)
        with _lock:
            _cache[key] = found
            _cache.move_to_end(key)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
            _building.pop(key, None)
    return found


def compiled_files(files: list[tuple[str, bytes]]) -> GameData:
    """The game data of these files, loaded once per process for each digest."""
    return compiled(digest_of(files), lambda: files)


def compiled_game_data(folder: str | Path) -> GameData:
    """The game data of a folder of .gst/.cat files, loaded once per process for each revision."""
    return compiled_files(data_files(folder))


def clear_cache() -> None:
    """Forget every compiled game system."""
    with _lock:
        _cache.clear()
