"""Team, fixed, spotter and weapon-category checks on in-memory rosters."""

from lists.gamedata.snapshot import ModelLine
from lists.rules import check_roster
from tests.builders import (
    BAZOOKA_TEAM,
    MMG,
    MORTAR_TEAM,
    SQUAD_WITH_OPTIONS,
    choice,
    codes,
    roster,
    unit_type,
)


def test_a_squad_with_a_light_machine_gun_and_a_loader_is_legal():
    squad = choice(SQUAD_WITH_OPTIONS, quality="regular", options={"lmg": 1})

    assert codes(check_roster(roster(squad))) == []


def test_a_squad_team_weapon_needs_a_loader_other_than_the_nco():
    # NCO plus one man with the LMG: nobody left to load it.
    pair = unit_type(
        "pair",
        "Pair",
        min_size=2,
        composition=[
            ModelLine(1, "nco", "NCO", ()),
            ModelLine(1, "soldier", "Gunner", ()),
        ],
        options=SQUAD_WITH_OPTIONS.options,
    )
    squad = choice(pair, options={"lmg": 1})

    findings = check_roster(roster(squad))

    assert codes(findings) == ["team.loader"]
    assert "NCO cannot be the loader" in findings[0].fix
    assert findings[0].rule == "team"


def test_a_support_team_with_two_crew_is_legal():
    assert codes(check_roster(roster(MORTAR_TEAM))) == []


def test_a_team_weapon_with_one_crew_is_reported():
    lone = unit_type("lone-mmg", "Lone MMG", "team", "team", composition=[ModelLine(1, "crew", "Gunner", (MMG,))])

    findings = check_roster(roster(lone))

    assert codes(findings) == ["team.crew"]
    assert "with 1 crew; a team weapon needs at least two" in findings[0].message


def test_a_fixed_weapon_in_an_infantry_squad_is_refused():
    squad = choice(SQUAD_WITH_OPTIONS, quality="regular", options={"mmg": 1})

    findings = check_roster(roster(squad))

    assert codes(findings) == ["fixed.in_squad"]
    assert "Medium machine gun, a fixed weapon" in findings[0].message
    assert findings[0].rule == "fixed"


def test_a_fixed_weapon_with_its_own_team_is_legal():
    mmg_team = unit_type("mmg-team", "MMG Team", "team", "team", composition=[ModelLine(3, "crew", "Crew", (MMG,))])

    assert codes(check_roster(roster(mmg_team))) == []


def test_a_mortar_team_may_have_one_spotter():
    team = choice(MORTAR_TEAM, quality="regular", options={"spotter": 1})

    assert codes(check_roster(roster(team))) == []


def test_a_spotter_without_an_indirect_fire_weapon_is_refused():
    team = choice(BAZOOKA_TEAM, options={"spotter": 1})

    findings = check_roster(roster(team))

    assert codes(findings) == ["spotter.not_indirect"]
    assert findings[0].rule == "spotters"


def test_two_spotters_are_too_many():
    team = choice(MORTAR_TEAM, options={"spotter": 2})

    assert codes(check_roster(roster(team))) == ["spotter.too_many"]


def test_a_spotter_with_an_inexperienced_crew_is_a_warning_only():
    team = choice(MORTAR_TEAM, quality="inexperienced", options={"spotter": 1})

    findings = check_roster(roster(team))

    assert [(f.code, f.severity) for f in findings] == [("spotter.no_benefit", "warning")]


def test_a_spotter_adds_no_order_die():
    from lists.rules.pricing import order_dice

    assert order_dice(roster(choice(MORTAR_TEAM, options={"spotter": 1}))) == 1


def test_a_weapon_of_a_category_the_unit_cannot_take_is_refused():
    team = choice(BAZOOKA_TEAM, options={"mortar": 1})

    findings = check_roster(roster(team))

    assert codes(findings) == ["category.not_allowed"]
    assert "has a Light mortar (Light mortar); a Bazooka Team cannot take that category" in findings[0].message


def test_weapons_of_allowed_categories_pass():
    assert codes(check_roster(roster(BAZOOKA_TEAM))) == []
