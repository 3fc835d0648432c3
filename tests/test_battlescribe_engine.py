"""The BattleScribe engine on real data: Bolt Action from ../shared/bsdata (skipped where absent)."""

from pathlib import Path

import pytest

from lists.battlescribe.engine import Roster, load_data_folder
from lists.battlescribe.engine.options import find_option
from lists.battlescribe.engine.roster_files import read_roster_xml, write_roster_xml

BOLT_ACTION = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "boltaction"
US_ARMY = "BA2 - Armies of the United States.cat"
M3_HALF_TRACK = "2d66bb35-423b-0def-bd92-a68335ef8a8c"
PINTLE_MOUNT_GROUP = "153eab19-41e9-5a77-3f51-d44f1bd1fa00"
PINTLE_HMG = "0c920c1f-350d-a872-dbb3-280738bc78d2"

pytestmark = [
    pytest.mark.skipif(not (BOLT_ACTION / US_ARMY).exists(), reason=f"no Bolt Action data at {BOLT_ACTION}"),
]


@pytest.fixture(scope="module")
def us_army():
    return load_data_folder(BOLT_ACTION, [US_ARMY])


def platoon(data):
    roster = Roster(data, "Test")
    force = roster.add_force(data.game_system.force_entries[0].id, data.catalogues[0].id)
    return roster, force


def test_half_track_gets_its_default_pintle_hmg(us_army):
    roster, force = platoon(us_army)
    option = find_option(force.options, M3_HALF_TRACK)
    half_track = roster.select(force, option)
    [hmg] = half_track.children
    assert hmg.option.entry.id == PINTLE_HMG
    assert hmg.number == 1
    assert hmg.entry_group_id.endswith("::" + PINTLE_MOUNT_GROUP)
    assert hmg.entry_id.endswith("::" + PINTLE_HMG)


def test_roster_file_round_trip_keeps_selections(us_army):
    roster, force = platoon(us_army)
    roster.select(force, find_option(force.options, M3_HALF_TRACK))
    again = read_roster_xml(us_army, write_roster_xml(roster))
    assert [s.entry_id for s in again.all_selections()] == [s.entry_id for s in roster.all_selections()]
    assert again.totals == roster.totals
