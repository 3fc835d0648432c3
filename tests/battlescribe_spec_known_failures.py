"""Roster specs of the conformance suite that the BattleScribe engine does not pass yet, each with why.

tests/test_battlescribe_spec_suite.py expects every other spec to pass and every spec here to
still fail, so this list only ever shrinks and never lies.
"""

KNOWN_FAILURES: dict[str, str] = {}
