"""Points, unit size and organisation checks on in-memory rosters."""

from lists.rules import check_roster
from lists.rules.pricing import unit_points
from tests.builders import LIEUTENANT, SQUAD, SQUAD_WITH_OPTIONS, choice, codes, organisation, roster, slot

PLATOON = organisation(
    slot("officer", ["hq"], name="Lieutenant", min=1, max=1),
    slot("squads", ["squad"], name="Infantry squads", min=2, max=3),
)


def test_a_roster_within_its_points_limit_is_legal():
    assert codes(check_roster(roster(SQUAD, SQUAD, points_limit=100))) == []


def test_a_roster_over_its_points_limit_says_by_how_much():
    findings = check_roster(roster(SQUAD, SQUAD, SQUAD, points_limit=120))

    assert codes(findings) == ["points.over_limit"]
    assert findings[0].message == "The roster costs 150 points, 30 over its limit of 120."
    assert findings[0].unit is None


def test_extra_men_and_options_add_to_a_units_points():
    squad = choice(SQUAD_WITH_OPTIONS, quality="regular", size=8, options={"lmg": 1})

    assert unit_points(roster(squad), squad) == 50 + 3 * 10 + 20


def test_a_unit_smaller_than_its_entry_allows_is_reported():
    small = choice(SQUAD_WITH_OPTIONS, quality="regular", size=4)

    findings = check_roster(roster(small))

    assert codes(findings) == ["unit.size"]
    assert "has 4 men; a Rifle Squad has 5–10" in findings[0].message


def test_an_option_taken_more_often_than_allowed_is_reported():
    squad = choice(SQUAD_WITH_OPTIONS, quality="regular", options={"lmg": 2})

    assert "option.too_many" in codes(check_roster(roster(squad)))


def test_a_complete_platoon_is_legal():
    assert codes(check_roster(roster(LIEUTENANT, SQUAD, SQUAD, organisation=PLATOON))) == []


def test_a_platoon_without_its_lieutenant_misses_a_compulsory_choice():
    findings = check_roster(roster(SQUAD, SQUAD, organisation=PLATOON))

    assert codes(findings) == ["org.missing"]
    assert "needs at least 1 Lieutenant; the roster has 0" in findings[0].message
    assert findings[0].rule == "platoon"


def test_a_fourth_squad_is_too_many():
    findings = check_roster(roster(LIEUTENANT, SQUAD, SQUAD, SQUAD, SQUAD, organisation=PLATOON))

    assert codes(findings) == ["org.too_many"]
    assert findings[0].unit == "Squad 5"


def test_a_unit_the_organisation_has_no_place_for_is_reported():
    from tests.builders import TRUCK

    findings = check_roster(roster(LIEUTENANT, SQUAD, SQUAD, TRUCK, organisation=PLATOON))

    assert codes(findings) == ["org.too_many"]
    assert "has no place for" in findings[0].message


RATIOS = organisation(
    slot("squads", ["squad"], min=1, max={"base": 1, "per": [{"categories": ["platoon-hq"], "each": 3}]}),
    slot("platoon-hqs", ["platoon-hq"], max={"per": [{"categories": ["squad"], "each": 1}]}),
    slot("company-hqs", ["company-hq"], max={"per": [{"categories": ["platoon-hq"], "each": 0.5}]}),
    slot(
        "company-choices",
        ["artillery", "afv"],
        max={"per": [{"categories": ["company-hq"], "each": 1, "if_any": 1}]},
        half_choice_at_most_points=200,
        half_choice_categories=("afv",),
    ),
)
PLATOON_HQ = SQUAD.__class__(
    **{
        **SQUAD.__dict__,
        "key": "platoon-hq",
        "name": "Platoon HQ",
        "category": "platoon-hq",
        "category_name": "Platoon HQ",
        "category_kind": "headquarters",
    }
)
COMPANY_HQ = SQUAD.__class__(
    **{
        **SQUAD.__dict__,
        "key": "company-hq",
        "name": "Company HQ",
        "category": "company-hq",
        "category_name": "Company HQ",
        "category_kind": "headquarters",
    }
)


def afv(points):
    from tests.builders import unit_type

    return unit_type(f"tank-{points}", f"Tank {points}", "afv", "vehicle", points=points, composition=[])


def test_squads_beyond_three_per_platoon_hq_break_the_ratio():
    legal = roster(PLATOON_HQ, SQUAD, SQUAD, SQUAD, SQUAD, organisation=RATIOS)
    illegal = roster(PLATOON_HQ, SQUAD, SQUAD, SQUAD, SQUAD, SQUAD, organisation=RATIOS)

    assert codes(check_roster(legal)) == []
    assert codes(check_roster(illegal)) == ["org.ratio"]


def test_a_company_hq_needs_two_platoon_hqs():
    one = roster(PLATOON_HQ, SQUAD, COMPANY_HQ, organisation=RATIOS)
    two = roster(PLATOON_HQ, PLATOON_HQ, SQUAD, SQUAD, COMPANY_HQ, organisation=RATIOS)

    assert codes(check_roster(one)) == ["org.ratio"]
    assert codes(check_roster(two)) == []


def test_cheap_afvs_count_as_half_a_company_choice():
    base = [PLATOON_HQ, PLATOON_HQ, SQUAD, SQUAD, COMPANY_HQ]
    # One company HQ allows two choices: four AFVs of 200 points fit, a fifth does not.
    assert codes(check_roster(roster(*base, afv(200), afv(200), afv(200), afv(200), organisation=RATIOS))) == []
    assert codes(check_roster(roster(*base, *[afv(200)] * 5, organisation=RATIOS))) == ["org.ratio"]
    # A 201-point AFV is a whole choice.
    assert codes(check_roster(roster(*base, afv(201), afv(201), afv(200), organisation=RATIOS))) == ["org.ratio"]
