"""What a BattleScribe roster of Bolt Action 2nd edition may hold, against what the converted packs map.

    python scripts/bolt_action_coverage.py [--army TEXT] [--show N]

Every entry a player can select in the data (the trees of lists/packs/bolt-action-2e/armies/
battlescribe-ids.json, as `import_battlescribe` wrote them from the data) is counted per army: mapped where
a roster file naming it is read (lists/battlescribe/coverage.py says what counts), else an exception,
cited by the reason the import report (IMPORT-REPORT.md, "Skipped" and "Data with no effect") gives its
entry, or not cited: work left. Prints a line per army and the exceptions not cited; exit status 1 while
any is not cited. The import report holds the same table, written by the import.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lists.battlescribe.coverage import cited_reasons, coverage  # noqa: E402

ARMIES = ROOT / "lists" / "packs" / "bolt-action-2e" / "armies"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--army", help="only armies whose key contains this text")
    parser.add_argument("--show", type=int, default=20, help="list this many exceptions not cited")
    args = parser.parse_args()
    document = json.loads((ARMIES / "battlescribe-ids.json").read_text())
    found = coverage(document, cited_reasons((ARMIES / "IMPORT-REPORT.md").read_text()))
    found = [army for army in found if not args.army or args.army in army.army]
    print(f"{'army':<16} {'chains':>7} {'mapped':>7} {'share':>7} {'cited':>6} {'not cited':>9}")
    for army in found:
        cited = len(army.exceptions) - len(army.uncited)
        print(
            f"{army.army:<16} {army.chains:>7} {army.mapped:>7} {army.share:>6.1f}% {cited:>6} {len(army.uncited):>9}"
        )
    chains, mapped = sum(a.chains for a in found), sum(a.mapped for a in found)
    uncited = [(army.army, *exception) for army in found for exception in army.uncited]
    cited = sum(len(a.exceptions) for a in found) - len(uncited)
    share = 100 * mapped / chains if chains else 100.0
    print(f"{'all':<16} {chains:>7} {mapped:>7} {share:>6.1f}% {cited:>6} {len(uncited):>9}")
    for army, chain, name, _ in uncited[: args.show]:
        print(f"  not cited: {army}: {name} ({chain})")
    return 1 if uncited else 0


if __name__ == "__main__":
    raise SystemExit(main())
