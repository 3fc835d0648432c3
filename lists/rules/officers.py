"""Officer ranks: a unit may only hold the ranks its entry and its slot allow."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error


def officer_rank_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    ranks = roster.system.ranks
    for unit in roster.units:
        rank = unit.rank
        if rank is None:
            continue
        rank_name = ranks[rank].name if rank in ranks else rank
        unit_type = unit.unit_type
        allowed = {r for r in (unit_type.officer_rank, *unit_type.officer_ranks) if r}
        allowed |= {option.officer_rank for option in unit_type.options.values() if option.officer_rank}
        if allowed and rank not in allowed:
            names = ", ".join(ranks[r].name if r in ranks else r for r in sorted(allowed))
            findings.append(
                error(
                    "officer.rank",
                    f"{unit.label} is a {rank_name}, a rank a {unit_type.name} cannot hold.",
                    f"Choose one of: {names}.",
                    rank,
                    unit,
                    rank_name,
                )
            )
            continue
        organisation = roster.organisation_of(unit)
        if organisation is None:
            continue
        for slot in organisation.slots:
            if unit_type.category in slot.categories and slot.officer_ranks and rank not in slot.officer_ranks:
                names = " or ".join(ranks[r].name if r in ranks else r for r in slot.officer_ranks)
                findings.append(
                    error(
                        "officer.rank",
                        f"{unit.label} is a {rank_name}; the {slot.name} of a {organisation.name} must be a {names}.",
                        f"Make {unit.label} a {names}, or take it in another slot.",
                        organisation.key,
                        unit,
                        organisation.name,
                    )
                )
    return findings
