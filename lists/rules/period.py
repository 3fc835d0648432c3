"""Service dates and war periods: nothing fights before it entered service (or after it left)."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, error
from lists.rules.pricing import period_factor, unit_service_period


def _in_service(year: int | None, start: int | None, end: int | None) -> bool:
    return year is None or ((start is None or year >= start) and (end is None or year <= end))


def _dates(start: int | None, end: int | None) -> str:
    if start and end:
        return f"{start} to {end}"
    return f"from {start}" if start else f"until {end}"


def period_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    year = roster.year
    period_names = {period["key"]: period["name"] for period in roster.system.periods}
    game_period = roster.game_period
    if period_names and game_period is None:
        # Without a period, period costs and service dates cannot be applied: say so rather than skip them.
        findings.append(
            error(
                "period.missing",
                (
                    f"{year} falls in no war period of {roster.system.name}"
                    if year
                    else "The roster has no year or war period"
                )
                + "; costs and service dates that depend on it cannot be checked.",
                f"Set the roster's year or choose a period: {', '.join(period_names.values())}.",
                "periods",
                None,
                "War periods",
            )
        )
    for unit in roster.units:
        unit_type = unit.unit_type
        # Where the game prices a category by war period, that table (not the dates) says what may be used.
        priced_by_period = unit_type.category in (roster.system.config.get("period_costs") or {}).get("applies_to", [])
        if not priced_by_period and not _in_service(year, unit_type.service_start, unit_type.service_end):
            findings.append(
                error(
                    "period.unavailable",
                    f"{unit.label} is in service {_dates(unit_type.service_start, unit_type.service_end)}; the roster is set in {year}.",
                    "Remove it, or set the roster in a year it served.",
                    unit_type.key,
                    unit,
                    unit_type.name,
                )
            )
        elif period_factor(roster, unit) is None:
            service = unit_service_period(roster, unit)
            findings.append(
                error(
                    "period.unavailable",
                    f"{unit.label} entered service in the {period_names.get(service, service)} period and cannot be used "
                    f"in the {period_names.get(game_period, game_period)} period.",
                    "Remove it, or set the roster in a later period.",
                    "period-costs",
                    unit,
                    "War periods",
                )
            )
        for option, _ in unit.chosen_options:
            too_early = (
                option.service_period
                and game_period
                and _period_index(roster, option.service_period) > _period_index(roster, game_period)
            )
            if not _in_service(year, option.service_start, option.service_end) or too_early:
                when = (
                    _dates(option.service_start, option.service_end)
                    if option.service_start or option.service_end
                    else f"from the {period_names.get(option.service_period, option.service_period)} period"
                )
                findings.append(
                    error(
                        "period.unavailable",
                        f"{unit.label}: {option.name} is available {when}; the roster is set in {year or period_names.get(game_period, game_period)}.",
                        f"Drop {option.name}, or set the roster later.",
                        unit_type.key,
                        unit,
                        unit_type.name,
                    )
                )
    return findings


def _period_index(roster: RosterSnapshot, key: str) -> int:
    keys = [period["key"] for period in roster.system.periods]
    return keys.index(key) if key in keys else -1
