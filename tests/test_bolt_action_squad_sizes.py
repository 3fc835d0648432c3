"""Men an option adds as members of a squad count in its size range, as BattleScribe counts them.

Hand-checked against the data (BSData/boltaction at d939efb):
- BA2 - Armies of Great Britain.cat, Infantry Section (Late-War) adeb-30ed-07dc-2261: 5 to 10 men,
  Regular NCO and Soldiers at 10 pts each (50 for the least five); "Regular Soldier with LMG"
  8b1d-4bdf-17eb-2020 is one of those men at 10 pts with his LMG (link d069-d418-a210-5e8d) at 20.
  A five-man section with a Bren: NCO, three riflemen and the Bren gunner, 10 + 30 + 30 = 70 pts.
- BA2 - Armies of Japan.cat, IJA Infantry Squad ee46-ff07-609d-c253: its "Squad Members" group
  2d6b53a1-409c-6bfc-0712-d6934925d367 holds 7 to 15 men, the Soldier with LMG among them.
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def check(tmp_path, army: str, unit: str) -> dict:
    path = tmp_path / "roster.yaml"
    path.write_text(
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        f"army: {army}\nname: Sizes\npoints_limit: 1000\nunits:\n  - {unit}\n"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def size_findings(result: dict) -> list[str]:
    return [f["message"] for f in result["findings"] if f["code"] == "unit.size"]


def test_a_five_man_british_section_with_a_bren_is_four_riflemen_and_the_gunner(tmp_path):
    unit = "{unit: great-britain-infantry-section-late-war, quality: Regular, size: 4, options: [Regular Soldier with LMG]}"
    result = check(tmp_path, "great-britain-1944-normandy", unit)
    assert size_findings(result) == []
    assert result["forces"][0]["units"][0]["points"] == 70


def test_a_british_section_of_four_without_its_bren_is_too_small(tmp_path):
    unit = "{unit: great-britain-infantry-section-late-war, quality: Regular, size: 4}"
    result = check(tmp_path, "great-britain-1944-normandy", unit)
    (message,) = size_findings(result)
    assert message.startswith("Infantry Section (Late-War) has 4 men;") and "5–10" in message


def test_fifteen_japanese_riflemen_and_an_lmg_gunner_are_over_the_squads_fifteen(tmp_path):
    unit = "{unit: imperial-japan-ija-infantry-squad, quality: Regular, size: 15, options: [Regular Soldier with LMG]}"
    result = check(tmp_path, "imperial-japan-1942-the-fall-of-singapore", unit)
    (message,) = size_findings(result)
    assert "has 16 men" in message and "7–15" in message
    assert result["valid"] is False


def test_fourteen_japanese_riflemen_and_an_lmg_gunner_make_a_full_squad(tmp_path):
    unit = "{unit: imperial-japan-ija-infantry-squad, quality: Regular, size: 14, options: [Regular Soldier with LMG]}"
    result = check(tmp_path, "imperial-japan-1942-the-fall-of-singapore", unit)
    assert size_findings(result) == []
    assert result["forces"][0]["units"][0]["points"] == 140 + 30  # 14 men at 10, the gunner at 30


def test_a_veteran_us_squad_is_priced_from_its_own_five_men(tmp_path):
    """BA2 - Armies of the United States.cat, Infantry Squad (Late-War) 0fcc1317-27d8-6f82-77cd-2ab132193ec9:
    its Veteran entry e1b6-edb2-18eb-7a04 holds a Veteran NCO bf27-24b3-4330-291d and Veteran Soldiers
    545e-7247-ced7-148b at 13 pts each, five men at least; the Regular squad's least is six."""
    six = check(
        tmp_path,
        "united-states-1945-rhineland",
        "{unit: united-states-infantry-squad-late-war, quality: Veteran, size: 6}",
    )
    assert six["forces"][0]["units"][0]["points"] == 6 * 13
    assert size_findings(six) == []
    five = check(
        tmp_path,
        "united-states-1945-rhineland",
        "{unit: united-states-infantry-squad-late-war, quality: Veteran, size: 5}",
    )
    assert five["forces"][0]["units"][0]["points"] == 5 * 13
    assert size_findings(five) == []
    regular = check(
        tmp_path,
        "united-states-1945-rhineland",
        "{unit: united-states-infantry-squad-late-war, quality: Regular, size: 5}",
    )
    assert len(size_findings(regular)) == 1  # a Regular squad has six men at least


def test_each_quality_keeps_its_own_option_limit(tmp_path):
    """BA2 - Armies of Australia.cat, Jungle Division Infantry Section c3c5-b974-6a3f-78fe: its Regular
    entry 916e-58ed-20c4-73fd allows 1 SMG (26c7-b456-4eb1-c2cf), its Veteran entry 217e-f760-acd1-9331
    allows 3 (23b8-306b-c7b7-9362)."""
    army = "australia-1943-45-australian-jungle-division"
    veteran = "{unit: australia-jungle-division-infantry-section, quality: Veteran, size: 6, options: [{option: SMG, count: 3}]}"
    result = check(tmp_path, army, veteran)
    assert [f for f in result["findings"] if f["code"] == "option.too_many"] == []
    regular = "{unit: australia-jungle-division-infantry-section, quality: Regular, size: 6, options: [{option: SMG, count: 2}]}"
    (finding,) = [f for f in check(tmp_path, army, regular)["findings"] if f["code"] == "option.too_many"]
    assert "at most 1 allowed for a regular unit" in finding["message"]


def test_a_section_left_at_its_listed_size_gives_a_riflemans_place_to_its_bren_gunner(tmp_path):
    unit = "{unit: great-britain-infantry-section-late-war, quality: Regular, options: [Regular Soldier with LMG]}"
    result = check(tmp_path, "great-britain-1944-normandy", unit)
    assert size_findings(result) == []
    assert result["forces"][0]["units"][0]["points"] == 70  # NCO, three riflemen and the gunner


def test_the_commonwealth_free_forward_observer_costs_nothing(tmp_path):
    """BA2 - Armies of Australia.cat, entry link c9f4-2780-08fb-a10a "Forward Observer" (target 4cae-dba9-9823-9ba0):
    no price of its own, holding an Artillery Forward Observer 8162-3faf-7c90-082e whose Regular
    c035-806e-d805-d456 costs 0, beside the paid one (100 pts)."""
    free = "{unit: australia-artillery-forward-observer-2, quality: Regular}"
    result = check(tmp_path, "australia-1941-42-imperial-force-mediterranean-and-north-africa", free)
    assert result["forces"][0]["units"][0]["points"] == 0
    paid = "{unit: australia-artillery-forward-observer, quality: Regular}"
    assert (
        check(tmp_path, "australia-1941-42-imperial-force-mediterranean-and-north-africa", paid)["forces"][0]["units"][
            0
        ]["points"]
        == 100
    )
