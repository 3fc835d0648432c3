"""Roster files: the examples, validate_roster's exit codes and JSON, import, export and bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.models import Roster
from lists.rosters.files import dump_yaml, export_roster, load_roster_file

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))

pytestmark = pytest.mark.usefixtures("real_packs")


def validate(path: Path, *args: str) -> tuple[int, str, str]:
    import io

    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), *args, stdout=out, stderr=err)
    return exit_info.value.code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, text: str, name: str = "roster.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_there_is_an_example_for_every_game_system():
    assert {path.stem for path in EXAMPLES} == {
        "bolt-action-2e",
        "bolt-action-2e-germany-normandy",
        "bolt-action-2e-germany-normandy-two-platoons",
        "action-all-fronts",
        "heroes-all",
        "rapid-fire-house-rules",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_is_legal(example):
    code, out, _ = validate(example, "--json")

    verdict = json.loads(out)
    assert code == 0
    assert verdict["valid"] is True
    assert verdict["findings"] == []
    assert verdict["points"] <= verdict["points_limit"]


@pytest.mark.django_db
def test_the_bolt_action_example_costs_what_a_player_adds_up():
    code, out, _ = validate(ROOT / "examples" / "bolt-action-2e.yaml", "--json")

    verdict = json.loads(out)
    # Lt 50; two 10-man sections with LMG 50+5x10+20 each; an 8-man section 50+3x10;
    # mortar 50+10 spotter; MMG 50; veteran sniper 65; medic 23; PIAT 40; Sherman 185.
    assert verdict["points"] == 50 + 2 * 120 + 80 + 60 + 50 + 65 + 23 + 40 + 185
    assert verdict["order_dice"] == 10
    assert set(verdict) == {"valid", "points", "points_limit", "order_dice", "findings", "forces"}
    # The older file form (organisation and units at the top level) is one force holding every unit.
    [force] = verdict["forces"]
    assert (force["name"], force["points"], len(force["units"])) == ("Platoon 1", verdict["points"], 10)


@pytest.mark.django_db
def test_an_illegal_roster_exits_1_and_lists_its_findings(tmp_path):
    path = write(
        tmp_path,
        "game: bolt-action-2e\narmy: generic\npoints_limit: 100\nunits:\n"
        "  - {unit: Second Lieutenant, quality: Regular}\n"
        "  - {unit: M4 Sherman 75MM, quality: Regular}\n",
    )

    code, out, _ = validate(path, "--json")

    verdict = json.loads(out)
    assert code == 1
    assert verdict["valid"] is False
    found = {(f["code"], f["unit"], f["severity"]) for f in verdict["findings"]}
    assert ("points.over_limit", None, "error") in found
    assert ("org.missing", None, "error") in found
    assert all(f["rule"] and f["message"] for f in verdict["findings"])


@pytest.mark.django_db
def test_the_text_output_names_the_verdict_and_each_finding(tmp_path):
    path = write(
        tmp_path, "game: bolt-action-2e\narmy: generic\nunits:\n  - {unit: Second Lieutenant, quality: Regular}\n"
    )

    code, out, _ = validate(path)

    assert code == 1
    assert "NOT legal" in out
    assert "50 points, 1 order dice" in out
    assert "(org.missing)" in out


UNUSABLE = [
    pytest.param("game: [unclosed\n", "not valid YAML", id="malformed-yaml"),
    pytest.param('{"game": "bolt-action-2e", "army": ', "not valid JSON", id="malformed-json"),
    pytest.param("- just\n- a list\n", "a roster file is a mapping", id="not-a-mapping"),
    pytest.param(
        "game: bolt-action-2e\narmy: generic\nunits: 5\n", "units: Input should be a valid list", id="wrong-type"
    ),
    pytest.param(
        "game: bolt-action-2e\narmy: generic\ncolour: red\n", "colour: Extra inputs are not permitted", id="unknown-key"
    ),
    pytest.param(
        "game: bolt-action-2e\narmy: generic\nunits:\n  - unit: Second Lieutenat\n",
        "line 4, units.0.unit: unknown unit for the Generic army 'Second Lieutenat'. Did you mean 'Second Lieutenant'",
        id="unknown-unit",
    ),
    pytest.param(
        "game: bolt-action-2e\narmy: generic\nunits:\n  - {unit: Second Lieutenant, options: [Bayonet]}\n",
        "units.0.options.0: unknown option of Second Lieutenant 'Bayonet'",
        id="unknown-option",
    ),
    pytest.param("game: Bolt Actoin\narmy: generic\n", "unknown game 'Bolt Actoin'. Did you mean", id="unknown-game"),
    pytest.param(
        "game: bolt-action-2e\narmy: generic\nunits:\n  - {unit: Captain, quality: Inexperienced}\n",
        "units.0.quality: Captain has no Inexperienced price: choose Regular or Veteran",
        id="unpriced-quality",
    ),
    pytest.param("a: &x [1]\nb: *x\n", "aliases (*name) are not allowed", id="yaml-alias"),
    pytest.param("a: " + "[" * 50 + "]" * 50 + "\n", "nested more than 20 levels deep", id="deep-yaml"),
    pytest.param('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than 20 levels deep", id="deep-json"),
    pytest.param("game: x\ngame: y\n", "the key 'game' appears twice", id="duplicate-key"),
    pytest.param("", "the file is empty", id="empty"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "message"), UNUSABLE)
def test_an_unusable_file_exits_2_with_the_reason_on_stderr(tmp_path, text, message):
    code, out, err = validate(write(tmp_path, text, "roster.json" if text.startswith("{") else "roster.yaml"))

    assert code == 2
    assert message in err
    assert out == ""


@pytest.mark.django_db
def test_an_oversized_file_is_refused(tmp_path):
    code, _, err = validate(write(tmp_path, "name: x\n" + "#" * 600_000))

    assert code == 2
    assert "the limit is 524288" in err


@pytest.mark.django_db
def test_a_missing_file_exits_2(tmp_path):
    code, _, err = validate(tmp_path / "nope.yaml")

    assert code == 2
    assert "cannot read the file" in err


def test_the_command_runs_as_a_user_would(tmp_path):
    """A separate process on a fresh database: exit status 2 for a bad file, with the reason."""
    import os

    # A throwaway SQLite database, whatever database the suite itself runs on.
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        DJANGO_DEBUG="1",
        DJANGO_SQLITE_PATH=str(tmp_path / "cli.sqlite3"),
        ARMYBUILDER_CACHE_DIR=str(tmp_path / "cache"),
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    bad = write(tmp_path, "game: nothing\narmy: none\n")

    result = subprocess.run(
        [sys.executable, "manage.py", "validate_roster", str(bad)], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert result.returncode == 2
    assert "unknown game 'nothing'" in result.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_an_export_reimports_to_the_same_roster(example):
    first = load_roster_file(example.read_bytes(), example.name).snapshot()
    exported = dump_yaml(export_roster(first))
    second = load_roster_file(exported.encode(), "again.yaml").snapshot()

    assert export_roster(second) == export_roster(first)
    assert [u.unit_type.key for u in second.units] == [u.unit_type.key for u in first.units]


@pytest.mark.django_db
def test_importing_a_file_on_the_web_creates_a_roster_and_opens_its_editor(client):
    example = ROOT / "examples" / "bolt-action-2e.yaml"
    with example.open("rb") as upload:
        response = client.post("/rosters/import/", {"file": upload})

    assert response.status_code == 302
    roster = Roster.objects.get()
    assert roster.name == "Rangers lead the way"
    assert roster.units.count() == 10
    page = client.get(response["Location"]).content.decode()
    assert "793 / 1000 pts" in page
    assert "Legal" in page


@pytest.mark.django_db
def test_a_bad_file_on_the_web_gets_a_400_listing_every_problem_and_saves_nothing(client):
    text = "game: bolt-action-2e\narmy: generic\nunits:\n  - unit: Rifle Sqaud\n  - unit: Medic\n    quality: Elite\n"

    response = client.post("/rosters/import/", {"text": text})

    html = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was saved" in html
    assert "unknown unit for the Generic army &#x27;Rifle Sqaud&#x27;" in html
    assert "units.1.quality: unknown troop quality &#x27;Elite&#x27;" in html
    assert not Roster.objects.exists()


@pytest.mark.django_db
def test_the_share_page_exports_yaml_and_json_that_reimport(client):
    example = ROOT / "examples" / "action-all-fronts.yaml"
    client.post("/rosters/import/", {"text": example.read_text()})
    roster = Roster.objects.get()

    yaml_text = client.get(f"/r/{roster.share_id}/roster.yaml").content
    json_text = client.get(f"/r/{roster.share_id}/roster.json").content

    assert json.loads(json_text)["forces"][0]["units"][1] == {
        "unit": "Rifle Squad",
        "label": "1 Section",
        "transport": "Truck",
    }
    again = load_roster_file(yaml_text, "roster.yaml").snapshot()
    assert again.name == "Normandy, June 1944"
    assert len(again.units) == 12


@pytest.mark.django_db
def test_copying_a_shared_roster_makes_a_new_one_with_its_own_links(client):
    client.post("/rosters/import/", {"text": (ROOT / "examples" / "heroes-all.yaml").read_text()})
    original = Roster.objects.get()

    response = client.post(f"/r/{original.share_id}/copy/")

    copy = Roster.objects.exclude(pk=original.pk).get()
    assert response.status_code == 302
    assert copy.name == "Copy of Panzer support"
    assert copy.share_id != original.share_id
    assert copy.edit_secret_hash != original.edit_secret_hash
    assert [u.label for u in copy.units.all()] == [u.label for u in original.units.all()]
