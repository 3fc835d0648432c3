"""BattleScribe rosters (`.ros`, `.rosz`) of any loaded data set, read and judged by our BattleScribe engine.

A roster names its game system (`gameSystemId`). Bolt Action 2nd edition, which our packs were
converted from, is read into our own rosters (`battlescribe_reading`); a roster of any other game
system is read here against the BattleScribe data set loaded for it (`load_battlescribe`): the one
of the revision the file names, else the newest loaded. The file is unzipped and parsed with the
same bounds as every roster file, each force and selection is linked to the data by its entry ids
(an id the data does not have refuses the file, named), and the engine evaluates the roster
afresh: every cost is recomputed, the file's own costs are only compared. The verdict is the
engine's validation errors. See docs/roster-format.md.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from lxml.etree import _Element as Element

from lists import models
from lists.battlescribe.engine import (
    Force,
    GameData,
    Roster,
    Selection,
    ValidationError,
    find_option,
    read_roster_tree,
    roster_errors,
)
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.rosters import battlescribe_ids
from lists.rosters.battlescribe_offers import listed_at_root
from lists.rosters.battlescribe_reading import (
    MAX_XML_BYTES,
    BattleScribeRefused,
    file_cost,
    items,
    local_name,
    parse_xml,
    tag,
    unzip,
)
from lists.rosters.format import MAX_FILE_BYTES, MAX_PROBLEMS, MAX_UNITS, Problem, RosterFileInvalid
from lists.rosters.numbers import decimal_number, whole_number
from lists.rosters.plain_names import plain_text
from lists.rules.validation import FORCES_MAX

MAX_NUMBER = 10_000  # a selection's number above any roster's: refused rather than evaluated
POINTS_NAMES = ("pts", "points", "point", "pt")  # a cost type by one of these names is the game's points
# Finding codes of the engine's validation errors, by where an error comes from (docs/roster-format.md).
CODE_CONSTRAINT = "battlescribe.constraint"
CODE_COST_LIMIT = "battlescribe.cost_limit"
CODE_HIDDEN = "battlescribe.hidden"
CODE_REVISION = "battlescribe.revision"
LOAD_HINT = "run `python manage.py load_battlescribe DIR` with its data"


def refused(*problems: str) -> RosterFileInvalid:
    return RosterFileInvalid([Problem("", problem) for problem in problems])


def read_root(raw: bytes) -> tuple[Element, bytes]:
    """The roster element and the XML it was read from (a .rosz unzipped within the limits); refused, why."""
    if len(raw) > MAX_FILE_BYTES:
        raise refused(f"the file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}")
    try:
        xml = unzip(raw) if raw[:4] == b"PK\x03\x04" else raw
        if len(xml) > MAX_XML_BYTES:
            raise BattleScribeRefused([f"the file is {len(xml)} bytes; the limit is {MAX_XML_BYTES}"])
        return parse_xml(xml), xml
    except BattleScribeRefused as invalid:
        raise RosterFileInvalid([Problem("", p) for p in invalid.problems], stopped=invalid.stopped) from None


def claimed_by_packs(game_system_id: str) -> bool:
    """Whether our packs were converted from this game system's data (Bolt Action 2nd edition)."""
    return battlescribe_ids.ids().get("game_system", {}).get("id") == game_system_id


def is_data_set_roster(root: Element) -> bool:
    """A roster our packs do not claim, of a game system a data set is loaded for."""
    system_id = root.get("gameSystemId") or ""
    return (
        not claimed_by_packs(system_id) and models.BattleScribeDataSet.objects.filter(game_system_id=system_id).exists()
    )


def data_set_for(game_system_id: str, revision: int | None) -> models.BattleScribeDataSet | None:
    """The data set loaded for a game system: of the file's revision if loaded, else the newest revision."""
    loaded = models.BattleScribeDataSet.objects.filter(game_system_id=game_system_id)
    if revision is not None:
        exact = loaded.filter(revision=revision).order_by("-loaded_at", "-pk").first()
        if exact is not None:
            return exact
    return loaded.order_by("-revision", "-loaded_at", "-pk").first()


