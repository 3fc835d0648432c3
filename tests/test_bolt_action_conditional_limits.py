"""Limits the data sets under a condition, priced and judged by hand from the data (BSData/boltaction).

A limit raised while another option is taken:
- BA2 - Armies of Great Britain.cat, Major c3854eff-be87-4993-f425-e25909b953ea: Veteran 7e06b6b8-5e75-cb01-7fd6-cc58c82d8b2a
  at 165 (the Veteran Soldier is hidden for the Regular and Inexperienced Majors, the Royal Marine Officer hides
  those two qualities); Veteran Soldier 48eb-c8af-0ff9-dd94 at 13, at most 2 (constraint 3f70-602c-e45f-4d92), set to
  5 and 1 point dearer while the Royal Marine Officer 30c2-5c3f-bf09-1654 (1 point) is taken; their group
  Additional Men f04f-c177-73ab-6c5f holds at most 3 (3f94-8537-50e1-bee3) of any kind. Two soldiers: 191; three
  without the Royal Marine Officer are too many; with him, three: 165 + 1 + 3 x 14 = 208; five break the group's 3.

A group's most its options share, none with a limit of its own:
- BA2 - Armies of the Netherlands.cat, Overalwagen Patrol Truck 1566-8589-de19-424a: Regular a09c-2044-35f1-d1f6 at 70;
  Weapon group 93cc-b0f3-c1bd-4e8c (at most 3) of Pintle mounted MMG (360 arc) 399d-2fae-fb74-34c1 at 5, HMG (360 arc)
  b638-ff99-ddc8-c5b9 at 10 and two MMGs of rear arcs 48e2-9966-7900-7960 and a58c-8811-b50a-3179 at 15. Three
  weapons, the HMG and the two rear MMGs: 70 + 10 + 30 = 110; a fourth is too many.

Options hiding each other, taken one or the other:
- BA2 - Armies of Hungary.cat, Second Army Rifle Section, Regular 7195-5832-c3ac-e4ca: Regular Soldier with LMG
  cb22-fc06-85d7-680e and Regular Soldier with Light Mortar 042a each hidden while the other is selected once.
- BA2 - Armies of China.cat, X and Y Force Squad, Regular 79dc: Soldier with BAR 9046 and Soldier with LMG 0df7 alike.
- BA2 - Armies of the United States.cat, M3A1 Stuart 74a472b7-058c-b628-b74a-63d1a935b0e6: Recce
  dacdab36-723c-fdb3-b0aa-f0c8825dce8a and the Forward Facing Hull Mounted Flamethrower 90d0-239a-4933-a6c7 (already
  one of its hull mount's choices) hide each other.

An entry's most per force, shared by the units it holds, each selection holding several:
- BA2 - Armies of the  Soviet Union.cat, Anti-Tank Teams (link d9e49da9-0c83-a099-9839-9f767ced502e): at most 3 a
  force (a7e8-e95f-2e99-cbf2), set to 1 by the 1941: Barbarossa selector 88e4-c556-8a54-a14d; each selection holds a
  Team group of at most 3 teams. Barbarossa: three Anti-Tank Rifle Teams (95b26a29, Regular e38f7102 at 30) 90, legal;
  a fourth needs a second selection, refused.
- BA2 - Armies of Great Britain.cat, High Ranking Officer 2e35af23-1f31-652e-1a30-46bdba80d163: at most 1 a force
  (a979-3d96-aebf-94ae), a Captain or a Major: both in one platoon are refused.

A least number set once an option is taken (both mounts or neither):
- BA2 - Armies of the United States.cat, LVT4 'Water Buffalo' (link 5567e31a-d80a-eb67-b1a7-d694e8ba6177, entry
  8022580f-76df-9360-a198-db5e6f3982fb): Regular d 069202e1-a984-f056-431c-08df809e1516 at 140; Pintle mount
  d7863010-1ebf-1db8-611c-a2d572aa004f holds exactly 2: MMG 621bd687-7801-af48-454c-7a1913a2f153 at 0, HMG
  e53e-eac4-6fa1-fcae at 10, whose least number (08d7-7a52-1c7c-8fd2) is set to 2 once it is taken. Two HMGs 160;
  one is refused.

A limit set while the unit is of a category (counted in its primary-category scope):
- BA2 - Armies of the  Soviet Union.cat, Guards Squad 73cf12a8-49a2-9686-bcaa-3b0353ba20d8: Regular Soldier with LMG
  73d20c46-bd07-0997-1d8b-f97cc7952c39 at most 2, set to 1 while the squad is of the Infantry category
  5c47879b-41d0-1383-5fe5-a5989615db89. Linked under Compulsory Units it takes two; under Infantry one.
  A second modifier sets it to 1 while one of nine 1939-42 theatre selectors is chosen (1941-42: Blitzfreeze
  f61c-cdf9-601c-c4aa among them), so there even a compulsory squad takes one.
  Priced: Regular NCO 8c29e46d-ee14-3a0d-d016-32594a47f53a 10, Regular Soldier e3dbabb2-abee-e0b6-6852-bf4898ab7d61
  10, the LMG man 10 plus his LMG 14a1-5df7-8293-36d8 (Bolt Action 2.gst) 20; Squad Members at least 5. Five men
  with two LMGs: 10 + 2 x 10 + 2 x 30 = 90.

A least number per Reinforced Platoon a theatre sets:
- BA2 - Armies of China.cat, Warlord (link 5589-ecf3-6df2-b5e9): 0 per Reinforced Platoon efef-703c-d244-559f
  (constraint 44da-054d-b4e7-f1f4), set to 1 by the Warlords selector 6d99-fa8a-0a6d-8392 only.

A data error the import drops (overrides.yaml):
- BA2 - Armies of Germany.cat, Feldgendarmerie Squad 4501-28a0-125a-b86a: NCO Pistol fe6a-801f-ccaf-b9ed at 1, at
  most 1; its least number grows by one per man, past its greatest. Dropped, the pistol is the NCO's 0-1 option.
"""

