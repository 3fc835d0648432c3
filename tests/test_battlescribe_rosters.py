"""BattleScribe and New Recruit rosters (.ros, .rosz): read with our points, refused with every reason, written back."""

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from lxml import etree

from lists.gamedata.loading import game_data
from lists.gamedata.snapshot import UnitChoice
from lists.models import GameSystem, Roster
from lists.rosters import battlescribe_ids
from lists.rosters.battlescribe_writing import export, exportable, roster_rosz
from lists.rosters.files import RosterFile, RosterFileInvalid, load_roster_file, resolve
from lists.rules.validation import open_options, open_qualities, unit_refusals
from lists.rules.verdict import judge
from tests import battlescribe_engine_rosters as made
from tests.test_roster_files import EXAMPLES, validate

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "battlescribe"
SCHEMA = etree.XMLSchema(etree.parse(str(FIXTURES / "Roster-2.03.xsd")))

pytestmark = [pytest.mark.usefixtures("real_packs"), pytest.mark.django_db]


def written(tmp_path: Path, data: bytes, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def zipped(xml: bytes, name: str = "roster.ros") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, xml)
    return buffer.getvalue()


def picture(snapshot) -> list:
    """What a player sees of a roster: its forces, and each unit's choices."""
    forces = [(f.name, f.organisation.key if f.organisation else None) for f in snapshot.forces]
    units = [(u.unit_type.key, u.label, u.quality, u.own_size, u.options, u.transport, u.force) for u in snapshot.units]
    return [snapshot.army_key, snapshot.name, snapshot.points_limit, forces, units]


def assert_round_trip(snapshot) -> None:
    """Export validates against the 2.03 schema and reads back as the same roster, points and findings."""
    xml = export(snapshot)
    assert SCHEMA.validate(etree.fromstring(xml)), SCHEMA.error_log
    again = load_roster_file(xml, "roster.ros")
    back = again.snapshot()
    assert picture(back) == picture(snapshot)
    before, after = judge(snapshot), judge(back)
    assert after.points == before.points == again.file_points["total"]
    assert [(f.code, f.message) for f in after.findings] == [(f.code, f.message) for f in before.findings]
    rosz = load_roster_file(roster_rosz(xml), "roster.rosz").snapshot()
    assert picture(rosz) == picture(snapshot)


# --- a roster BattleScribe saves, made with our engine from the real data (tests/battlescribe_engine_rosters.py)


@pytest.fixture(scope="module")
def normandy(tmp_path_factory) -> Path:
    """Two German platoons in Normandy, 529 points, legal, as BattleScribe saves them."""
    if not made.BOLT_ACTION.is_dir():
        pytest.skip("../shared/bsdata/boltaction is absent")
    path = tmp_path_factory.mktemp("engine") / "normandy.ros"
    path.write_text(made.germany().xml())
    return path


def test_a_battlescribe_roster_keeps_its_men_options_and_transport(normandy):
    snapshot = load_roster_file(normandy.read_bytes(), normandy.name).snapshot()
    squad = next(u for u in snapshot.units if u.label == "1. Gruppe")
    assert (squad.quality, squad.size, squad.options) == ("regular", 8, {"panzerfaust": 2, "lmg": 1})
    assert snapshot.units[squad.transport].label == "Hanomag"
    assert snapshot.army_key == "germany-1944-normandy"
    assert [f.name for f in snapshot.forces] == ["1. Zug", "2. Zug"]
    assert_round_trip(snapshot)


def test_a_battlescribe_rosz_imports_the_same(tmp_path, normandy):
    code, out, _ = validate(written(tmp_path, zipped(normandy.read_bytes()), "list.rosz"), "--json")
    assert code == 0
    assert json.loads(out)["points"] == 529


def test_render_cards_takes_a_ros(tmp_path, normandy):
    out = io.StringIO()
    call_command("render_cards", str(normandy), "-o", str(tmp_path / "cards.pdf"), stdout=out)
    assert "7 unit(s)" in out.getvalue()  # two officers, four squads, the Hanomag
    assert (tmp_path / "cards.pdf").read_bytes().startswith(b"%PDF")