def revision_of(root: Element) -> int | None:
    return whole_number(root.get("gameSystemRevision"), most=999_999_999)


def primary_cost_type(data: GameData) -> str | None:
    """The game's points: the first cost type named pts or points, else the first shown, else the first."""
    cost_types = data.cost_types  # the game system's first, in the data's order
    for cost_type in cost_types:
        if cost_type.name.strip().lower() in POINTS_NAMES:
            return cost_type.id
    candidates = [c for c in cost_types if not c.hidden] or cost_types
    return candidates[0].id if candidates else None


def number(value: float) -> int | float:
    """A cost as shown: whole numbers without a fraction, others to 15 significant digits."""
    rounded = float(f"{value:.15g}")
    return int(rounded) if rounded.is_integer() else rounded


@dataclass
class DataSetRoster:
    """A roster of a loaded BattleScribe data set, read and evaluated by the engine."""

    roster: Roster
    data_set: models.BattleScribeDataSet
    file_revision: int | None
    points_type: str | None
    file_total: float = 0.0  # the sum of every selection's own costs of the points type, as the file gives them
    file_units: dict[str, float] = field(default_factory=dict)  # label -> the file's points for the unit
    labels: dict[int, str] = field(default_factory=dict)  # id() of a top-level selection -> its label
    unread: list = field(default_factory=list)  # a pasted list's lines not read (lists/rosters/pasted_rosters.py)
    _units: tuple | None = field(default=None, repr=False)  # units_by_selection(), once the roster is read

    @property
    def game_name(self) -> str:
        return self.roster.data.game_system.name

    def label_units(self) -> None:
        """Each top-level selection's label, as validate_roster shows them: its name (or custom name), then
        "name (2)", "name (3)"... for the next ones of that name."""
        taken: set[str] = set()
        tried: dict[str, int] = {}  # a name -> the last number tried for it: a label once taken stays taken
        for force in self.roster.all_forces():
            for selection in force.selections:
                base = (selection.custom_name or "").strip() or selection.name
                count = tried.get(base, 1)
                label = base if count == 1 else f"{base} ({count})"
                while label in taken:
                    count += 1
                    label = f"{base} ({count})"
                tried[base] = count
                taken.add(label)
                self.labels[id(selection)] = label

    def errors(self) -> list[ValidationError]:
        return roster_errors(self.roster)

    def points_of(self, selection: Selection) -> int | float:
        if self.points_type is None:
            return 0
        return number(sum(s.costs.get(self.points_type, 0.0) for s in selection.walk()))

    def verdict(self) -> dict:
        """validate_roster's JSON (docs/roster-format.md): the contract's fields and the game system's."""
        errors = self.errors()
        totals = self.roster.totals
        names = {c.id: c.name for c in self.roster.data.cost_types}
        limit = self.roster.cost_limits.get(self.points_type or "", -1)
        findings = [self.finding(error) for error in errors]
        if self.file_revision is not None and self.file_revision != self.data_set.revision:
            findings.append(self.revision_warning())
        findings += [line.finding() for line in self.unread]
        document = {
            "valid": not errors,
            "points": number(totals.get(self.points_type or "", 0.0)),
            "points_limit": number(limit) if limit >= 0 else None,
            "order_dice": None,
            "findings": findings,
            "forces": self.forces(),
            "game_system": {
                "id": self.data_set.game_system_id,
                "name": self.data_set.name,
                "revision": self.data_set.revision,
                "file_revision": self.file_revision,
            },
            "cost_types": {names.get(type_id, type_id): number(value) for type_id, value in totals.items()},
        }
        if not math.isclose(self.file_total, totals.get(self.points_type or "", 0.0), abs_tol=1e-6):
            document["file_points"] = number(self.file_total)
        return document

    def forces(self) -> list[dict]:
        """Each force (child forces after their parents) with its force entry, points and top-level selections."""
        summary = []
        for force in self.roster.all_forces():
            units = []
            for selection in force.selections:
                label = self.labels[id(selection)]
                unit = {"label": label, "points": self.points_of(selection)}
                in_file = self.file_units.get(label)
                if in_file is not None and not math.isclose(in_file, unit["points"], abs_tol=1e-6):
                    unit["file_points"] = number(in_file)
                units.append(unit)
            name = (force.custom_name or "").strip() or force.catalogue.name
            points = number(sum(unit["points"] for unit in units))
            summary.append({"name": name, "organisation": force.name, "points": points, "units": units})
        return summary

    def finding(self, error: ValidationError) -> dict:
        if error.entry_id == "costLimits":
            code, rule = CODE_COST_LIMIT, error.constraint_id
        elif error.constraint_id == "hidden":
            code, rule = CODE_HIDDEN, error.entry_id
        else:
            code, rule = CODE_CONSTRAINT, error.constraint_id or error.entry_id
        return {
            "code": code,
            "severity": "error",
            "message": error.message,
            "unit": self.unit_of(error),
            "rule": rule,
        }

    def unit_of(self, error: ValidationError) -> str | None:
        """The label of the top-level selection an error concerns, or None (the roster's, a force's): the first
        holding the selection the error is on, or (a hidden entry's error) a selection of that entry."""
        if self._units is None:
            self._units = self.units_by_selection()
        by_id, by_entry = self._units
        found = []
        if error.owner_type == "selection" and error.owner_id in by_id:
            found.append(by_id[error.owner_id])
        if error.constraint_id == "hidden" and error.entry_id in by_entry:
            found.append(by_entry[error.entry_id])
        return min(found)[1] if found else None

    def units_by_selection(self) -> tuple[dict[str, tuple[int, str]], dict[str, tuple[int, str]]]:
        """Where each selection id and entry id is first met: (the place of its top-level selection, its label)."""
        by_id: dict[str, tuple[int, str]] = {}
        by_entry: dict[str, tuple[int, str]] = {}
        tops = (top for force in self.roster.all_forces() for top in force.selections)
        for place, top in enumerate(tops):
            unit = (place, self.labels[id(top)])
            for selection in top.walk():
                by_id.setdefault(selection.id, unit)
                by_entry.setdefault(selection.option.entry.id, unit)
        return by_id, by_entry

    def revision_warning(self) -> dict:
        return {
            "code": CODE_REVISION,
            "severity": "warning",
            "message": (
                f"The file was made with revision {self.file_revision} of {self.game_name}; "
                f"revision {self.data_set.revision}, the newest loaded, was used."
            ),
            "unit": None,
            "rule": self.data_set.game_system_id,
        }

    def text_lines(self, document: dict) -> list[str]:
        """validate_roster's text of its JSON `document` (`verdict()`): the verdict, the data set used, the
        forces, the findings."""
        system = document["game_system"]
        limit = f" / {document['points_limit']}" if document["points_limit"] is not None else ""
        lines = [
            f"{self.roster.name} ({system['name']}): {'legal' if document['valid'] else 'NOT legal'}",
            f"{document['points']}{limit} points",
            f"Checked by the BattleScribe engine against {system['name']} revision {system['revision']}"
            f" (data set {self.data_set.pk}).",
        ]
        if len(document["cost_types"]) > 1:
            lines.append("Costs: " + ", ".join(f"{value} {name}" for name, value in document["cost_types"].items()))
        for force in document["forces"]:
            lines.append(f"{force['name']} ({force['organisation']}): {force['points']} points")
            lines += [f"  {unit['points']:>5}  {unit['label']}" for unit in force["units"]]
        for finding in document["findings"]:
            where = f"[{finding['unit']}] " if finding["unit"] else ""
            lines.append(f"  {finding['severity']}: {where}{finding['message']} ({finding['code']} {finding['rule']})")
        if "file_points" in document:
            lines.append(
                f"The file's own total is {document['file_points']} points; the points above are ours, recomputed."
            )
        return lines


