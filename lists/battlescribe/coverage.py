"""How much of what a BattleScribe roster can hold the converted packs map, per army.

A chain is an entry a player can select in the data (battlescribe-ids.json's trees: every entry under a
root entry, and the root entries themselves). The packs map it where a roster file naming it is read
(lists/rosters/battlescribe_reading.py): a unit, a theatre list, an option of its unit, a quality, men, a
compulsory part or a default, the entry wrapping units (an officer entry holding his ranks), a set of
national rules and its root, and a root entry BattleScribe adds to every force. Anything else is an
exception, cited where the import report names its entry with a reason; an exception with no reason is
a gap of the converter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lists.battlescribe.entry_ids import GROUP_KIND, LEAST, NAME, NODE_ID, PARENT

ENTRY_ID = re.compile(r"^[0-9a-f]{4,8}(-[0-9a-f]{4,12}){2,4}$")
READ_AS_PART = ("quality", "men", "default")  # kinds a file's selection is read as, not as an option


@dataclass
class Coverage:
    """One army's selectable chains: how many, how many mapped, and the others with their reason (or none)."""

    army: str
    chains: int = 0
    mapped: int = 0
    exceptions: list[tuple[str, str, str]] = field(default_factory=list)  # chain, name, reason ("" uncited)

    @property
    def uncited(self) -> list[tuple[str, str, str]]:
        return [exception for exception in self.exceptions if not exception[2]]

    @property
    def share(self) -> float:
        return 100.0 * self.mapped / self.chains if self.chains else 100.0


def coverage(document: dict, reasons: dict[str, str]) -> list[Coverage]:
    """Each army's coverage from the ids file's `document`; `reasons` maps entry ids the import report names
    (skipped, or with no effect in BattleScribe) to why."""
    found = []
    for nation, roots in sorted(document.get("roots", {}).items()):
        army = Coverage(nation)
        units = [unit for unit in document.get("units", {}).values() if unit["catalogue"] == nation]
        armies = [a["chain"] for a in document.get("armies", {}).values() if a["catalogue"] == nation]
        for root, tree in roots.items():
            _cover_tree(army, tree, [u for u in units if u["root"] == root], armies, reasons)
        choices = {root for root, _, _ in document.get("rule_choices", {}).get(nation, {}).values()}
        picks = {chain for _, chain, _ in document.get("rule_choices", {}).get(nation, {}).values()}
        unit_entries = [chain.rsplit("::", 1)[-1] for chain in {*(unit["chain"] for unit in units), *roots}]
        for chain, (name, compulsory) in document.get("other_roots", {}).get(nation, {}).items():
            army.chains += 1
            # A unit's entry by another root link is read as that unit (lists/rosters/battlescribe_ids.py).
            if compulsory or chain in choices or unit_entries.count(chain.rsplit("::", 1)[-1]) == 1:
                army.mapped += 1
            else:
                army.exceptions.append((chain, name, _reason(chain, chain, reasons)))
        army.chains += len(picks)
        army.mapped += len(picks)
        found.append(army)
    return found


def _cover_tree(army: Coverage, tree: dict, units: list[dict], armies: list[str], reasons: dict[str, str]) -> None:
    """Count one root entry's tree: its units' contents as the reader reads them, the wrappers above them; an
    entry left out is named once, with what it holds."""
    children: dict[str, list[str]] = {}
    for chain, record in tree.items():
        children.setdefault(record[PARENT], []).append(chain)
    mapped: set[str] = set()
    unit_chains = {unit["chain"] for unit in units}
    for unit in units:
        options = {row[1] for row in unit["options"]}
        pending = [unit["chain"]] if unit["chain"] in tree else []
        # What the entry wrapping it holds beside its units is read as the unit's (a Medic Team's Veteran Soldier).
        wrapper = tree[unit["chain"]][PARENT] if pending else ""
        pending += [c for c in children.get(wrapper, []) if not _holds_unit(tree, c, unit_chains)]
        while pending:
            chain = pending.pop()
            record = tree[chain]
            if chain != unit["chain"] and record[NODE_ID] in options:
                mapped |= _branch(chain, children)  # what an option holds (its weapon) is part of it
            elif chain == unit["chain"] or record[GROUP_KIND] in READ_AS_PART or record[LEAST] >= 1:
                mapped.add(chain)
                pending += [c for c in children.get(chain, []) if c not in mapped]
    for chain in [*(u["chain"] for u in units), *armies]:
        up = chain
        while up in tree:  # a theatre list, and the wrappers a unit or a theatre list sits in
            mapped.add(up)
            up = tree[up][PARENT]
    named: set[str] = set()
    for chain, record in tree.items():
        army.chains += 1
        if chain in mapped:
            army.mapped += 1
        elif record[PARENT] not in tree or record[PARENT] in mapped:
            army.exceptions.append((chain, record[NAME], _reason(chain, record[NODE_ID], reasons)))
            named |= _branch(chain, children)


def _holds_unit(tree: dict, chain: str, unit_chains: set[str]) -> bool:
    """Whether an entry is one of the units or holds one (a rank under an officer entry)."""
    for unit in unit_chains:
        up = unit
        while up in tree:
            if up == chain:
                return True
            up = tree[up][PARENT]
    return False


def _branch(chain: str, children: dict[str, list[str]]) -> set[str]:
    """A chain and every chain under it."""
    found, pending = set(), [chain]
    while pending:
        current = pending.pop()
        if current not in found:
            found.add(current)
            pending += children.get(current, [])
    return found


def _reason(chain: str, node_id: str, reasons: dict[str, str]) -> str:
    """Why the import report left this entry out, by any id on its chain, its own first."""
    for entry_id in [node_id, *reversed(chain.split("::"))]:
        if entry_id in reasons:
            return reasons[entry_id]
    return ""


def coverage_lines(found: list[Coverage]) -> list[str]:
    """The import report's section: per army, the chains, the share mapped and the exceptions by reason."""
    lines = ["| army | chains | mapped | exceptions cited | not cited |", "|---|---:|---:|---:|---:|"]
    for army in found:
        cited = len(army.exceptions) - len(army.uncited)
        lines.append(f"| {army.army} | {army.chains} | {army.share:.1f}% | {cited} | {len(army.uncited)} |")
    lines += ["", "| army | chain | entry | why not mapped |", "|---|---|---|---|"]
    for army in found:
        lines += [f"| {army.army} | {chain} | {name} | {why or 'NOT CITED'} |" for chain, name, why in army.exceptions]
    return lines


def cited_reasons(report: str) -> dict[str, str]:
    """Entry id -> why, from an import report's tables of entries left out (where | id | why)."""
    reasons: dict[str, str] = {}
    for line in report.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and ENTRY_ID.match(cells[1]):
            reasons.setdefault(cells[1], cells[2])
    return reasons
