"""The BattleScribe ids of the converted Bolt Action armies, as lists/battlescribe/entry_ids.py wrote them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from lists.battlescribe.entry_ids import COST, GROUP, GROUP_KIND, LEAST, MOST, NAME, NODE_ID, PARENT, TYPE  # noqa: F401

IDS_FILE = Path(__file__).resolve().parent.parent / "packs" / "bolt-action-2e" / "armies" / "battlescribe-ids.json"
GAME_KEY = "bolt-action-2e"
RULE_CHOICE_SETTING = "national-rules"  # the pack's setting naming the set of national rules a roster plays


@cache
def ids() -> dict:
    """The ids file, read once; empty where the packs carry none."""
    if not IDS_FILE.exists():
        return {}
    return json.loads(IDS_FILE.read_text())


# Catalogues copied from one another keep the same ids: every lookup is within one catalogue (nation).


@cache
def units_by_chain() -> dict[tuple[str, str], list[str]]:
    """Our unit keys for each (nation, entry-id chain): several where the data lists an entry under two categories."""
    found: dict[tuple[str, str], list[str]] = {}
    for key, unit in ids().get("units", {}).items():
        found.setdefault((unit["catalogue"], unit["chain"]), []).append(key)
    return found


@cache
def army_by_chain() -> dict[tuple[str, str], str]:
    """Our theatre list key for each (nation, theatre selector's entry-id chain)."""
    return {(army["catalogue"], army["chain"]): key for key, army in ids().get("armies", {}).items()}


@cache
def nation_by_catalogue_id() -> dict[str, str]:
    return {catalogue["id"]: nation for nation, catalogue in ids().get("catalogues", {}).items()}


@cache
def organisation_by_id() -> dict[str, str]:
    """Our organisation key for each force entry id (the first, where two share one)."""
    found: dict[str, str] = {}
    for key, source_id in ids().get("organisations", {}).items():
        found.setdefault(source_id, key)
    return found


def last_id(chain: str) -> str:
    """The entry's own id: a chain's last segment."""
    return chain.rsplit("::", 1)[-1]


@cache
def top_chains() -> dict[tuple[str, str], list[str]]:
    """The chains a force's selections may name (units, theatre lists, root entries) by (nation, entry id): a
    file reaching an entry by another link path than ours names it by a chain we do not know."""
    found: dict[tuple[str, str], list[str]] = {}
    known = ids()
    chains = [(unit["catalogue"], unit["chain"]) for unit in known.get("units", {}).values()]
    chains += [(army["catalogue"], army["chain"]) for army in known.get("armies", {}).values()]
    chains += [(nation, chain) for nation, roots in known.get("roots", {}).items() for chain in roots]
    chains += [(nation, chain) for nation, roots in known.get("other_roots", {}).items() for chain in roots]
    for nation, chain in chains:
        listed = found.setdefault((nation, last_id(chain)), [])
        if chain not in listed:
            listed.append(chain)
    return found


def known_chain(nation: str, chain: str) -> str:
    """The chain of ours a force's selection names: its own, or the one chain of ours ending in the same entry."""
    if (nation, chain) in units_by_chain() or (nation, chain) in army_by_chain():
        return chain
    other = ids().get("other_roots", {}).get(nation, {})
    if chain in other and not other[chain][1]:
        # The entry of one of our units (or of the entry holding them) by another root link, Italy's Infantry
        # Section shown in the game system's Reinforced Platoon: read as ours.
        roots = ids().get("roots", {}).get(nation, {})
        same = top_chains().get((nation, last_id(chain)), [])
        ours = [c for c in same if (nation, c) in units_by_chain() or c in roots]
        if len(ours) == 1:
            return ours[0]
    if chain in ids().get("roots", {}).get(nation, {}) or chain in other:
        return chain
    candidates = top_chains().get((nation, last_id(chain)), [])
    return candidates[0] if len(candidates) == 1 else chain


def record_chain(tree: dict[str, list], chain: str, parent: str) -> str | None:
    """The chain of a unit's tree a selection under `parent` names: its own, or else the one chain of the
    tree ending in the same entry (under the same parent where several do)."""
    if chain in tree:
        return chain
    candidates = [c for c in tree if last_id(c) == last_id(chain)]
    if len(candidates) > 1:
        candidates = [c for c in candidates if tree[c][PARENT] == parent]
    return candidates[0] if len(candidates) == 1 else None


def tree(nation: str, root_chain: str) -> dict[str, list]:
    return ids().get("roots", {}).get(nation, {}).get(root_chain, {})