def read_data_set_roster(
    raw: bytes, data_set: models.BattleScribeDataSet | None = None, root: Element | None = None
) -> DataSetRoster:
    """A .ros/.rosz of a loaded data set, read by the engine; RosterFileInvalid names every reason it cannot be.

    The data set is the one loaded for the file's game system (`data_set_for`) unless the caller names one
    (a stored roster is pinned to the revision it was built with); `root` is the file's, where the caller
    has parsed it already (`read_root`): a file is parsed once."""
    root = read_root(raw)[0] if root is None else root
    system_id = root.get("gameSystemId") or ""
    if data_set is not None and data_set.game_system_id != system_id:
        raise refused(
            f"the roster is of game system {system_id or '(none named)'}, not {data_set.name} "
            f"({data_set.game_system_id}): open it with that game's data"
        )
    data_set = data_set or data_set_for(system_id, revision_of(root))
    if data_set is None:
        name = root.get("gameSystemName") or "no name given"
        raise refused(
            f"no BattleScribe data for game system {system_id or '(none named)'} ({name}) is loaded: {LOAD_HINT}"
        )
    data = battlescribe_game_data(data_set)
    where = f"{data_set.name} revision {data_set.revision}"
    problems: list[str] = []
    forces = list(_force_nodes(root))
    _check_unit_cap(forces)
    for node in forces:
        if len(problems) < MAX_PROBLEMS:
            _check_force_node(data, node, where, problems)
    for node in root.iter(tag("selection")):
        if len(problems) < MAX_PROBLEMS:
            _check_number(node, problems)
    _check_cost_limits(root, problems)
    _check_names(root, problems)
    if not forces:
        problems.append("the roster holds no force")
    if problems:
        raise refused(*problems[:MAX_PROBLEMS])
    renumber_duplicate_ids(root)
    try:
        roster = read_roster_tree(data, root)
    except (ValueError, KeyError) as exc:  # what the checks above leave to the engine's reading
        raise refused(f"the roster cannot be read against {where}: {exc}") from None
    _check_selections(root, roster, problems)
    if problems:
        raise refused(*problems[:MAX_PROBLEMS])
    found = DataSetRoster(roster, data_set, revision_of(root), primary_cost_type(data))
    _file_costs(found, root)
    return found


