"""The fingerprint of a roster of any BattleScribe data set: what its organiser's list prints.

It is printed as our own rosters' fingerprint is (`fingerprint.printed`: 160 bits of a SHA-256 in base
32, eight groups of four), over the roster's canonical content and the data it is judged by:

    SHA-256 of  "battlescribe:" + game system id + ":" + data digest + ":" + canonical JSON

The data digest is the loaded data set's (SHA-256 of its files' names and contents), so the same
roster judged against another revision of the data has another fingerprint. The canonical JSON
(keys sorted, UTF-8) holds the roster's name and cost limits (by cost type id), then each force in
file order: its force entry id, catalogue id, custom name and notes, its selections and child forces;
each selection: its entry id, entry group id, number, custom name and notes, and its selections in
order. Instance ids (which BattleScribe and our writer make anew on each save), the file's own costs,
profiles and rules (all recomputed from the data) are left out: a roster saved again by BattleScribe,
New Recruit or us keeps its fingerprint.
"""

from __future__ import annotations

import hashlib
import json

from lists.battlescribe.engine import Force, Roster, Selection
from lists.rosters.fingerprint import printed


def _text(value: str | None) -> str:
    return (value or "").strip()


def _selection(selection: Selection) -> dict:
    return {
        "entry": selection.entry_id,
        "group": selection.entry_group_id or "",
        "number": selection.number,
        "name": _text(selection.custom_name),
        "notes": _text(selection.custom_notes),
        "selections": [_selection(child) for child in selection.children],
    }


def _force(force: Force) -> dict:
    return {
        "entry": force.entry.id,
        "catalogue": force.catalogue.id,
        "name": _text(force.custom_name),
        "notes": _text(force.custom_notes),
        "selections": [_selection(selection) for selection in force.selections],
        "forces": [_force(child) for child in force.forces],
    }


def canonical_content(roster: Roster) -> str:
    """The roster's canonical JSON (see the module)."""
    content = {
        "name": _text(roster.name),
        "cost_limits": {type_id: value for type_id, value in sorted(roster.cost_limits.items()) if value >= 0},
        "forces": [_force(force) for force in roster.forces],
    }
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def battlescribe_digest(roster: Roster, data_digest: str) -> str:
    """The full SHA-256 (hex) of the roster's canonical content and its data."""
    system = roster.data.game_system.id
    return hashlib.sha256(f"battlescribe:{system}:{data_digest}:{canonical_content(roster)}".encode()).hexdigest()


def battlescribe_fingerprint(roster: Roster, data_digest: str) -> str:
    """The printed fingerprint (ABCD-EFGH-...) of a BattleScribe roster judged against data of this digest."""
    return printed(battlescribe_digest(roster, data_digest))
