"""load_battlescribe: a folder of BattleScribe data loaded as a data set, all or nothing.

Real data is read from ../shared (skipped where absent); bad data is built in tmp_path by each test.
"""

import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from lists.battlescribe.engine import xml_loading
from lists.gamedata.battlescribe_cache import battlescribe_game_data, forget_compiled
from lists.models import BattleScribeCatalogue, BattleScribeDataSet, BattleScribeEntry, BattleScribeForce

SHARED = Path(__file__).resolve().parents[2] / "shared"

pytestmark = pytest.mark.django_db

GAME_SYSTEM = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-1" name="Test Game" revision="1" battleScribeVersion="2.03"
    xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1.0" hidden="false"/></costTypes>
  <categoryEntries><categoryEntry id="cat-hq" name="HQ" hidden="false"/></categoryEntries>
  <forceEntries>
    <forceEntry id="force-platoon" name="Platoon" hidden="false">
      <categoryLinks><categoryLink id="fcl-hq" name="HQ" hidden="false" targetId="cat-hq" primary="false"/></categoryLinks>
    </forceEntry>
  </forceEntries>
  <sharedSelectionEntries>
    <selectionEntry id="shared-rifle" name="Rifle" hidden="false" collective="false" import="true" type="upgrade">
      <costs><cost name="pts" typeId="pts" value="1.0"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</gameSystem>
"""

CATALOGUE = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-army" name="Test Army" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="gs-1" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <catalogueLinks></catalogueLinks>
  <selectionEntries>
    <selectionEntry id="unit-lt" name="Lieutenant" hidden="false" collective="false" import="true" type="unit">
      <categoryLinks><categoryLink id="cl-hq" name="HQ" hidden="false" targetId="cat-hq" primary="true"/></categoryLinks>
      <profiles>
        <profile id="prof-lt" name="Lieutenant" hidden="false" typeId="pt-unit" typeName="Unit">
          <characteristics><characteristic name="Morale" typeId="ch-morale">9</characteristic></characteristics>
        </profile>
      </profiles>
      <modifiers><modifier type="increment" field="pts" value="5"/></modifiers>
      <entryLinks>
        <entryLink id="link-rifle" name="Rifle" hidden="false" collective="false" import="true"
            targetId="shared-rifle" type="selectionEntry"/>
      </entryLinks>
      <costs><cost name="pts" typeId="pts" value="50.0"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def data_folder(tmp_path: Path, catalogue: str = CATALOGUE, name: str = "game") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "Test Game.gst").write_text(GAME_SYSTEM)
    (folder / "Test Army.cat").write_text(catalogue)
    (folder / "README.md").write_text("notes beside the data are left out")
    return folder


def load(folder: Path) -> str:
    out = StringIO()
    call_command("load_battlescribe", str(folder), stdout=out)
    return out.getvalue()


def refused(folder: Path) -> str:
    """The command's complaint about a folder it refuses (stderr and the error), checking it wrote nothing."""
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("load_battlescribe", str(folder), stdout=StringIO(), stderr=err)
    assert "nothing was loaded" in str(error.value)
    assert BattleScribeDataSet.objects.count() == 0
    assert BattleScribeCatalogue.objects.count() == 0
    assert BattleScribeEntry.objects.count() == 0
    return err.getvalue()


def test_a_folder_loads_its_forces_entries_by_category_costs_and_profiles(tmp_path):
    output = load(data_folder(tmp_path))

    data_set = BattleScribeDataSet.objects.get()
    assert (data_set.game_system_id, data_set.name, data_set.revision) == ("gs-1", "Test Game", 1)
    assert len(data_set.digest) == 64
    assert "Test Army (catalogue, revision 1, Test Army.cat): 2 entries, 0 shared entries, 1 profiles" in output
    assert "1 modifiers" in output and "not data, left out: README.md" in output
    platoon = BattleScribeForce.objects.get(data_set=data_set)
    [hq] = platoon.categories.all()
    lieutenant = BattleScribeEntry.objects.get(catalogue__catalogue_id="cat-army", categories=hq)
    assert (lieutenant.bs_id, lieutenant.name, lieutenant.entry_type) == ("unit-lt", "Lieutenant", "unit")
    assert lieutenant.costs == {"pts": 50.0}
    [profile] = lieutenant.profiles.all()
    assert profile.characteristics == [["Morale", "9"]]