def _force_nodes(root: Element):
    """Every force element in document order, child forces after their parents; past FORCES_MAX (the most
    forces a roster of ours holds) the file is refused at once, before any more is read."""
    pending = items(root, "forces", "force", FORCES_MAX + 1)[::-1]
    read = 0
    while pending:
        node = pending.pop()
        read += 1
        if read > FORCES_MAX:
            raise refused(f"the roster holds more than {FORCES_MAX} forces, the most a roster holds")
        yield node
        pending.extend(items(node, "forces", "force", FORCES_MAX + 1)[::-1])


def _check_unit_cap(forces: list[Element]) -> None:
    """Refuse a file of more units (top-level selections of its forces) than any roster holds, counted in the
    parsed tree before anything else reads them: at most MAX_UNITS + 1 are looked at per force."""
    units = sum(len(items(node, "selections", "selection", MAX_UNITS + 1)) for node in forces)
    if units > MAX_UNITS:
        raise refused(f"the file holds more than {MAX_UNITS} units: a roster holds at most {MAX_UNITS} units")


def _check_force_node(data: GameData, node: Element, where: str, problems: list[str]) -> None:
    name = node.get("name") or "(no name)"
    if (node.get("entryId") or "") not in data.force_entries:
        problems.append(f"force {name} ({node.get('entryId') or 'no entryId'}): not a force entry of {where}")
    catalogue_id = node.get("catalogueId") or ""
    if catalogue_id not in data.catalogues_by_id and catalogue_id != data.game_system.id:
        catalogue = node.get("catalogueName") or "no name given"
        problems.append(f"force {name}: catalogue {catalogue} ({catalogue_id or 'no catalogueId'}) is not in {where}")


def _check_number(node: Element, problems: list[str]) -> None:
    text = node.get("number") or "1"
    if whole_number(text, most=MAX_NUMBER) is None:
        problems.append(
            f"{node.get('name') or '(no name)'} ({node.get('entryId') or 'no entryId'}): "
            f"number {text[:20]!r} is not a whole number from 0 to {MAX_NUMBER}"
        )


