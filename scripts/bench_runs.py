"""How `make bench`'s scripts print a figure: the median of its runs, with the fastest and slowest beside it.

Used by scripts/bench.py, scripts/bench_input.py and scripts/load.py (no Django here: any script may import it).
"""

from __future__ import annotations

import statistics
import time

FIVE = 5  # runs of each figure that is a single render or page: its median, with the fastest and slowest


class Ms(float):
    """A median in ms that prints with its spread: `f"{figure:.1f} ms"` gives "12.3 (11.0-14.2) ms"."""

    def __new__(cls, samples: list[float]):
        figure = super().__new__(cls, statistics.median(samples))
        figure.low, figure.high = min(samples), max(samples)
        return figure

    def __format__(self, spec: str) -> str:
        return f"{float(self):{spec}} ({self.low:{spec}}-{self.high:{spec}})"


def median_ms(func, runs: int = 200, setup=None) -> Ms:
    """Median (fastest-slowest) of `runs` timed calls, after one to warm up."""
    func()  # warm up
    return runs_ms(func, runs, setup)


def runs_ms(func, runs: int = FIVE, setup=None) -> Ms:
    """Median (fastest-slowest) of `runs` timed calls of `func()`, each after `setup()`."""
    samples = []
    for _ in range(runs):
        if setup:
            setup()
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return Ms(samples)
