"""Officer ranks, periods, period costs, heroes, fortifications, transports and order dice."""

from lists.gamedata.snapshot import ModelLine
from lists.rules import check_roster
from lists.rules.pricing import unit_points
from tests.builders import (
    LIEUTENANT,
    SQUAD,
    SQUAD_WITH_OPTIONS,
    TRUCK,
    choice,
    codes,
    option,
    organisation,
    roster,
    slot,
    unit_type,
)


def test_an_officer_may_hold_the_ranks_his_entry_lists():
    assert codes(check_roster(roster(choice(LIEUTENANT, officer_rank="first-lieutenant")))) == []


def test_an_officer_rank_the_entry_does_not_allow_is_refused():
    findings = check_roster(roster(choice(LIEUTENANT, officer_rank="captain")))

    assert codes(findings) == ["officer.rank"]
    assert "is a Captain, a rank a Lieutenant cannot hold" in findings[0].message
    assert "First Lieutenant, Second Lieutenant" in findings[0].fix


def test_an_organisation_slot_restricts_officer_ranks():
    platoon = organisation(slot("officer", ["hq"], min=1, max=1, officer_ranks=("second-lieutenant",)))

    findings = check_roster(roster(choice(LIEUTENANT, officer_rank="first-lieutenant"), organisation=platoon))

    assert codes(findings) == ["officer.rank"]
    assert "must be a Second Lieutenant" in findings[0].message


TANK_1944 = unit_type("late-tank", "Late Tank", "afv", "vehicle", points=300, composition=[], service_start=1944)
TANK_1940 = unit_type("early-tank", "Early Tank", "afv", "vehicle", points=200, composition=[], service_start=1940)
TANK_1942 = unit_type("mid-tank", "Mid Tank", "afv", "vehicle", points=240, composition=[], service_start=1942)


LATE_GUN = unit_type(
    "late-gun", "Late Gun", "team", "artillery", composition=[ModelLine(3, "crew", "Crew", ())], service_start=1944
)


def test_a_unit_in_service_in_the_rosters_year_is_legal():
    assert codes(check_roster(roster(LATE_GUN, year=1944))) == []


def test_a_unit_before_its_service_date_is_unavailable():
    findings = check_roster(roster(LATE_GUN, year=1943))

    assert codes(findings) == ["period.unavailable"]
    assert "in service from 1944; the roster is set in 1943" in findings[0].message


def test_an_option_before_its_service_date_is_unavailable():
    squad = unit_type(options={"panzerfaust": option("panzerfaust", 40, service_start=1943)})

    assert codes(check_roster(roster(choice(squad, options={"panzerfaust": 1}), year=1942))) == ["period.unavailable"]
    assert codes(check_roster(roster(choice(squad, options={"panzerfaust": 1}), year=1943))) == []


def test_a_vehicle_priced_by_period_may_be_used_before_its_date_at_the_periods_cost():
    game = roster(TANK_1944, year=1943)

    assert codes(check_roster(game)) == []
    assert unit_points(game, game.units[0]) == 600


def test_a_late_war_afv_cannot_be_used_in_an_early_war_game():
    findings = check_roster(roster(TANK_1944, period="early"))

    assert codes(findings) == ["period.unavailable"]
    assert "entered service in the Late war period and cannot be used in the Early war period" in findings[0].message


def test_period_costs_follow_the_periods_table():
    # Hand calculation: early tank (200) halved in mid war, quartered in late war;
    # mid tank (240) doubled early, halved late; late tank (300) doubled in mid war.
    cases = [
        (TANK_1940, "early", 200),
        (TANK_1940, "mid", 100),
        (TANK_1940, "late", 50),
        (TANK_1942, "early", 480),
        (TANK_1942, "mid", 240),
        (TANK_1942, "late", 120),
        (TANK_1944, "mid", 600),
        (TANK_1944, "late", 300),
    ]
    for tank, period, expected in cases:
        game = roster(tank, period=period)
        assert unit_points(game, game.units[0]) == expected, (tank.name, period)


def test_percentage_options_apply_after_the_period_factor():
    # A mid-war tank (240) in a late-war game is 120; +20% is 144.
    tank = unit_type(
        "panzer",
        "Panzer",
        "afv",
        "vehicle",
        points=240,
        composition=[],
        service_start=1942,
        options={"panzer-attack": option("panzer-attack", 0, percent=20)},
    )
    game = roster(choice(tank, options={"panzer-attack": 1}), period="late")

    assert unit_points(game, game.units[0]) == 144