def _check_cost_limits(root: Element, problems: list[str]) -> None:
    """Each cost limit a number the engine can compare with (-1 for none): "inf" or "nan" is no limit anyone set."""
    for limit in items(root, "costLimits", "costLimit"):
        text = limit.get("value") or "-1"
        if decimal_number(text) is None:
            problems.append(
                f"cost limit {limit.get('name') or limit.get('typeId') or '(no name)'}: {text[:20]!r} is not a "
                "number of points (write the limit in digits, or -1 for none)"
            )


def _check_names(root: Element, problems: list[str]) -> None:
    """The roster's name and each name a player gave a force or selection, kept as every name of ours is
    (`plain_names.plain_text`): one holding control characters or direction marks is named, with why."""
    for node in (root, *root.iter(tag("force"), tag("selection"))):
        for attribute in ("name", "customName") if node is root else ("customName",):
            try:
                plain_text(node.get(attribute) or "")
            except ValueError as refused:
                problems.append(f"{(node.get(attribute) or '')[:100]!r} ({local_name(node)} {attribute}): {refused}")
            if len(problems) >= MAX_PROBLEMS:
                return


def renumber_duplicate_ids(root: Element) -> None:
    """Give each force and selection sharing an id with one before it an id of its own (`-dup-N`), so that an
    edit naming the second never lands on the first."""
    seen: set[str] = set()
    last: dict[str, int] = {}  # an id -> the last number its copies were given: linear however many share it
    for kind in ("force", "selection"):
        for node in root.iter(tag(kind)):
            own = unique = node.get("id")
            if not own:
                continue
            while unique in seen:
                last[own] = last.get(own, 1) + 1
                unique = f"{own}-dup-{last[own]}"
            seen.add(unique)
            node.set("id", unique)


def _check_selections(root: Element, roster: Roster, problems: list[str]) -> None:
    """Name every selection whose entry id the data does not have where it stands (the engine drops them), and
    every top-level one its force lists under none of its categories (as a forged editor post is refused)."""
    read_forces = iter(roster.all_forces())  # the engine reads every force checked above, in this order
    for node in _force_nodes(root):
        force: Force = next(read_forces)
        pending = deque(
            (child, force.options, force.catalogue.name, True) for child in items(node, "selections", "selection")
        )
        while pending and len(problems) < MAX_PROBLEMS:
            selection, options, parent, at_root = pending.popleft()
            entry_id = selection.get("entryId") or ""
            option = find_option(options, entry_id)
            if option is None:
                problems.append(
                    f"{selection.get('name') or '(no name)'} ({entry_id or 'no entryId'}): "
                    f"unknown entry id, not an entry {parent} offers"
                )
                continue
            if at_root and not listed_at_root(roster, force, option):
                problems.append(
                    f"{selection.get('name') or '(no name)'} ({entry_id}): {force.name} offers no such entry "
                    "(it stands in none of the force's categories)"
                )
                continue
            pending += [
                (child, option.children, option.name, False) for child in items(selection, "selections", "selection")
            ]


def _file_costs(found: DataSetRoster, root: Element) -> None:
    """The file's own points (never used, only compared) and each top-level selection's label."""
    type_id = found.points_type

    def own(node: Element) -> float:
        return file_cost(node, lambda cost: type_id in (cost.get("typeId"), cost.get("costTypeId")))

    def subtree(node: Element) -> float:
        return own(node) + sum(subtree(child) for child in items(node, "selections", "selection"))

    nodes = {
        node.get("id"): node
        for force in _force_nodes(root)
        for node in items(force, "selections", "selection")
        if node.get("id")
    }
    found.file_total = sum(own(node) for node in root.iter(tag("selection")))
    found.label_units()
    for force in found.roster.all_forces():
        for selection in force.selections:
            node = nodes.get(selection.id)
            if node is not None:
                found.file_units[found.labels[id(selection)]] = subtree(node)
