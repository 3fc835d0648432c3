"""Run the conformance suite's roster specs through the BattleScribe engine, in one process.

    python scripts/battlescribe_spec_run.py [--only TEXT] [--all-failures] [SPECS_FOLDER]

Prints passed / failed / skipped counts, counts per category, the elapsed time, and each failing
spec with its first mismatch. The specs are read from ../shared/battlescribe-spec beside the
repository unless a folder is given.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lists.battlescribe.engine.adapter import ProtocolAdapter  # noqa: E402
from tests.battlescribe_spec_runner import run_suite  # noqa: E402

DEFAULT_SPECS = ROOT.parent / "shared" / "battlescribe-spec" / "specs" / "roster"


def main() -> int:
    """Run the suite and print what it found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="?", default=str(DEFAULT_SPECS))
    parser.add_argument("--only", help="run only specs whose id contains this text")
    parser.add_argument("--all-failures", action="store_true", help="print every mismatch, not only the first")
    args = parser.parse_args()
    adapter = ProtocolAdapter()
    started = time.perf_counter()
    results = run_suite(Path(args.specs), adapter.handle, args.only)
    elapsed = (time.perf_counter() - started) * 1000
    passed = [r for r in results if r.passed]
    skipped = [r for r in results if r.skipped]
    failed = [r for r in results if not r.passed and not r.skipped]
    totals: Counter[str] = Counter(r.category for r in results if not r.skipped)
    passes: Counter[str] = Counter(r.category for r in passed)
    for result in failed:
        shown = result.failures if args.all_failures else result.failures[:1]
        print(f"FAIL {result.category}/{result.spec_id}: " + "\n    ".join(shown))
    print()
    for category in sorted(totals):
        print(f"  {category:15} {passes[category]:3}/{totals[category]}")
    for result in skipped:
        print(f"skipped {result.spec_id}: {result.skipped}")
    print(f"passed {len(passed)}, failed {len(failed)}, skipped {len(skipped)}; {elapsed:.0f} ms")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
