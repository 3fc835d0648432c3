"""BattleScribe and New Recruit rosters (`.ros`, `.rosz`) of Bolt Action 2nd edition, read into our roster file.

The file is parsed once, by the one safe parser (lists/battlescribe/safe_xml.py: no DTDs,
entities or external references), and leniently: attributes New Recruit adds, nested forces and BattleScribe
2.01's older names are ignored. Every force and selection is mapped through
the BattleScribe ids of the converted armies (lists/rosters/battlescribe_ids.py)
to the same document a YAML roster file gives, which then goes through every
check of lists/rosters/files.py. A selection that cannot be mapped refuses the
whole file, naming each one. The file's costs are never used; its total is
kept to be compared with ours. See docs/roster-format.md.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from lxml.etree import _Element as Element

from lists.battlescribe.archives import ArchiveRefused, read_single_member
from lists.battlescribe.safe_xml import XmlRefused
from lists.battlescribe.safe_xml import parse_xml as parse_safely
from lists.rosters import battlescribe_ids
from lists.rosters.battlescribe_ids import GROUP_KIND, LEAST, NAME, NODE_ID
from lists.rosters.format import MAX_FILE_BYTES, MAX_PROBLEMS, Problem, RosterFile, RosterFileInvalid
from lists.rosters.resolving import resolve
from lists.rules.validation import FORCES_MAX

MAX_XML_BYTES = 512 * 1024  # after decompression, as for every roster file
MAX_DEPTH = 40  # elements nested deeper than any roster needs are refused (reading them recurses)
TOO_DEEP = "boolean(/" + "/*" * (MAX_DEPTH + 1) + ")"  # an element below MAX_DEPTH levels, found by libxml2
MAX_NUMBER = 1000  # a selection's number above any a roster holds is read as this (and refused with its field)
QUALITIES = ("inexperienced", "regular", "veteran")
TRANSPORT_NOTE = "Transport: "  # our note on a unit riding another (BattleScribe has no such link)


class BattleScribeRefused(Exception):
    """The file cannot be used; `problems` names every reason (and every unmapped selection), up to
    MAX_PROBLEMS: past them reading stops (`stopped`)."""

    def __init__(self, problems: list[str], stopped: bool = False):
        self.problems = problems
        self.stopped = stopped
        super().__init__("; ".join(problems))


def is_battlescribe(raw: bytes, filename: str = "") -> bool:
    """A .ros or .rosz by its name, or by its content: a zip, or XML whose root is a roster."""
    name = filename.lower()
    if name.endswith((".ros", ".rosz")):
        return True
    if name.endswith((".yaml", ".yml", ".json")):
        return False
    head = raw[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    return raw[:4] == b"PK\x03\x04" or (head.startswith(b"<") and b"<roster" in raw[:4096])


def unzip(raw: bytes) -> bytes:
    """The one .ros a .rosz holds, inflated to at most MAX_XML_BYTES (lists/battlescribe/archives.py)."""
    try:
        return read_single_member(raw, MAX_XML_BYTES, what="roster file")
    except ArchiveRefused as refused:
        raise BattleScribeRefused([f"the .rosz cannot be read: {refused}"]) from None


def parse_xml(raw: bytes) -> Element:
    """The roster element, its tags namespaced or not (BattleScribe and New Recruit differ there): every look-up
    here matches any namespace (`items`, `tag`), so no element is visited in Python to read the file."""
    data = unzip(raw) if raw[:4] == b"PK\x03\x04" else raw
    if len(data) > MAX_XML_BYTES:
        raise BattleScribeRefused([f"the file is {len(data)} bytes; the limit is {MAX_XML_BYTES}"])
    try:
        root = parse_safely(data)
    except XmlRefused as refused:
        raise BattleScribeRefused([str(refused)]) from None
    if root.xpath(TOO_DEEP):
        raise BattleScribeRefused([f"the XML is nested more than {MAX_DEPTH} levels deep"])
    if local_name(root) != "roster":
        raise BattleScribeRefused([f"not a BattleScribe roster: the file's root is <{local_name(root)}>, not <roster>"])
    return root


def local_name(element: Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def tag(name: str) -> str:
    """An element name as a look-up matching it in any namespace, or none."""
    return f"{{*}}{name}"


def items(element: Element, container: str, item: str, most: int | None = None) -> list[Element]:
    """The `item` elements of `element`'s `container` children (lxml filters their tags, in C); the first
    `most` of them where given (a bound need not read the rest)."""
    found = (each for holder in element.iterchildren(tag(container)) for each in holder.iterchildren(tag(item)))
    return list(itertools.islice(found, most))


def file_cost(selection: Element, counted: Callable[[Element], bool]) -> float:
    """The sum of a selection's own costs in the file that `counted` takes (read to be reported, never used)."""
    total = 0.0
    for cost in items(selection, "costs", "cost"):
        if counted(cost):
            try:
                value = float(cost.get("value") or 0)
            except ValueError:
                continue
            total += value if math.isfinite(value) and abs(value) < 1e9 else 0
    return total


