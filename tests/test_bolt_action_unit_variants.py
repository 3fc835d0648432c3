"""Units the converter used to skip ("no price found"), priced by hand from the data (BSData/boltaction).

A section's kinds as entries holding their own men (a "Section" group of variants, each its own unit):
- BA2 - Armies of Italy.cat, Alpini Infantry Section (link 2317-6aa2-96f1-864e, entry 5823340e-d9fe-c491-0c5f-38044e4fed7c),
  group Section, variant Alpini Infantry Section 1a18-2eb6-c56a-e12d: Squad Members 6bba-3715-7461-1c24 (5 to 11),
  Veteran NCO 96f7-9b19-ce78-45a6 at 13 (exactly 1), Veteran Soldier e70a-c11d-33b3-e74f at 13 (5 to 10); LMG
  4cb1-c6ef-c49c-656b holding an LMG at 20. Six men 78; with the LMG 98; eleven men 143. Five men break the
  soldiers' least number (5), whatever the group's (5) allows.
- Same entry, variant Monte Cervino Ski Squad 0479-9f87-c6aa-b117: Veteran NCO at 15 and 6 to 14 Veteran Soldiers
  at 15: seven men 105.

Quality entries holding their men with no price group around them:
- BA2 - Armies of Poland.cat, Dragoons Section (link d31f-71c0-63c5-9a2f, entry 11d0-0f79-e222-7f22): Rating
  a2f3-620d-6d1b-fc96 (exactly 1) holds Veteran 6459-85d7-9c0b-ea68 (NCO 5fdd-e3a5-717d-b877 and 5 to 12 soldiers
  073d-e154-4bfe-5cb2, each 13) and Regular 8811-4b18-242d-b7dc (NCO 4095-ff17-3cf8-8b47 and soldiers
  6105-39b1-76a5-e1a4, each 10), each with a Soldier with BAR (04a7-b694-1c25-f1cd / b402-6494-2c0a-1636) at the
  man's cost plus a BAR at 5. Regular six men 60; Veteran 78; Regular with the BAR man 75.
- BA2 - Armies of Slovakia.cat, Dragoon Group (link 961a-9618-8d26-3719, entry 0820-ac93-21ba-8bed): Veteran
  0cc2-1bcf-e543-45a9 holds Veteran Squad Members c5ad-e22e-b719-700d (4 to 8): NCO b02f-76c1-c3bc-c1c5 and 3 to 8
  soldiers 7b80-7c4c-7eb6-6b05, each 15. Four men 60; eight 120.

A group of men with no size of its own, the men's quality in their "Unit Quality" profile:
- BA2 - Armies of Canada.cat, Canadian Scout Sniper Team (link 782d-51a7-0954-0e45, entry 2450-ff77-dd77-892b): Team
  Members 2485-0fc6-ea40-6616 (no constraint) holds Sniper ea79-92a6-be2e-ecf0 and Spotter 233c-c137-6817-50e0, each
  exactly 1 at 14, each with the Veteran profile d35f-04c2-a7f3-288f; the Spotter's Smg bce7-951a-7a54-731f at 2.
  28; with the SMG 30.

A squad whose men's least numbers add up past the group's least size:
- BA2 - Armies of China.cat, Conscript Squad (link 1764-c908-b815-33a5, entry 0fef4a70-4655-98cd-de6c-ff322b114c86):
  Inexperienced Squad Members 498379f1-1fe8-e62b-874a-c04dfbff1415 (5 to 14): NCO 77bbbd98-0ea8-5861-ffae-93299feaf157
  (exactly 1) and 6 to 13 soldiers 62266c8b-4c29-182a-3fa8-1e186523bdfc, each 7. Seven men 49; six are too few.

A squad's base man, the one it may add most of and named for no weapon:
- BA2 - Partisans.cat, Partisan Squad (Late War) d2f9-b587-995c-246a: Squad Members c2f4 (5 to 20) holds Regular
  Leader (NCO) e54c at 10 (Weapon group 8802: Rifle, or SMG 02ab with the SMG c0ab-2b01-53b6-5cbd of Bolt Action 2.gst
  at 3), Regular Men with LMG 72cd (at most 1) at 10 plus the LMG 14a1-5df7-8293-36d8 at 20, Regular Men with SMG
  db9b at 10 plus 3 and Regular Men e81d at 10. Five men: 50. Eight of his own, the Leader's SMG, two SMG men, a
  Panzerfaust 22cb at 5 and Anti-tank Grenades 7ec9 (2, 2 less once taken, 2 a man): 13 + 70 + 26 + 5 + 20 = 134.

A man of the squad's group named for no kind of man:
- BA2 - Armies of the Netherlands.cat, KNIL Guerrilla Rifle Section 062d-b4af-68ca-0a0e, Veteran: Squad Members
  20fe-f571 (5 to 8) holds the NCO, 4 to 7 soldiers at 13 and a Veteran Local Scout 050f at 38 (at most 1). Eight of
  their own (the NCO's SMG, compulsory, at 3) and the scout: 13 + 3 + 7 x 13 + 38 = 145, and nine in a group of at most eight.

Men whose price the unit's quality sets:
- BA2 - Armies of the  Soviet Union.cat, Dog Mines' Anti-Tank Team f55b25c2-5779-e09d-ee27-8d3deae29db3: the Rating
  entries (Inexperienced 7074, Regular 6600-0c31-4572-1c88, Veteran 547a-a21f-d4c3-5b97) cost 0; the NCO 35ec-0cc3,
  each Handler with rifle 6ce1-7d1a and each Handler with SMG 6a9f-20bc cost 0, set to 13, 18 or 23 by the rating
  taken; the SMG c0ab-2b01-53b6-5cbd adds 3. Regular, two men: 36; four: 72. Veteran NCO and an SMG handler: 23 + 26 = 49.

A squad whose men's greatest numbers add up to less than the group's greatest size:
- BA2 - Armies of Japan.cat, IJA Machine Gun Section 6f88-1a24-3032-0193: Veteran f731-f880-5c96-73ed at 81 holds
  Squad Members aeb5-6964-73a8-aa2c (4 to 12): Veteran NCO 604f-aea0-3562-dc2d (exactly 1) and Veteran Soldier
  b99c-a2af-e083-4da1 (3 to 7), each 13. Eight men 81 + 8 x 13 = 185; a ninth man has no entry to be.
- BA2 - Armies of Canada.cat, Pathfinder Squad (link edaf-ccb7-f4b0-ae2b, entry 5f79-9607-2526-cc1b): Squad Members
  9244-6b3e-7cdf-ab95 (6 to 12): Veteran NCO 0d61-5be3-2ccf-228f (exactly 1) and Veteran Soldier
  caba-c280-2f20-72aa (5 to 9), each 13. Ten men 130; eleven are too many.
"""

