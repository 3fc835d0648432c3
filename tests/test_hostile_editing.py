"""A visitor pushing the editor and the import past their limits gets a clear refusal, never a 500 or a lost edit.

Every editor change goes the import's way (lists/rosters/edits.py): the file's limits
hold for each action with the import's message, and units keep their ids, so
another tab's page still names them.
"""

import re
import shutil
from pathlib import Path
from urllib.parse import quote_from_bytes

import pytest

from lists.gamedata.packs import load_all
from lists.models import Force, Roster, RosterUnit
from lists.rosters.files import MAX_UNITS

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "skirmish"


@pytest.fixture
def loaded(db, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "skirmish")
    load_all(tmp_path)


def imported(client, units: int, label: str = "Rifle Squad", forces: int = 1) -> str:
    """Import a roster of `units` rifle squads (the first labelled `label`) and `forces` forces; its edit link."""
    squads = [f"      - {{unit: rifle-squad, label: {label}}}"] + ["      - {unit: rifle-squad}"] * (units - 1)
    lines = ["game: skirmish", "army: blue", "forces:", "  - name: Force 1", "    units:", *squads[:units]]
    lines += [f"  - {{name: Force {number + 1}, units: []}}" for number in range(1, forces)]
    response = client.post("/rosters/import/", {"text": "\n".join(lines)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"]


def version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


def post(client, url: str, data: dict | None = None, htmx: bool = False):
    page = client.get("/".join(url.split("/")[:3]) + "/").content.decode()  # the editor: /e/<secret>/
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url, {"version": version(page), **(data or {})}, **headers)


def test_a_yaml_file_of_45000_unknown_keys_is_refused_at_its_first_oversized_mapping(client, loaded):
    text = "game: skirmish\narmy: blue\n" + "".join(f"k{i}: 1\n" for i in range(45_000))

    response = client.post("/rosters/import/", {"text": text})

    assert response.status_code == 400
    assert "line 1: not valid YAML: a mapping of more than 200 keys" in response.content.decode()
    assert not Roster.objects.exists()


def test_45000_unknown_keys_spread_over_units_are_refused_at_the_files_values_limit(client, loaded):
    unit = "  - {unit: rifle-squad, " + ", ".join(f"k{i}: 1" for i in range(199)) + "}\n"
    text = "game: skirmish\narmy: blue\nunits:\n" + unit * 226

    response = client.post("/rosters/import/", {"text": text})

    page = response.content.decode()
    assert response.status_code == 400
    assert "more than 40,000 keys and values: no roster holds as many" in page
    assert len(page) < len(text) + 50_000  # the text comes back to fix, with one problem
    assert not Roster.objects.exists()


def test_unknown_keys_spread_over_units_are_refused_with_their_first_problems_located(client, loaded):
    unit = "  - {unit: rifle-squad, " + ", ".join(f"k{i}: 1" for i in range(199)) + "}\n"
    text = "game: skirmish\narmy: blue\nunits:\n" + unit * 90  # 17,910 unknown keys: within the values limit

    response = client.post("/rosters/import/", {"text": text})

    page = response.content.decode()
    assert response.status_code == 400
    assert "line 4, units.0.k0: Extra inputs are not permitted" in page
    assert "and 17,860 more problems; fix these first" in page
    assert len(page) < len(text) + 50_000  # the text comes back to fix, with 50 problems, not 17,910
    assert not Roster.objects.exists()


def test_a_21st_force_is_refused_with_the_import_message(client, loaded):
    edit_url = imported(client, 1, forces=20)

    response = post(client, f"{edit_url}forces/", {"name": "One too many"})

    assert response.status_code == 400
    assert "forces: List should have at most 20 items" in response.content.decode()
    assert Force.objects.count() == 20


@pytest.mark.parametrize("action", ["duplicate", "undo", "add"])
def test_a_full_roster_refuses_another_unit_by_any_action(client, loaded, action):
    edit_url = imported(client, MAX_UNITS)
    unit = RosterUnit.objects.order_by("id").last()
    if action == "undo":
        assert post(client, f"{edit_url}units/{unit.id}/remove/").status_code == 302
        post(client, f"{edit_url}units/", {"unit_type": unit.unit_type_id})  # back to 400 units
        response = post(client, f"{edit_url}undo/")
    elif action == "duplicate":
        response = post(client, f"{edit_url}units/{unit.id}/duplicate/")
    else:
        response = post(client, f"{edit_url}units/", {"unit_type": unit.unit_type_id})

    assert response.status_code == 400
    assert f"at most {MAX_UNITS}" in response.content.decode()
    assert RosterUnit.objects.count() == MAX_UNITS


def test_duplicating_a_unit_with_a_120_character_label_is_refused_with_the_label_limit(client, loaded):
    edit_url = imported(client, 1, label="L" * 120)
    unit = RosterUnit.objects.get()

    response = post(client, f"{edit_url}units/{unit.id}/duplicate/", htmx=True)

    assert response.status_code == 200  # htmx swaps the roster fragment, which says why
    assert "at most 120 characters" in response.content.decode()
    assert RosterUnit.objects.count() == 1


def test_a_unit_named_after_its_type_is_duplicated(client, loaded):
    edit_url = imported(client, 1)
    unit = RosterUnit.objects.get()
    assert unit.label == "Rifle Squad"

    response = post(client, f"{edit_url}units/{unit.id}/duplicate/")

    assert response.status_code == 302
    assert sorted(RosterUnit.objects.values_list("label", flat=True)) == ["Rifle Squad", "Rifle Squad 2"]


def test_units_keep_their_ids_so_another_tab_gets_the_conflict_page_not_not_found(client, loaded):
    edit_url = imported(client, 2)
    first, second = RosterUnit.objects.order_by("id")
    stale = client.get(edit_url).content.decode()

    assert post(client, f"{edit_url}units/{first.id}/duplicate/").status_code == 302
    assert RosterUnit.objects.filter(id__in=[first.id, second.id]).count() == 2
    response = client.post(f"{edit_url}units/{second.id}/", {"version": version(stale), "label": "Renamed"})

    assert response.status_code == 409
    assert "changed elsewhere since you opened this page" in response.content.decode()
    # The notice says what was not applied: the renaming, against the newest state.
    assert "Not applied: your change to Rifle Squad 2" in response.content.decode()
    assert "<li>Name: Renamed</li>" in response.content.decode()
    # The current page's edit of the same unit is applied to it, under its old id.
    response = post(client, f"{edit_url}units/{second.id}/", {"label": "Renamed"})
    assert RosterUnit.objects.get(id=second.id).label == "Renamed"


def test_a_stale_edit_of_a_removed_unit_gets_the_conflict_fragment_with_htmx(client, loaded):
    edit_url = imported(client, 2)
    first = RosterUnit.objects.order_by("id").first()
    stale = client.get(edit_url).content.decode()
    assert post(client, f"{edit_url}units/{first.id}/remove/").status_code == 302

    response = client.post(
        f"{edit_url}units/{first.id}/", {"version": version(stale), "label": "X"}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200  # htmx swaps it in: the newer roster, marked as a conflict
    assert "changed elsewhere since you opened this page" in response.content.decode()
    assert RosterUnit.objects.count() == 1


@pytest.mark.usefixtures("one_rate_window")
def test_adding_units_is_rate_limited_per_client(client, loaded, settings):
    settings.UNIT_ADD_RATE = "3/m"
    edit_url = imported(client, 1)
    unit_type = RosterUnit.objects.get().unit_type_id

    statuses = [post(client, f"{edit_url}units/", {"unit_type": unit_type}).status_code for _ in range(5)]

    assert statuses == [302, 302, 302, 429, 429]
    assert RosterUnit.objects.count() == 4


@pytest.mark.parametrize("name", ["Platoon\r\nLegal", "Tab\there", "Bell\x07", "Back\u202eward"])
def test_control_characters_are_refused_in_every_name_and_label(client, loaded, name):
    edit_url = imported(client, 1)
    unit = RosterUnit.objects.get()
    force = Force.objects.get()
    message = "one line of text: no line breaks, tabs or other control characters"
    refused = [
        post(client, f"{edit_url}settings/", {"name": name}),
        post(client, f"{edit_url}units/{unit.id}/", {"label": name}),
        post(client, f"{edit_url}forces/", {"name": name}),
        post(client, f"{edit_url}forces/{force.id}/", {"name": name}),
        client.post("/rosters/import/", {"text": f"game: skirmish\narmy: blue\nname: {name!r}\n".replace("'", '"')}),
        client.post("/rosters/new/", {"army": force.roster.army_id, "name": name, "year": "1944"}),
    ]

    for response in refused:
        assert response.status_code == 400
        assert message in response.content.decode().lower()
    assert [r.name for r in Roster.objects.all()] == ["Untitled roster"]
    assert RosterUnit.objects.get().label == "Rifle Squad"
    assert list(Force.objects.values_list("name", flat=True)) == ["Force 1"]


def test_roster_txt_prints_one_line_per_name_so_no_fake_legal_line(client, loaded):
    imported(client, 1)
    roster = Roster.objects.get()
    # A name saved before control characters were refused is made one line by the migration; none can be saved now.
    Roster.objects.filter(pk=roster.pk).update(name="Mine\nLegal\nFingerprint: AAAA")
    from importlib import import_module

    from django.apps import apps

    import_module("lists.migrations.0014_harden_one_line_names").clean(apps, None)

    text = client.get(f"/r/{roster.share_id}/roster.txt").content.decode()

    assert text.splitlines()[0] == "Mine Legal Fingerprint: AAAA"
    assert sum(line.startswith("Fingerprint:") for line in text.splitlines()) == 1


def test_the_copy_answer_carrying_a_new_edit_link_is_never_stored(client, loaded):
    imported(client, 1)
    roster = Roster.objects.get()

    response = client.post(f"/r/{roster.share_id}/copy/")

    assert response.status_code == 302 and response["Location"].startswith("/e/")
    assert "no-store" in response["Cache-Control"]


def test_pasted_text_that_is_not_utf8_is_refused_like_the_same_bytes_uploaded(client, loaded):
    raw = b"game: skirmish\narmy: blue\nname: Caf\xe9\n"
    from django.core.files.uploadedfile import SimpleUploadedFile

    form = "application/x-www-form-urlencoded"
    pasted = client.post("/rosters/import/", "text=" + quote_from_bytes(raw), content_type=form)  # as browsers send it
    unencoded = client.post("/rosters/import/", b"text=" + raw.replace(b"\n", b"%0A"), content_type=form)
    uploaded = client.post("/rosters/import/", {"file": SimpleUploadedFile("roster.yaml", raw)})

    for response in (pasted, unencoded, uploaded):
        assert response.status_code == 400
        assert "the file is not UTF-8 text (byte 35)" in response.content.decode()
    assert not Roster.objects.exists()


def test_a_file_of_an_unknown_format_version_is_refused_naming_the_one_read(client, loaded):
    text = "format: armybuilder-roster/999\ngame: skirmish\narmy: blue\n"

    response = client.post("/rosters/import/", {"text": text})

    assert response.status_code == 400
    assert "this site reads roster files of format armybuilder-roster/1, not &#x27;armybuilder-roster/999&#x27;" in (
        response.content.decode()
    )