def _is_points(cost: Element) -> bool:
    return "points" in (cost.get("typeId"), cost.get("costTypeId")) or (cost.get("name") or "").strip() == "pts"


def own_points(selection: Element) -> float:
    """The points a selection's file gives for itself (BattleScribe 2.01 names the type costTypeId)."""
    return file_cost(selection, _is_points)


def subtree_points(selection: Element) -> float:
    return own_points(selection) + sum(subtree_points(child) for child in items(selection, "selections", "selection"))


def number_of(selection: Element) -> int:
    try:
        return min(MAX_NUMBER, max(0, int(float(selection.get("number") or 1))))
    except (ValueError, OverflowError):
        return MAX_NUMBER  # unreadable: as many as a roster never holds, so the count is refused with its field


def named(selection: Element) -> str:
    return f"{selection.get('name') or '(no name)'} ({selection.get('entryId') or 'no entryId'})"


@dataclass
class Reading:
    """What a roster file gives: our roster document, the file's own points, and what could not be mapped."""

    document: dict
    file_total: float = 0.0
    file_units: dict[str, float] = field(default_factory=dict)  # label -> the file's points for the unit
    problems: list[str] = field(default_factory=list)
    armies: set[str] = field(default_factory=set)
    rule_choices: set[str] = field(default_factory=set)  # the sets of national rules the forces pick

    def problem(self, text: str) -> None:
        """One more reason the file cannot be used; past MAX_PROBLEMS, reading stops (its time stays bounded)."""
        if len(self.problems) == MAX_PROBLEMS:
            raise BattleScribeRefused(self.problems, stopped=True)
        self.problems.append(text)


def read_roster(raw: bytes, root: Element | None = None) -> Reading:
    """Map a .ros/.rosz (or its root, parsed by `parse_xml`) to our roster document; BattleScribeRefused
    lists every reason it cannot be."""
    return read_roster_element(parse_xml(raw) if root is None else root)


def read_roster_element(root: Element) -> Reading:
    """The same of a roster element already parsed (a pasted list's, lists/rosters/pasted_packs.py)."""
    known = battlescribe_ids.ids()
    system = known.get("game_system", {})
    if not system or root.get("gameSystemId") != system.get("id"):
        game = root.get("gameSystemName") or root.get("gameSystemId") or "an unnamed game system"
        raise BattleScribeRefused(
            [
                f"this roster is for {game}, not {system.get('name', 'Bolt Action 2.0')}: only Bolt Action 2nd edition is read"
            ]
        )
    reading = Reading(
        {"game": battlescribe_ids.GAME_KEY, "name": (root.get("name") or "").strip()[:100] or "Untitled roster"}
    )
    for limit in items(root, "costLimits", "costLimit"):
        if "points" in (limit.get("typeId"), limit.get("costTypeId")):
            text = (limit.get("value") or "0").strip()
            value = int(float(text)) if len(text) <= 12 and text.replace(".", "", 1).isdigit() else 0
            if value > 0:
                reading.document["points_limit"] = value
    forces = _forces(root)
    if not forces:
        reading.problem("the roster holds no force")
    reading.document["forces"] = [_force(force, index, reading) for index, force in enumerate(forces)]
    if len(reading.armies) > 1:
        reading.problem(f"the forces choose different theatre lists: {', '.join(sorted(reading.armies))}")
    elif not reading.armies and forces:
        reading.problem("no force chooses a theatre list (a Theatre Selector entry)")
    else:
        reading.document["army"] = next(iter(reading.armies), "")
    if len(reading.rule_choices) > 1:
        reading.problem(f"the forces pick different national rules: {', '.join(sorted(reading.rule_choices))}")
    elif reading.rule_choices:
        reading.document["settings"] = {battlescribe_ids.RULE_CHOICE_SETTING: next(iter(reading.rule_choices))}
    reading.file_total = sum(subtree_points(s) for f in forces for s in items(f, "selections", "selection"))
    if reading.problems:
        raise BattleScribeRefused(reading.problems)
    return reading


