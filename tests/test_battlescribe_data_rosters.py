"""validate_roster on BattleScribe rosters of other games than Bolt Action 2nd edition, judged by our engine.

Each data set is loaded with `load_battlescribe` from ../shared (skipped where absent); a small roster is built
with the engine from the real data (a force entry, two root entries and what the engine selects by default),
saved with the engine's `write_roster_xml`, and checked by `validate_roster --json`: its points are the engine's
totals, its verdict the engine's validation errors.
"""

import json
import zipfile
from io import BytesIO, StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from lists.battlescribe.engine import Roster
from lists.battlescribe.engine.roster_files import write_roster_xml
from lists.battlescribe.engine.validation import roster_errors
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.models import BattleScribeDataSet, BattleScribeRoster

SHARED = Path(__file__).resolve().parents[2] / "shared"
AFRIKA_KORPS = SHARED / "community-data" / "ba3-afrika-korps"
DAK_ROSTER = AFRIKA_KORPS / "rosters" / "DAK Starter Army - 996pts.ros"

pytestmark = pytest.mark.django_db

# folder, catalogue, force entry, two root entries (unit entries the catalogue offers), the game's points type
GAMES = [
    (
        "bsdata/flamesofwar",
        "Late-War - Bulge: American",
        "Standard",
        ["M4 Sherman (Late) Tank Company", "M18 Tank Destroyer Company"],
        "pts",
    ),
    (
        "bsdata/team-yankee",
        "NATO - America",
        "1) Main Force",
        ["M1A1 Abrams Combat Team", "M113 Mech Combat Team"],
        "pts",
    ),
    ("bsdata/konflikt47", "Finland", "Reinforced Platoon", ["Officer", "Rifle Squad"], "points"),
    (
        "bsdata/battlegroup",
        "Kursk - German - Infantry Division",
        "Battlegroup",
        ["Forward Observer Team", "Panzer IV"],
        "pts",
    ),
    (
        "community-data/ba3-afrika-korps",
        "Armies of Germany",
        "Army List",
        ["Platoon Commander", "Heer Infantry Squad"],
        "Points",
    ),
    (
        "community-data/ba3-soviet-union",
        "Armies of the soviet union",
        "Rifle Platoon",
        ["Platoon Commander", "Rifle Squad"],
        "points",
    ),
]


def load(folder: Path) -> BattleScribeDataSet:
    if not folder.is_dir():
        pytest.skip(f"no data at {folder}")
    call_command("load_battlescribe", str(folder), stdout=StringIO())
    return BattleScribeDataSet.objects.get(source_folder__endswith=folder.name)


def built(data_set: BattleScribeDataSet, catalogue: str, force_entry: str, entries: list[str]) -> Roster:
    """A roster as a player clicks it together: a force of `force_entry`, then each root entry by name."""
    data = battlescribe_game_data(data_set)
    book = next(c for c in data.catalogues if c.name == catalogue)
    entry = next(f for f in [*data.game_system.force_entries, *book.force_entries] if f.name == force_entry)
    roster = Roster(data, f"{data.game_system.name} test roster")
    force = roster.add_force(entry.id, book.id)
    for name in entries:
        option = next(o for o in force.options if o.name == name and not roster.view_option(o, force).hidden)
        roster.select(force, option)
    return roster