import io

import pytest
from django.core.management import call_command

from tests.test_bolt_action_compulsory_and_cavalry import codes, judged

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

BRITISH = "great-britain-1944-normandy-royal-marine-commando-troop"  # the list offering the officer


def major(options: str) -> str:
    return f"{{unit: great-britain-major, quality: Veteran, options: {options}}}"


def too_many(result: dict) -> list[str]:
    return [f["message"] for f in result["findings"] if f["code"] == "option.too_many"]


def test_a_major_takes_two_veteran_soldiers(tmp_path):
    result = judged(tmp_path, BRITISH, [major("[{option: Veteran Soldier, count: 2}]")])
    assert (result["points"], too_many(result)) == (191, [])


def test_a_royal_marine_officer_raises_his_veteran_soldiers_to_his_groups_three(tmp_path):
    result = judged(tmp_path, BRITISH, [major("[Royal Marine Officer, {option: Veteran Soldier, count: 3}]")])
    assert (result["points"], too_many(result)) == (208, [])


def test_three_veteran_soldiers_without_a_royal_marine_officer_are_too_many(tmp_path):
    found = too_many(judged(tmp_path, BRITISH, [major("[{option: Veteran Soldier, count: 3}]")]))
    assert len(found) == 1 and "at most 2" in found[0]


def test_five_veteran_soldiers_break_the_additional_mens_three_even_with_a_royal_marine_officer(tmp_path):
    found = too_many(judged(tmp_path, BRITISH, [major("[Royal Marine Officer, {option: Veteran Soldier, count: 5}]")]))
    assert len(found) == 1 and "5 of its Additional Men" in found[0] and "at most 3 in all" in found[0]


LVT4 = "united-states-lvt4-water-buffalo-landing-vehicle"


@pytest.mark.parametrize(("hmgs", "points", "refused"), [(0, 140, False), (2, 160, False), (1, 150, True)])
def test_an_lvt4_fits_both_pintle_hmgs_or_neither(tmp_path, hmgs, points, refused):
    unit = f"{{unit: {LVT4}, quality: Regular, options: [{{option: Pintle-Mounted HMG (360), count: {hmgs}}}]}}"
    result = judged(tmp_path, "united-states-generic-reinforced-platoon", [unit])
    assert result["points"] == points
    assert ("option.too_few" in codes(result)) is refused


@pytest.mark.parametrize(
    ("unit", "option", "weapon"),
    [
        (
            LVT4,
            "pintle-mounted-hmg-360",
            "Heavy machine gun (HMG)",
        ),  # links the MMG profile in the data (overrides.yaml)
        (
            "united-states-dukw-amphibious-truck",
            "pintle-mounted-mmg-360",
            "Medium machine gun (MMG)",
        ),  # links the HMG profile
    ],
)
def test_a_pintle_gun_is_the_weapon_its_option_names(unit, option, weapon):
    from lists.models import UnitOption

    found = UnitOption.objects.get(unit_type__key=unit, key=option)
    assert [w.name for w in found.weapons.all()] == [weapon]


GUARDS_TWO_LMGS = "{unit: soviet-union-guards-squad, size: 3, options: [{option: Regular Soldier with LMG, count: 2}]}"


def test_a_compulsory_guards_squad_takes_two_lmgs_at_kursk(tmp_path):
    compulsory = judged(tmp_path, "soviet-union-1943-battle-of-kursk", [GUARDS_TWO_LMGS])
    assert compulsory["points"] == 90
    assert "option.too_many" not in codes(compulsory)


def test_a_compulsory_guards_squad_takes_one_lmg_in_blitzfreeze(tmp_path):
    result = judged(tmp_path, "soviet-union-1941-42-blitzfreeze", [GUARDS_TWO_LMGS])
    assert result["points"] == 90
    too_many = [f for f in result["findings"] if f["code"] == "option.too_many"]
    assert len(too_many) == 1
    assert "at most 1 allowed in the 1941-42: Blitzfreeze list" in too_many[0]["message"]