def test_a_negative_percentage_lowers_the_cost():
    tank = unit_type(
        "t", "T", "afv", "vehicle", points=105, composition=[], options={"combined": option("combined", 0, percent=-20)}
    )
    game = roster(choice(tank, options={"combined": 1}))

    assert unit_points(game, game.units[0]) == 84


def test_per_figure_upgrades_cost_for_each_figure():
    squad = unit_type(options={"smg": option("smg", 3, per="model")})
    game = roster(choice(squad, options={"smg": 4}))

    assert unit_points(game, game.units[0]) == 50 + 4 * 3


def test_hero_points_within_the_armys_allowance_are_legal_and_cost_25_each():
    hero = choice(SQUAD, hero_points=2)
    game = roster(hero, points_limit=2000)

    assert codes(check_roster(game)) == []
    assert unit_points(game, hero) == 50 + 2 * 25


def test_more_hero_points_than_the_army_size_allows_are_refused():
    # 2 per 2,000 points or part: a 2,500-point army may have 4.
    findings = check_roster(roster(choice(SQUAD, hero_points=3), choice(SQUAD, hero_points=2), points_limit=2500))

    assert codes(findings) == ["heroes.too_many"]
    assert "may have 4" in findings[0].message


def test_the_full_thousands_reading_of_hero_points_can_be_chosen():
    game = roster(choice(SQUAD, hero_points=4), points_limit=1500, settings={"hero-points": "per-full-1000"})

    assert codes(check_roster(game)) == ["heroes.too_many"]


def test_a_hero_may_have_at_most_six_points():
    findings = check_roster(roster(choice(SQUAD, hero_points=7), points_limit=8000))

    assert codes(findings) == ["heroes.too_many"]
    assert "at most 6" in findings[0].message


ENGINEERS = unit_type("engineers", "Engineer Team", "engineers", "infantry", category_kind="infantry")
FORTIFIED = organisation(
    slot("engineers", ["engineers"], requires_setting="enemy-fortifications", max=1),
    slot("squads", ["squad"], min=0, max=5),
)


def test_engineers_against_fortifications_are_legal():
    game = roster(SQUAD, ENGINEERS, organisation=FORTIFIED, settings={"enemy-fortifications": True})

    assert codes(check_roster(game)) == []


def test_engineers_without_enemy_fortifications_are_refused():
    findings = check_roster(roster(SQUAD, ENGINEERS, organisation=FORTIFIED))

    assert codes(findings) == ["fortifications.required"]
    assert findings[0].unit == "Engineer Team 2"


def test_a_transport_carrying_no_more_than_its_capacity_is_legal():
    squad = choice(SQUAD_WITH_OPTIONS, quality="regular", size=10, transport=1)

    assert codes(check_roster(roster(squad, TRUCK))) == []


def test_a_transport_over_its_capacity_is_refused():
    first = choice(SQUAD_WITH_OPTIONS, quality="regular", size=8, transport=2, label="First")
    second = choice(SQUAD_WITH_OPTIONS, quality="regular", size=8, transport=2, label="Second")

    findings = check_roster(roster(first, second, TRUCK))

    assert codes(findings) == ["transport.capacity"]
    assert "carries 16 men; it has room for 12" in findings[0].message


def test_riding_in_a_unit_that_is_no_transport_is_refused():
    squad = choice(SQUAD, transport=1)
    other = unit_type("other-squad", "Other Squad", composition=[ModelLine(5, "soldier", "Man", ())])

    assert codes(check_roster(roster(squad, other))) == ["transport.not_allowed"]


def test_order_dice_within_the_tournament_limit_are_legal():
    assert codes(check_roster(roster(SQUAD, SQUAD, settings={"max-order-dice": 2}))) == []


def test_order_dice_over_the_tournament_limit_are_refused():
    findings = check_roster(roster(SQUAD, SQUAD, SQUAD, settings={"max-order-dice": 2}))

    assert codes(findings) == ["order_dice.over_limit"]
    assert "draws 3 order dice; the tournament allows 2" in findings[0].message
