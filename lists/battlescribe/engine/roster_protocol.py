"""What evaluating and editing a roster asks of it: the face `queries` and `selecting` are written against.

`roster.Roster` is the one implementation; naming it here instead lets the modules `roster` is built
from stay below it (it imports them, they never import it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from .counting import CountIndex
from .elements import Force, Selection
from .gamedata import GameData
from .incremental import Recorder
from .options import Option


class RosterProtocol(Protocol):
    """A roster as its queries and its selecting steps see it."""

    data: GameData
    count_index: CountIndex | None  # set during an evaluation pass (`counting.evaluation_pass`)
    recorder: Recorder | None  # set while one force's evaluation is recorded (`incremental`)

    def next_id(self, prefix: str) -> str: ...

    def next_serial(self) -> int: ...

    def all_forces(self) -> Iterator[Force]: ...

    def forces_in_scope(self, include_child_forces: bool) -> Iterator[Force]: ...

    def is_cost_type(self, type_id: str) -> bool: ...

    def total_cost(self, type_id: str) -> float: ...

    def select(self, parent: Force | Selection, option: Option) -> Selection: ...

    def deselect(self, selection: Selection) -> None: ...
