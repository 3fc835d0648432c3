"""Unit limits: at most so many of one unit in a roster (BattleScribe's per-force limits)."""

from lists.rules.unit_limits import unit_limit_findings
from tests.builders import codes, roster, unit_type

SNIPER = unit_type("sniper-team", category="team", points=50, max_in_roster=1)


def test_one_unit_within_its_limit_is_legal():
    assert unit_limit_findings(roster(SNIPER, unit_type("squad"), unit_type("squad"))) == []


def test_a_second_unit_over_its_limit_is_too_many_and_names_it():
    findings = unit_limit_findings(roster(SNIPER, SNIPER))
    assert codes(findings) == ["org.too_many"]
    assert findings[0].unit == "Sniper Team 2"
    assert "allows 1" in findings[0].message
