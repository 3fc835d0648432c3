"""List files that repeat 12-word runs of the source documents.

Facts carry over from the sources; sentences do not. The check reads
scripts/source_runs.txt: every 12-word run of the sources, hashed, never their
text, so it runs in any clone. Usage:
    python scripts/copied_text.py FILE [FILE ...]    exit 1 if a file repeats a run
    python scripts/copied_text.py --update           rebuild source_runs.txt from ../shared/seeds
"""

import hashlib
import re
import sys
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
RUNS_FILE = Path(__file__).resolve().with_name("source_runs.txt")
RUN_WORDS = 12
HEADER = "# 12-word runs of the source documents (shared/seeds/*.txt): 6-byte BLAKE2b of each, sorted.\n"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(text: str, *, prose_only: bool = False) -> list[str]:
    """Every run of 12 words in a text; with prose_only, those with at least 8 real words (not tables)."""
    w = words(text)
    found = []
    for i in range(len(w) - RUN_WORDS + 1):
        run = w[i : i + RUN_WORDS]
        if not prose_only or sum(1 for x in run if len(x) > 2 and x.isalpha()) >= 8:
            found.append(" ".join(run))
    return found


def run_hash(run: str) -> str:
    return hashlib.blake2b(run.encode(), digest_size=6).hexdigest()


def hashes_from_sources(seeds: Path = SEEDS) -> list[str]:
    """The sorted hashes of the sources' prose runs, as source_runs.txt holds them."""
    return sorted(
        {
            run_hash(run)
            for path in seeds.glob("*.txt")
            for run in runs(path.read_text(errors="ignore"), prose_only=True)
        }
    )


def committed_hashes() -> set[str]:
    return {line for line in RUNS_FILE.read_text().splitlines() if line and not line.startswith("#")}


def copied_runs(path: Path, hashes: set[str]) -> list[str]:
    return [run for run in runs(path.read_text(errors="ignore")) if run_hash(run) in hashes]


def main(paths: list[str]) -> int:
    if paths == ["--update"]:
        if not any(SEEDS.glob("*.txt")):
            print(f"no source documents found in {SEEDS}", file=sys.stderr)
            return 2
        RUNS_FILE.write_text(HEADER + "\n".join(hashes_from_sources()) + "\n")
        return 0
    hashes = committed_hashes()
    found = 0
    for name in paths:
        for run in copied_runs(Path(name), hashes):
            print(f"{name}: copied: {run} ...")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
