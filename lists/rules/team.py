"""Team weapons: two crew to fire at full effect; a squad's team weapon needs a loader.

Which weapons are team weapons is the pack's business: the rule it names as
`rule_roles.team`.
"""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, counted, error

LEADER_ROLES = {"nco", "officer"}
CREW_ROLES = {"crew", "loader", "team"}


def team_findings(roster: RosterSnapshot) -> list[Finding]:
    team_rule = roster.system.rule_role("team")
    if team_rule is None:
        return []
    rule = roster.system.rules.get(team_rule)
    rule_name = rule.name if rule else team_rule
    findings: list[Finding] = []
    for unit in roster.units:
        team_weapons = [weapon for weapon in unit.weapons() if team_rule in weapon.rules]
        if not team_weapons:
            continue
        names = ", ".join(sorted({weapon.name for weapon in team_weapons}))
        if unit.unit_type.category_kind == "infantry":
            # Each team weapon takes a second man as loader: anyone but the NCO or officer.
            lines = unit.models()
            leaders = sum(line.men for line in lines if line.role in LEADER_ROLES)
            spare = unit.men - leaders - len(team_weapons)
            if spare < len(team_weapons):
                findings.append(
                    error(
                        "team.loader",
                        f"{unit.label} carries {counted(len(team_weapons), 'team weapon')} ({names}) but has "
                        f"{counted(max(spare, 0), 'man', 'men')} besides the leaders and firers to act as loader.",
                        "Add men to the squad or drop a team weapon: the NCO cannot be the loader.",
                        team_rule,
                        unit,
                        rule_name,
                    )
                )
        else:
            crew = sum(line.men for line in unit.models() if line.role != "spotter")
            if unit.unit_type.kind not in {"vehicle", "transport", "aircraft", "boat"} and crew < 2:
                findings.append(
                    error(
                        "team.crew",
                        f"{unit.label} serves {names} with {crew} crew; a team weapon needs at least two.",
                        "Give the team at least two crew.",
                        team_rule,
                        unit,
                        rule_name,
                    )
                )
    return findings
