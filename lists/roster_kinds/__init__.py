"""Kinds of roster behind the one roster interface (`base`): rosters of our packs (`packs`) and of loaded
BattleScribe data sets (`data_sets`, shaped for pages by `data_set_shape`). This registry picks the
implementation, by the kind's name (as the URL conf and a PDF job give it), the stored row, or what a file
was read into: it is the one place that tells the kinds apart. A third kind of roster is a third module here.

May import: `lists.cards`, `lists.rosters`, `lists.rules`, `lists.gamedata`, `lists.battlescribe`,
`lists.models` (never `lists.pdfs`, `lists.events` or `lists.web`).
"""

from __future__ import annotations

from lists import models
from lists.roster_kinds import data_sets, packs
from lists.roster_kinds.base import FileUnavailable, OpenRoster, RenderRefused, RosterFile, RosterKind, RosterXml
from lists.rosters.files import DataSetRoster, ResolvedRoster

__all__ = ["FileUnavailable", "OpenRoster", "RenderRefused", "RosterFile", "RosterKind", "RosterXml"]

PACKS, DATA_SET = packs.NAME, data_sets.NAME
KINDS: dict[str, RosterKind] = {PACKS: packs.PackRosters(), DATA_SET: data_sets.DataSetRosters()}
_OPENED_BY_ROW = {models.Roster: packs.PackRoster, models.BattleScribeRoster: data_sets.DataSetRosterOpened}
_KEPT_BY_READING = {ResolvedRoster: packs.keep_imported, DataSetRoster: data_sets.keep_imported}
_REPORTED_BY_READING = {ResolvedRoster: packs.import_report, DataSetRoster: data_sets.import_report}


def kind_named(name: str) -> RosterKind:
    """The kind of roster of this name (KeyError for none)."""
    return KINDS[name]


def opened(row) -> OpenRoster:
    """A stored roster row of any kind, opened."""
    return _OPENED_BY_ROW[type(row)](row)


def keep_imported(read, secret_hash: str) -> OpenRoster:
    """A roster file's reading (`lists.rosters.files.load_any_roster_file`) stored as a roster of its kind;
    RosterFileInvalid when it is over what a roster may hold."""
    return _KEPT_BY_READING[type(read)](read, secret_hash)


def import_report(read, unread: bool) -> dict | None:
    """What the page after importing a file says of it (`name`, `points`, and `report`: the file's own total
    beside ours), None when there is nothing to say; `unread`: some lines of a paste were not read."""
    return _REPORTED_BY_READING[type(read)](read, unread)
