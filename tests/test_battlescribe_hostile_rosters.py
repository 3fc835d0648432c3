"""A visitor sending forged posts and hostile roster files of a loaded BattleScribe data set gets a clear 400.

Konflikt '47 from ../shared is loaded with `load_battlescribe` (skipped where absent). Each test does what a
visitor would: upload a .ros/.rosz through the home page's import, or post the editor's form with fields the
page never offered; each refusal names what is wrong and saves nothing.
"""

import io
import json
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from lists.battlescribe.engine.roster_files import read_roster_xml
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.models import BattleScribeDataSet, BattleScribeRoster
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.format import MAX_UNITS

SHARED = Path(__file__).resolve().parents[2] / "shared"
KONFLIKT = SHARED / "bsdata" / "konflikt47"
# Ids of the Konflikt '47 data (bsdata/konflikt47, Germany.cat, Soviet_Union.cat and Konflikt_47.gst).
GERMANY, SOVIET_UNION = "23af-76b6-4c5c-fe95", "85fb-de5c-9b1d-bd6c"
GERMAN_PLATOON, SOVIET_PLATOON = "dcdb-84be-21e2-f025", "239b-a621-9beb-fd50"
PANTHERTURM = "6a48-d64c-34a1-957b"  # Pantherturm Turret Emplacement, a fortification (Germany.cat)
MINEFIELDS = "3b98-9c2c-e4b9-f8af"  # Minefields, of the game system's Fortified Emplacement force

pytestmark = pytest.mark.django_db


@pytest.fixture
def konflikt() -> BattleScribeDataSet:
    if not KONFLIKT.is_dir():
        pytest.skip(f"no data at {KONFLIKT}")
    call_command("load_battlescribe", str(KONFLIKT), stdout=StringIO())
    return BattleScribeDataSet.objects.get()


def started(client, data_set: BattleScribeDataSet, catalogue: str = GERMANY, force: str = GERMAN_PLATOON) -> str:
    """A roster started from the start form; its editor's change URL."""
    response = client.post("/bs/new/", {"catalogue": f"{data_set.pk}:{catalogue}", "force": f"{data_set.pk}:{force}"})
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"] + "change/"


def change(client, url: str, **fields):
    kept = BattleScribeRoster.objects.get()
    return client.post(url, {"version": kept.version, **fields})


def offered_root(kept: BattleScribeRoster) -> str:
    """The id of an entry the roster's first force offers, as the editor lists them."""
    from lists.roster_kinds.data_set_shape import roster_shape

    offers = roster_shape(editing.open_roster(kept)).forces[0].offers
    return offers[0][1][0].entry_id


def uploaded(client, content: bytes, name: str = "list.ros"):
    return client.post("/rosters/import/", {"file": SimpleUploadedFile(name, content)})


def roster_file(data_set: BattleScribeDataSet, selections: str, head: str = "", limits: str = "") -> bytes:
    """A .ros of one German Infantry Platoon holding `selections`."""
    data = battlescribe_game_data(data_set)
    return (
        f'<?xml version="1.0"?><roster name="Hostile" {head} gameSystemId="{data.game_system.id}" '
        f'gameSystemRevision="{data_set.revision}">{limits}<forces>'
        f'<force id="f1" entryId="{GERMAN_PLATOON}" catalogueId="{GERMANY}"><selections>{selections}</selections>'
        "</force></forces></roster>"
    ).encode()


def squad(data_set: BattleScribeDataSet, attributes: str = 'number="1"') -> str:
    data = battlescribe_game_data(data_set)
    option = next(o for o in data.root_entries(data.catalogues_by_id[GERMANY]) if o.name == "Wehrmacht Infantry Squad")
    return f'<selection entryId="{option.id}" name="Squad" {attributes}/>'


@pytest.mark.parametrize("entry", [PANTHERTURM, MINEFIELDS], ids=["Pantherturm", "Minefields"])
def test_an_entry_the_platoon_does_not_offer_is_refused_and_nothing_is_saved(client, konflikt, entry):
    url = started(client, konflikt)
    kept = BattleScribeRoster.objects.get()

    response = change(client, url, action="add", force=editing.open_roster(kept).forces[0].id, entry=entry)

    assert response.status_code == 400
    assert f"German Infantry Platoon offers no entry {entry} now" in response.content.decode()
    assert BattleScribeRoster.objects.get().version == kept.version