import pytest

from tests.test_bolt_action_compulsory_and_cavalry import codes, judged

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

ALPS = "italy-1940-army-group-west-western-alps"


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("{unit: italy-alpini-infantry-section, quality: Veteran}", 78),
        ("{unit: italy-alpini-infantry-section, quality: Veteran, options: [LMG]}", 98),
        ("{unit: italy-alpini-infantry-section, quality: Veteran, size: 11}", 143),
    ],
)
def test_an_alpini_section_is_a_unit_of_its_own_at_13_a_man(tmp_path, unit, expected):
    result = judged(tmp_path, ALPS, [unit])
    assert result["points"] == expected
    assert not codes(result) & {"unit.size", "unit.unknown", "roster.unknown_unit"}


def test_five_alpini_are_too_few_as_the_data_wants_five_soldiers_and_an_nco(tmp_path):
    result = judged(tmp_path, ALPS, ["{unit: italy-alpini-infantry-section, quality: Veteran, size: 5}"])
    size = [f for f in result["findings"] if "6" in f["message"] and "Alpini" in f["message"]]
    assert size, result["findings"]


def test_a_monte_cervino_ski_squad_is_its_own_unit_at_15_a_man(tmp_path):
    unit = "{unit: italy-monte-cervino-ski-squad, quality: Veteran}"
    assert judged(tmp_path, "italy-1941-43-the-eastern-front", [unit])["points"] == 105


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("{unit: poland-dragoons-section, quality: Regular}", 60),
        ("{unit: poland-dragoons-section, quality: Veteran}", 78),
        ("{unit: poland-dragoons-section, quality: Regular, options: [Regular Soldier with Bar Automatic Rifle]}", 75),
    ],
)
def test_polish_dragoons_are_priced_by_the_quality_entry_chosen(tmp_path, unit, expected):
    assert judged(tmp_path, "poland-1939-polish-cavalry-squadron", [unit])["points"] == expected


@pytest.mark.parametrize(("size", "expected"), [(4, 60), (8, 120)])
def test_a_slovak_dragoon_group_is_veteran_at_15_a_man(tmp_path, size, expected):
    unit = f"{{unit: slovakia-dragoon-group, quality: Veteran, size: {size}}}"
    assert judged(tmp_path, "slovakia-1941-43-slovak-mobile-division", [unit])["points"] == expected


