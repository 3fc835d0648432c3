"""Rosters of loaded BattleScribe data sets through the one roster interface: the engine judges them.

A stored roster (`models.BattleScribeRoster`) is opened as the engine's roster once (from the process's
recent rosters, else its XML) and judged from it: its PDFs are made of the stored roster itself, never of its
export read back through the upload limit (which a roster of some 70 units outgrows).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from lists import models
from lists.cards import Layout, battlescribe_cards
from lists.cards.layout import CACHE_SECONDS
from lists.roster_kinds.base import (
    BATTLESCRIBE_FORMATS,
    UNIT_CAP,
    Change,
    ChangeRefused,
    FileUnavailable,
    RenderRefused,
    RosterFile,
    RosterXml,
    StaleChange,
    StoredRoster,
    battlescribe_file,
)
from lists.roster_kinds.data_set_shape import roster_shape
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.battlescribe_data_rosters import DataSetRoster, primary_cost_type
from lists.rosters.battlescribe_fingerprint import battlescribe_fingerprint
from lists.rosters.files import MAX_UNITS, Problem, RosterFileInvalid, data_set_roster_document, dump_json, dump_yaml
from lists.rosters.numbers import whole_number
from lists.rosters.sharing import data_set_roster_for_edit, data_set_roster_for_share, new_share_id

NAME = "data-set"


def judged(roster, data_set: models.BattleScribeDataSet) -> DataSetRoster:
    """The engine's roster with what its verdict, cards and list need (its units' labels)."""
    found = DataSetRoster(roster, data_set, data_set.revision, primary_cost_type(roster.data))
    found.label_units()
    return found


def units_of(roster) -> int:
    """Its units: the top-level selections of its forces and child forces."""
    return sum(len(force.selections) for force in roster.all_forces())


@dataclass
class DataSetRosterOpened(StoredRoster):
    """A stored roster of a loaded BattleScribe data set."""

    row: models.BattleScribeRoster
    kind: str = NAME
    editor: str = "bs-edit"

    @cached_property
    def roster(self):
        return editing.open_roster(self.row)

    @cached_property
    def judged(self) -> DataSetRoster:
        return judged(self.roster, self.row.data_set)

    def share_url(self) -> str:
        return reverse("lists:bs-share", args=[self.share_id])

    def game_line(self) -> str:
        return f"{self.row.data_set.name} r{self.row.data_set.revision}, {self.row.catalogue_name}"

    def unit_count(self) -> int:
        return editing.unit_count(self.row)

    def card_count(self) -> int:
        return battlescribe_cards.card_units(self.judged)

    def verdict(self) -> dict:
        return self.judged.verdict()

    def fingerprint(self) -> str:
        return battlescribe_fingerprint(self.roster, self.row.data_set.digest)

    def export(self, fmt: str) -> RosterFile:
        if fmt in {"json", "yaml"}:
            document = data_set_roster_document(self.roster, self.row.data_set)
            if fmt == "json":
                return RosterFile(dump_json(document), "application/json; charset=utf-8", ".json")
            return RosterFile(dump_yaml(document), "application/yaml; charset=utf-8", ".yaml")
        if fmt == "txt":
            shape = roster_shape(self.roster, with_offers=False)
            body = render_to_string("lists/battlescribe_roster.txt", {"kept": self.row, "shape": shape})
            return RosterFile(body.encode(), "text/plain; charset=utf-8", ".txt")
        if fmt in BATTLESCRIBE_FORMATS:
            return battlescribe_file(fmt, editing.export_xml(self.row).encode())
        raise FileUnavailable(f"No roster file of format {fmt[:20]!r}.")

    def listing(self) -> RosterXml:
        return RosterXml(self.row.ros_xml.encode())

    def apply(self, change: Change, version: int | None):
        """One engine action (`change.action` with its fields), each post checked against what the data offers
        there (`rosters.battlescribe_offers`), within the unit cap; the engine's roster as saved."""
        roster = editing.open_roster(self.row, to_change=True)
        try:
            with transaction.atomic():
                apply_action(roster, change.action, dict(change.fields))
                if not editing.save(self.row, roster, version):
                    raise StaleChange
        except editing.EditRefused as refused:
            raise ChangeRefused([str(refused)]) from None
        finally:
            self.__dict__.pop("roster", None)  # what was read before the change is not the roster now
            self.__dict__.pop("judged", None)
        return roster

    def copy(self, secret_hash: str) -> models.BattleScribeRoster:
        roster = editing.open_roster(self.row, to_change=True)  # its own copy: the recent one keeps its name
        roster.name = f"Copy of {self.row.name}"[: editing.MAX_NAME]
        return editing.keep_new(self.row.data_set, roster, new_share_id(), secret_hash)

    def pdf_key(self, what: str, layout: Layout) -> str:
        return battlescribe_cards.battlescribe_pdf_key(what, self.row, layout.link)

    def pdf_suffix(self, what: str, layout: Layout) -> str:
        return f"-{what}.pdf"  # one card size, chosen from the game's data

    def render_pdf(self, what: str, layout: Layout, version: int) -> bytes:
        """Cached under `pdf_key` for the version asked for: an edit since then is not printed under the old
        version's key (the page asking for the new one starts its own job)."""
        if self.version != version:
            raise RenderRefused(
                "the roster was changed after this PDF was asked for; try again to print it as it now is"
            )
        pdf = battlescribe_cards.battlescribe_pdf(what, self.judged, layout.link)
        cache.set(self.pdf_key(what, layout), pdf, CACHE_SECONDS)
        return pdf


