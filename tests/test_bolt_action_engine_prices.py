"""Pack prices the engine's side by side found wrong, priced by hand from the data (BSData/boltaction) as
BattleScribe prices it (scripts/bolt_action_side_by_side.py; docs/battlescribe.md, "The engine beside the packs").

- BA2 - Armies of the  Soviet Union.cat, Assault Engineer Squad 3a27aed6-8c38-ad85-c397-e876af0ef239, Veteran: the
  NCO 1a4e71ce-d904-3e78-3325-fc3af3ba2427 (13) carries his Weapon group's SMG 5f82dfb1-60d9-2cc1-bc6c-fbb60a654507, compulsory in itself (least
  1, linking the rulebook SMG at 3), whatever the group's default (Rifle): 16 and four soldiers at 13 = 68 (the
  packs had 65). SN-42 Body Armour 5 a man, Demolition Charges 3 a man, Bangalore Torpedoes 10: eleven men with
  all three 68 + 6 x 13 + 11 x 8 + 10 = 244, five men with the armour and the torpedoes 68 + 25 + 10 = 103; the
  two 347 (the packs had 341).
- BA2 - Armies of France.cat, Renault FT 53716dbb-528d-e0c3-a922-bd8f5e57afea: its Variant group's MMG
  f233-9ec4-198f-f35b is compulsory in itself (0 points), so the tank is its rating, Inexperienced 28; the
  light AT gun 42b6-c668-ec0a-7323 (30) replaces it.
- BA2 - Armies of Hungary.cat, Csaba 39M 5f36-c7b6-8d37-e2c1: the Variant group's Coaxial MMG link 27eb-819e-62b1-eac9
  (least 1) is selected, Inexperienced 68; the 40M 3993-5b35-9a40-fbc7 (15) replaces it.
- BA2 - Armies of Italy.cat, Motociclisti Infantry Section 47b7-6031-13c0-00e1, Regular: its Anti-tank Grenades
  aa98-bede-af09-e125 are compulsory (least 1), cancel their own 2 and raise each man by 2: six men at 17 = 102.
- BA2 - Armies of Germany.cat, Volks Grenadier Squad 13b6a0c2-8558-8866-6b59-2784fe9b39d2: four Assault rifles
  d2e1-5126-29c2-cff0 (least 4), each holding the rifle at 5, beside the NCO's: 5 x 8 + 5 + 20 = 65.
- BA2 - Armies of Great Britain.cat, SAS Infantry Section: the Veteran Soldier with LMG 3dcf28de-727d-a37e-5d03-a8aa6ca99d47
  (18) carries his Weapon group's default LMG 0133cb34-0ed7-a91f-b4b4-7f62c4b8fb38 (20): 38 (the packs had 18).
- BA2 - Armies of China.cat, Big Sword Squad: the Veteran Soldier with SMG 473c-892f-7dbb-fa6d (18) links the SMG
  with its price set to 1 (e72d-e8b1-de5c-f6d4): 19 (the packs had 21).
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def points(tmp_path, army: str, *units: str) -> int:
    path = tmp_path / "roster.yaml"
    lines = "".join(f"      - {unit}\n" for unit in units)
    path.write_text(
        f"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: {army}\nname: Hand-priced\n"
        f"points_limit: 1000\nforces:\n  - name: First Platoon\n    units:\n{lines}"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())["points"]


ENGINEERS = "soviet-union-assault-engineer-squad"
KITTED = f"{{unit: {ENGINEERS}, quality: Veteran, size: 11, options: [SN-42 Body Armour, Demolition Charges, Bangalore Torpedoes]}}"
ARMOURED = f"{{unit: {ENGINEERS}, quality: Veteran, options: [SN-42 Body Armour, Bangalore Torpedoes]}}"


@pytest.mark.parametrize(
    ("units", "expected"),
    [
        ((f"{{unit: {ENGINEERS}, quality: Veteran}}",), 68),
        ((KITTED,), 244),
        ((ARMOURED,), 103),
        ((KITTED, ARMOURED), 347),
    ],
)
def test_an_assault_engineer_nco_is_charged_his_compulsory_smg(tmp_path, units, expected):
    assert points(tmp_path, "soviet-union-1945-berlin", *units) == expected


@pytest.mark.parametrize(
    ("army", "unit", "expected"),
    [
        ("france-1940-the-battle-of-france", "{unit: france-renault-ft, quality: Inexperienced}", 28),
        (
            "france-1940-the-battle-of-france",
            "{unit: france-renault-ft, quality: Inexperienced, options: [Turret-mounted low-velocity light AT gun]}",
            58,
        ),
        ("hungary-generic-reinforced-platoon", "{unit: hungary-csaba-39m, quality: Inexperienced}", 68),
        ("hungary-generic-reinforced-platoon", "{unit: hungary-csaba-39m, quality: Inexperienced, options: [40M]}", 83),
        ("italy-1943-the-defence-of-sicily", "{unit: italy-motociclisti-infantry-section, quality: Regular}", 102),
        ("germany-generic-reinforced-platoon", "{unit: germany-volks-grenadier-squad, quality: Inexperienced}", 65),
        (
            "great-britain-generic-reinforced-platoon",
            "{unit: great-britain-sas-infantry-section, quality: Veteran, options: [Veteran Soldier with LMG]}",
            92,  # he takes a rifleman's place: 72 - 18 + 38
        ),
        (
            "china-generic-reinforced-platoon",
            "{unit: china-big-sword-squad, quality: Veteran, options: [Veteran Soldier with SMG]}",
            127,  # he takes a rifleman's place: 126 - 18 + 19
        ),
    ],
)
def test_a_unit_costs_what_battlescribe_charges(tmp_path, army, unit, expected):
    assert points(tmp_path, army, unit) == expected
