"""The Bolt Action armies converted from BattleScribe (lists/packs/bolt-action-2e/armies).

Expected points are read off the BattleScribe files (BSData/boltaction at
d939efb): the catalogue and the entry are named beside each figure.
"""

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.models import Army, GameSystem, UnitType

ROOT = Path(__file__).resolve().parents[1]
ARMIES = ROOT / "lists" / "packs" / "bolt-action-2e" / "armies"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def run_validate(tmp_path: Path, text: str) -> tuple[int, str, str]:
    path = tmp_path / "roster.yaml"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=err)
    return exit_info.value.code, out.getvalue(), err.getvalue()


def validate(tmp_path: Path, text: str) -> tuple[int, dict]:
    code, out, _ = run_validate(tmp_path, text)
    return code, json.loads(out)


def test_every_nation_and_theatre_selector_is_an_army_with_its_battlescribe_id():
    """The issue counts 24 nations plus Partisans and 242 theatre selectors."""
    system = GameSystem.objects.get(key="bolt-action-2e")
    converted = Army.objects.filter(system=system).exclude(source_id="")
    nations = converted.filter(borrows_from=None)
    assert nations.count() == 25
    assert converted.count() - nations.count() == 242
    normandy = converted.get(name="1944: Normandy (Armies of Germany)")
    assert normandy.source_id == "7896-a6d8-ae3b-9a57"  # the selector's entry in BA2 - Armies of Germany.cat


def test_the_committed_report_shows_at_least_95_percent_of_the_units_converted():
    report = (ARMIES / "IMPORT-REPORT.md").read_text()
    total, converted = map(int, re.search(r"entries a player can add: (\d+); converted: (\d+)", report).groups())
    assert converted / total >= 0.95
    assert "| Squeze Bore | Squeeze Bore |" in report


def test_a_converted_unit_in_the_api_carries_its_source_id_and_cited_costs(client):
    """Panzer IV AUSF G, H, J: Regular 235 (BA2 - Armies of Germany.cat, its Rating group)."""
    unit = UnitType.objects.get(key="germany-panzer-iv-ausf-g-h-j")
    data = client.get(f"/api/games/bolt-action-2e/units/{unit.key}/").json()
    assert data["source_id"] == unit.source_id != ""
    regular = next(cost for cost in data["qualities"] if cost["quality"] == "Regular")
    assert regular["points"] == 235
    assert regular["citation"]["entry"].startswith("BA2 - Armies of Germany.cat: ")


