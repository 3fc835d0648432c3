"""Lists pasted as BattleScribe and New Recruit export them as text: read by validate_roster, the home page's
paste box and every import, matched by name to the current data; what is not matched is named with its line.

The pastes are derived from real rosters: .ros files made with the engine from ../shared/bsdata (Bolt Action,
tests/battlescribe_engine_rosters.py; Flames of War, Team Yankee, Konflikt '47) written in BattleScribe's text
form by `pasted_text.pasted_text_of`. Tests skip where ../shared is absent.
"""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.rosters.battlescribe_reading import parse_xml
from lists.rosters.pasted_text import pasted_text_of
from tests import battlescribe_engine_rosters as made

pytestmark = [pytest.mark.usefixtures("real_packs"), pytest.mark.django_db]


def validate(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("validate_roster", str(path), *args, stdout=out, stderr=err)
    return exited.value.code, out.getvalue(), err.getvalue()


def pasted(xml: str | bytes, markdown: bool = False) -> str:
    return pasted_text_of(parse_xml(xml.encode() if isinstance(xml, str) else xml), markdown=markdown)


@pytest.fixture(scope="module")
def normandy() -> made.Builder:
    if not made.BOLT_ACTION.is_dir():
        pytest.skip("../shared/bsdata/boltaction is absent")
    return made.germany()


def test_a_bolt_action_paste_is_read_with_the_points_and_verdict_of_its_ros(tmp_path, normandy):
    xml = normandy.xml()
    text = pasted(xml)
    print(text)
    (tmp_path / "list.ros").write_text(xml)
    (tmp_path / "list.txt").write_text(text)
    code, out, err = validate(tmp_path / "list.txt", "--json")
    print(out, err)
    ros_code, ros_out, _ = validate(tmp_path / "list.ros", "--json")
    assert (code, err) == (ros_code, "")
    verdict, ros_verdict = json.loads(out), json.loads(ros_out)
    assert verdict["points"] == ros_verdict["points"] == 529


DATA_SETS = [
    (
        "bsdata/flamesofwar",
        "Late-War - Bulge: American",
        "Standard",
        ["M4 Sherman (Late) Tank Company", "M18 Tank Destroyer Company"],
    ),
    ("bsdata/team-yankee", "NATO - America", "1) Main Force", ["M1A1 Abrams Combat Team", "M113 Mech Combat Team"]),
    ("bsdata/konflikt47", "Finland", "Reinforced Platoon", ["Officer", "Rifle Squad"]),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("folder", "catalogue", "force_entry", "entries"), DATA_SETS, ids=[d[0].split("/")[1] for d in DATA_SETS]
)
def test_a_paste_of_a_loaded_data_set_gets_the_engines_points_and_verdict(
    tmp_path, folder, catalogue, force_entry, entries
):
    from lists.battlescribe.engine.roster_files import write_roster_xml
    from tests.test_battlescribe_data_rosters import SHARED, built, load

    roster = built(load(SHARED / folder), catalogue, force_entry, entries)
    xml = write_roster_xml(roster)
    (tmp_path / "list.ros").write_text(xml)
    (tmp_path / "list.txt").write_text(pasted(xml))
    print(pasted(xml))
    code, out, err = validate(tmp_path / "list.txt", "--json")
    print(out, err)
    ros_code, ros_out, _ = validate(tmp_path / "list.ros", "--json")
    verdict, ros_verdict = json.loads(out), json.loads(ros_out)
    assert (code, err) == (ros_code, "")
    assert verdict["points"] == ros_verdict["points"]
    assert verdict["findings"] == ros_verdict["findings"]
