"""The JSON API and the JSON/YAML export of rosters of loaded BattleScribe data sets.

Rosters of Konflikt '47 and Flames of War are built from the home page and the editor's own buttons (as
tests/test_battlescribe_games.py does, with the real data in ../shared; skipped where absent). The API
answers with the points and the errors the editor and share page show; the export imports back through
the import page with the same points and verdict.
"""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from lists.models import BattleScribeRoster
from tests.test_battlescribe_games import (
    GAMES,
    Player,
    data_set_of,
    data_sets,  # noqa: F401 - the data folders, loaded once for the module
    html,
    start,
    text,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("data_sets")]

# Konflikt '47 and Flames of War, from the games the editor tests build (folder, army, force, limit, steps,
# the compulsory selection, the error naming it once removed).
BUILT = [game for game in GAMES if game[0] in ("bsdata/konflikt47", "bsdata/flamesofwar")]


def build(client, folder, army, force, limit, steps) -> tuple[Player, BattleScribeRoster]:
    player = start(client, data_set_of(folder), army, force, limit)
    for kind, *names in steps:
        getattr(player, kind)(*names)
    return player, BattleScribeRoster.objects.get(name=f"{army} test")


def selections_total(selections: list[dict], cost: str) -> float:
    return sum(s["costs"].get(cost, 0) + selections_total(s["children"], cost) for s in selections)


@pytest.mark.parametrize(("folder", "army", "force", "limit", "steps", "compulsory", "missing"), BUILT)
def test_the_api_answers_with_the_points_and_errors_the_pages_show(
    client, folder, army, force, limit, steps, compulsory, missing
):
    player, kept = build(client, folder, army, force, limit, steps)
    legal = client.get(f"/api/bs/rosters/{kept.share_id}/")
    assert legal.status_code == 200 and legal["Content-Type"] == "application/json"
    document = legal.json()
    points_name, points = next(iter(document["costs"].items()))
    assert points == player.shown_points() > 0
    assert document["cost_limits"][points_name] == limit
    assert (document["valid"], document["errors"]) == (True, [])
    assert document["game"] == {"name": kept.data_set.name, "revision": kept.data_set.revision}
    (only_force,) = document["forces"]
    assert (only_force["catalogue"], only_force["name"]) == (army, force)
    assert selections_total(only_force["selections"], points_name) == points
    assert "entry_id" not in only_force["selections"][0]  # ids are the export's, not the API's

    player.remove(compulsory)
    shared = html(client.get(f"/bs/r/{kept.share_id}/"))
    shown = [text(e).removeprefix("Not legal: ") for e in shared.xpath("//li[@class='finding error']")]
    document = client.get(f"/api/bs/rosters/{kept.share_id}/").json()
    assert document["valid"] is False
    assert missing in [error["message"] for error in document["errors"]]
    assert sorted(error["message"] for error in document["errors"]) == sorted(shown)
    for error in document["errors"]:  # each says where it applies: a force or selection the share page shows
        where = error["where"]
        assert where["type"] == "roster" or where.get("force", where.get("name")) in text(shared), error
        assert where["type"] not in ("category", "selection") or where["name"], error
    assert next(iter(document["costs"].values())) == player.shown_points() < points


def test_an_unknown_share_id_is_not_found(client):
    data_set_of("bsdata/konflikt47")
    assert client.get("/api/bs/rosters/no-such-roster/").status_code == 404
    assert client.get("/bs/r/no-such-roster/roster.json").status_code == 404


@pytest.mark.parametrize(("folder", "army", "force", "limit", "steps", "compulsory", "missing"), BUILT)
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_the_export_imports_back_with_the_same_points_and_verdict(
    client, folder, army, force, limit, steps, compulsory, missing, fmt
):
    player, kept = build(client, folder, army, force, limit, steps)
    player.remove(compulsory)  # a list that is not legal keeps its errors through the round trip
    kept.refresh_from_db()
    exported = client.get(f"/bs/r/{kept.share_id}/roster.{fmt}")
    assert exported.status_code == 200 and exported["Content-Disposition"].endswith(f'.{fmt}"')
    document = json.loads(exported.content) if fmt == "json" else yaml.safe_load(exported.content)
    assert document["forces"][0]["selections"][0]["entry_id"]

    upload = SimpleUploadedFile(f"exported.{fmt}", exported.content)
    imported = client.post("/rosters/import/", {"file": upload})
    assert imported.status_code == 302 and imported["Location"].startswith("/bs/e/"), imported.content[:500]
    copy = BattleScribeRoster.objects.exclude(pk=kept.pk).get()
    assert (copy.points, copy.points_limit, copy.error_count, copy.data_set_id) == (
        kept.points,
        kept.points_limit,
        kept.error_count,
        kept.data_set_id,
    )
    again = client.get(f"/api/bs/rosters/{copy.share_id}/").json()
    original = client.get(f"/api/bs/rosters/{kept.share_id}/").json()
    assert (again["costs"], again["errors"], again["forces"]) == (
        original["costs"],
        original["errors"],
        original["forces"],
    )


