"""Two BattleScribe constructs the converted packs carry, priced by hand from the data (BSData/boltaction).

A man's compulsory weapon choice (a group of min 1, max 1 inside the man) is charged:
- BA2 - Armies of Hungary.cat, Vannay Battalion Flying Squad (link 17da-4161-be2d-91c2, entry b1f6-ee8e-0b99-61cc):
  Squad Members dc04-736f-6c6e-f439 (5 to 10 men): Regular NCO 3b02-0e98-87a6-bbc6 at 10 pts, whose Weapon group
  7315-48f8-5a58-10ad (min 1, max 1) holds only SMG 1182-827c-044d-91bd at 3; Regular Soldier
  4797-1723-42a8-8db0 at 10 (3 to 9). Five men: 10 + 3 + 4 x 10 = 53; six: 63.
- BA2 - Armies of Germany.cat, Schützen Squad (d83f-a504-bbf6-f11b, entry 9695-7739-725f-51ac): Regular
  4b22-5087-c311-800c, Squad Members 093b-e26c-0e94-080d (6 men at least): Regular NCO 784b-7c46-5760-0ff3 at 10
  with Weapon group 9865-7525-2fa5-dc13 (min 1, max 1): Rifle 390f-ace9-9188-5feb at 0, SMG 3908-77c0-6273-531d
  at 3; 5 soldiers at 10. With the rifle 60; with the SMG 63.

An option shown only while another option of the unit is taken:
- BA2 - Armies of Great Britain.cat, High Ranking Officer 01937da2-b36e-e36d-6466-bd24ea8048af: the Captain
  dd47fc60-9578-a2ed-7e5c-bbe689a8eceb (Regular 110) may take up to two Bagpipers bf40-bc27-20c8-68f8 at 33, hidden
  unless the officer holds a Highland Officer 3dbd-af1d-9428-dd36 (greaterThan 0 inside the High Ranking Officer),
  which costs nothing. The Major (Regular 150) the same: with the Highland Officer and two Bagpipers, 216.

An option shown only beside another unit (Cavalry, hidden unless the force holds a cavalry unit):
- BA2 - Armies of Belgium.cat, Artillery Forward Observer f7c52876-e33b-addc-a006-bd04d05a1993: Regular
  a4a7c5ef-e2b8-19a9-c191-90dad3a8bbef at 100; Cavalry a114-6e58-0697-b7dc at 5, hidden unless the force holds a
  Cavalry Troop 8b854bf9-2df1-52d4-4d43-3d4d1bc94a78 (greaterThan 0, scope force); Regular Soldier
  2b716cdb-ac08-fffb-8cc7-52a924458587 at 10, +5 while Cavalry is taken. Cavalry Troop (link 9025-12a2-8145-8421):
  Veteran NCO 0efb9d49-7801-85ed-fa79-0fd75ba8a8fd at 13 and 4 Veteran Soldiers 1f82ecdc-23bc-e18f-67e2-01632d81a146
  at 13: 65. Observer with Cavalry and one soldier: 100 + 5 + 15 = 120; with the troop: 185.
"""

import io
import json

import pytest
from django.core.management import call_command

from lists.models import UnitOption

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def judged(tmp_path, army: str, units: list[str]) -> dict:
    path = tmp_path / "roster.yaml"
    lines = "".join(f"      - {unit}\n" for unit in units)
    path.write_text(
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        f"army: {army}\nname: Hand-priced\npoints_limit: 1000\n"
        f"forces:\n  - name: First Platoon\n    units:\n{lines}"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def codes(result: dict) -> set[str]:
    return {finding["code"] for finding in result["findings"]}


@pytest.mark.parametrize(("size", "expected"), [(5, 53), (6, 63)])
def test_an_nco_whose_only_weapon_is_an_smg_pays_for_it(tmp_path, size, expected):
    unit = f"{{unit: hungary-vannay-battalion-flying-squad, quality: Regular, size: {size}}}"
    assert judged(tmp_path, "hungary-1944-45-budapest-pocket-defenders", [unit])["points"] == expected


@pytest.mark.parametrize(("options", "expected"), [("[]", 60), ("[NCO SMG]", 63)])
def test_an_nco_choosing_the_smg_over_his_rifle_pays_its_3_points(tmp_path, options, expected):
    unit = f"{{unit: germany-schuetzen-squad, quality: Regular, options: {options}}}"
    assert judged(tmp_path, "germany-1942-dak-light-africa-division", [unit])["points"] == expected


OBSERVER = "{unit: belgium-artillery-forward-observer, quality: Regular, options: [Cavalry, Regular Soldier]}"
TROOP = "{unit: belgium-cavalry-troop, quality: Veteran}"


def test_a_mounted_observer_beside_a_cavalry_troop_pays_5_a_man(tmp_path):
    result = judged(tmp_path, "belgium-1940-the-battle-of-belgium", [OBSERVER, TROOP])
    assert result["points"] == 185
    assert "option.needs_unit" not in codes(result)


def test_a_mounted_observer_with_no_cavalry_in_his_platoon_is_refused(tmp_path):
    result = judged(tmp_path, "belgium-1940-the-battle-of-belgium", [OBSERVER])
    assert result["points"] == 120
    needs = [f for f in result["findings"] if f["code"] == "option.needs_unit"]
    assert len(needs) == 1 and "Cavalry Troop" in needs[0]["message"]


@pytest.mark.parametrize(
    ("unit", "option"),
    [
        ("germany-sdkfz-7-1-and-7-2", "75be-39f6-9d25-6e55"),
        ("germany-sdkfz-7-1-and-7-2-with-armoured-cab", "3b25-e27b-2161-ee77"),
    ],
)
def test_text_the_data_appends_to_an_options_name_is_shown_and_its_key_kept(unit, option):
    """BA2 - Armies of Germany.cat: the links 75be-39f6-9d25-6e55 and 3b25-e27b-2161-ee77 ("4 Light Autocannons",
    set to 80 pts) append " with 360 degree arc of fire" to their name; a roster names them by the key."""
    taken = UnitOption.objects.get(unit_type__key=unit, source_id=option)
    assert (taken.key, taken.name, taken.points) == (
        "4-light-autocannons",
        "4 Light Autocannons with 360 degree arc of fire",
        80,
    )


def test_a_bagpiper_plays_only_for_a_highland_officer(tmp_path):
    piped = "{unit: great-britain-major, quality: Regular, options: [Highland Officer, {option: Bagpiper, count: 2}]}"
    result = judged(tmp_path, "great-britain-1944-normandy", [piped])
    assert result["points"] == 216
    assert "option.needs_option" not in codes(result)
    alone = judged(
        tmp_path,
        "great-britain-1944-normandy",
        ["{unit: great-britain-captain, quality: Regular, options: [Bagpiper]}"],
    )
    assert alone["points"] == 143
    (needs,) = [f["message"] for f in alone["findings"] if f["code"] == "option.needs_option"]
    assert (
        needs
        == "Captain takes Bagpiper, which needs Highland Officer taken too. Take Highland Officer, or drop Bagpiper."
    )
