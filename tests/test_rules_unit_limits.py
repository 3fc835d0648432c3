"""Unit limits: at most so many of one unit in a roster (BattleScribe's per-force limits)."""

from dataclasses import replace

from lists.gamedata.snapshot import ForceInfo, UnitChoice
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


def _in_forces(unit_type_, forces):
    """One unit of `unit_type_` in each force named by index, in a roster of two platoons."""
    units = [
        UnitChoice(index=i, label=f"{unit_type_.name} {i + 1}", unit_type=unit_type_, force=f)
        for i, f in enumerate(forces)
    ]
    return roster(*units, forces=[ForceInfo(0, "Platoon 1"), ForceInfo(1, "Platoon 2")])


def test_a_limit_per_force_allows_one_in_each_platoon():
    """BattleScribe's scope="force" limit (most of the Bolt Action data): one sniper per platoon."""
    per_platoon = replace(SNIPER, limit_per="force")
    assert unit_limit_findings(_in_forces(per_platoon, [0, 1])) == []
    findings = unit_limit_findings(_in_forces(per_platoon, [1, 1]))
    assert codes(findings) == ["org.too_many"]
    assert findings[0].message.startswith("Platoon 2 has 2 Sniper Team")


def test_a_limit_per_roster_counts_every_platoon():
    findings = unit_limit_findings(_in_forces(SNIPER, [0, 1]))
    assert codes(findings) == ["org.too_many"]
    assert findings[0].message.startswith("The roster has 2 Sniper Team")