def validate(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("validate_roster", str(path), *args, stdout=out, stderr=err)
    return exited.value.code, out.getvalue(), err.getvalue()


def checked(tmp_path: Path, roster: Roster, name: str = "roster.ros") -> tuple[int, dict]:
    path = tmp_path / name
    path.write_text(write_roster_xml(roster))
    code, out, err = validate(path, "--json")
    assert err == ""
    return code, json.loads(out)


@pytest.mark.parametrize(
    ("folder", "catalogue", "force_entry", "entries", "points_type"), GAMES, ids=[g[0].split("/")[1] for g in GAMES]
)
def test_a_roster_built_by_the_engine_gets_the_engines_points_and_verdict(
    tmp_path, folder, catalogue, force_entry, entries, points_type
):
    data_set = load(SHARED / folder)
    roster = built(data_set, catalogue, force_entry, entries)
    totals = {c.name: value for c in roster.data.cost_types for t, value in roster.totals.items() if t == c.id}
    errors = roster_errors(roster)

    code, verdict = checked(tmp_path, roster)

    assert verdict["points"] == totals.get(points_type, 0) and verdict["points"] > 0
    assert verdict["cost_types"] == totals
    assert verdict["game_system"] == {
        "id": data_set.game_system_id,
        "name": data_set.name,
        "revision": data_set.revision,
        "file_revision": data_set.revision,
    }
    assert (code, verdict["valid"]) == ((0, True) if not errors else (1, False))
    assert [f["message"] for f in verdict["findings"]] == [e.message for e in errors]
    assert [u["label"] for u in verdict["forces"][0]["units"]][-2:] == entries
    assert sum(u["points"] for f in verdict["forces"] for u in f["units"]) == verdict["points"]
    assert "file_points" not in verdict  # the engine writes each selection's own costs, as BattleScribe does


def test_a_compulsory_entry_removed_makes_the_roster_not_legal_naming_it(tmp_path):
    data_set = load(SHARED / "bsdata" / "team-yankee")
    roster = built(data_set, "NATO - America", "1) Main Force", ["M1A1 Abrams Combat Team"])
    assert checked(tmp_path, roster)[0] == 0
    team = roster.forces[0].selections[-1]
    headquarters = next(s for s in team.children if s.name == "M1A1 Abrams Combat Team HQ")
    roster.deselect(headquarters)

    code, verdict = checked(tmp_path, roster, "without-hq.ros")

    assert code == 1 and not verdict["valid"]
    finding = next(f for f in verdict["findings"] if "M1A1 Abrams Combat Team HQ" in f["message"])
    assert finding["code"] == "battlescribe.constraint" and finding["severity"] == "error"
    assert finding["message"].startswith("must have 1 more selections of M1A1 Abrams Combat Team HQ")
    assert finding["unit"] == "M1A1 Abrams Combat Team" and finding["rule"]


def test_the_afrika_korps_file_is_priced_by_us_not_by_its_cumulative_costs(tmp_path):
    if not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    load(AFRIKA_KORPS)

    code, out, err = validate(DAK_ROSTER, "--json")
    verdict = json.loads(out)

    assert err == "" and code == (0 if verdict["valid"] else 1)
    assert (verdict["points"], verdict["points_limit"]) == (996, 1000)
    # The file gives each selection the cost of everything under it too: summed as BattleScribe sums them, 2244.
    assert verdict["file_points"] == 2244
    assert verdict["game_system"]["name"] == "Bolt Action 3ed" and verdict["cost_types"] == {"Points": 996}
    units = verdict["forces"][0]["units"]
    assert units[1] == {"label": "Heer Infantry Squad", "points": 119, "file_points": 242}
    assert units[-1] == {"label": "Panzer III", "points": 240, "file_points": 720}

    code, out, err = validate(DAK_ROSTER)
    assert "996 / 1000 points" in out and "The file's own total is 2244 points" in out


def test_a_revision_not_loaded_is_checked_against_the_newest_and_says_so(tmp_path):
    if not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    load(AFRIKA_KORPS)
    path = tmp_path / "older.ros"
    path.write_text(DAK_ROSTER.read_text().replace('gameSystemRevision="30"', 'gameSystemRevision="29"', 1))

    code, out, err = validate(path, "--json")
    verdict = json.loads(out)

    assert verdict["points"] == 996
    assert (verdict["game_system"]["revision"], verdict["game_system"]["file_revision"]) == (30, 29)
    warning = next(f for f in verdict["findings"] if f["code"] == "battlescribe.revision")
    assert warning["severity"] == "warning"
    assert warning["message"] == (
        "The file was made with revision 29 of Bolt Action 3ed; revision 30, the newest loaded, was used."
    )


def test_a_roster_of_a_game_without_loaded_data_is_unusable(tmp_path):
    if not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    code, out, err = validate(DAK_ROSTER, "--json")
    assert (code, out) == (2, "")
    assert "no BattleScribe data for game system 1f7d-0c61-7e6a-4cc6 (Bolt Action 3ed) is loaded" in err
    assert "python manage.py load_battlescribe DIR" in err


def test_an_unknown_entry_id_is_unusable_naming_it(tmp_path):
    if not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    load(AFRIKA_KORPS)
    text = DAK_ROSTER.read_text().replace('entryId="2170-0000-0000-0002"', 'entryId="dead-beef-0000-0001"', 1)
    path = tmp_path / "unknown.ros"
    path.write_text(text)

    code, out, err = validate(path)

    assert (code, out) == (2, "")
    assert "Replace rifle with submachine gun (dead-beef-0000-0001): unknown entry id" in err


def test_a_rosz_is_read_and_one_with_a_bzip2_member_is_refused(tmp_path):
    if not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    load(AFRIKA_KORPS)
    for method, name in ((zipfile.ZIP_DEFLATED, "dak.rosz"), (zipfile.ZIP_BZIP2, "bzip2.rosz")):
        buffer = BytesIO()
        with zipfile.ZipFile(buffer, "w", method) as archive:
            archive.writestr("dak.ros", DAK_ROSTER.read_bytes())
        (tmp_path / name).write_bytes(buffer.getvalue())

    code, out, _ = validate(tmp_path / "dak.rosz", "--json")
    assert code in (0, 1) and json.loads(out)["points"] == 996
    code, out, err = validate(tmp_path / "bzip2.rosz")
    assert (code, out) == (2, "") and "the .rosz cannot be read" in err


def test_malformed_xml_is_unusable(tmp_path):
    path = tmp_path / "broken.ros"
    path.write_text('<roster gameSystemId="1f7d-0c61-7e6a-4cc6"><forces>')
    code, out, err = validate(path)
    assert (code, out) == (2, "") and "not well-formed XML" in err


def test_the_web_import_keeps_such_a_roster_with_the_engines_points(client, real_packs):
    if not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    load(AFRIKA_KORPS)
    upload = SimpleUploadedFile(DAK_ROSTER.name, DAK_ROSTER.read_bytes())

    response = client.post("/rosters/import/", {"file": upload})

    assert response.status_code == 302 and response["Location"].startswith("/bs/e/")
    kept = BattleScribeRoster.objects.get()
    assert (kept.points, kept.points_limit, kept.data_set.name) == (996, 1000, "Bolt Action 3ed")
    page = client.get(response["Location"]).content.decode()
    assert "996" in page and "Heer Infantry Squad" in page
