"""The community's BattleScribe conformance suite, run against our engine through the adapter protocol.

The specs are read from ../shared/battlescribe-spec beside the repository (they carry no licence,
so they are never copied in); the tests are skipped where that folder is absent. Every spec must
pass except those in battlescribe_spec_known_failures, which must still fail.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lists.battlescribe.engine.adapter import ProtocolAdapter
from tests.battlescribe_spec_known_failures import KNOWN_FAILURES
from tests.battlescribe_spec_runner import load_spec, run_spec, spec_paths

SUITE = Path(__file__).resolve().parents[2] / "shared" / "battlescribe-spec"
ROSTER_SPECS = SUITE / "specs" / "roster"
REPOSITORY = Path(__file__).resolve().parents[1]
PATHS = spec_paths(ROSTER_SPECS) if ROSTER_SPECS.is_dir() else []
needs_suite = pytest.mark.skipif(not PATHS, reason=f"the conformance suite is not at {SUITE}")


@pytest.fixture(scope="module")
def adapter():
    """One adapter for all specs, as one adapter process serves many specs."""
    return ProtocolAdapter()


@needs_suite
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_roster_spec(path, adapter):
    result = run_spec(load_spec(path), adapter.handle)
    if result.skipped:
        pytest.skip(result.skipped)
    if result.spec_id in KNOWN_FAILURES:
        assert not result.passed, f"{result.spec_id} passes now: take it off the known failures"
    else:
        assert result.passed, "\n".join(result.failures)


@needs_suite
def test_known_failures_are_specs():
    ids = {p.stem for p in PATHS}
    assert set(KNOWN_FAILURES) <= ids


class AdapterProcess:
    """`python manage.py battlescribe_adapter`, driven one JSON line at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "battlescribe_adapter"],
            cwd=REPOSITORY,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"},
        )
        self.corr_id = 0

    def send(self, command: dict) -> dict:
        self.corr_id += 1
        self.process.stdin.write(json.dumps({**command, "corrId": self.corr_id}) + "\n")
        self.process.stdin.flush()
        response = json.loads(self.process.stdout.readline())
        assert response.get("corrId") == self.corr_id
        return response

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


@needs_suite
def test_management_command_runs_specs():
    process = AdapterProcess()
    try:
        assert process.send({"type": "describe"})["type"] == "describeResult"
        for name in (
            "selection/selection-with-cost",
            "constraint/constraint-errors-contain",
            "entry-id/entry-id-chained-links-2-hop",
        ):
            path = ROSTER_SPECS / f"{name}.yaml"
            result = run_spec(load_spec(path), process.send)
            assert result.passed, "\n".join(result.failures)
    finally:
        process.close()