def _forces(root: Element) -> list[Element]:
    """Every force in document order: New Recruit nests forces inside forces, each a platoon of its own.

    A roster holds at most FORCES_MAX: one more refuses the file at once, before any force is read.
    """
    forces: list[Element] = []
    pending = items(root, "forces", "force", FORCES_MAX + 1)[::-1]  # a stack, next force last: linear however they nest
    while pending:
        force = pending.pop()
        forces.append(force)
        if len(forces) > FORCES_MAX:
            raise BattleScribeRefused(
                [f"the roster holds more than {FORCES_MAX} forces (platoons), the most one holds"]
            )
        pending.extend(items(force, "forces", "force", FORCES_MAX + 1)[::-1])
    return forces


def _force(force: Element, index: int, reading: Reading) -> dict:
    entry_id = force.get("entryId") or ""
    organisation = battlescribe_ids.organisation_by_id().get(entry_id)
    if organisation is None:
        reading.problem(
            f"force {force.get('name') or index + 1} ({entry_id}): not a force entry of the Bolt Action data"
        )
    units: list[dict] = []
    nation = battlescribe_ids.nation_by_catalogue_id().get(force.get("catalogueId") or "")
    if nation is None:
        reading.problem(
            f"force {force.get('name') or index + 1}: catalogue {force.get('catalogueName') or ''} "
            f"({force.get('catalogueId')}) is not one of the Bolt Action catalogues converted"
        )
        return {"units": units}
    for selection in items(force, "selections", "selection"):
        if not _top_selection(nation, selection, units, reading):
            reading.problem(f"{named(selection)}: not an entry of the Bolt Action data a force may hold")
    name = (force.get("customName") or "").strip()
    document = {"units": units}
    if name:
        document["name"] = name[:100]
    if organisation:
        document["organisation"] = organisation
    return document


def _top_selection(nation: str, selection: Element, units: list[dict], reading: Reading) -> bool:
    """Read a selection at the force's level (a unit, a theatre selector, or an entry wrapping units)."""
    chain = battlescribe_ids.known_chain(nation, selection.get("entryId") or "")
    unit_keys = battlescribe_ids.units_by_chain().get((nation, chain))
    if unit_keys:
        if number_of(selection) != 1:
            reading.problem(f"{named(selection)}: {selection.get('number')} units in one selection; give each its own")
        units.append(_unit(selection, _by_category(selection, unit_keys), chain, reading))
        return True
    army_key = battlescribe_ids.army_by_chain().get((nation, chain))
    if army_key is not None:
        reading.armies.add(army_key)
        return True
    children = items(selection, "selections", "selection")
    if not children and chain in battlescribe_ids.ids().get("force_roots", {}).get(nation, []):
        return True  # an entry BattleScribe adds to every force (the Officer), the player's pick not made yet
    other = battlescribe_ids.ids().get("other_roots", {}).get(nation, {}).get(chain)
    if other is not None and other[1] and not children:
        return True  # an entry BattleScribe adds to every force (Command Vehicle Options), holding nothing
    picks = {
        c: name
        for name, (root, c, _) in battlescribe_ids.ids().get("rule_choices", {}).get(nation, {}).items()
        if root == chain
    }
    if picks:  # the set of national rules the roster plays (Italy's "National Rules")
        for child in children:
            name = picks.get(child.get("entryId") or "") or picks.get(_ending_in(picks, child.get("entryId") or ""))
            if name is None:
                reading.problem(
                    f"{named(child)}: not one of the sets of {named(selection)}: {', '.join(picks.values())}"
                )
            else:
                reading.rule_choices.add(name)
        return True
    if other is not None:
        reading.problem(
            f"{named(selection)}: an entry our Bolt Action data does not offer "
            "(left out when the data was converted; see the import report)"
        )
        return True
    if chain not in battlescribe_ids.ids().get("roots", {}).get(nation, {}) or not children:
        return False
    # A wrapper (the Theatre Selector, an officer entry holding his rank): every child must be read. What it
    # holds beside the one unit in it (a Medic Team's Veteran Soldiers beside its Medic) is that unit's.
    keyed = [battlescribe_ids.units_by_chain().get((nation, _chain_of(nation, c))) for c in children]
    if sum(1 for keys in keyed if keys) == 1 and len(children) > 1:
        unit_child = next(c for c, keys in zip(children, keyed, strict=True) if keys)
        beside = [c for c in children if c is not unit_child]
        if number_of(unit_child) != 1:
            reading.problem(
                f"{named(unit_child)}: {unit_child.get('number')} units in one selection; give each its own"
            )
        keys = next(keys for keys in keyed if keys)
        units.append(
            _unit(unit_child, _by_category(unit_child, keys), _chain_of(nation, unit_child), reading, beside, chain)
        )
        return True
    for child in children:
        if not _top_selection(nation, child, units, reading):
            reading.problem(f"{named(child)}: not an entry the Bolt Action data offers under {named(selection)}")
    return True