def test_a_guards_squad_in_the_infantry_slot_takes_one_lmg(tmp_path):
    judged(tmp_path, "soviet-union-1943-battle-of-kursk", [GUARDS_TWO_LMGS])
    path = tmp_path / "roster.yaml"
    path.write_text(path.read_text().replace("soviet-union-guards-squad,", "soviet-union-guards-squad-2,"))
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=io.StringIO(), stderr=err)
    assert "Regular Soldier with LMG may be taken at most once, not 2" in err.getvalue()


def test_the_warlords_list_asks_each_platoon_for_a_warlord_and_the_generic_one_does_not(tmp_path):
    squad = "{unit: china-conscript-squad, quality: Inexperienced}"
    warlords = judged(tmp_path, "china-warlords-reinforced-platoon", [squad])
    assert any(f["code"] == "org.missing" and "Warlord" in f["message"] for f in warlords["findings"])
    generic = judged(tmp_path, "china-generic-reinforced-platoon", [squad])
    assert not any("Warlord" in f["message"] for f in generic["findings"])


def test_a_feldgendarmerie_nco_may_leave_his_pistol(tmp_path):
    army = next(iter(_armies_fielding("germany-feldgendarmerie-squad")))
    bare = judged(tmp_path, army, ["{unit: germany-feldgendarmerie-squad}"])
    armed = judged(tmp_path, army, ["{unit: germany-feldgendarmerie-squad, options: [NCO Pistol]}"])
    assert armed["points"] == bare["points"] + 1
    assert not codes(bare) & {"option.required", "option.too_few"}


def _armies_fielding(unit_key: str) -> list[str]:
    from lists.models import Army

    return sorted(key for key, units in Army.objects.values_list("key", "borrow_units") if unit_key in units)


TRUCK = "netherlands-overalwagen-patrol-truck"
REAR_GUNS = "Pintle mounted MMG(left ad rear arc), Pintle mounted MMG(right and rear arc)"


@pytest.mark.parametrize(
    ("extra", "points", "refused"), [("", 110, False), (", Pintle mounted MMG(360 arc)", 115, True)]
)
def test_a_patrol_truck_mounts_three_weapons_at_most(tmp_path, extra, points, refused):
    unit = f"{{unit: {TRUCK}, quality: Regular, options: [Pintle mounted HMG(360 arc), {REAR_GUNS}{extra}]}}"
    result = judged(tmp_path, "netherlands-1941-42-dutch-east-indies", [unit])
    assert result["points"] == points
    assert any("at most 3 in all" in message for message in too_many(result)) is refused


@pytest.mark.parametrize(
    ("army", "unit", "first", "second"),
    [
        (
            "hungary-1942-43-hungarian-second-army",
            "hungary-second-army-rifle-section",
            "Regular Soldier with LMG",
            "Regular Soldier with Light Mortar",
        ),
        (
            "china-1942-45-x-and-y-force-burma",
            "china-x-and-y-force-squad",
            "Regular Soldier with BAR",
            "Regular Soldier with LMG",
        ),
        (
            "united-states-1942-operation-torch",
            "united-states-m3a1-stuart",
            "Recce",
            "Forward Facing Hull Mounted Flamethrower",
        ),
    ],
)
def test_options_hiding_each_other_are_taken_one_or_the_other(tmp_path, army, unit, first, second):
    one = judged(tmp_path, army, [f"{{unit: {unit}, quality: Regular, options: [{first}]}}"])
    both = judged(tmp_path, army, [f"{{unit: {unit}, quality: Regular, options: [{first}, {second}]}}"])
    assert "option.exclusive" not in codes(one)
    exclusive = [f["message"] for f in both["findings"] if f["code"] == "option.exclusive"]
    assert len(exclusive) == 1 and first in exclusive[0] and second in exclusive[0]


@pytest.mark.parametrize(("teams", "refused"), [(3, False), (4, True)])
def test_three_anti_tank_rifle_teams_fill_barbarossas_one_anti_tank_teams_choice(tmp_path, teams, refused):
    team = "{unit: soviet-union-anti-tank-rifle-team, quality: Regular}"
    result = judged(tmp_path, "soviet-union-1941-barbarossa", [team] * teams)
    assert result["points"] == 30 * teams
    assert any("Anti-Tank Teams" in f["message"] for f in result["findings"] if f["code"] == "org.too_many") is refused


def test_a_captain_and_a_major_share_one_platoons_high_ranking_officer(tmp_path):
    officers = ["{unit: great-britain-captain, quality: Regular}", "{unit: great-britain-major, quality: Regular}"]
    both = judged(tmp_path, "great-britain-1944-normandy", officers)
    one = judged(tmp_path, "great-britain-1944-normandy", officers[:1])
    assert not any("High Ranking Officer" in f["message"] for f in one["findings"])
    assert any("High Ranking Officer" in f["message"] for f in both["findings"] if f["code"] == "org.too_many")
