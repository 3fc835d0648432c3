"""Transports: no more men aboard than the vehicle carries."""

from lists.rules.finding import Finding, error
from lists.snapshot import RosterSnapshot


def transport_findings(roster: RosterSnapshot) -> list[Finding]:
    findings: list[Finding] = []
    by_index = {unit.index: unit for unit in roster.units}
    aboard: dict[int, int] = {}
    for unit in roster.units:
        if unit.transport is None:
            continue
        carrier = by_index.get(unit.transport)
        if carrier is None or carrier is unit:
            findings.append(
                error(
                    "transport.capacity",
                    f"{unit.label} rides in a transport that is not in the roster.",
                    "Choose a transport from the roster, or none.",
                    "transport",
                    unit,
                    "Transport",
                )
            )
            continue
        aboard[carrier.index] = aboard.get(carrier.index, 0) + unit.men
    for index, men in aboard.items():
        carrier = by_index[index]
        capacity = carrier.unit_type.transport_capacity
        if capacity is None:
            findings.append(
                error(
                    "transport.capacity",
                    f"{carrier.label} carries {men} men but is not a transport.",
                    "Put the men in a vehicle that carries troops.",
                    "transport",
                    carrier,
                    "Transport",
                )
            )
        elif men > capacity:
            findings.append(
                error(
                    "transport.capacity",
                    f"{carrier.label} carries {men} men; it has room for {capacity}.",
                    f"Move {men - capacity} men to another transport, or take a bigger vehicle.",
                    "transport",
                    carrier,
                    "Transport",
                )
            )
    return findings