def _chain_of(nation: str, selection: Element) -> str | None:
    return battlescribe_ids.known_chain(nation, selection.get("entryId") or "")


def _ending_in(chains, entry_id: str) -> str | None:
    """The one chain of ours ending in the same entry as a file's chain (New Recruit may name links otherwise)."""
    ending = [chain for chain in chains if battlescribe_ids.last_id(chain) == battlescribe_ids.last_id(entry_id)]
    return ending[0] if len(ending) == 1 else None


def _by_category(selection: Element, keys: list[str]) -> str:
    """Of the units one entry gives (listed under two categories), the one of the selection's primary category."""
    categories = sorted(items(selection, "categories", "category"), key=lambda c: c.get("primary") != "true")
    units = battlescribe_ids.ids()["units"]
    for category in categories:
        for key in keys:
            if (units[key].get("category") or [None])[0] == category.get("entryId"):
                return key
    return keys[0]


def _unit(
    selection: Element, key: str, chain: str, reading: Reading, beside: list | None = None, wrapper: str = ""
) -> dict:
    """One unit: its quality, men and options, each selection under it (and `beside` it, under the `wrapper`
    chain holding it) mapped or named as a problem."""
    info = battlescribe_ids.ids()["units"][key]
    tree = battlescribe_ids.tree(info["catalogue"], info["root"])
    options_by_id: dict[str, list] = {}
    for option in info["options"]:
        options_by_id.setdefault(option[1], []).append(option)
    found = {"quality": None, "men": 0, "all_men": 0, "men_quality": None, "options": {}}
    unit_name = selection.get("name") or key
    for child in items(selection, "selections", "selection"):
        _content(child, chain, tree, options_by_id, found, unit_name, reading)
    own_quality = found["quality"]
    for child in beside or []:
        _content(child, wrapper, tree, options_by_id, found, unit_name, reading)
    found["quality"] = own_quality or found["quality"]  # the unit's own rating first (a Medic Team's outer Veteran)
    label = base = (selection.get("customName") or selection.get("name") or key).strip()[:95]
    # BattleScribe names units by their entry unless renamed: two Rifle Squads become "Rifle Squad (2)".
    count = 1
    while label in reading.file_units:
        count += 1
        label = f"{base} ({count})"
    entry: dict = {"unit": key, "label": label}
    quality = found["quality"] or found["men_quality"]
    if quality:
        entry["quality"] = quality
    if any(record[GROUP_KIND] == "men" for record in tree.values()) and found["men"]:
        entry["size"] = found["men"]
    options = []
    for option_id, count in found["options"].items():
        choices = options_by_id[option_id]
        option = next((o for o in choices if not o[3] or quality in o[3]), choices[0])
        if option[2] == "model":
            count = found["all_men"] or count  # BattleScribe takes a per-man option once; every man pays
        options.append({"option": option[0], "count": count})
    if options:
        entry["options"] = options
    note = []
    for line in (selection.findtext(tag("customNotes")) or "").splitlines():
        if line.startswith(TRANSPORT_NOTE) and line[len(TRANSPORT_NOTE) :].strip():
            entry["transport"] = line[len(TRANSPORT_NOTE) :].strip()[:100]
        elif line.strip():
            note.append(line.strip())
    if note:  # BattleScribe's notes may run over lines: ours is one line (a long one is refused, not cut)
        entry["note"] = " ".join(note)
    reading.file_units[entry["label"]] = subtree_points(selection) + sum(subtree_points(c) for c in beside or [])
    return entry


