"""The set of national rules a roster plays, where its army's nation has more than one book's set."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, warning


def national_rules_findings(roster: RosterSnapshot) -> list[Finding]:
    """A warning while no set is picked: the cards print none of them (BattleScribe asks for one pick)."""
    if not roster.army_rule_choices:
        return []
    for definition in roster.system.config.get("settings", []):
        if definition["kind"] == "rule_choice" and roster.setting(definition["key"]) is None:
            sets = ", ".join(roster.army_rule_choices[:-1]) + f" or {roster.army_rule_choices[-1]}"
            return [
                warning(
                    "national_rules.unpicked",
                    "No set of the army's national rules is picked, so the cards print none of them.",
                    f"Pick the set the list plays under Roster settings, {definition['name']}: {sets}.",
                    definition["key"],
                    rule_name=definition["name"],
                )
            ]
    return []
