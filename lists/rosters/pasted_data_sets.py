"""A pasted BattleScribe or New Recruit list of a loaded BattleScribe data set, rebuilt by the engine by name.

The data set is the one loaded with a catalogue of the force heading's name (the newest revision); each
force is added by its entry's name, each selection chosen by name among what the engine offers at its
place (the defaults BattleScribe selects on its own are taken as the text's where it lists them), and
its number set. The roster is then written as .ros and read back as any file of the data set
(`battlescribe_data_rosters.read_data_set_roster`): the engine prices and judges it. What matches no
entry stays out, each with its line and why.
"""

from __future__ import annotations

from lists import models
from lists.battlescribe.engine import Roster, write_roster_xml
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.rosters.battlescribe_data_rosters import DataSetRoster, read_data_set_roster
from lists.rosters.format import MAX_UNITS, Problem, RosterFileInvalid
from lists.rosters.pasted_text import PastedList, PastedSelection, names_entry, normal, regrouped

MAX_NUMBER = 1000  # a pasted number above any list's is read as this, and the engine's checks say so


def data_set_of(pasted: PastedList) -> models.BattleScribeDataSet | None:
    """The newest loaded data set with a catalogue a force heading names (and of the game a roster line names)."""
    names = {normal(force.catalogue) for force in pasted.forces if force.catalogue}
    found = []
    for catalogue in models.BattleScribeCatalogue.objects.filter(is_game_system=False).select_related("data_set"):
        if normal(catalogue.name) in names:
            found.append(catalogue.data_set)
    if pasted.game:
        found = [data_set for data_set in found if normal(data_set.name) == normal(pasted.game)] or found
    return max(found, key=lambda data_set: (data_set.revision, data_set.loaded_at, data_set.pk), default=None)


class DataSetPaste:
    """A pasted list of a data set rebuilt by the engine; `unread(line, message)` is told what stays out."""

    def __init__(self, pasted: PastedList, data_set: models.BattleScribeDataSet, unread):
        self.pasted, self.data_set, self.unread = pasted, data_set, unread
        self.data = battlescribe_game_data(data_set)
        self.roster = Roster(self.data, (pasted.name or "Pasted list")[:200])
        self.roster.roots_auto_selected = True  # the text lists what BattleScribe selected by itself
        self.unit_points: list[float | None] = []  # the text's points of each unit placed, in roster order

    def read(self) -> DataSetRoster:
        with self.roster.action():
            for force in self.pasted.forces:
                self._force(force)
        self.roster.refresh()
        found = read_data_set_roster(write_roster_xml(self.roster, with_info=False).encode(), self.data_set)
        tops = [top for force in found.roster.all_forces() for top in force.selections]
        found.file_units = {
            found.labels[id(top)]: points
            for top, points in zip(tops, self.unit_points, strict=False)
            if points is not None
        }
        total = self.pasted.total
        found.file_total = float(total) if total is not None else sum(p for p in self.unit_points if p is not None)
        return found

    def _force(self, pasted_force) -> None:
        catalogue = next((c for c in self.data.catalogues if normal(c.name) == normal(pasted_force.catalogue)), None)
        if catalogue is None:
            self.unread(pasted_force.line, f"{pasted_force.catalogue!r} is not a catalogue of {self.data_set.name}")
            return
        entries = sorted(self.data.force_entries.values(), key=lambda entry: -len(entry.name))
        entry = next((e for e in entries if normal(e.name) == normal(pasted_force.name)), None)
        entry = entry or next((e for e in entries if normal(e.name) in normal(pasted_force.name)), None)
        if entry is None:
            self.unread(pasted_force.line, f"{pasted_force.name!r} is not a force of {self.data_set.name}")
            return
        force = self.roster.add_force(entry.id, catalogue.id)
        if normal(pasted_force.name) != normal(entry.name):
            force.custom_name = pasted_force.name[:120]
        taken: set[int] = set()
        for selection in pasted_force.selections:
            if len(self.unit_points) == MAX_UNITS:  # the cap every roster has, before the engine works on more
                message = f"more than {MAX_UNITS} units: a roster holds at most {MAX_UNITS}"
                raise RosterFileInvalid([Problem("", message, selection.line)])
            if self._place(force, selection, taken) is not None:
                self.unit_points.append(selection.points)

    def _place(self, parent, pasted: PastedSelection, taken: set[int]):
        """Select `pasted` under `parent` (or take the default BattleScribe selected there), then what is under it."""
        offered = self.roster.options_under(parent)
        for reading in pasted.readings():
            options = [o for o in offered if normal(o.name) == normal(reading.name)]
            options = options or [o for o in offered if names_entry(reading.name, o.name)]
            if options:
                pasted = reading
                break
        if not options:
            where = getattr(parent, "name", "") or "the force"
            self.unread(pasted.line, f"{pasted.name!r} is not offered under {where} in {self.data_set.name}")
            return None
        held = parent.children if hasattr(parent, "children") else parent.selections
        ids = {option.id for option in options}
        selection = next((s for s in held if s.option.id in ids and id(s) not in taken), None)
        if selection is None:
            selection = self.roster.select(parent, options[0])
        taken.add(id(selection))
        number = min(pasted.number, MAX_NUMBER)
        if selection.number != number:
            self.roster.set_count(selection, number)
        below: set[int] = set()
        offered_below = {normal(option.name) for option in self.roster.options_under(selection)}
        for child in regrouped(pasted.children, offered_below):
            self._place(selection, child, below)
        return selection
