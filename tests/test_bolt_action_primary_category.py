"""Entries the BattleScribe data hides or shows by the unit's own primary category (the slot it is taken
in), judged by hand from the data (BSData/boltaction).

A condition counting a category in the "primary-category" scope with equalTo 1 (or instanceOf) holds exactly
when the unit is taken in that category:
- BA2 - Armies of Great Britain.cat, Infantry Section (Late-War) 757d-318c-68f0-778e: its Veteran a2ac-7736-2fdd-6187
  (65 for five) is hidden while the section is a Compulsory Unit (f543-f483-48ce-9b05, equalTo 1) and the force
  holds the 1945 Into the Reich selector c89c-02b7-3bc0-fe60. The same section taken as Infantry keeps it; so does
  the compulsory one in 1944 Normandy. Regular: 50.
- BA2 - Armies of Italy.cat, Infantry Section a4ee-438b-30ca-efe7: its Regular 31e5 is hidden while the section is
  a Compulsory Unit and the 1940-41 Invasion of Greece selector 3349-b6ba-34f2-7f32 is chosen: the compulsory
  sections there are Inexperienced (35 for five).
- Bolt Action 2.0 game system, Command vehicle fb5c-db81-7065-21ff (25 points): hidden unless the unit's primary
  category is Compulsory Vehicles b3073f4b-f974-1603-e5ea-b2ec953e496a (instanceOf). BA2 - Armies of Germany.cat,
  Panzer IV AUSF G, H, J: Regular 235; as an Armoured Platoon's compulsory vehicle with the upgrade, 260.
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def judged(tmp_path, army: str, unit: str, organisation: str | None = None) -> tuple[dict | None, str]:
    """validate_roster --json on a one-unit roster: the result, or None and what the file was refused for."""
    force = "  - name: First Platoon\n" + (f"    organisation: {organisation}\n" if organisation else "")
    path = tmp_path / "roster.yaml"
    path.write_text(
        f"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: {army}\nname: Hand-priced\n"
        f"points_limit: 1000\nforces:\n{force}    units:\n      - {unit}\n"
    )
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=err)
    try:
        return json.loads(out.getvalue()), ""
    except json.JSONDecodeError:
        return None, out.getvalue() + err.getvalue()


@pytest.mark.parametrize(
    ("army", "unit", "points"),
    [
        ("great-britain-1945-into-the-reich", "great-britain-infantry-section-late-war", None),
        ("great-britain-1945-into-the-reich", "great-britain-infantry-section-late-war-2", 65),
        ("great-britain-1944-normandy", "great-britain-infantry-section-late-war", 65),
    ],
)
def test_a_compulsory_late_war_section_may_not_be_veteran_in_into_the_reich(tmp_path, army, unit, points):
    result, refused = judged(tmp_path, army, f"{{unit: {unit}, quality: Veteran}}")
    if points is None:
        assert result is None
        assert "Infantry Section (Late-War) has no Veteran price in this army list" in refused
    else:
        assert result["points"] == points


def test_the_compulsory_sections_of_the_invasion_of_greece_are_inexperienced(tmp_path):
    regular, refused = judged(
        tmp_path, "italy-1940-41-the-invasion-of-greece", "{unit: italy-infantry-section-2, quality: Regular}"
    )
    assert regular is None
    assert "has no Regular price in this army list" in refused
    inexperienced, _ = judged(
        tmp_path, "italy-1940-41-the-invasion-of-greece", "{unit: italy-infantry-section-2, quality: Inexperienced}"
    )
    assert inexperienced["points"] == 35
    africa, _ = judged(
        tmp_path, "italy-1940-43-the-war-in-africa", "{unit: italy-infantry-section-2, quality: Regular}"
    )
    assert africa["points"] == 50


def test_a_compulsory_vehicle_may_be_a_command_vehicle_and_a_tank_of_the_tanks_slot_may_not(tmp_path):
    command = "{unit: germany-panzer-iv-ausf-g-h-j-2, quality: Regular, options: [Command Vehicle]}"
    result, _ = judged(tmp_path, "germany-1944-normandy", command, "Armoured Platoon")
    assert result["points"] == 260
    assert result["findings"] == []
    tank = "{unit: germany-panzer-iv-ausf-g-h-j, quality: Regular, options: [Command Vehicle]}"
    refused, why = judged(tmp_path, "germany-1944-normandy", tank, "Armoured Platoon")
    assert refused is None
    assert "unknown option of Panzer IV AUSF G, H, J 'Command Vehicle'" in why