def pair(value: str) -> tuple[int | None, str]:
    """A form value `data set id:BattleScribe id`, as the start form's choices are written."""
    head, _, tail = (value or "").partition(":")
    return whole_number(head, signed=True), tail


def start(catalogue: str, force: str, name: str, points_limit: str) -> tuple[models.BattleScribeDataSet, object]:
    """A new roster of a data set from the start form's values (an army, `data set id:catalogue id`, and its
    first force, `data set id:force entry id`): its data set and the engine's roster. ChangeRefused names
    every reason it cannot be started."""
    set_id, catalogue_id = pair(catalogue)
    force_set_id, force_entry_id = pair(force)
    found = models.BattleScribeDataSet.objects.filter(pk=set_id).first()
    problems = []
    if found is None:
        problems.append("Choose an army of a game loaded here.")
    elif force_set_id != set_id:
        problems.append(f"Choose a force of {found.name}: the force chosen is another game's.")
    limit_text = (points_limit or "").strip()
    limit = whole_number(limit_text, signed=True)
    if limit_text and limit is None:
        problems.append(f"The points limit is a whole number (or blank for none); {limit_text[:20]!r} is not.")
    if not problems:
        try:
            return found, editing.new_roster(found, catalogue_id, force_entry_id, name, limit)
        except editing.EditRefused as refused:
            problems.append(str(refused))
    raise ChangeRefused(problems)


def apply_action(roster, action: str, fields: dict) -> None:
    """One editor action, within the unit cap our rosters have (`MAX_UNITS`): a change that would take the
    roster past it is refused (EditRefused) with our editor's message."""
    before = units_of(roster)
    editing.apply(roster, action, fields)
    if units_of(roster) > max(before, MAX_UNITS):
        raise editing.EditRefused(UNIT_CAP)


def import_report(found: DataSetRoster, unread: bool) -> dict | None:
    """What the page after an import says of a data set's file: only a paste's unread lines stop it on the way
    to the editor (with the paste's own total, where it gave one)."""
    if not unread:
        return None
    document = found.verdict()
    report = {"total": document["file_points"], "units": []} if "file_points" in document else None
    return {"name": found.roster.name, "points": document["points"], "report": report}


def keep_imported(found: DataSetRoster, secret_hash: str) -> DataSetRosterOpened:
    """A roster read from a file, stored; one over the unit cap is refused as our rosters' files are."""
    if units_of(found.roster) > MAX_UNITS:
        raise RosterFileInvalid([Problem("", f"a roster holds at most {MAX_UNITS} units")])
    return DataSetRosterOpened(editing.keep_imported(found, new_share_id(), secret_hash))


class DataSetRosters:
    """The kind of loaded BattleScribe data sets' rosters."""

    name = NAME

    def open_shared(self, share_id: str) -> DataSetRosterOpened:
        return DataSetRosterOpened(data_set_roster_for_share(share_id))

    def open_for_edit(self, secret: str) -> DataSetRosterOpened:
        return DataSetRosterOpened(data_set_roster_for_edit(secret))
