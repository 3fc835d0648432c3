"""List files that repeat 12-word runs of the source documents.

Facts carry over from the sources; sentences do not. Usage:
    python scripts/copied_text.py FILE [FILE ...]
"""

import re
import sys
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def source_runs() -> set[str]:
    runs = set()
    for path in SEEDS.glob("*.txt"):
        w = words(path.read_text(errors="ignore"))
        for i in range(len(w) - 11):
            run = w[i : i + 12]
            if sum(1 for x in run if len(x) > 2 and x.isalpha()) >= 8:
                runs.add(" ".join(run))
    return runs


def main(paths: list[str]) -> int:
    if not any(SEEDS.glob("*.txt")):
        print(f"no source documents found in {SEEDS}", file=sys.stderr)
        return 2
    runs = source_runs()
    found = 0
    for name in paths:
        w = words(Path(name).read_text(errors="ignore"))
        for i in range(len(w) - 11):
            run = " ".join(w[i : i + 12])
            if run in runs:
                print(f"{name}: copied: {run} ...")
                found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