def test_an_entry_the_platoon_offers_is_still_added(client, konflikt):
    url = started(client, konflikt)
    kept = BattleScribeRoster.objects.get()

    response = change(client, url, action="add", force=editing.open_roster(kept).forces[0].id, entry=offered_root(kept))

    assert response.status_code == 302
    assert BattleScribeRoster.objects.get().version == kept.version + 1


def test_a_force_of_another_catalogue_and_a_platoon_as_a_child_force_are_refused(client, konflikt):
    url = started(client, konflikt)
    kept = BattleScribeRoster.objects.get()
    force_id = editing.open_roster(kept).forces[0].id

    soviet_under_german = change(client, url, action="add-force", force_entry=SOVIET_PLATOON, catalogue=GERMANY)
    as_child = change(client, url, action="add-force", force_entry=GERMAN_PLATOON, catalogue=GERMANY, parent=force_id)

    assert soviet_under_german.status_code == as_child.status_code == 400
    assert f"Germany offers no force {SOVIET_PLATOON}" in soviet_under_german.content.decode()
    assert f"German Infantry Platoon offers no force {GERMAN_PLATOON}" in as_child.content.decode()
    assert BattleScribeRoster.objects.get().version == kept.version
    started_soviet = client.post(
        "/bs/new/", {"catalogue": f"{konflikt.pk}:{GERMANY}", "force": f"{konflikt.pk}:{SOVIET_PLATOON}"}
    )
    assert started_soviet.status_code == 400
    assert "Germany does not field the force" in started_soviet.content.decode()


def test_a_superscript_count_or_points_limit_is_refused_saying_digits(client, konflikt):
    url = started(client, konflikt)
    kept = BattleScribeRoster.objects.get()
    entry = offered_root(kept)
    force_id = editing.open_roster(kept).forces[0].id

    count = change(client, url, action="count", force=force_id, entry=entry, count="²")
    limit = change(client, url, action="settings", name="Mine", points_limit="1²00")

    assert count.status_code == limit.status_code == 400
    assert "A count is a whole number (digits 0-9) from 0 to 100; &#x27;²&#x27; is not." in count.content.decode()
    assert "The points limit is a whole number (digits 0-9)" in limit.content.decode()
    assert BattleScribeRoster.objects.get().version == kept.version


@pytest.mark.parametrize("name", ["Bad\x01name", "Bad\uffffname", "Right\u202eto left"])
def test_a_unit_or_roster_name_of_control_characters_is_refused_as_ours_are(client, konflikt, name):
    url = started(client, konflikt)
    kept = BattleScribeRoster.objects.get()
    change(client, url, action="add", force=editing.open_roster(kept).forces[0].id, entry=offered_root(kept))
    kept = BattleScribeRoster.objects.get()
    unit = editing.open_roster(kept).forces[0].selections[-1].id

    renamed = change(client, url, action="customise", selection=unit, custom_name=name, custom_notes="")
    retitled = change(client, url, action="settings", name=name, points_limit="")

    assert renamed.status_code == retitled.status_code == 400
    assert "That name cannot be kept: names and labels are one line of text" in renamed.content.decode()
    assert "That name cannot be kept" in retitled.content.decode()
    assert BattleScribeRoster.objects.get().version == kept.version


def test_an_exported_json_with_a_lone_surrogate_and_an_infinite_limit_is_refused(client, konflikt):
    started(client, konflikt)
    kept = BattleScribeRoster.objects.get()
    document = json.loads(client.get(f"/bs/r/{kept.share_id}/roster.json").content)
    document["name"] = "Lone \ud800 half"
    points = battlescribe_game_data(konflikt).cost_types[0].id
    document["cost_limits_by_id"] = {points: 1e400}
    text = json.dumps(document)  # writes Infinity, which Python's JSON reader takes

    response = client.post("/rosters/import/", {"text": text})

    page = response.content.decode()
    assert response.status_code == 400
    assert "the roster&#x27;s name: names and labels are one line of text" in page
    assert f"cost limit {points}: inf is not a number of points" in page
    assert BattleScribeRoster.objects.count() == 1


