"""The bounds of what the engine evaluates, checked when data is loaded and kept at roster time.

`load_battlescribe` refuses data beyond these bounds (`data_limits`, `data_graph`), naming the file
and the id. The engine keeps them too, for data that reaches it another way (a data set loaded
before the checks, the conformance protocol): it raises `DataLimitExceeded`, a clear error, where
it would otherwise recurse without end, loop for minutes or build gigabytes. Each bound is far
above what the community's data of five games uses (the largest figure found is in brackets).
"""

from __future__ import annotations

MAX_ENTRIES = 50_000  # selection entries, groups and entry links in one folder, at every depth [26,025]
MAX_DEPTH = 64  # levels of entries nested in one another, through entry links too [11]
MAX_OPTIONS_UNDER_ENTRY = 20_000  # entries under one entry at every depth, through its links [483]
MAX_NUMBER = 1_000_000  # a cost, a cost limit, a condition's or repeat's value, any other constraint [1,500]
MAX_MIN_SELECTIONS = 1_000  # a min constraint on selections or forces: what a new roster is made to hold [14]
MAX_MAX_SELECTIONS = 10_000  # a max constraint on selections or forces (-1: no limit) [300]
MAX_REPEATS = 1_000  # a repeat's `repeats` [5]
MAX_REVISION = 2_147_483_647  # a revision: a whole number the database holds
# At roster time: the selections one action may make for minimums and defaults (a file holds at most 5,000).
MAX_AUTO_SELECTIONS = 5_000
MAX_TEXT = 10_000  # characters an append modifier may grow a name or characteristic to


class DataLimitExceeded(ValueError):
    """Data the engine will not evaluate (a cycle, or a number beyond its bounds); the message names the entry."""


def bounds_text() -> str:
    """The bounds in a sentence, for the command's help and its refusals."""
    return (
        f"at most {MAX_ENTRIES:,} entries, nested at most {MAX_DEPTH} deep, {MAX_OPTIONS_UNDER_ENTRY:,} under one "
        f"entry; no cycle of entry links, groups or info groups; every number finite, costs, cost limits and "
        f"other values within ±{MAX_NUMBER:,}, a min of selections at most {MAX_MIN_SELECTIONS:,}, a max at most "
        f"{MAX_MAX_SELECTIONS:,}, repeats at most {MAX_REPEATS:,}"
    )
