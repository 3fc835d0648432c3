"""Per-man upgrades whose men the BattleScribe data charges unevenly, priced by hand from the data
(BSData/boltaction) with the errata in lists/battlescribe/overrides.yaml.

Every man of a squad pays the same for a per-man upgrade; where one man's modifier counts the wrong upgrade,
the override points it at the right one:
- BA2 - Armies of Finland.cat, Jaakari Light Infantry Squad 14d5ffa3-d449-8ac5-2f2a-625ad3835c78, Veteran (65 for
  five, 13 a man more): Skis 55c5461e-c7c3-97af-4b22-e8c773d6efe1 and Bicycles ebd3aa3b-a219-bea3-d874-f2cafeadcb6f
  each cost 1 and cancel it; the NCO 49de4489-d6cb-a431-10d8-a53fb820d221 pays 1 for each, the Veteran Soldier
  01a3ebe5-14c8-40bc-f422-0ab81a714135 carries two increments for Bicycles and none for Skis (the second counts
  Skis). Five men with Skis: 65 + 5 = 70; eight with Bicycles: 104 + 8 = 112.
- BA2 - Armies of the Soviet Union.cat, Cavalry Squad da290b14-ccf7-731a-ae1a-98cc32e8947c, Regular (50 for five):
  Horse 57ed-ee2d-8d34-e00c is 2 a man and Tough Fighters 062a-5920-987e-3318 1 a man, but the Soldier with LMG
  25a9fcb3-04a3-f33a-7d8e-fc6f0df2974d (30, taking a rifleman's place) carries them the other way round. Five men
  with the LMG man: 50 - 10 + 30 = 70; with Horse 80, with Tough Fighters 75 (data as it stands: 79 and 76).
A man the data charges more than the others (left as it is) pays the difference himself: see
test_battlescribe_patterns.py, test_a_man_paying_more_than_the_others_for_a_per_man_option_pays_the_difference.
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def points(tmp_path, army: str, unit: str) -> int:
    path = tmp_path / "roster.yaml"
    path.write_text(
        f"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: {army}\nname: Hand-priced\n"
        f"points_limit: 1000\nforces:\n  - name: First Platoon\n    units:\n      - {unit}\n"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())["points"]


@pytest.mark.parametrize(("size", "upgrade", "expected"), [(5, "Skis", 70), (8, "Bicycles", 112), (5, None, 65)])
def test_jaakari_skis_and_bicycles_are_a_point_a_man(tmp_path, size, upgrade, expected):
    options = f", options: [{upgrade}]" if upgrade else ""
    unit = f"{{unit: finland-jaakari-light-infantry-squad, quality: Veteran, size: {size}{options}}}"
    assert points(tmp_path, "finland-1939-40-the-winter-war", unit) == expected


@pytest.mark.parametrize(("upgrade", "expected"), [("Horse", 80), ("Tough Fighters", 75)])
def test_a_cavalry_lmg_man_pays_for_his_horse_as_the_others_do(tmp_path, upgrade, expected):
    unit = f"{{unit: soviet-union-cavalry-squad, quality: Regular, options: [{upgrade}, Regular Soldier with LMG]}}"
    assert points(tmp_path, "soviet-union-1943-battle-of-kursk", unit) == expected
