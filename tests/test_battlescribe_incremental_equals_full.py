"""Incremental evaluation shows what evaluating the whole roster shows, after any sequence of actions.

Two rosters of the same real data (from ../shared/bsdata; skipped where absent) take the same random
actions (forces added and removed, options selected under any force or selection, hidden ones
included, selections deselected, removed, counted and copied, cost limits set): one evaluates only what each action
can reach, the other the whole roster after every action. After every step both show the same
state (names, costs, categories, profiles, rules of every force and selection; the totals; every
validation error), and every selection holds the same computed values.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lists.battlescribe.engine import Roster, load_data_folder
from lists.battlescribe.engine.limits import DataLimitExceeded
from lists.battlescribe.engine.state import roster_state

BSDATA = Path(__file__).resolve().parents[2] / "shared" / "bsdata"
# Data sets and one catalogue of each: small, but with the modifiers, conditions and constraints of real lists.
GAMES = [
    ("konflikt47", "Finland.cat"),
    ("flamesofwar", "LW - D-Day_German.cat"),
    ("boltaction", "BA2 - Armies of the United States.cat"),
    ("team-yankee", "NATO - America.cat"),
    ("battlegroup", "OverlordBtB - German - Infantry Division.cat"),
]
ACTIONS = (
    "force",
    "select",
    "select",
    "select",
    "select",
    "deselect",
    "remove",
    "count",
    "duplicate",
    "drop-force",
    "limit",
)
MAX_FORCES = 3

steps = st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), min_size=1, max_size=14)


@pytest.fixture(scope="module", params=GAMES, ids=[game for game, _ in GAMES])
def data(request):
    game, catalogue = request.param
    if not (BSDATA / game / catalogue).exists():
        pytest.skip(f"no data at {BSDATA / game}")
    return load_data_folder(BSDATA / game, [catalogue])


def act(roster: Roster, action: str, number: int) -> None:
    """One action, its target picked by `number` among what the roster holds."""
    forces = list(roster.all_forces())
    selections = list(roster.all_selections())
    if action == "force" or not forces:
        if len(forces) < MAX_FORCES:
            entries = sorted(roster.data.force_entries)
            parent = forces[number % len(forces)] if forces and number % 3 == 0 else None
            roster.add_force(entries[number % len(entries)], roster.data.catalogues[0].id, parent)
    elif action == "limit":
        for cost_type in roster.data.cost_types[:1]:
            roster.set_cost_limit(cost_type.id, float(number % 300))
    elif action == "drop-force":
        roster.remove_force(forces[number % len(forces)])
    elif action == "select":
        parents = [*forces, *selections]
        parent = parents[number % len(parents)]
        options = roster.options_under(parent)
        if options:
            roster.select(parent, options[(number // len(parents)) % len(options)])
    elif selections:
        selection = selections[number % len(selections)]
        if action == "deselect":
            roster.deselect(selection)
        elif action == "remove":
            roster.remove(selection)
        elif action == "count":
            roster.set_count(selection, number % 5)
        else:
            roster.duplicate(selection)


def outcome(roster: Roster, action: str, number: int) -> str | None:
    """The action taken; the data's refusal, where it refuses it (the same for both rosters)."""
    try:
        act(roster, action, number)
    except DataLimitExceeded as refused:
        return str(refused)
    return None


def shown(roster: Roster) -> dict:
    """Everything evaluation computes: the state (errors included), and each selection's and force's values."""
    return {
        "state": roster_state(roster),
        "totals": dict(roster.totals),
        "selections": [
            (
                s.id,
                s.number,
                s.name,
                s.hidden,
                s.page,
                s.publication_id,
                dict(s.costs),
                sorted(s.declared_costs),
                [(c.entry_id, c.name, c.primary) for c in s.categories],
            )
            for s in roster.all_selections()
        ],
        "forces": [(f.id, f.name, f.hidden) for f in roster.all_forces()],
    }


@pytest.mark.timeout(600)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(actions=steps)
def test_incremental_evaluation_equals_whole_evaluation_after_every_step(data, actions):
    incremental, whole = Roster(data), Roster(data)
    whole.incremental = False
    for action, number in actions:
        assert outcome(incremental, action, number) == outcome(whole, action, number)
        assert shown(incremental) == shown(whole), (action, number)


def test_a_step_the_data_stops_halfway_still_has_its_force_evaluated_at_the_next_action(tmp_path):
    from tests.test_hostile_data import engine_data, entry, link, min_constraint

    # A sergeant whose 100 squads of 100 men each pass the engine's bound: the select stops halfway through.
    man = entry("man", min_constraint("100", "min-men") + '<costs><cost name="pts" typeId="pts" value="1"/></costs>')
    squad = entry(
        "squad",
        f"<entryLinks>{link('to-man', 'man', 'selectionEntry')}</entryLinks>" + min_constraint("100", "min-squads"),
    )
    data = engine_data(
        tmp_path,
        unit=f"<entryLinks>{link('to-squad', 'squad', 'selectionEntry')}</entryLinks>",
        shared=man + squad + entry("plain", '<costs><cost name="pts" typeId="pts" value="5"/></costs>'),
        roots=link("root-plain", "plain", "selectionEntry"),
    )
    rosters = [Roster(data), Roster(data)]
    rosters[1].incremental = False
    for roster in rosters:
        first, second = roster.add_force("force-h", "cat-h"), roster.add_force("force-h", "cat-h")
        [sergeant] = [o for o in second.options if o.entry.id == "unit-sgt"]
        with pytest.raises(DataLimitExceeded):
            roster.select(second, sergeant)
        [plain] = [o for o in first.options if o.entry.id == "plain"]
        roster.select(first, plain)
    assert shown(rosters[0]) == shown(rosters[1])
    assert rosters[0].totals["pts"] > 5  # the men made before the stop are priced