def test_a_file_with_a_superscript_number_an_infinite_limit_or_a_control_character_is_refused(client, konflikt):
    limit = '<costLimits><costLimit name="points" typeId="{}" value="inf"/></costLimits>'
    points = battlescribe_game_data(konflikt).cost_types[0].id

    response = uploaded(
        client,
        roster_file(
            konflikt,
            squad(konflikt, 'number="²"') + squad(konflikt, 'number="1" customName="a&#9;b"'),
            limits=limit.format(points),
        ),
    )

    page = response.content.decode()
    assert response.status_code == 400
    assert "number &#x27;²&#x27; is not a whole number from 0 to 10000" in page
    assert "&#x27;inf&#x27; is not a number of points (write the limit in digits, or -1 for none)" in page
    assert "(selection customName): names and labels are one line of text" in page
    assert not BattleScribeRoster.objects.exists()


def test_a_rosz_of_350_squads_without_ids_is_imported_each_labelled(client, konflikt):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("squads.ros", roster_file(konflikt, squad(konflikt) * 350))

    response = uploaded(client, buffer.getvalue(), "squads.rosz")

    assert response.status_code == 302
    roster = editing.open_roster(BattleScribeRoster.objects.get())
    assert len(roster.forces[0].selections) == 350
    assert len({selection.id for selection in roster.forces[0].selections}) == 350


def test_a_file_of_one_unit_over_the_cap_is_refused_with_the_caps_message(client, konflikt):
    response = uploaded(client, roster_file(konflikt, squad(konflikt) * (MAX_UNITS + 1)))

    assert response.status_code == 400
    assert f"the file holds more than {MAX_UNITS} units: a roster holds at most {MAX_UNITS} units" in (
        response.content.decode()
    )
    assert not BattleScribeRoster.objects.exists()


def test_a_file_at_the_cap_is_imported_with_every_unit(client, konflikt):
    response = uploaded(client, roster_file(konflikt, squad(konflikt) * MAX_UNITS))

    assert response.status_code == 302
    assert len(editing.open_roster(BattleScribeRoster.objects.get()).forces[0].selections) == MAX_UNITS


@pytest.mark.parametrize("entry", [PANTHERTURM, MINEFIELDS], ids=["Pantherturm", "Minefields"])
def test_an_imported_file_holding_an_entry_the_platoon_does_not_offer_is_refused(client, konflikt, entry):
    forged = f'<selection entryId="{entry}" name="Forged" number="1"/>'

    response = uploaded(client, roster_file(konflikt, squad(konflikt) + forged))

    assert response.status_code == 400
    assert f"Forged ({entry}): German Infantry Platoon offers no such entry" in response.content.decode()
    assert not BattleScribeRoster.objects.exists()


def test_an_imported_file_of_entries_the_platoon_offers_is_still_taken(client, konflikt):
    response = uploaded(client, roster_file(konflikt, squad(konflikt) * 2))

    assert response.status_code == 302
    assert len(editing.open_roster(BattleScribeRoster.objects.get()).forces[0].selections) == 2


def test_512_kb_of_empty_forces_is_refused_at_the_forces_limit(client, konflikt):
    head = f'<?xml version="1.0"?><roster gameSystemId="{battlescribe_game_data(konflikt).game_system.id}"><forces>'
    content = (head + "<force/>" * ((512 * 1024 - len(head) - 40) // 8) + "</forces></roster>").encode()

    response = uploaded(client, content)

    assert response.status_code == 400
    assert "the roster holds more than 20 forces, the most a roster holds" in response.content.decode()
    assert not BattleScribeRoster.objects.exists()


def test_an_edit_of_the_second_of_two_units_sharing_an_id_renames_the_second(client, konflikt):
    response = uploaded(client, roster_file(konflikt, squad(konflikt, 'id="same" number="1"') * 2))
    assert response.status_code == 302
    kept = BattleScribeRoster.objects.get()
    first, second = editing.open_roster(kept).forces[0].selections

    renamed = change(
        client, response["Location"] + "change/", action="customise", selection=second.id, custom_name="Second"
    )

    assert renamed.status_code == 302
    names = [s.custom_name for s in editing.open_roster(BattleScribeRoster.objects.get()).forces[0].selections]
    assert first.id != second.id and names == [None, "Second"]


def test_the_engine_reads_a_rosz_through_the_bounded_reader(konflikt):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("bomb.ros", b"<roster/>" + b" " * 10_000)

    with pytest.raises(ValueError, match="compressed with bzip2; only stored or deflate"):
        read_roster_xml(battlescribe_game_data(konflikt), buffer.getvalue())
