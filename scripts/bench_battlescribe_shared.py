"""How long a fresh process waits for Bolt Action's compiled data: compiling it, or reading it from the cache.

    python scripts/bench_battlescribe_shared.py [--runs 3] [BSDATA_FOLDER]

Prints the time to compile Bolt Action's data (the game system and its 25 catalogues), to write its
compiled form for the shared cache (`engine.pickled.dumps`, done once per revision, at
`load_battlescribe`), its size, and the time a process takes to read it back (`engine.pickled.loads`,
what a web process or worker pays instead of a compile). Each figure: the median and min-max of the
runs, wall-clock and CPU.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_battlescribe import spread, timed  # noqa: E402
from bolt_action_side_by_side import DEFAULT_BSDATA  # noqa: E402

from lists.battlescribe.engine import pickled  # noqa: E402
from lists.battlescribe.engine.compiled import without_collection  # noqa: E402
from lists.battlescribe.engine.xml_loading import data_files, load_data_files  # noqa: E402


def main() -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bsdata", nargs="?", default=str(DEFAULT_BSDATA))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not Path(args.bsdata).is_dir():
        print(f"no data at {args.bsdata}: nothing to measure")
        return 0
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    files = data_files(args.bsdata)
    kept = []
    wall, cpu = timed(lambda: kept.append(without_collection(lambda: load_data_files(files))), args.runs)
    print(f"compiled from the files: wall {spread(wall)}; CPU {spread(cpu)}")
    blobs = []
    wall, cpu = timed(lambda: blobs.append(pickled.dumps(kept[-1])), args.runs)
    print(f"written for the cache: {len(blobs[-1]) / 1e6:.1f} MB; wall {spread(wall)}; CPU {spread(cpu)}")
    wall, cpu = timed(lambda: pickled.loads(blobs[-1]), args.runs)
    print(f"read back from the cache: wall {spread(wall)}; CPU {spread(cpu)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
