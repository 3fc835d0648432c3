"""Choices the data ties to a unit's quality or to the whole unit, priced by hand from the data (BSData/boltaction).

An option holding a compulsory rating by quality:
- BA2 - Armies of Great Britain.cat, Second Lieutenant 838c-e18d-1b00-7243 (Inexperienced 5399-c09d-ea6c-ce02 35,
  Regular 736f-5f95-b7fb-120e 50, Veteran 5807-fbbc-b34b-a616 65): Intelligence Officer 21ed-24e0-4440-6fc7 costs 0
  and holds a Rating group bbf2-7247-bd5d-bf3f (exactly 1) of Inexperienced 519f-20bf-b3b9-9604 21, Regular
  1a20-6a41-152a-58ee 30 and Veteran 808f-c46e-a3c6-04b3 39, each hidden unless the officer is of its quality.
  Regular officer with him: 50 + 30 = 80. Veteran officer, two Veteran Soldiers bb76-1231-e85e-04e0 at 13 and him:
  65 + 26 + 39 = 130.

Men and upgrades hidden while the unit is of some quality:
- Same officer: Veteran Soldier bb76-1231-e85e-04e0 hidden while Inexperienced 5399-c09d-ea6c-ce02 or Regular
  736f-5f95-b7fb-120e is taken; Highland Officer 495b-6439-f61f-fa1e hides the Regular and Inexperienced entries
  (their modifiers count it), so only a Veteran officer takes it.
- BA2 - Armies of India.cat, First Lieutenant: the Veteran Soldier 7bc1-af7b-7346-b582 is hidden while the officer is
  Veteran ab23-5b03-594b-c2db (a data error, overrides.yaml): offered to a Veteran officer instead.
- BA2 - Armies of Germany.cat, Leutnant 504cf8bb-37fd-e1ba-cf18-e751f6c9713b (Regular 38aea6f6-c2d7-61f9-1754-58ce009df1b5
  50, Veteran 65): the Veteran Soldier 789a7453-42d5-6d03-7e27-e37d568578d0 (13) is hidden while the Oberleutnant's
  Regular 77cc8a2f-f8d8-05b3-4c23-c2e01adf11c4 is taken (a data error, overrides.yaml): it counts the Leutnant's own
  Regular instead. A Veteran Leutnant with two: 65 + 26 = 91.

A man's weapons with no group around them:
- BA2 - Armies of Great Britain.cat, Infantry Section (Late-War) adeb-30ed-07dc-2261, Regular: Regular NCO
  9bc5-06b5-585e-c5ac at 10 holds SMG e2e2-fa8b-c360-a5b0 (at most 1, the SMG c0ab-2b01-53b6-5cbd of Bolt Action
  2.gst at 3) and Rifle 57a5-5842-61ca-68c3 (at most 1, 0), neither compulsory. Five men 50; the NCO's SMG 53.

An option a theatre hides:
- BA2 - Armies of South Africa.cat, Marmon Herrington Armoured Car Marks I-IV: its Mk IV upgrade f8bc is hidden in the
  1940-41 East Africa list, and offered in the generic one.

An option every man pays for:
- Same section, Regular: Anti-tank Grenades 5732 costs 2 and 2 less once taken; each Squad Member
  (647b-43fe-8f34-81cb) costs 2 more while it is taken. Five men: 50 + 5 x 2 = 60; ten men: 100 + 20 = 120.
"""

import io

import pytest
from django.core.management import call_command

from tests.test_bolt_action_compulsory_and_cavalry import codes, judged

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

NORMANDY = "great-britain-1944-normandy"
OFFICER = "great-britain-second-lieutenant"
SECTION = "great-britain-infantry-section-late-war"


def refusal(tmp_path, army: str, unit: str) -> str:
    """The message a roster file holding this unit is refused with (an option its quality may not take)."""
    path = tmp_path / "refused.yaml"
    path.write_text(
        f"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: {army}\nname: Refused\n"
        f"forces:\n  - name: First Platoon\n    units:\n      - {unit}\n"
    )
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=io.StringIO(), stderr=err)
    return err.getvalue()


