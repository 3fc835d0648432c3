"""Roster files (.ros): writing a roster as BattleScribe does, and reading one back against the data."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .elements import Force
    from .gamedata import GameData
    from .roster import Roster


def write_roster_xml(roster: Roster) -> str:
    """The roster as .ros XML."""
    raise NotImplementedError("roster export")


def read_roster_xml(data: GameData, xml: str) -> Roster:
    """A roster read from .ros XML and linked to the data."""
    raise NotImplementedError("roster loading")


def duplicate_force(roster: Roster, force: Force) -> Force:
    """A copy of a force."""
    raise NotImplementedError("duplicate force")