def test_loading_the_same_files_again_changes_nothing(tmp_path):
    folder = data_folder(tmp_path)
    load(folder)
    first = BattleScribeDataSet.objects.get()

    output = load(folder)

    assert "already loaded, unchanged" in output
    assert list(BattleScribeDataSet.objects.all()) == [first]
    assert BattleScribeEntry.objects.count() == 1


def test_a_new_revision_is_kept_beside_the_old(tmp_path):
    load(data_folder(tmp_path))
    newer = data_folder(tmp_path, name="newer")
    gst = newer / "Test Game.gst"
    gst.write_text(gst.read_text().replace('revision="1"', 'revision="2"'))

    load(newer)

    assert sorted(BattleScribeDataSet.objects.values_list("revision", flat=True)) == [1, 2]
    assert BattleScribeEntry.objects.filter(bs_id="unit-lt").count() == 2


def test_the_game_data_is_compiled_once_per_data_set(tmp_path):
    forget_compiled()
    load(data_folder(tmp_path))
    data_set = BattleScribeDataSet.objects.get()

    compiled = battlescribe_game_data(data_set)

    assert compiled.entries["unit-lt"].name == "Lieutenant"
    assert battlescribe_game_data(BattleScribeDataSet.objects.get()) is compiled


def test_malformed_xml_is_refused_naming_the_file(tmp_path):
    message = refused(data_folder(tmp_path, CATALOGUE[: len(CATALOGUE) // 2]))
    assert "Test Army.cat: not well-formed XML" in message


def test_an_entity_declaration_is_refused(tmp_path):
    bomb = '<!DOCTYPE catalogue [<!ENTITY lol "lol">]>\n'
    catalogue = CATALOGUE.replace('name="Test Army"', 'name="&lol;"').replace("?>\n", "?>\n" + bomb, 1)
    message = refused(data_folder(tmp_path, catalogue))
    assert "Test Army.cat: line 2: declares a DTD or entities" in message


def test_a_catalogue_link_to_a_missing_catalogue_is_refused(tmp_path):
    link = '<catalogueLink id="cl-lib" name="Library" targetId="lib-missing" type="catalogue"/>'
    message = refused(data_folder(tmp_path, CATALOGUE.replace("<catalogueLinks>", "<catalogueLinks>" + link)))
    assert "Test Army.cat: catalogueLink to catalogue lib-missing" in message


def test_an_entry_link_to_nothing_is_refused(tmp_path):
    message = refused(data_folder(tmp_path, CATALOGUE.replace('targetId="shared-rifle"', 'targetId="nowhere"')))
    assert "Test Army.cat: entryLink link-rifle (Rifle) points at nowhere" in message


def test_a_modifier_of_an_unknown_kind_is_refused(tmp_path):
    message = refused(data_folder(tmp_path, CATALOGUE.replace('type="increment"', 'type="explode"')))
    assert "Test Army.cat: unit-lt: a modifier of unknown kind 'explode'" in message


def test_a_file_neither_game_system_nor_catalogue_is_refused(tmp_path):
    folder = data_folder(tmp_path)
    (folder / "units.json").write_text("{}")
    message = refused(folder)
    assert "units.json: neither a game system" in message


def zipped_catalogue(folder: Path, method: int, content: bytes) -> None:
    (folder / "Test Army.cat").unlink()
    with zipfile.ZipFile(folder / "Test Army.catz", "w", compression=method) as archive:
        archive.writestr("Test Army.cat", content)


def test_a_zipped_catalogue_loads(tmp_path):
    folder = data_folder(tmp_path)
    zipped_catalogue(folder, zipfile.ZIP_DEFLATED, CATALOGUE.encode())
    assert "Test Army.catz" in load(folder)
    assert BattleScribeEntry.objects.filter(bs_id="unit-lt").exists()


def test_a_zipped_catalogue_with_a_bzip2_member_is_refused(tmp_path):
    folder = data_folder(tmp_path)
    zipped_catalogue(folder, zipfile.ZIP_BZIP2, CATALOGUE.encode())
    message = refused(folder)
    assert "Test Army.catz: the data file in the archive is compressed with bzip2" in message


def test_a_zip_bomb_is_refused_before_it_is_unzipped(tmp_path, monkeypatch):
    monkeypatch.setattr(xml_loading, "MAX_XML_BYTES", 100_000)
    folder = data_folder(tmp_path)
    zipped_catalogue(folder, zipfile.ZIP_DEFLATED, CATALOGUE.encode() + b" " * 1_000_000)
    message = refused(folder)
    assert "Test Army.catz: the data file in the archive is larger than 100000 bytes unzipped" in message


# Each data set: the folder, the game system's name and revision, how many catalogues load, and one
# root entry a user would look for, with its base cost (cost type name, value) as the file gives it.
DATA_SETS = [
    # BA2 - Armies of the United States.cat, entryLink b5fa9965-... to selectionEntry 2d66bb35-... "M3 Half-track":
    # Bolt Action prices units through their quality options, so the root entry's own cost is 0.
    ("bsdata/boltaction", "Bolt Action 2.0", 10, 25, "b5fa9965-a2ca-7778-2554-816cf859d2ce", "M3 Half-track", "pts", 0),
    # LW - Bulge_American.cat, entryLink c83e-91a2-0ae1-9e1a "Creighton Abrams" (a command card): 3 points.
    ("bsdata/flamesofwar", "Flames of War v4", 25, 37, "c83e-91a2-0ae1-9e1a", "Creighton Abrams", "pts", 3),
    # NATO - America.cat, entryLink f014-7742-4128-b2c9 "[FS] HMMWV Light Attack Platoon": 2 points. Three catalogue
    # ids are repeated by other files (NATO - Canada, NATO - France, ZOLD - British, ZOLD - Volksarmee): left out.
    (
        "bsdata/team-yankee",
        "Team Yankee WW3",
        8,
        17,
        "f014-7742-4128-b2c9",
        "[FS] HMMWV Light Attack Platoon",
        "pts",
        2,
    ),
    # Finland.cat, selectionEntry ac15-a028-4035-b9c8 "37mm PaK 36": 50 points.
    ("bsdata/konflikt47", "Konflikt_47", 3, 7, "ac15-a028-4035-b9c8", "37mm PaK 36", "points", 50),
    # ChinaDis - China 1937 - Infantry Division.cat, selectionEntry f39e-4daf-c6ce-b933 "Artillery Observation Post".
    ("bsdata/battlegroup", "Battlegroup", 8, 35, "f39e-4daf-c6ce-b933", "Artillery Observation Post", "pts", 37),
    # Germany - Deutsches Afrika Korps - Minimal.cat, entryLink 8ee5-630c-0f18-de13 "105MM LG40/1": priced by quality.
    ("community-data/ba3-afrika-korps", "Bolt Action 3ed", 30, 1, "8ee5-630c-0f18-de13", "105MM LG40/1", "Points", 0),
    # Armies of the soviet union.cat, entryLink 0e3e-5313-f77b-6061 "Gaz 'jeep'": 3 transport slots.
    (
        "community-data/ba3-soviet-union",
        "Bolt Action: Third Edition",
        2,
        1,
        "0e3e-5313-f77b-6061",
        "Gaz 'jeep'",
        "Transport Slots",
        3,
    ),
]


@pytest.mark.parametrize(
    ("folder", "game", "revision", "catalogues", "entry_id", "entry_name", "cost_type", "cost"),
    DATA_SETS,
    ids=[row[0].split("/")[1] for row in DATA_SETS],
)
def test_every_shared_data_set_loads(folder, game, revision, catalogues, entry_id, entry_name, cost_type, cost):
    path = SHARED / folder
    if not path.is_dir():
        pytest.skip(f"no data at {path}")

    output = load(path)

    data_set = BattleScribeDataSet.objects.get()
    assert (data_set.name, data_set.revision) == (game, revision)
    assert f"{game} revision {revision}" in output and "read and checked in" in output
    assert data_set.catalogues.filter(is_game_system=False).count() == catalogues
    entry = BattleScribeEntry.objects.get(data_set=data_set, bs_id=entry_id)
    type_id = data_set.battlescribecosttype_set.get(name=cost_type).bs_id
    assert (entry.name, entry.costs[type_id]) == (entry_name, cost)
