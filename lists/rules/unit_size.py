"""Unit size and options: men within the entry's range, options within their limits."""

from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rules.finding import Finding, counted, error


def _size_fix(span: str, added: int) -> str:
    """How to fix a size: the men options add (a Soldier with LMG) count as members too."""
    if not added:
        return f"Set its size to {span}."
    return f"Change its size or options so it has {span} men, counting the {added} its options add."


def _size_findings(unit: UnitChoice) -> list[Finding]:
    """The unit's men against its size range, and its own men against the least it keeps of its own."""
    findings: list[Finding] = []
    unit_type = unit.unit_type
    size = unit.size_counted
    low, high = unit_type.size_range(unit.quality)
    if (low is not None and size < low) or (high is not None and size > high):
        span = (
            f"{low}–{high}" if low is not None and high is not None else f"at least {low}" if low else f"at most {high}"
        )
        findings.append(
            error(
                "unit.size",
                f"{unit.label} has {size} men; a {unit_type.name} has {span}.",
                _size_fix(span, unit.added_in_size),
                unit_type.key,
                unit,
                unit_type.name,
            )
        )
    own_least = unit_type.min_own_size(unit.quality)
    if unit.size is not None and unit.size < own_least and unit.added_in_size:
        findings.append(
            error(
                "unit.size",
                f"{unit.label} has {unit.size} men of its own beside the {unit.added_in_size} its options add; "
                f"a {unit_type.name} keeps at least {own_least} of its own.",
                f"Set its size to at least {own_least}: the men its options add come on top.",
                unit_type.key,
                unit,
                unit_type.name,
            )
        )
    return findings


def unit_size_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    for unit in roster.units:
        unit_type = unit.unit_type
        findings += _size_findings(unit)
        findings += _required_options(roster, unit)
        findings += _shared_limits(unit)
        groups: dict[str, list[str]] = {}
        for option, count in unit.chosen_options:
            most, why = _option_most(roster, unit, option)
            if option.min_if_taken and count < option.min_if_taken:
                findings.append(
                    error(
                        "option.too_few",
                        f"{unit.label} takes {option.name} {count} times; taken at all, it is taken"
                        f" {option.min_if_taken} times.",
                        f"Take it {option.min_if_taken} times, or drop it.",
                        unit_type.key,
                        unit,
                        unit_type.name,
                    )
                )
            if most is not None and count > most:
                findings.append(
                    error(
                        "option.too_many",
                        f"{unit.label} takes {option.name} {count} times; at most {most} allowed{why}.",
                        f"Take it {'once' if most == 1 else counted(most, 'time')} or fewer.",
                        unit_type.key,
                        unit,
                        unit_type.name,
                    )
                )
            if option.per == "model" and not option.every_man and count > unit.men:
                findings.append(
                    error(
                        "option.too_many",
                        f"{unit.label} gives {option.name} to {count} men but has only {unit.men}.",
                        f"Give it to {unit.men} men or fewer.",
                        unit_type.key,
                        unit,
                        unit_type.name,
                    )
                )
            if option.armies and roster.army_key not in option.armies:
                findings.append(
                    error(
                        "option.not_allowed",
                        f"{unit.label} takes {option.name}, which only the {', '.join(option.armies)} army may take.",
                        f"Drop {option.name}.",
                        unit_type.key,
                        unit,
                        unit_type.name,
                    )
                )
            if option.group:
                groups.setdefault(option.group, []).append(option.name)
        taken = {option.key: option.name for option, count in unit.chosen_options if count}
        for option, count in unit.chosen_options:
            for other in option.excludes:  # a pair the data forbids outside any group, named once
                if count and other in taken:
                    groups["excludes " + " ".join(sorted([option.key, other]))] = [option.name, taken[other]]
        for names in groups.values():
            if len(names) > 1:
                findings.append(
                    error(
                        "option.exclusive",
                        f"{unit.label} takes {' and '.join(names)}, which exclude each other.",
                        "Keep only one of them.",
                        unit_type.key,
                        unit,
                        unit_type.name,
                    )
                )
    return findings


def _shared_limits(unit) -> list[Finding]:
    """Options sharing one limit of the unit (an officer's Additional Men: three in all), taken too often."""
    findings = []
    for key, limit in unit.unit_type.shared_limits.items():
        sharing = [(option, count) for option, count in unit.chosen_options if option.shares == key and count]
        taken = sum(count for _, count in sharing)
        if taken > limit["max"]:
            names = ", ".join(option.name for option, _ in sharing)
            findings.append(
                error(
                    "option.too_many",
                    f"{unit.label} takes {taken} of its {limit['name']} ({names}); at most {limit['max']} in all.",
                    f"Take {limit['max']} or fewer of them.",
                    unit.unit_type.key,
                    unit,
                    unit.unit_type.name,
                )
            )
    return findings


def _option_most(roster: RosterSnapshot, unit, option) -> tuple[int | None, str]:
    """How often a unit may take an option here, and why when not its own limit: a unit of its quality or
    the roster's army list may lower it (`quality_max`, `max_in`), another option taken may raise it."""
    most, why = option.max, ""
    lower = [(option.quality_max.get(unit.quality), f" for a {unit.quality} unit")]
    lower.append((option.max_in.get(roster.army_key), f" in the {roster.army_name} list"))
    for limit, reason in lower:
        if limit is not None and (most is None or limit < most):
            most, why = limit, reason
    raised = [m for other, m in option.max_with.items() if unit.options.get(other)]
    if raised and most is not None and max(raised) > most:
        most, why = max(raised), ""  # a greater number while another option is taken
    return most, why


def _required_options(roster: RosterSnapshot, unit) -> list[Finding]:
    """Options the roster's army list makes compulsory for the unit (`least_in`), taken too seldom."""
    taken = {option.key: count for option, count in unit.chosen_options}
    findings = []
    for option in unit.unit_type.options.values():
        least = option.least_in.get(roster.army_key, 0)
        if least and taken.get(option.key, 0) < least:
            findings.append(
                error(
                    "option.required",
                    f"{unit.label} must take {option.name}"
                    + (f" {counted(least, 'time')}" if least > 1 else "")
                    + f" in the {roster.army_name} list.",
                    f"Take {option.name}, or pick another unit.",
                    unit.unit_type.key,
                    unit,
                    unit.unit_type.name,
                )
            )
    return findings
