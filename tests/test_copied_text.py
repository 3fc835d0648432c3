"""The copied-text check works in any clone: it reads hashed word runs of the sources, never their text."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
spec = importlib.util.spec_from_file_location("copied_text", ROOT / "scripts" / "copied_text.py")
copied_text = importlib.util.module_from_spec(spec)
spec.loader.exec_module(copied_text)


def test_the_committed_file_holds_hashes_only():
    lines = copied_text.RUNS_FILE.read_text().splitlines()

    assert lines[0].startswith("# 12-word runs")
    assert len(lines) > 20_000  # every prose run of the five source documents
    assert all(len(line) == 12 and set(line) <= set("0123456789abcdef") for line in lines[1:])


def test_a_file_repeating_a_hashed_run_fails_the_check(tmp_path, monkeypatch):
    sentence = "the quick brown fox jumps over the lazy dog near the river bank today"
    monkeypatch.setattr(
        copied_text, "committed_hashes", lambda: {copied_text.run_hash(" ".join(sentence.split()[:12]))}
    )
    copied = tmp_path / "pack.yaml"
    copied.write_text(f"summary: {sentence.title()}\n")
    own = tmp_path / "own.yaml"
    own.write_text("summary: a fox jumps over a dog, in words of our own\n")

    assert copied_text.main([str(copied)]) == 1
    assert copied_text.main([str(own)]) == 0


def test_the_command_runs_without_the_sources_beside_the_clone(tmp_path):
    own = tmp_path / "own.yaml"
    own.write_text("summary: a unit that is pinned takes a test before it moves\n")

    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "copied_text.py"), str(own)], capture_output=True, text=True
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


@pytest.mark.skipif(not SEEDS.is_dir(), reason="only where ../shared/seeds is beside the clone")
def test_the_committed_hashes_are_current_with_the_sources():
    """Where the source documents are present, source_runs.txt must be rebuilt from them (--update)."""
    assert sorted(copied_text.committed_hashes()) == copied_text.hashes_from_sources(SEEDS)