def _content(
    selection: Element, parent: str, tree: dict, options_by_id: dict, found: dict, unit_name: str, reading: Reading
) -> None:
    """A selection under a unit: an option, its quality, its men or a compulsory part; else a problem."""
    chain = battlescribe_ids.record_chain(tree, selection.get("entryId") or "", parent)
    record = tree.get(chain) if chain else None
    if record is None:
        reading.problem(f"{named(selection)}: not an entry of {unit_name} in the Bolt Action data")
        return
    number = number_of(selection)
    if record[NODE_ID] in options_by_id:
        found["options"][record[NODE_ID]] = found["options"].get(record[NODE_ID], 0) + number
        found["all_men"] += number if record[GROUP_KIND] == "men" else 0
        if record[GROUP_KIND] == "men" and not any(o[4] for o in options_by_id[record[NODE_ID]]):
            found["men"] += number  # a man's swap (SMG for his pistol) is one of the men; a man an option adds is not
        return  # what an option holds (its weapon) is part of it
    if record[GROUP_KIND] == "quality":
        found["quality"] = record[NAME].strip().lower()
    elif record[GROUP_KIND] == "men":
        found["men"] += number
        found["all_men"] += number
        first = record[NAME].strip().split(" ")[0].lower()
        if first in QUALITIES:
            found["men_quality"] = first
    elif record[LEAST] < 1 and record[GROUP_KIND] != "default":
        reading.problem(
            f"{named(selection)}: an option of {unit_name} our Bolt Action data does not offer "
            "(left out when the data was converted; see the import report)"
        )
        return
    for child in items(selection, "selections", "selection"):
        _content(child, chain, tree, options_by_id, found, unit_name, reading)


def load_battlescribe(raw: bytes, root: Element | None = None):
    """A .ros/.rosz (its root, where the caller parsed it already) as a resolved roster of ours
    (lists/rosters/files.py), with the file's own points kept."""
    if len(raw) > MAX_FILE_BYTES:
        raise RosterFileInvalid([Problem("", f"the file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}")])
    return load_reading(lambda: read_roster(raw, root))


def load_reading(read: Callable[[], Reading]):
    """The resolved roster of a `read()` mapping (refused with its every reason), the file's own points kept."""
    try:
        reading = read()
        entry = RosterFile.model_validate(reading.document)
    except BattleScribeRefused as refused:
        problems = [Problem("", problem) for problem in refused.problems]
        raise RosterFileInvalid(problems, stopped=refused.stopped) from None
    except ValueError as exc:  # pydantic's ValidationError: a value our format cannot hold
        raise RosterFileInvalid([Problem("", f"the roster cannot be read: {exc}")]) from None
    resolved = resolve(entry)
    # A squad of the men "as listed" gives is saved as listed, as the editor does.
    for row, unit in zip(resolved.units, resolved.snapshot().units, strict=True):
        if row.size is not None and replace(unit, size=None).own_size == row.size:
            row.size = None
    resolved.file_points = {"total": round(reading.file_total), "units": reading.file_units}
    return resolved


def file_points_report(file_points: dict, roster, unit_points: list[int], points: int) -> dict | None:
    """The file's total and the units whose points differ from ours, where its total differs; else None."""
    if file_points is None or file_points["total"] == points:
        return None
    differ = [
        {"unit": unit.label, "file_points": round(file_points["units"][unit.label]), "points": unit_points[unit.index]}
        for unit in roster.units
        if unit.label in file_points["units"] and round(file_points["units"][unit.label]) != unit_points[unit.index]
    ]
    return {"total": file_points["total"], "units": differ}


def with_file_points(document: dict, report: dict | None) -> dict:
    """validate_roster's JSON with the file's own total (`file_points`) and, on each unit whose own points in
    the file differ from ours, its `file_points`; unchanged where the totals agree."""
    if report is None:
        return document
    differing = {unit["unit"]: unit["file_points"] for unit in report["units"]}
    for force in document["forces"]:
        for unit in force["units"]:
            if unit["label"] in differing:
                unit["file_points"] = differing[unit["label"]]
    return document | {"file_points": report["total"]}


def file_points_lines(report: dict | None) -> list[str]:
    """The same for validate_roster's text."""
    if report is None:
        return []
    lines = [f"The file's own total is {report['total']} points; the points above are ours, recomputed."]
    lines += [f"  {u['unit']}: {u['file_points']} in the file, {u['points']} here" for u in report["units"]]
    return lines