@pytest.mark.parametrize(
    ("quality", "men", "expected"),
    [("Regular", "", 80), ("Veteran", ", {option: Veteran Soldier, count: 2}", 130)],
)
def test_an_intelligence_officer_costs_the_rating_of_his_officers_quality(tmp_path, quality, men, expected):
    unit = f"{{unit: {OFFICER}, quality: {quality}, options: [Intelligence Officer{men}]}}"
    assert judged(tmp_path, NORMANDY, [unit])["points"] == expected


def test_a_regular_officer_may_not_take_veteran_men(tmp_path):
    unit = f"{{unit: {OFFICER}, quality: Regular, options: [Veteran Soldier]}}"
    assert "Veteran Soldier" in refusal(tmp_path, NORMANDY, unit)


def test_a_regular_leutnant_may_not_take_veteran_men_and_a_veteran_one_may(tmp_path):
    men = "options: [{option: Veteran Soldier, count: 2}]"
    regular = f"{{unit: germany-leutnant-second-lieutenant, quality: Regular, {men}}}"
    assert "Veteran Soldier is only for Veteran units of Leutnant (Second Lieutenant)" in refusal(
        tmp_path, "germany-1942-operation-blue", regular
    )
    veteran = f"{{unit: germany-leutnant-second-lieutenant, quality: Veteran, {men}}}"
    assert judged(tmp_path, "germany-1942-operation-blue", [veteran])["points"] == 91


@pytest.mark.parametrize(("quality", "allowed"), [("Veteran", True), ("Regular", False)])
def test_a_highland_officer_is_a_veteran(tmp_path, quality, allowed):
    unit = f"{{unit: {OFFICER}, quality: {quality}, options: [Highland Officer]}}"
    if allowed:
        assert judged(tmp_path, NORMANDY, [unit])["points"] == 65
    else:
        assert "Highland Officer" in refusal(tmp_path, NORMANDY, unit)


def test_an_indian_veteran_lieutenant_takes_veteran_men(tmp_path):
    army = "india-generic-reinforced-platoon"
    unit = "{unit: india-first-lieutenant, quality: Veteran, options: [Veteran Soldier]}"
    result = judged(tmp_path, army, [unit])
    assert "option.not_allowed" not in codes(result)
    assert "Veteran Soldier" in refusal(tmp_path, army, unit.replace("Veteran,", "Regular,"))


@pytest.mark.parametrize(("options", "expected"), [("[]", 50), ("[NCO SMG]", 53)])
def test_a_regular_section_nco_may_swap_his_rifle_for_an_smg(tmp_path, options, expected):
    unit = f"{{unit: {SECTION}, quality: Regular, size: 5, options: {options}}}"
    assert judged(tmp_path, NORMANDY, [unit])["points"] == expected


@pytest.mark.parametrize(("size", "count", "expected"), [(5, 1, 60), (10, 3, 120), (10, 10, 120)])
def test_anti_tank_grenades_are_paid_by_every_man_of_the_section(tmp_path, size, count, expected):
    grenades = f"{{option: Anti-tank Grenades, count: {count}}}"
    unit = f"{{unit: {SECTION}, quality: Regular, size: {size}, options: [{grenades}]}}"
    result = judged(tmp_path, NORMANDY, [unit])
    assert result["points"] == expected
    assert "option.too_many" not in codes(result)


def test_a_unit_its_theatre_does_not_field_is_named_as_such(tmp_path):
    army = "germany-1941-operation-barbarossa"  # the Panther link is hidden in this theatre list
    message = refusal(tmp_path, army, "{unit: germany-panzer-v-panther, quality: Regular}")
    assert "'germany-panzer-v-panther' is not fielded by the 1941: Operation Barbarossa" in message
    assert "unknown unit" in refusal(tmp_path, army, "{unit: germany-panzr-v-panthr, quality: Regular}")


def test_an_option_its_theatre_hides_is_named_as_such(tmp_path):
    car = "{unit: south-africa-marmon-herrington-armoured-car-marks-i-iv-2, quality: Regular, options: [%s]}"
    message = refusal(tmp_path, "south-africa-1940-41-east-africa", car % "Mk IV")
    assert "'Mk IV' is an option of Marmon Herrington Armoured Car Marks I-IV this army list does not offer" in message
    assert "unknown option" in refusal(tmp_path, "south-africa-1940-41-east-africa", car % "Mk XV")
    assert judged(tmp_path, "south-africa-generic-reinforced-platoon", [car % "Mk IV"])["points"] == 110