def test_a_file_total_unlike_ours_is_reported_with_the_units_that_differ(tmp_path, normandy):
    text = normandy.read_text().replace('value="89.0"', 'value="99.0"')
    code, out, _ = validate(written(tmp_path, text.encode(), "list.ros"), "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["points"] == 529
    assert verdict["file_points"] == 539
    units = [unit for force in verdict["forces"] for unit in force["units"]]
    assert [(u["label"], u["points"], u.get("file_points")) for u in units if "file_points" in u] == [
        ("Hanomag", 89, 99)
    ]
    code, out, _ = validate(written(tmp_path, text.encode(), "list.ros"))
    assert "The file's own total is 539 points" in out and "Hanomag: 99 in the file, 89 here" in out


def test_an_unmapped_selection_refuses_the_file_naming_it(tmp_path, normandy):
    text = normandy.read_text().replace("::4ca96a39-7b62-450f-f3e0-1072acc9340b", "::dead-beef-0000-0000")
    code, out, err = validate(written(tmp_path, text.encode(), "list.ros"))
    assert code == 2 and out == ""
    assert "Panzerfaust (908c-b118-36a8-e33d::dead-beef-0000-0000)" in err
    assert "not an entry of Heer Grenadier Squad" in err


def test_a_hidden_option_is_refused_not_dropped(tmp_path, normandy):
    # The data's Luftfaust (6de6-e580-6bdb-1ca9) is hidden in the Normandy list. The chain reaches the squad by
    # another link (4141d85d...) than the file's own squad (908c-b118...): the entry is found by its own id.
    luftfaust = (
        '<selection id="x1" name="Luftfaust" entryId="4141d85d-3ff9-7772-accf-6c3ecb7d5364::6de6-e580-6bdb-1ca9"'
        ' number="1" type="upgrade"/>'
    )
    text = re.sub(
        r'<selection id="[^"]*" name="Panzerfaust"', lambda m: luftfaust + m.group(0), normandy.read_text(), count=1
    )
    code, _, err = validate(written(tmp_path, text.encode(), "list.ros"))
    assert code == 2
    assert "'luftfaust' is an option of Heer Grenadier Squad this army list does not offer" in err


@pytest.mark.parametrize(
    ("name", "game"),
    [
        ("newrecruit-export-example.ros", "Age of Sigmar 4.0"),
        ("battlescribe-2.03-export-example.rosz", "Warhammer 40,000 8th Edition"),
    ],
)
def test_a_roster_of_another_game_is_refused_naming_it(name, game):
    code, out, err = validate(FIXTURES / name)
    assert code == 2 and out == ""
    # A game system our packs do not claim is read by the engine where its data is loaded: here it is not.
    assert "no BattleScribe data for game system" in err and f"({game}) is loaded" in err
    with pytest.raises(RosterFileInvalid, match=f"this roster is for {game}"):  # the web import's door
        load_roster_file((FIXTURES / name).read_bytes(), name)


def test_a_zip_bomb_is_refused_while_reading(tmp_path):
    bomb = zipped(b"<roster>" + b" " * (4 * 1024 * 1024) + b"</roster>")
    assert len(bomb) < 64 * 1024
    code, _, err = validate(written(tmp_path, bomb, "bomb.rosz"))
    assert code == 2 and "larger than 524288 bytes" in err


def test_a_rosz_of_several_files_is_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.ros", b"<roster/>")
        archive.writestr("b.ros", b"<roster/>")
    code, _, err = validate(written(tmp_path, buffer.getvalue(), "two.rosz"))
    assert code == 2 and "holds 2 files" in err


def test_xml_entities_are_refused(tmp_path):
    text = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><roster name="&a;"/>'
    code, _, err = validate(written(tmp_path, text.encode(), "list.ros"))
    assert code == 2 and "refused for safety" in err


def test_deep_nesting_and_numbers_out_of_range_are_refused_cleanly(tmp_path, normandy):
    deep = "<selections><selection>" * 60 + "</selection></selections>" * 60
    text = f'<roster gameSystemId="d373-d979-116c-5487"><forces><force>{deep}</force></forces></roster>'
    code, _, err = validate(written(tmp_path, text.encode(), "deep.ros"))
    assert code == 2 and "nested more than 40 levels" in err
    wild = (
        normandy.read_text()
        .replace('value="1000.0"', 'value="' + "9" * 400 + '"')
        .replace('value="89.0"', 'value="inf"')
        .replace('number="7"', 'number="1e400"')
    )
    code, out, err = validate(written(tmp_path, wild.encode(), "wild.ros"), "--json")
    # The limit is not read, the Hanomag's cost is not a number, and 1e400 men are too many: reported, no crash.
    assert code == 2 and "size" in err and "Traceback" not in err


def test_the_web_import_refuses_with_400_and_saves_nothing(client):
    with (FIXTURES / "newrecruit-export-example.ros").open("rb") as upload:
        response = client.post("/rosters/import/", {"file": upload})
    assert response.status_code == 400
    assert "Age of Sigmar 4.0" in response.content.decode()
    assert Roster.objects.count() == 0


def test_the_web_import_reads_a_ros_and_the_share_page_offers_it_back(client, normandy):
    with normandy.open("rb") as upload:
        response = client.post("/rosters/import/", {"file": upload})
    assert response.status_code == 302
    roster = Roster.objects.get()
    page = client.get(f"/r/{roster.share_id}/").content.decode()
    assert f"/r/{roster.share_id}/roster.ros" in page and f"/r/{roster.share_id}/roster.rosz" in page
    ros = client.get(f"/r/{roster.share_id}/roster.ros")
    assert ros.status_code == 200 and SCHEMA.validate(etree.fromstring(ros.content))
    rosz = client.get(f"/r/{roster.share_id}/roster.rosz")
    assert load_roster_file(rosz.content, "x.rosz").snapshot().name == "Kampfgruppe Normandie"


def test_the_web_import_notes_a_file_total_unlike_ours(client, normandy):
    text = normandy.read_text().replace('value="89.0"', 'value="99.0"')
    upload = SimpleUploadedFile("list.ros", text.encode(), content_type="application/xml")
    response = client.post("/rosters/import/", {"file": upload})
    page = response.content.decode()
    assert response.status_code == 200
    assert "The file's own total is 539 points; this roster costs 529" in page
    assert "<td>Hanomag</td><td>99</td><td>89</td>" in page
    roster = Roster.objects.get()
    assert client.get(response.context["edit_url"]).status_code == 200
    assert "device" in response.cookies  # the roster goes into the device's locker, as after any import
    assert response.context["edit_url"] in client.get("/rosters/mine/").content.decode()
    assert roster.name == "Kampfgruppe Normandie"


def test_a_roster_without_battlescribe_ids_gets_no_link(client):
    path = next(p for p in EXAMPLES if p.stem == "bolt-action-2e")  # the hand-written Generic army
    response = client.post("/rosters/import/", {"text": path.read_text()})
    assert response.status_code == 302
    roster = Roster.objects.get()
    assert "roster.ros" not in client.get(f"/r/{roster.share_id}/").content.decode()
    assert client.get(f"/r/{roster.share_id}/roster.ros").status_code == 404


# --- round trips ----------------------------------------------------------------


def test_every_bolt_action_example_with_ids_round_trips():
    tried = 0
    for path in EXAMPLES:
        snapshot = load_roster_file(path.read_bytes(), path.name).snapshot()
        if exportable(snapshot):
            assert_round_trip(snapshot)
            tried += 1
    assert tried == 2


def every_unit_roster(nation: str) -> dict:
    """A roster document of one theatre list of `nation` holding each of its units once, with its options."""
    data = game_data(GameSystem.objects.get(key=battlescribe_ids.GAME_KEY))
    keys = [key for key, army in battlescribe_ids.ids()["armies"].items() if army["catalogue"] == nation]
    army = next(a for a in data.armies.values() if a.key in keys)
    units = []
    for _, unit_id in data.available_units(army.id):
        unit_type = data.unit_types[unit_id]
        qualities = open_qualities(unit_type, army.key)
        quality = qualities[-1] if qualities else None
        size = unit_type.max_size
        options, groups = {}, set()
        for option in open_options(unit_type, army.key, quality):
            if option.group and option.group in groups:
                continue
            groups.add(option.group)
            options[option.key] = 1
        while True:  # drop what cannot be saved together (a limit, a choice excluding another)
            refused = unit_refusals(data.system, army.key, unit_type, quality=quality, size=size, options=options)
            dropped = {r.field.removeprefix("options.") for r in refused if r.field.startswith("options.")}
            if not dropped & set(options):
                break
            options = {k: c for k, c in options.items() if k not in dropped}
        # An option priced per man is paid by every man of the unit, those other options add included.
        fielded = UnitChoice(index=0, label="", unit_type=unit_type, quality=quality, size=size, options=options)
        options = {k: fielded.men if unit_type.options[k].per == "model" else c for k, c in options.items()}
        entry = {
            "unit": unit_type.key,
            "size": size,
            "options": [{"option": k, "count": c} for k, c in options.items()],
        }
        units.append(entry | ({"quality": quality} if quality else {}))
    half = len(units) // 2
    forces = [{"name": "First", "units": units[:half]}, {"name": "Second", "units": units[half:]}]
    return {"game": battlescribe_ids.GAME_KEY, "army": army.key, "name": f"Every unit of {nation}", "forces": forces}


def test_generated_rosters_of_all_25_nations_round_trip():
    nations = sorted(battlescribe_ids.ids()["catalogues"])
    assert len(nations) == 25
    units = 0
    for nation in nations:
        snapshot = resolve(RosterFile.model_validate(every_unit_roster(nation))).snapshot()
        assert exportable(snapshot)
        assert_round_trip(snapshot)
        units += len(snapshot.units)
    assert units > 1000
