"""Speed figures of the BattleScribe engine.

    python scripts/bench_battlescribe.py [--runs 5] [--no-suite] [BSDATA_FOLDER]

Prints the conformance suite's time in one process; the time to compile Bolt Action's data (the
game system and its catalogues, once per revision), and to find it again in the process's cache;
a 1,000-point Bolt Action roster's evaluation (every cost and every validation error, as after an
edit); and the same for 2,000 and 4,000 points, to show it grows linearly with the roster. Then the
actions the design sets a bar for, each beside its target: one edit (a unit selected, then every
validation error) of a 4,000-selection roster; the import of a 5,000-selection .ros (read, evaluated
once, every error); removing a selection of number 10,000; setting a count to 100. Each figure: the
median and min-max of five runs, wall-clock and CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bolt_action_side_by_side import DEFAULT_BSDATA, ArmyRoster, read_pack  # noqa: E402

from lists.battlescribe.engine.adapter import ProtocolAdapter  # noqa: E402
from lists.battlescribe.engine.compiled import clear_cache, compiled_game_data  # noqa: E402
from lists.battlescribe.engine.roster_files import duplicate_force, read_roster_xml, write_roster_xml  # noqa: E402
from lists.battlescribe.engine.validation import roster_errors  # noqa: E402
from tests.battlescribe_spec_runner import run_suite  # noqa: E402

SPECS = ROOT.parent / "shared" / "battlescribe-spec" / "specs" / "roster"
ARMY = "united-states-1944-normandy"
SIZES = (1000, 2000, 4000)


def build_roster(data, pack, army_key: str, target: int):
    """A roster of the theatre list's units (at Regular where offered, with their first options,
    a few platoons of up to 12 units) until it reaches `target` points."""
    army = ArmyRoster(data, pack, army_key)
    units = [k for k in pack.armies[army_key]["borrow_units"] if pack.units[k].get("kind") != "vehicle"]
    units += [k for k in pack.armies[army_key]["borrow_units"] if pack.units[k].get("kind") == "vehicle"]
    index = 0
    in_force = 0
    while army.roster.totals.get("points", 0) < target:
        unit_key = units[index % len(units)]
        index += 1
        if in_force >= 12:
            army.new_force()
            in_force = 0
        if army.add_unit(unit_key, "regular", options=2):
            in_force += 1
    return army


def evaluate(roster) -> int:
    """Every cost and every validation error, as after an edit."""
    roster.refresh()
    return len(roster_errors(roster))


def timed(function, runs: int, setup=None) -> tuple[list[float], list[float]]:
    """Milliseconds of `runs` calls, each after `setup()`: wall-clock, and this process's CPU time (steadier
    on a busy machine)."""
    wall, cpu = [], []
    for _ in range(runs):
        if setup:
            setup()
        started, started_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return wall, cpu


def spread(times: list[float]) -> str:
    """A median and its min-max."""
    return f"median {statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f})"


def grown(army, selections: int):
    """The roster with copies of its forces added (as one action) until it holds `selections` selections."""
    roster = army.roster
    with roster.action():
        originals = list(roster.forces)
        index = 0
        while sum(1 for _ in roster.all_selections()) < selections:
            duplicate_force(roster, originals[index % len(originals)])
            index += 1
    return roster


def men_of(roster):
    """A squad's men (a selection of several, under the unit's quality): their parent and option."""
    for selection in roster.all_selections():
        nested = selection.parent is not None and selection.parent.parent is not None
        if nested and selection.number > 1 and selection.children and not selection.option.entry.collective:
            return selection.parent, selection.option
    raise LookupError("no squad with men in the roster")


def actions(data, pack, runs: int) -> None:
    """The actions' figures beside their targets."""
    roster = grown(build_roster(data, pack, ARMY, 4000), 4000)
    unit, men = men_of(roster)
    count = sum(1 for _ in roster.all_selections())
    made = []

    def edit():
        made.append(roster.select(unit, men))
        roster_errors(roster)

    def undo():
        if made:
            roster.deselect(made.pop())

    report(f"one edit of a {count}-selection roster (target 100 ms)", *timed(edit, runs, setup=undo))
    undo()
    big = grown(build_roster(data, pack, ARMY, 4000), 5000)
    xml = write_roster_xml(big, with_info=False)
    count = sum(1 for _ in big.all_selections())
    wall, cpu = timed(lambda: roster_errors(read_roster_xml(data, xml)), runs)
    report(f"import of a {count}-selection .ros (target 2,000 ms)", wall, cpu)
    small = build_roster(data, pack, ARMY, 1000).roster
    unit, men = men_of(small)
    held = next(c for c in unit.children if c.option is men)
    wall, cpu = timed(lambda: small.set_count(held, 100), runs, setup=lambda: small.set_count(held, 1))
    report("setting a count to 100 (one evaluation)", wall, cpu)

    def ten_thousand():
        small.set_count(held, 1)
        held.number = 10_000
        small.refresh()
        if held not in unit.children:
            unit.children.append(held)

    wall, cpu = timed(lambda: small.remove(held), runs, setup=ten_thousand)
    small.set_count(held, 1)
    report("removing a selection of number 10,000 (one step)", wall, cpu)


def report(what: str, wall: list[float], cpu: list[float]) -> None:
    """One figure's line."""
    print(f"{what}: wall {spread(wall)}; CPU {spread(cpu)}")


def main() -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bsdata", nargs="?", default=str(DEFAULT_BSDATA))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-suite", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if SPECS.is_dir() and not args.no_suite:
        passed = []
        wall, cpu = timed(
            lambda: passed.append(sum(r.passed for r in run_suite(SPECS, ProtocolAdapter().handle, None))), args.runs
        )
        print(f"conformance suite: {min(passed)} passed: wall {spread(wall)}; CPU {spread(cpu)}")
    if not Path(args.bsdata).is_dir():
        print("no Bolt Action data beside the repository: nothing more to measure")
        return 0
    wall, cpu = timed(lambda: compiled_game_data(args.bsdata), args.runs, setup=clear_cache)
    print(f"Bolt Action data compiled: wall {spread(wall)}; CPU {spread(cpu)}")
    data = compiled_game_data(args.bsdata)
    wall, cpu = timed(lambda: compiled_game_data(args.bsdata), args.runs)
    print(f"  again (same revision, from the cache): wall {spread(wall)}; CPU {spread(cpu)}")
    pack = read_pack()
    per_point: list[float] = []
    for target in SIZES:
        army = build_roster(data, pack, ARMY, target)
        roster = army.roster
        selections = sum(1 for _ in roster.all_selections())
        errors = evaluate(roster)
        wall, cpu = timed(lambda r=roster: evaluate(r), args.runs)
        print(
            f"{roster.totals.get('points', 0):5.0f} points, {len(roster.forces)} forces, {army.units} units, "
            f"{selections} selections, {errors} errors: wall {spread(wall)}; CPU {spread(cpu)}"
        )
        per_point.append(statistics.median(cpu) * 1000 / roster.totals.get("points", 1))
    print("scaling: CPU ms per 1,000 points " + ", ".join(f"{value:.1f}" for value in per_point))
    actions(data, pack, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