def test_an_export_naming_an_entry_the_data_lacks_is_refused_naming_it(client):
    _, kept = build(client, *BUILT[-1][:5])
    document = json.loads(client.get(f"/bs/r/{kept.share_id}/roster.json").content)
    document["forces"][0]["selections"][0]["entry_id"] = "no-such-entry"
    upload = SimpleUploadedFile("changed.json", json.dumps(document).encode())
    refused = client.post("/rosters/import/", {"file": upload})
    assert "no-such-entry" in refused.content.decode()
    assert BattleScribeRoster.objects.count() == 1


def test_validate_roster_reads_the_json_export_with_the_points_the_page_shows(client, tmp_path):
    player, kept = build(client, *BUILT[-1][:5])
    exported = tmp_path / "roster.json"
    exported.write_bytes(client.get(f"/bs/r/{kept.share_id}/roster.json").content)
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("validate_roster", str(exported), stdout=out)
    assert exited.value.code == 0  # a legal list
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{kept.name} ({kept.data_set.name}): legal"
    assert lines[1] == f"{player.shown_points():g} / {BUILT[-1][3]} points"
    assert "file's own total" not in out.getvalue()


def test_a_pasted_export_of_unknown_data_or_version_is_refused_saying_why(client):
    _, kept = build(client, *BUILT[-1][:5])
    document = json.loads(client.get(f"/bs/r/{kept.share_id}/roster.json").content)
    unknown_game = {**document, "game": {"name": "Some Other Game", "revision": 1, "game_system_id": "none-such"}}
    refused = client.post("/rosters/import/", {"text": json.dumps(unknown_game)})
    assert refused.status_code == 400
    assert "no BattleScribe data for Some Other Game is loaded: run" in refused.content.decode()
    later = client.post("/rosters/import/", {"text": json.dumps({**document, "version": 99})})
    assert later.status_code == 400 and "version 99 of this format is not known here" in later.content.decode()
    assert BattleScribeRoster.objects.count() == 1


def test_a_players_own_unit_names_and_notes_survive_the_json_round_trip(client):
    _, kept = build(client, *BUILT[-1][:5])
    # As BattleScribe writes a unit its player renamed and noted: a customName attribute and a customNotes element.
    ros = client.get(f"/bs/r/{kept.share_id}/roster.ros").content.decode()
    ros = ros.replace('name="Rifle Squad"', 'name="Rifle Squad" customName="Lahti\'s section"', 1)
    ros = re.sub(r'(customName="Lahti\'s section"[^>]*>)', r"\1<customNotes>Holds the farm</customNotes>", ros, count=1)
    client.post("/rosters/import/", {"file": SimpleUploadedFile("named.ros", ros.encode())})
    named = BattleScribeRoster.objects.exclude(pk=kept.pk).get()

    document = json.loads(client.get(f"/bs/r/{named.share_id}/roster.json").content)
    squad = next(s for s in document["forces"][0]["selections"] if s.get("custom_name"))
    assert (squad["name"], squad["custom_name"], squad["custom_notes"]) == (
        "Rifle Squad",
        "Lahti's section",
        "Holds the farm",
    )
    client.post("/rosters/import/", {"file": SimpleUploadedFile("named.json", json.dumps(document).encode())})
    again = BattleScribeRoster.objects.exclude(pk__in=[kept.pk, named.pk]).get()
    listing = client.get(f"/bs/r/{again.share_id}/roster.ros").content.decode()
    assert 'customName="Lahti&apos;s section"' in listing or 'customName="Lahti\'s section"' in listing
    assert "<customNotes>Holds the farm</customNotes>" in listing
    assert again.points == named.points


def test_a_json_export_with_a_name_that_is_not_text_is_refused_saying_so(client):
    _, kept = build(client, *BUILT[-1][:5])
    document = json.loads(client.get(f"/bs/r/{kept.share_id}/roster.json").content)
    document["forces"][0]["selections"][0]["custom_name"] = ["not", "text"]
    refused = client.post("/rosters/import/", {"file": SimpleUploadedFile("bad.json", json.dumps(document).encode())})
    assert "custom_name must be text of at most 2000 characters" in refused.content.decode()
    assert BattleScribeRoster.objects.count() == 1
