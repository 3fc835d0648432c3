"""Incremental evaluation: after an action, each force is evaluated again only if the action can reach it.

A force's evaluation (its entry's view and its selections' views, in roster order; or its validation)
is a function of the force's own tree and of what its queries read: counts and costs in a scope, a
selection's categories. While a force is evaluated, every read is recorded with the value it gave.
At the next evaluation, a force the action did not touch is kept as it is when every read that can
see beyond the force gives the same value again, read at the same place in roster order (so live
costs are seen as a full evaluation sees them); otherwise it is evaluated again. Reads that see only
the force's own tree cannot change while the force is untouched; they are read again once, right
after the force's evaluation, to learn whether evaluating it once more would change it (a selection
that read a later one's categories or costs before that one got its new ones): such a force is
evaluated again next time. A full evaluation (`Roster.refresh`) forgets every record.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .elements import Force, Selection

# One read: its key (what it read and where) -> (the value it gave, how to read it again, with what).
Reads = dict[tuple, tuple[Any, Callable[..., Any], tuple]]


@dataclass(slots=True, eq=False)
class ForceRecord:
    """What one evaluation of a force read: reads that see only its own tree, and those that see beyond."""

    internal: Reads = field(default_factory=dict)
    external: Reads = field(default_factory=dict)
    # What a validation of the force recorded (the errors, with what tells them apart, in order).
    found: list[tuple[Any, str | None]] = field(default_factory=list)


class Recorder:
    """Records the reads of one force's evaluation (set as the roster's `recorder` meanwhile)."""

    __slots__ = ("force", "record")

    def __init__(self, force: object) -> None:
        self.force = force
        self.record = ForceRecord()

    def read(self, key: tuple, value: Any, read_again: Callable[..., Any], args: tuple, container: object) -> None:
        """Record a read of `container` (a selection, a force, the roster or another scope)."""
        holder = self.record.internal if self.sees_only_force(container) else self.record.external
        if key not in holder:
            holder[key] = (value, read_again, args)

    def sees_only_force(self, container: object) -> bool:
        """Whether a read of this scope sees nothing but the force's own tree (a selection's scope is in
        the force evaluated; the force itself, when it holds no child forces)."""
        if isinstance(container, Selection):
            return True
        return container is self.force and isinstance(container, Force) and not container.forces


def same(before: Any, now: Any) -> bool:
    """Whether a read gives what it gave (NaN, where a query is unresolved, reads as itself)."""
    if before == now:
        return True
    return isinstance(before, float) and isinstance(now, float) and math.isnan(before) and math.isnan(now)


def reads_hold(reads: Reads) -> bool:
    """Whether every read gives what it gave."""
    return all(same(value, read_again(*args)) for value, read_again, args in reads.values())
