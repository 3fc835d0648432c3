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


@cache
def unit_by_chain() -> dict[str, str]:
    """Our unit key for each unit's entry-id chain."""
    return {unit["chain"]: key for key, unit in ids().get("units", {}).items()}


@cache
def army_by_chain() -> dict[str, str]:
    """Our theatre list key for each theatre selector's entry-id chain."""
    return {army["chain"]: key for key, army in ids().get("armies", {}).items()}


@cache
def organisation_by_id() -> dict[str, str]:
    """Our organisation key for each force entry id (the first, where two share one)."""
    found: dict[str, str] = {}
    for key, source_id in ids().get("organisations", {}).items():
        found.setdefault(source_id, key)
    return found


def tree(root_chain: str) -> dict[str, list]:
    return ids().get("roots", {}).get(root_chain, {})
