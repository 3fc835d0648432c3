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
from django.urls import reverse

from lists.models import BattleScribeRoster, Roster
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


def units_of(verdict: dict) -> list[tuple[str, int]]:
    return [(unit["label"], unit["points"]) for force in verdict["forces"] for unit in force["units"]]


@pytest.mark.parametrize("markdown", [False, True], ids=["plain", "markdown"])
def test_a_bolt_action_paste_is_read_with_the_points_and_verdict_of_its_ros(tmp_path, normandy, markdown):
    xml = normandy.xml()
    (tmp_path / "list.ros").write_text(xml)
    (tmp_path / "list.txt").write_text(pasted(xml, markdown))
    code, out, err = validate(tmp_path / "list.txt", "--json")
    ros_code, ros_out, _ = validate(tmp_path / "list.ros", "--json")
    assert (code, err) == (ros_code, "") == (0, "")
    verdict, ros_verdict = json.loads(out), json.loads(ros_out)
    assert verdict["points"] == ros_verdict["points"] == 529
    assert verdict["findings"] == ros_verdict["findings"]
    assert [points for _, points in units_of(verdict)] == [points for _, points in units_of(ros_verdict)]
    assert "file_points" not in verdict  # the paste's own total agrees with ours


def test_lines_that_match_nothing_are_named_with_their_line_and_the_rest_is_read(tmp_path, normandy):
    lines = pasted(normandy.xml()).splitlines()
    squad = next(index for index, line in enumerate(lines) if line.startswith("Heer Grenadier Squad [120pts]"))
    lines.insert(squad + 1, ". Flamethrower Backpack")  # no option of that name
    lines.insert(squad, "Panzer IX [300pts]: Regular")  # no unit of that name
    lines[0:0] = ["Hello, here is my list for Saturday:", ""]
    (tmp_path / "list.txt").write_text("\n".join(lines))

    code, out, err = validate(tmp_path / "list.txt", "--json")

    assert (code, err) == (0, "")  # what was read is legal; nothing refused the paste
    verdict = json.loads(out)
    assert verdict["points"] == 529 and len(units_of(verdict)) == 7
    unread = [f for f in verdict["findings"] if f["code"] == "paste.unread"]
    assert [f["severity"] for f in unread] == ["warning"] * 3
    messages = [f["message"] for f in unread]
    assert messages[0].startswith("line 1: 'Hello, here is my list for Saturday:' is not part of the list")
    assert messages[1].startswith(f"line {squad + 3}: 'Panzer IX' is not a unit of Armies of Germany")
    assert messages[2].startswith(f"line {squad + 5}: 'Flamethrower Backpack' is not an option of Heer Grenadier Squad")
    code, text, _ = validate(tmp_path / "list.txt")
    assert f"warning: line {squad + 3}: 'Panzer IX' is not a unit" in text


def test_the_pastes_own_total_is_compared_with_ours(tmp_path, normandy):
    text = pasted(normandy.xml()).replace("++ Total: [529pts] ++", "++ Total: [600pts] ++")
    (tmp_path / "list.txt").write_text(text)
    code, out, _ = validate(tmp_path / "list.txt", "--json")
    assert code == 0 and json.loads(out)["file_points"] == 600
    _, text_out, _ = validate(tmp_path / "list.txt")
    assert "The file's own total is 600 points; the points above are ours, recomputed." in text_out


def test_a_paste_naming_its_theatre_list_in_the_force_heading_is_read(tmp_path):
    if not made.BOLT_ACTION.is_dir():
        pytest.skip("../shared/bsdata/boltaction is absent")
    text = pasted(made.soviet_union().xml())
    assert "Theatre Selector: 1944: Operation Bagration" in text
    lines = [line for line in text.splitlines() if not line.startswith("Theatre Selector")]
    lines = [line.replace("++ Reinforced Platoon (", "++ Generic Reinforced Platoon (") for line in lines]
    (tmp_path / "list.txt").write_text("\n".join(lines))
    code, out, err = validate(tmp_path / "list.txt", "--json")
    verdict = json.loads(out)
    assert err == "" and code in (0, 1)
    assert [f["message"] for f in verdict["findings"] if f["code"] == "paste.unread"] == []
    assert len(units_of(verdict)) == 6 and verdict["forces"][0]["organisation"] == "Reinforced Platoon"
    _, text_out, _ = validate(tmp_path / "list.txt")
    assert "Generic Reinforced Platoon" in text_out.splitlines()[0]


def test_a_paste_of_a_game_no_data_is_loaded_for_exits_2_naming_its_catalogue(tmp_path):
    (tmp_path / "list.txt").write_text(
        "++ Army Roster (Chaos - World Eaters) [1,990pts] ++\n\n+ Battleline +\n\nJakhals [70pts]: Icon\n"
    )
    code, out, err = validate(tmp_path / "list.txt")
    assert (code, out) == (2, "")
    assert "line 1" in err and "no loaded game has a catalogue named 'Chaos - World Eaters'" in err


def test_the_home_pages_paste_box_takes_a_paste_and_names_the_lines_not_read(client, normandy):
    text = pasted(normandy.xml()).replace("Heer Grenadier Squad [50pts]", "Heer Grenadier Squad [50pts]: Bazooka", 1)
    page = client.get(reverse("lists:home")).content.decode()
    assert 'name="text"' in page and reverse("lists:import") in page

    response = client.post(reverse("lists:import"), {"text": text})

    assert response.status_code == 200
    note = response.content.decode()
    assert "Lines not read" in note and "&#x27;Bazooka&#x27; is not an option of Heer Grenadier Squad" in note
    roster = Roster.objects.get()
    assert roster.name == "Kampfgruppe Normandie" and roster.units.count() == 7
    assert client.get(note.split('<a href="')[-1].split('"')[0]).status_code == 200