def test_a_german_normandy_list_is_legal_at_the_costs_the_data_gives(tmp_path):
    """BA2 - Armies of Germany.cat: Leutnant Regular 50; Heer Grenadier Squad 10 men at 10 each (100)
    with LMG 20 and SMG 3 (their .gst entries), twice; Panzer Grenadier Squad Veteran, 8 men at 13 (104);
    MMG team Regular 50; medium mortar team Regular 50; Panzer IV G/H/J Regular 235; SdKfz 251/1 Regular 89."""
    code, result = validate(tmp_path, (ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_text())
    assert result["findings"] == []
    assert (code, result["points"]) == (0, 50 + 2 * (100 + 20 + 3) + 104 + 50 + 50 + 235 + 89)


def test_a_us_normandy_list_is_legal_at_the_costs_the_data_gives(tmp_path):
    """BA2 - Armies of the United States.cat: Second Lieutenant Regular 50; Armoured Rifle Squad
    Regular, 10 men at 10 (100); Medium Machine Gun Team Regular 50; M4 Sherman 75MM Regular 185."""
    code, result = validate(
        tmp_path,
        """
game: Bolt Action (2nd edition)
army: united-states-1944-normandy
organisation: Reinforced Platoon
points_limit: 1000
units:
  - {unit: united-states-second-lieutenant, quality: Regular}
  - {unit: united-states-armoured-rifle-squad-2, quality: Regular, size: 10}
  - {unit: united-states-armoured-rifle-squad-2, quality: Regular, size: 10}
  - {unit: united-states-medium-machine-gun-team, quality: Regular}
  - {unit: united-states-m4-sherman-75mm, quality: Regular}
""",
    )
    assert result["findings"] == []
    assert (code, result["points"]) == (0, 50 + 2 * 100 + 50 + 185)


def test_a_soviet_list_is_legal_at_the_costs_the_data_gives(tmp_path):
    """BA2 - Armies of the  Soviet Union.cat: Leytenant Regular 50; Guards Squad Regular, 10 men at 10
    (100) and 8 men (80); Medium Machine Gun Team Regular 50."""
    code, result = validate(
        tmp_path,
        """
game: Bolt Action (2nd edition)
army: "1944: Operation Bagration"
organisation: Reinforced Platoon
points_limit: 1000
units:
  - {unit: soviet-union-leyten-nt-second-lieutenant, quality: Regular}
  - {unit: soviet-union-guards-squad-2, quality: Regular, size: 10}
  - {unit: soviet-union-guards-squad-2, quality: Regular, size: 8}
  - {unit: soviet-union-medium-machine-gun-team, quality: Regular}
""",
    )
    assert result["findings"] == []
    assert (code, result["points"]) == (0, 50 + 100 + 80 + 50)


def test_a_second_unit_over_its_limit_per_platoon_is_too_many(tmp_path):
    """BA2 - Armies of Germany.cat: the Medium Mortar Team link allows 1 selection per force."""
    roster = (ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_text()
    roster += "  - {unit: germany-medium-mortar-team, quality: Regular}\n"
    code, result = validate(tmp_path, roster)
    assert code == 1
    assert [f["code"] for f in result["findings"]] == ["org.too_many"]
    assert "Medium Mortar Team" in result["findings"][0]["message"]


def test_a_unit_of_another_theatre_is_refused(tmp_path):
    """The Tiger II is not among the units 1941: Operation Barbarossa un-hides."""
    code, _, error = run_validate(
        tmp_path,
        """
game: Bolt Action (2nd edition)
army: "1941: Operation Barbarossa (Armies of Germany)"
units:
  - {unit: germany-panzer-vi-ausf-b-tiger-ii, quality: Regular}
""",
    )
    assert code == 2
    assert "germany-panzer-vi-ausf-b-tiger-ii" in error


def test_an_army_name_two_nations_share_asks_for_its_key_and_exports_as_its_key(tmp_path):
    """BSData has a "1944: Normandy" theatre list in both the British and the US catalogue."""
    code, _, err = run_validate(
        tmp_path,
        """
game: Bolt Action (2nd edition)
army: "1944: Normandy"
units: []
""",
    )
    assert code == 2
    assert "'great-britain-1944-normandy' or 'united-states-1944-normandy'" in err

    from lists.rosters.files import export_roster, load_roster_file

    resolved = load_roster_file(b"game: Bolt Action (2nd edition)\narmy: united-states-1944-normandy\nunits: []\n")
    exported = export_roster(resolved.snapshot())
    assert exported["army"] == "united-states-1944-normandy"
    again = load_roster_file(json.dumps(exported).encode(), "roster.json")
    assert again.snapshot().army_key == "united-states-1944-normandy"


def test_a_british_section_pays_for_anti_tank_grenades_as_battlescribe_charges(tmp_path):
    """BA2 - Armies of Great Britain.cat, Infantry Section (Early War). Inexperienced (983c-1db4-28cf-1213):
    5 men at 7 (35); Inexperienced Soldier with LMG 57c9-b805-b0f3-1f97 at 7 + the LMG of Bolt Action 2.gst
    (14a1-5df7-8293-36d8, 20) = 27; Anti-tank Grenades d899-f185-9db1-c972 cost 0 and take 2 off when taken,
    while the NCO (7110-11fd-dc96-a690) and the LMG man gain 2 each; the soldiers' own +2 counts the grenades
    inside the soldier (scope 6e01-d744-c6b5-dc65) and never applies: 35 + 27 - 2 + 2 + 2 = 64.
    Regular (b2d0-f024-8d81-a269): 10 men at 10 (100); its grenades 94fb-7fad-cccb-909b cost 2 and take
    2 off, and every man gains 2 (20): 120."""
    roster = """
game: Bolt Action (2nd edition)
army: great-britain-1940-fall-of-france
units:
"""
    inexperienced = (
        "  - {unit: great-britain-infantry-section-early-war, quality: Inexperienced, size: 5, options: [%s]}\n"
    )
    regular = "  - {unit: great-britain-infantry-section-early-war, quality: Regular, size: 10, options: [%s]}\n"
    assert validate(tmp_path, roster + inexperienced % "inexperienced-soldier-with-lmg")[1]["points"] == 35 + 27
    with_grenades = inexperienced % "anti-tank-grenades, inexperienced-soldier-with-lmg"
    assert validate(tmp_path, roster + with_grenades)[1]["points"] == 64
    grenades_for_all = regular % "{option: anti-tank-grenades-regular, count: 10}"
    assert validate(tmp_path, roster + grenades_for_all)[1]["points"] == 120


def test_dog_mine_handlers_cost_what_the_teams_quality_sets_and_its_theatre_offers(tmp_path):
    """BA2 - Armies of the  Soviet Union.cat, Dog Mines' Anti-Tank Team: Handler with SMG 6a9f-20bc-f913-e25a
    is set to 13, 18 or 23 points by the team's quality, and his compulsory SMG (11d1-041a-ee19-ec12) adds 3;
    the NCO 35ec-0cc3 is set the same way: the Regular NCO and two SMG handlers cost 18 + 2 x (18 + 3) = 60.
    The team's Veteran entry is hidden under 1941: Barbarossa."""
    roster = """
game: Bolt Action (2nd edition)
army: soviet-union-1941-barbarossa
units:
  - {unit: soviet-union-dog-mines-anti-tank-team, quality: %s, options: [{option: handler-with-smg, count: 2}]}
"""
    assert validate(tmp_path, roster % "Regular")[1]["points"] == 60
    code, _, error = run_validate(tmp_path, roster % "Veteran")
    assert code == 2
    assert "has no Veteran price in this army list" in error


def test_a_points_value_the_data_sets_is_the_options_price(tmp_path):
    """BA2 - Armies of France.cat, 25mm Portee: Regular 105; its Pintle-Mounted MMG link 6fbf-180a-91fa-d3c9
    is named "(15pts)" but a modifier without conditions sets its points to 5: 110."""
    code, result = validate(
        tmp_path,
        """
game: Bolt Action (2nd edition)
army: france-1942-43-free-french-in-north-africa
units:
  - {unit: france-25mm-portee, quality: Regular, options: [pintle-mounted-mmg-360-15pts]}
""",
    )
    assert result["points"] == 110


def test_the_api_gives_an_options_prices_by_quality_and_the_lists_fielding_a_quality(client):
    """BA2 - Armies of the  Soviet Union.cat, Dog Mines' Anti-Tank Team: Handler with SMG 6a9f-20bc-f913-e25a
    at 13/18/23 + 3 by quality; its Veteran entry is hidden under 1941: Barbarossa."""
    data = client.get("/api/games/bolt-action-2e/units/soviet-union-dog-mines-anti-tank-team/").json()
    handler = next(option for option in data["options"] if option["key"] == "handler-with-smg")
    assert handler["quality_points"] == {"inexperienced": 16, "regular": 21, "veteran": 26}
    veteran = next(cost for cost in data["qualities"] if cost["quality"] == "Veteran")
    assert veteran["armies"] and "soviet-union-1941-barbarossa" not in veteran["armies"]


def test_the_editor_offers_the_qualities_the_theatre_fields_and_the_options_of_the_units_quality(client):
    """BA2 - Armies of Great Britain.cat, Infantry Section (Early War) under 1940: Fall of France: its Veteran
    entry is hidden there; Regular Soldier with LMG (64fd-0090-08d9-bbb4) sits under the Regular entry only."""
    roster = """
game: Bolt Action (2nd edition)
army: great-britain-1940-fall-of-france
units:
  - {unit: great-britain-infantry-section-early-war, quality: Inexperienced, size: 5}
"""
    response = client.post("/rosters/import/", {"text": roster})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    quality_select = re.search(r'<select name="quality".*?</select>', page, re.S).group(0)
    assert ">Inexperienced<" in quality_select and ">Regular<" in quality_select
    assert ">Veteran<" not in quality_select
    assert "Inexperienced Soldier with LMG" in page
    assert "Regular Soldier with LMG" not in page


def test_a_unit_limited_per_force_may_be_taken_once_in_each_platoon(tmp_path):
    """BA2 - Armies of Germany.cat: the Medium Mortar Team's limit has scope="force", so a list of two
    platoons may field one in each (a third, in either platoon, is one too many for that platoon)."""
    roster = (ROOT / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml").read_text()
    roster = roster.replace("points_limit: 1000", "points_limit: 1250")
    mortar = "      - {unit: germany-medium-mortar-team, quality: Regular}\n"
    first, second = roster.split("  - name: 2. Zug\n")
    code, result = validate(tmp_path, first + mortar + "  - name: 2. Zug\n" + second + mortar)
    assert (code, result["findings"]) == (0, [])
    code, result = validate(tmp_path, first + mortar + "  - name: 2. Zug\n" + second + mortar + mortar)
    assert [f["code"] for f in result["findings"]] == ["org.too_many"]
    assert result["findings"][0]["message"].startswith("2. Zug")
