"""Per-force limits of units: the least and most of a unit that each force of an organisation holds.

The BattleScribe data sets such limits on units for one kind of force (the
Reinforced Platoon's one officer). Units one data entry splits into (an
officer entry's ranks) count together as its `group`. A least number binds even
when no such unit has been added: an empty platoon still needs its officer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lists.gamedata.snapshot import ForceInfo, ForceLimitInfo, RosterSnapshot, UnitTypeInfo
from lists.rules.finding import Finding, error
from lists.rules.organisation import slot_taken


@dataclass
class LimitedGroup:
    """The units one limit counts together, and the limit."""

    limit: ForceLimitInfo
    unit_types: list[UnitTypeInfo] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.limit.group_name or self.unit_types[0].name

    def choices(self) -> str:
        """The units that fill it, for the fix: "Leutnant (Second Lieutenant) or Oberleutnant (First Lieutenant)"."""
        names = list(dict.fromkeys(unit_type.name for unit_type in self.unit_types))
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def limited_groups(roster: RosterSnapshot, organisation_key: str) -> list[LimitedGroup]:
    """The limits binding a force of this organisation, one per group of units."""
    groups: dict[str, LimitedGroup] = {}
    for unit_type, limit in roster.force_limits:
        if limit.organisation in ("", organisation_key) and (not limit.armies or roster.army_key in limit.armies):
            group = groups.setdefault(limit.group or unit_type.key, LimitedGroup(limit))
            group.unit_types.append(unit_type)
    return list(groups.values())


def force_limit_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for force in roster.forces:
        if force.organisation is not None:
            findings += _force_findings(roster, force, named=len(roster.forces) > 1)
    return findings


def _force_findings(roster: RosterSnapshot, force: ForceInfo, named: bool) -> list[Finding]:
    organisation = force.organisation
    units = roster.force_units(force)
    who = force.title if named else f"the {organisation.name}"
    where = f" to {force.name}" if named else ""
    findings = []
    for group in limited_groups(roster, organisation.key):
        keys = {unit_type.key for unit_type in group.unit_types}
        members = [unit for unit in units if unit.unit_type.key in keys]
        least, most = group.limit.min, group.limit.max
        if len(members) < least and not _asked_by_an_officer_slot(roster, force, group, units):
            findings.append(
                error(
                    "org.missing",
                    f"{who[0].upper()}{who[1:]} needs {least} {group.name}; it has {len(members)}.",
                    f"Add {least - len(members)}{where}: {group.choices()}.",
                    organisation.key,
                    units[0] if named and units else None,
                    organisation.name,
                )
            )
        if most is not None and len(members) > most:
            findings.append(
                error(
                    "org.too_many",
                    f"{who[0].upper()}{who[1:]} has {len(members)} {group.name}; it may have {most}.",
                    f"Remove {members[-1].label}, or move it to another force.",
                    organisation.key,
                    members[-1],
                    organisation.name,
                )
            )
    return findings


def _asked_by_an_officer_slot(roster: RosterSnapshot, force: ForceInfo, group: LimitedGroup, units: list) -> bool:
    """A least number of officers the organisation's own officer slot asks for as well, and lacks too (the
    rulebook's Lieutenant beside the data's Officer entry): that slot's finding says it, so it is said once."""
    ranks = {rank for unit_type in group.unit_types for rank in (unit_type.officer_rank, *unit_type.officer_ranks)}
    ranks.discard(None)
    for slot in force.organisation.slots:
        asked = isinstance(slot.min, int) and slot.min >= group.limit.min
        if slot.ranks_counted and ranks and ranks <= set(slot.ranks_counted) and asked:
            return slot_taken(roster, slot, units) < slot.min
    return False
