"""Compiled game data as bytes, to be kept where every process reads it, and read back faster than compiled.

`dumps(data)` pickles a `GameData` (its model objects reduced to their class and field values, which
unpickle in one constructor call each rather than slot by slot) and compresses it; `loads` reads it
back with the cyclic collector paused. `ENGINE_VERSION` names the engine's code: bytes made by other
code are never read as this code's (a field added to the model would be missing from them).
"""

from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import io
import pickle
import zlib
from pathlib import Path

from . import model
from .compiled import without_collection
from .gamedata import GameData


def _engine_version() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


ENGINE_VERSION = _engine_version()


def _reducer(kind: type, names: tuple[str, ...]):
    return lambda item: (kind, tuple(getattr(item, name) for name in names))


# Every dataclass of the model, as (class, field values): a slotted dataclass otherwise unpickles slot by slot.
_REDUCERS = {
    kind: _reducer(kind, tuple(f.name for f in dataclasses.fields(kind)))
    for kind in vars(model).values()
    if isinstance(kind, type) and dataclasses.is_dataclass(kind) and kind.__module__ == model.__name__
}


def dumps(data: GameData) -> bytes:
    """The game data pickled and compressed."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, **_REDUCERS}
    without_collection(lambda: pickler.dump(data))
    return zlib.compress(buffer.getvalue(), 1)


def loads(blob: bytes) -> GameData:
    """Game data from `dumps`' bytes."""
    # The app's own cache, which Django fills with pickles anyway: no bytes from outside are read here.
    data = without_collection(lambda: pickle.loads(zlib.decompress(blob)))  # noqa: S301
    if not isinstance(data, GameData):
        raise TypeError(f"not compiled game data but {type(data).__name__}")
    return data