@pytest.mark.parametrize(("options", "expected"), [("[]", 28), ("[Spotter Smg]", 30)])
def test_the_canadian_scout_sniper_team_is_two_veterans_at_14(tmp_path, options, expected):
    unit = f"{{unit: canada-canadian-scout-sniper-team, quality: Veteran, options: {options}}}"
    assert judged(tmp_path, "canada-1943-44-canadian-infantry-division", [unit])["points"] == expected


def test_a_chinese_conscript_squad_needs_the_seven_men_its_nco_and_soldiers_add_up_to(tmp_path):
    shanghai = "china-1937-battle-of-shanghai"
    seven = judged(tmp_path, shanghai, ["{unit: china-conscript-squad, quality: Inexperienced, size: 7}"])
    assert seven["points"] == 49
    six = judged(tmp_path, shanghai, ["{unit: china-conscript-squad, quality: Inexperienced, size: 6}"])
    assert any("7" in f["message"] and "Conscript" in f["message"] for f in six["findings"]), six["findings"]


BAR = "Regular Soldier with Bar Automatic Rifle"


def test_a_bar_man_joins_the_dragoons_own_six_and_five_of_their_own_are_refused(tmp_path):
    squadron = "poland-1939-polish-cavalry-squadron"
    six = judged(
        tmp_path, squadron, [f"{{unit: poland-dragoons-section, quality: Regular, size: 6, options: [{BAR}]}}"]
    )
    assert (six["points"], codes(six) & {"unit.size"}) == (75, set())
    five = judged(
        tmp_path, squadron, [f"{{unit: poland-dragoons-section, quality: Regular, size: 5, options: [{BAR}]}}"]
    )
    refused = [f for f in five["findings"] if f["code"] == "unit.size"]
    assert len(refused) == 1 and "at least 6" in refused[0]["message"], five["findings"]


@pytest.mark.parametrize(
    ("unit", "quality", "most", "points"),
    [("imperial-japan-ija-machine-gun-section", "Veteran", 8, 185), ("canada-pathfinder-squad", "Veteran", 10, 130)],
)
def test_a_squad_holds_no_more_men_than_its_nco_and_soldiers_add_up_to(tmp_path, unit, quality, most, points):
    army = _army_fielding(unit)
    full = judged(tmp_path, army, [f"{{unit: {unit}, quality: {quality}, size: {most}}}"])
    assert (full["points"], codes(full) & {"unit.size"}) == (points, set())
    over = judged(tmp_path, army, [f"{{unit: {unit}, quality: {quality}, size: {most + 1}}}"])
    refused = [f for f in over["findings"] if f["code"] == "unit.size"]
    assert len(refused) == 1 and f"{most + 1} men" in refused[0]["message"], over["findings"]


def _army_fielding(unit_key: str) -> str:
    from lists.models import Army

    return min(key for key, units in Army.objects.values_list("key", "borrow_units") if unit_key in units)


LIBERATION = "partisans-1942-45-liberation"


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("{unit: partisans-partisan-squad-late-war, size: 5}", 50),
        (
            "{unit: partisans-partisan-squad-late-war, size: 8, options: [Leader (NCO) SMG, "
            "{option: Regular Men with SMG, count: 2}, Panzerfaust, Anti-tank Grenades]}",
            134,
        ),
    ],
)
def test_a_partisan_squads_men_are_plain_men_and_its_one_lmg_man_an_option(tmp_path, unit, expected):
    result = judged(tmp_path, LIBERATION, [unit])
    assert result["points"] == expected
    assert "team.loader" not in codes(result)


def test_a_knil_local_scout_is_one_of_the_sections_eight(tmp_path):
    unit = (
        "{unit: netherlands-knil-guerrilla-rifle-section, quality: Veteran, size: %d, options: [Veteran Local Scout]}"
    )
    full = judged(tmp_path, "netherlands-1942-44-knil-guerrillas", [unit % 7])
    assert (full["points"], codes(full) & {"unit.size"}) == (132, set())
    over = judged(tmp_path, "netherlands-1942-44-knil-guerrillas", [unit % 8])
    assert over["points"] == 145
    assert any(f["code"] == "unit.size" and "9 men" in f["message"] for f in over["findings"])


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("{unit: soviet-union-dog-mines-anti-tank-team, quality: Regular, size: 2}", 36),
        ("{unit: soviet-union-dog-mines-anti-tank-team, quality: Regular, size: 4}", 72),
        ("{unit: soviet-union-dog-mines-anti-tank-team, quality: Veteran, size: 1, options: [Handler with SMG]}", 49),
    ],
)
def test_a_dog_mine_teams_men_cost_what_its_rating_sets(tmp_path, unit, expected):
    assert judged(tmp_path, "soviet-union-generic-reinforced-platoon", [unit])["points"] == expected
