"""Transports: who may carry whom, and how much.

The one place this is decided. A carrier with a capacity counts figures of men
(trucks, jeeps, tanks in Heroes All) or vehicles and guns (the LCT-4); a
carrier with none may still take riders where the pack's `rides` allow it
(Action All Fronts 11.5: one squad or platoon HQ per tank). The editor offers
exactly the carriers `transport_candidates` returns.
"""

from __future__ import annotations

from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rules.finding import Finding, error

VEHICLE_ROLES = {"vehicle"}
CARGO_ROLES = {"vehicle", "gun"}


def _has_vehicle(unit: UnitChoice) -> bool:
    return any(line.count for line in unit.models() if line.role in VEHICLE_ROLES)


def load(carrier: UnitChoice, passenger: UnitChoice) -> int:
    """The room a passenger takes in a carrier, in what the carrier's capacity counts."""
    if carrier.unit_type.capacity_counts == "vehicles-and-guns":
        return sum(line.count for line in passenger.models() if line.role in CARGO_ROLES)
    return passenger.men


def ride_rule(roster: RosterSnapshot, carrier: UnitChoice, passenger: UnitChoice) -> dict | None:
    """The pack's ride rule letting a carrier without a capacity take this passenger, if any."""
    for ride in roster.system.config.get("rides") or []:
        if carrier.unit_type.category in ride["carriers"] and passenger.unit_type.category in ride["passengers"]:
            return ride
    return None


def _carried_by(roster: RosterSnapshot, unit: UnitChoice) -> UnitChoice | None:
    if unit.transport is None or not 0 <= unit.transport < len(roster.units):
        return None
    return roster.units[unit.transport]


def refusal(roster: RosterSnapshot, carrier: UnitChoice, passenger: UnitChoice) -> str | None:
    """Why `carrier` may not carry `passenger`, in words; None if it may (room aside)."""
    if carrier is passenger:
        return f"{passenger.label} cannot carry itself."
    if not any(line.men or (line.count and line.role in CARGO_ROLES) for line in passenger.models()):
        return f"{passenger.label} has nothing a transport could carry."
    # Two units may not carry each other, directly or along a chain.
    seen = {carrier.index}
    above = _carried_by(roster, carrier)
    while above is not None and above.index not in seen:
        if above is passenger:
            return f"{carrier.label} already rides in {passenger.label}: two units cannot carry each other."
        seen.add(above.index)
        above = _carried_by(roster, above)
    unit_type = carrier.unit_type
    if unit_type.transport_capacity is None:
        if ride_rule(roster, carrier, passenger) is None:
            return f"{carrier.label} is not a transport for a {passenger.unit_type.category_name}."
        return None
    if unit_type.capacity_counts == "vehicles-and-guns":
        if not load(carrier, passenger):
            return f"{carrier.label} carries vehicles and guns only; {passenger.label} has neither."
    elif _has_vehicle(passenger):
        return f"{passenger.label} is a vehicle and cannot ride in {carrier.label}, which carries men."
    return None


def transport_candidates(roster: RosterSnapshot, unit: UnitChoice) -> list[UnitChoice]:
    """The roster units that may carry `unit` (whether they have room left is a finding, not a refusal)."""
    return [carrier for carrier in roster.units if refusal(roster, carrier, unit) is None]


def transport_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    aboard: dict[int, list[UnitChoice]] = {}
    for unit in roster.units:
        if unit.transport is None:
            continue
        carrier = _carried_by(roster, unit)
        reason = "it is not in the roster." if carrier is None else refusal(roster, carrier, unit)
        if reason is not None:
            findings.append(
                error(
                    "transport.not_allowed",
                    f"{unit.label} cannot ride in its transport: {reason}",
                    "Choose a transport that may carry it, or none.",
                    "transport",
                    unit,
                    "Transport",
                )
            )
            continue
        aboard.setdefault(carrier.index, []).append(unit)
    for index, passengers in aboard.items():
        carrier = roster.units[index]
        capacity = carrier.unit_type.transport_capacity
        if capacity is None:
            ride = ride_rule(roster, carrier, passengers[0])
            most = ride["units_per_carrier"]
            if len(passengers) > most:
                rule = roster.system.rules.get(ride["rule"])
                findings.append(
                    error(
                        "transport.capacity",
                        f"{carrier.label} carries {len(passengers)} units; it may carry {most}.",
                        f"Put {len(passengers) - most} of them on another vehicle.",
                        ride["rule"],
                        carrier,
                        rule.name if rule else ride["rule"],
                    )
                )
            continue
        taken = sum(load(carrier, passenger) for passenger in passengers)
        what = "vehicles and guns" if carrier.unit_type.capacity_counts == "vehicles-and-guns" else "men"
        if taken > capacity:
            findings.append(
                error(
                    "transport.capacity",
                    f"{carrier.label} carries {taken} {what}; it has room for {capacity}.",
                    f"Move {taken - capacity} {what} to another transport, or take a bigger one.",
                    "transport",
                    carrier,
                    "Transport",
                )
            )
    return findings
