"""A player's note on a unit: written in the editor, kept by every export, shown on the share page,
printed on the organiser's list only when asked."""

import re
from pathlib import Path

import pytest
from django.test import Client

from lists.cards import list_pdf
from lists.gamedata.loading import game_data, roster_snapshot
from lists.models import Roster
from lists.rosters.files import RosterFileInvalid, load_roster_file
from lists.rules.verdict import judge
from tests.test_forces import pdf_text

ROOT = Path(__file__).resolve().parents[1]
TWO_PLATOONS = ROOT / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml"
NOTE = 'Feldgrau, yellow helmet bands; the <b>"Adler"</b> figures & a kneeling gunner'

pytestmark = [pytest.mark.usefixtures("real_packs"), pytest.mark.django_db]


def version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


@pytest.fixture
def edited(client):
    """The two-platoon example imported as a player would: its edit link and its roster."""
    response = client.post("/rosters/import/", {"text": TWO_PLATOONS.read_text()})
    assert response.status_code == 302
    return response["Location"], Roster.objects.latest("pk")


def write_note(client, edit_url: str, roster: Roster, label: str, note: str):
    unit = roster.units.get(label=label)
    page = client.get(edit_url).content.decode()
    return client.post(f"{edit_url}units/{unit.id}/note/", {"note": note, "version": version(page)})


def notes_of(resolved) -> dict[str, str]:
    return {unit.label: unit.note for unit in resolved.snapshot().units if unit.note}


def test_a_note_written_in_the_editor_is_kept_by_every_export(client, edited):
    edit_url, roster = edited
    assert write_note(client, edit_url, roster, "3. Gruppe", NOTE).status_code == 302
    share = f"/r/{roster.share_id}/"
    files = {
        "roster.yaml": client.get(f"{share}roster.yaml").content,
        "roster.json": client.get(f"{share}roster.json").content,
        "roster.txt": client.get(f"{share}roster.txt").content,
        "roster-keyed.txt": client.get(f"{share}roster-keyed.txt").content,
        "roster.ros": client.get(f"{share}roster.ros").content,
    }
    assert f"3. Gruppe (Heer Grenadier Squad) (Regular, 10 men): LMG, rides in Hanomag — 120 pts\n  Note: {NOTE}\n" in (
        files["roster.txt"].decode()
    )
    assert b"<customNotes>Feldgrau, yellow helmet bands; the &lt;b&gt;" in files["roster.ros"]
    for name, raw in files.items():
        again = load_roster_file(raw, name)
        assert notes_of(again) == {"3. Gruppe": NOTE}, name
        assert judge(again.snapshot()).points == 960, name


def test_a_note_is_shown_escaped_on_the_share_page_and_not_on_the_editor_card_twice(client, edited):
    edit_url, roster = edited
    write_note(client, edit_url, roster, "MG-Trupp", "<script>alert(1)</script> grey & green")
    page = client.get(f"/r/{roster.share_id}/").content.decode()
    assert "<strong>Note:</strong> &lt;script&gt;alert(1)&lt;/script&gt; grey &amp; green" in page
    assert "<script>alert(1)" not in page
    editor = client.get(edit_url).content.decode()
    assert 'value="&lt;script&gt;alert(1)&lt;/script&gt; grey &amp; green"' in editor  # in its field, to edit


def test_the_organisers_list_prints_notes_only_when_asked(client, edited):
    edit_url, roster = edited
    write_note(client, edit_url, roster, "Panzer IV", "Hinterhalt camouflage, turret number 412")
    snapshot = roster_snapshot(roster)
    data = game_data(roster.system)
    verdict = judge(snapshot)
    plain = pdf_text(list_pdf(snapshot, data, verdict, []))
    asked = pdf_text(list_pdf(snapshot, data, verdict, [], notes=True))
    assert "Hinterhalt" not in plain and "Panzer IV" in plain
    assert "Note: Hinterhalt camouflage, turret number 412" in " ".join(asked.split())
    share = client.get(f"/r/{roster.share_id}/").content.decode()
    assert f'href="/r/{roster.share_id}/list.pdf?notes=1"' in share


def test_a_note_too_long_is_refused_with_how_long_it_may_be_and_nothing_is_saved(client, edited):
    edit_url, roster = edited
    write_note(client, edit_url, roster, "MG-Trupp", "Two crew, one loader")
    response = write_note(client, edit_url, roster, "MG-Trupp", "x" * 301)
    assert response.status_code == 400
    assert "Note on MG-Trupp: a unit&#x27;s note holds at most 300 characters, not 301: shorten it" in (
        response.content.decode()
    )
    assert roster.units.get(label="MG-Trupp").note == "Two crew, one loader"
    text = TWO_PLATOONS.read_text().replace("label: MG-Trupp,", f"label: MG-Trupp, note: {'y' * 301},")
    with pytest.raises(RosterFileInvalid) as refused:
        load_roster_file(text.encode(), "roster.yaml")
    assert any("at most 300 characters, not 301" in str(p) for p in refused.value.problems)


def test_writing_a_note_needs_the_pages_csrf_token(edited):
    edit_url, roster = edited
    strict = Client(enforce_csrf_checks=True)
    unit = roster.units.get(label="MG-Trupp")
    response = strict.post(f"{edit_url}units/{unit.id}/note/", {"note": "sneaky", "version": roster.version})
    assert response.status_code == 403
    assert roster.units.get(label="MG-Trupp").note == ""


def test_changing_a_units_options_keeps_its_note(client, edited):
    edit_url, roster = edited
    write_note(client, edit_url, roster, "4. Gruppe", "Winter smocks")
    unit = roster.units.get(label="4. Gruppe")
    page = client.get(f"{edit_url}?unit={unit.id}").content.decode()
    form = re.search(rf'<form method="post" action="{edit_url}units/{unit.id}/".*?</form>', page, re.S).group(0)
    fields = dict(re.findall(r'<input type="(?:number|text|hidden)" name="([^"]+)" value="([^"]*)"', form))
    fields.update(re.findall(r'<select name="([^"]+)"[^>]*>.*?<option value="([^"]*)" selected', form, re.S))
    fields["label"] = "4. Gruppe (Winter)"
    assert client.post(f"{edit_url}units/{unit.id}/", fields).status_code == 302
    assert roster.units.get(label="4. Gruppe (Winter)").note == "Winter smocks"
