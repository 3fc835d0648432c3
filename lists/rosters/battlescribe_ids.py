"""The BattleScribe ids of the converted Bolt Action armies, as lists/battlescribe/entry_ids.py wrote them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

IDS_FILE = Path(__file__).resolve().parent.parent / "packs" / "bolt-action-2e" / "armies" / "battlescribe-ids.json"
GAME_KEY = "bolt-action-2e"
# Record fields of a tree entry (see entry_ids._walk).
NODE_ID, NAME, TYPE, GROUP, GROUP_KIND, LEAST, MOST, PARENT, COST = range(9)


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


def tree(nation: str, root_chain: str) -> dict[str, list]:
    return ids().get("roots", {}).get(nation, {}).get(root_chain, {})
