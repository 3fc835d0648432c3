"""Action All Fronts cost changes on the real pack, each against a hand calculation."""

import pytest

from lists.rosters.files import RosterFileInvalid, load_roster_file
from lists.rules import check_roster
from lists.rules.pricing import unit_points

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def roster(army: str, year: int, *units: str, extra: str = ""):
    lines = "".join(f"  - {unit}\n" for unit in units)
    text = f"game: action-all-fronts\narmy: {army}\nyear: {year}\n{extra}units:\n{lines}"
    return load_roster_file(text.encode(), "roster.yaml").snapshot()


def points(snapshot) -> list[int]:
    return [unit_points(snapshot, unit) for unit in snapshot.units]


def codes(snapshot) -> list[str]:
    return [finding.code for finding in check_roster(snapshot)]


def test_a_mid_war_tank_is_halved_late_and_doubled_early():
    # Panther D: 476 points, in service 1943 (mid war).
    assert points(roster("german", 1943, "{unit: Panther D}")) == [476]
    assert points(roster("german", 1944, "{unit: Panther D}")) == [238]
    assert points(roster("german", 1941, "{unit: Panther D}")) == [952]


def test_an_early_war_tank_is_halved_mid_war_and_quartered_late():
    # Pz IVC: 176 points, in service 1940 (early war).
    assert points(roster("german", 1942, "{unit: Pz IVC}")) == [88]
    assert points(roster("german", 1945, "{unit: Pz IVC}")) == [44]


def test_a_late_war_tank_is_doubled_mid_war_and_cannot_be_used_early():
    # Tiger 2: 856 points, 1944 (late war).
    assert points(roster("german", 1943, "{unit: Tiger 2}")) == [1712]
    early = roster("german", 1941, "{unit: Tiger 2}")
    assert "period.unavailable" in codes(early)


def test_panzer_attack_adds_a_fifth_after_the_period_change():
    # Pz IVC in a late-war game: 176 / 4 = 44; +20% = 52.8, rounded to 53.
    snapshot = roster("german", 1944, "{unit: Pz IVC, options: [Panzer Attack]}")
    assert points(snapshot) == [53]


def test_russian_combined_afvs_cost_a_fifth_less():
    """Russian army list, Lack of Radios: 2-3 AFVs of the same type in one unit cost 20% less.

    T34/76 1940: 250 points, 1941 (early war); in 1942 each is halved to 125; two are 250, -20% = 200.
    """
    snapshot = roster("russian", 1942, "{unit: T34/76 1940, options: [combined-unit]}")
    assert points(snapshot) == [200]
    assert [line.count for line in snapshot.units[0].models() if line.role == "vehicle"] == [1, 1]
    assert not [code for code in codes(snapshot) if code.startswith(("option.", "unit."))]


def test_three_russian_afvs_of_one_type_make_the_largest_combined_unit():
    """Lack of Radios: up to three AFVs. BT-7: 130 points, early war; three in 1941: 390, -20% = 312."""
    three = roster("russian", 1941, "{unit: BT-7, options: [{option: combined-unit, count: 2}]}")
    assert points(three) == [312]
    with pytest.raises(RosterFileInvalid, match="at most 2 time"):
        roster("russian", 1941, "{unit: BT-7, options: [{option: combined-unit, count: 3}]}")


def test_a_lone_russian_afv_pays_its_full_points():
    """Lack of Radios needs 2-3 AFVs: one BT-7 alone costs its listed 130 points."""
    assert points(roster("russian", 1941, "{unit: BT-7}")) == [130]


def test_us_excellent_communications_adds_a_fifth_to_a_bombardment():
    snapshot = roster("us", 1944, "{unit: Light artillery bombardment, options: [Excellent Communications (US)]}")
    assert points(snapshot) == [96]  # 80 + 20%


def test_only_the_us_army_may_buy_excellent_communications():
    refused = (
        "'Excellent Communications \\(US\\)' is an option of Light artillery bombardment this army list does not offer"
    )
    with pytest.raises(RosterFileInvalid, match=refused):
        roster("british", 1944, "{unit: Light artillery bombardment, options: [Excellent Communications (US)]}")


def test_upgrades_per_figure_cost_for_each_figure():
    # US Rifle Squad 69 points; Garand upgrade +2 for each of its 9 riflemen.
    snapshot = roster("us", 1944, "{unit: Rifle Squad, options: [{option: garand-upgrade, count: 9}]}")
    assert points(snapshot) == [69 + 9 * 2]


def test_afvs_of_200_points_or_less_after_period_costs_are_half_a_choice():
    company = [
        "{unit: Platoon HQ}",
        "{unit: Platoon HQ}",
        "{unit: Infantry Squad up to 1943}",
        "{unit: Infantry Squad up to 1943}",
        "{unit: Company HQ}",
    ]
    # One company HQ: one artillery-or-company choice plus one company-support-or-AFV choice.
    # PzIVG (325, 1942) in 1944 costs 163: half a choice, so two fit the one AFV choice.
    two_cheap = roster("german", 1944, *company, "{unit: PzIVG}", "{unit: PzIVG}")
    assert "org.ratio" not in codes(two_cheap)
    # In 1943 each costs 325: a whole choice each, one too many.
    two_dear = roster("german", 1943, *company, "{unit: PzIVG}", "{unit: PzIVG}")
    assert "org.ratio" in codes(two_dear)