def test_a_clean_paste_opens_the_editor_and_a_bad_one_saves_nothing(client, normandy):
    response = client.post(reverse("lists:import"), {"text": pasted(normandy.xml())})
    assert response.status_code == 302 and Roster.objects.count() == 1
    refused = client.post(reverse("lists:import"), {"text": "++ Foo (Nowhere) [1pts] ++\n\nBar [1pts]\n"})
    assert refused.status_code == 400 and "no loaded game has a catalogue named" in refused.content.decode()
    assert Roster.objects.count() == 1


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
    code, out, err = validate(tmp_path / "list.txt", "--json")
    ros_code, ros_out, _ = validate(tmp_path / "list.ros", "--json")
    verdict, ros_verdict = json.loads(out), json.loads(ros_out)
    assert (code, err) == (ros_code, "")
    assert verdict["points"] == ros_verdict["points"]
    assert verdict["findings"] == ros_verdict["findings"]
    assert units_of(verdict) == units_of(ros_verdict)


def test_a_data_set_paste_goes_into_the_data_sets_editor_from_the_home_page(client):
    from lists.battlescribe.engine.roster_files import write_roster_xml
    from tests.test_battlescribe_data_rosters import SHARED, built, load

    roster = built(load(SHARED / "bsdata/konflikt47"), "Finland", "Reinforced Platoon", ["Officer", "Rifle Squad"])
    response = client.post(reverse("lists:import"), {"text": pasted(write_roster_xml(roster))})
    assert response.status_code == 302 and "/bs/" in response["Location"]
    kept = BattleScribeRoster.objects.get()
    assert kept.points == 100
    page = client.get(reverse("lists:bs-share", args=[kept.share_id])).content.decode()
    link = reverse("lists:bs-export-battlescribe-text", args=[kept.share_id])
    assert link in page
    again = client.post(reverse("lists:import"), {"text": client.get(link).content.decode()})
    assert again.status_code == 302
    assert [copy.points for copy in BattleScribeRoster.objects.order_by("pk")] == [100, 100]


def test_the_share_page_offers_the_list_as_battlescribe_writes_it_and_it_reads_back(client, tmp_path, normandy):
    client.post(reverse("lists:import"), {"text": pasted(normandy.xml())})
    roster = Roster.objects.get()
    page = client.get(reverse("lists:share", args=[roster.share_id])).content.decode()
    for form in ("text", "markdown"):
        link = reverse(f"lists:export-battlescribe-{form}", args=[roster.share_id])
        assert link in page
        text = client.get(link).content.decode()
        assert text.splitlines()[0] == "+++ Kampfgruppe Normandie (Bolt Action 2.0) [529pts] +++" or form == "markdown"
        assert ("Heer Grenadier Squad [120pts]" in text) == (form == "text")
        (tmp_path / "again.txt").write_text(text)
        code, out, _ = validate(tmp_path / "again.txt", "--json")
        assert code == 0 and json.loads(out)["points"] == 529
        assert [f for f in json.loads(out)["findings"] if f["code"] == "paste.unread"] == []
    keyed = client.get(reverse("lists:export-text-keyed", args=[roster.share_id])).content.decode()
    assert "[bolt-action-2e/" in keyed  # our own text format stays as it was


@pytest.mark.usefixtures("empty_cache")
def test_an_event_of_a_data_set_takes_the_list_pasted_as_battlescribe_writes_it(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.test_battlescribe_events import KONFLIKT, create_event, finnish_list
    from tests.test_battlescribe_games import SHARED, data_set_of, html, text

    if not (SHARED / KONFLIKT).is_dir():
        pytest.skip("../shared/bsdata/konflikt47 is absent")
    call_command("load_battlescribe", str(SHARED / KONFLIKT), stdout=StringIO())
    _, public = create_event(client, data_set_of(KONFLIKT))
    kept = finnish_list(client)
    paste = client.get(reverse("lists:bs-export-battlescribe-text", args=[kept.share_id])).content
    response = client.post(f"{public}submit/", {"player": "Aino", "file": SimpleUploadedFile("list.txt", paste)})
    assert response.status_code == 200
    assert text(html(response).xpath("//*[@id='verdict']")[0]).startswith(f"{kept.points:g} / 1000 pts · Legal")


def test_a_paste_over_the_unit_cap_is_refused_at_its_line_and_deep_nesting_is_told(tmp_path, normandy):
    text = pasted(normandy.xml())
    squad = text[text.index("Heer Grenadier Squad [120pts]") : text.index("Heer Grenadier Squad [50pts]")]
    at = text.index("+ Transports +")
    (tmp_path / "big.txt").write_text(text[:at] + squad * 394 + text[at:])
    code, out, err = validate(tmp_path / "big.txt")
    assert (code, out) == (2, "")
    assert "more than 400 units: a roster holds at most 400" in err and "line " in err

    deep = "".join(". " * depth + "Rifle\n" for depth in range(1, 40))
    (tmp_path / "deep.txt").write_text(text[:at] + "Heer Grenadier Squad [10pts]\n" + deep + text[at:])
    code, out, _ = validate(tmp_path / "deep.txt", "--json")
    told = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "paste.unread"]
    assert code in (0, 1) and any("'. . . ." in message for message in told)
