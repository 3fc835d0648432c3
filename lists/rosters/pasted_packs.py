"""A pasted BattleScribe or New Recruit list of Bolt Action 2nd edition, matched by name to our packs' data.

The force heading's catalogue names the nation ("Armies of the Soviet Union"), its entry the platoon
("Reinforced Platoon"); the theatre list is the selection naming one (under the Theatre Selector), else
the one the heading names. Each unit and each selection under it is found by its name in the tree of
BattleScribe entries our packs keep (lists/rosters/battlescribe_ids.py), and the list is written as the
.ros a player would have saved, which `battlescribe_reading` then reads as any other: one reading, one set
of checks. What no entry of the data is named by stays out, each with its line and why
(`pasted_rosters.Unread`). The paste's own points go on its units as the file's costs, to be compared.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from xml.etree import ElementTree as ET

from lists import models
from lists.rosters import battlescribe_ids
from lists.rosters.battlescribe_ids import GROUP_KIND, NAME, PARENT
from lists.rosters.format import MAX_UNITS, Problem, RosterFileInvalid
from lists.rosters.pasted_text import PastedForce, PastedList, PastedSelection, normal, regrouped


def claims(pasted: PastedList) -> bool:
    """Whether a force of the list names a catalogue our Bolt Action packs were converted from."""
    return any(nation_of(force.catalogue) for force in pasted.forces)


def nation_of(catalogue: str) -> str | None:
    wanted = normal(catalogue)
    for nation, info in battlescribe_ids.ids().get("catalogues", {}).items():
        if wanted and normal(info["name"]) == wanted:
            return nation
    return None


@cache
def _tree_index(nation: str, root: str) -> tuple[dict, dict]:
    """A unit's tree by name: (parent chain -> name -> chains), (name -> chains) anywhere in it."""
    under: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    anywhere: dict[str, list[str]] = defaultdict(list)
    for chain, record in battlescribe_ids.tree(nation, root).items():
        under[record[PARENT]][normal(record[NAME])].append(chain)
        anywhere[normal(record[NAME])].append(chain)
    return under, anywhere


@cache
def _units_by_name(nation: str) -> dict[str, list[str]]:
    """The nation's unit keys by their entry's name (two where the data lists an entry under two categories)."""
    found: dict[str, list[str]] = defaultdict(list)
    for key, unit in battlescribe_ids.ids().get("units", {}).items():
        if unit["catalogue"] == nation:
            record = battlescribe_ids.tree(nation, unit["root"]).get(unit["chain"])
            if record is not None:
                found[normal(record[NAME])].append(key)
    return found


@cache
def _armies_by_name(nation: str) -> dict[str, str]:
    """The nation's theatre lists: the name its entry has -> its chain."""
    found = {}
    for army in battlescribe_ids.ids().get("armies", {}).values():
        if army["catalogue"] == nation:
            record = battlescribe_ids.tree(nation, army["root"]).get(army["chain"])
            if record is not None:
                found[normal(record[NAME])] = army["chain"]
    return found


@cache
def _root_names(nation: str) -> frozenset[str]:
    """The names a force's own selection may have besides a unit's: its theatre lists, its other root entries."""
    others = battlescribe_ids.ids().get("other_roots", {}).get(nation, {})
    return frozenset(_armies_by_name(nation)) | {normal(name) for name, _ in others.values()}


@cache
def _choice_names(nation: str) -> frozenset[str]:
    """What a selection at a force's level may hold and be read by: a theatre list, a set of national rules."""
    choices = battlescribe_ids.ids().get("rule_choices", {}).get(nation, {})
    return frozenset(_armies_by_name(nation)) | {normal(name) for name in choices}


@cache
def _wrappers_by_name(nation: str) -> dict[str, str]:
    """The entries at a force's level that hold a unit rather than being one ("Officer"), by name -> chain."""
    units = {unit["chain"] for unit in battlescribe_ids.ids().get("units", {}).values() if unit["catalogue"] == nation}
    found = {}
    for chain, tree in battlescribe_ids.ids().get("roots", {}).get(nation, {}).items():
        record = tree.get(chain)
        if record is not None and chain not in units:
            found.setdefault(normal(record[NAME]), chain)
    return found


def _organisations() -> list[tuple[str, str]]:
    """(name, BattleScribe force entry id) of the platoons our Bolt Action packs offer, the longest name first."""
    ids = battlescribe_ids.ids().get("organisations", {})
    rows = models.Organisation.objects.filter(system__key=battlescribe_ids.GAME_KEY, key__in=list(ids))
    return sorted(((row.name, ids[row.key]) for row in rows), key=lambda pair: -len(pair[0]))


class PackPaste:
    """The .ros a pasted list of Bolt Action 2nd edition stands for, and the lines it leaves out."""

    def __init__(self, pasted: PastedList, unread):
        self.pasted = pasted
        self.unread = unread  # unread(line, message): what is left out, told
        self.organisations = _organisations()
        self.units = 0

    def roster_element(self) -> ET.Element:
        """The roster as the .ros element BattleScribe would have written, ids and all (namespaces aside)."""
        system = battlescribe_ids.ids()["game_system"]
        root = ET.Element(
            "roster", name=self.pasted.name or "Pasted list", gameSystemId=system["id"], gameSystemName=system["name"]
        )
        forces = ET.SubElement(root, "forces")
        for force in self.pasted.forces:
            self._force(forces, force)
        return root

    def _force(self, forces: ET.Element, force: PastedForce) -> None:
        nation = nation_of(force.catalogue)
        if nation is None:
            self.unread(force.line, f"the force's catalogue {force.catalogue!r} is not one of Bolt Action's nations")
            return
        catalogue = battlescribe_ids.ids()["catalogues"][nation]
        entry_id = next((i for name, i in self.organisations if normal(name) in normal(force.name)), None)
        if entry_id is None:
            platoons = ", ".join(name for name, _ in self.organisations)
            entry_id = self.organisations[-1][1] if self.organisations else ""
            self.unread(force.line, f"{force.name!r} names none of the platoons ({platoons}): read as a platoon")
        node = ET.SubElement(
            forces, "force", entryId=entry_id, catalogueId=catalogue["id"], catalogueName=catalogue["name"]
        )
        selections = ET.SubElement(node, "selections")
        army = None
        for selection in force.selections:
            army = self._top(selections, nation, selection) or army
        if army is None:
            chain = _armies_by_name(nation).get(normal(force.name))
            if chain is None:
                self.unread(force.line, "the force chooses no theatre list (a 'Theatre Selector: …' line)")
            else:
                ET.SubElement(selections, "selection", entryId=chain, name=force.name, number="1", type="upgrade")

    def _top(self, into: ET.Element, nation: str, pasted: PastedSelection) -> str | None:
        """A selection at the force's level: a unit, the theatre list (returned), a set of national rules."""
        for selection in pasted.readings():
            if self._names_an_entry(nation, selection):
                return self._top_entry(into, nation, selection)
        self.unread(pasted.line, f"{pasted.name!r} is not a unit of {self._nation_name(nation)} in the data")
        return None

    def _names_an_entry(self, nation: str, selection: PastedSelection) -> bool:
        name = normal(selection.name)
        if name in _units_by_name(nation) or name in _root_names(nation):
            return True
        if name in _wrappers_by_name(nation) and selection.children:
            return True
        return any(normal(child.name) in _choice_names(nation) for child in selection.children)

    def _top_entry(self, into: ET.Element, nation: str, selection: PastedSelection) -> str | None:
        armies = _armies_by_name(nation)
        for named in (selection, *selection.children):
            chain = armies.get(normal(named.name))
            if chain is not None:
                ET.SubElement(into, "selection", entryId=chain, name=named.name, number="1", type="upgrade")
                return chain
        keys = _units_by_name(nation).get(normal(selection.name))
        if keys:
            self._unit(into, nation, selection, keys, selection.points)
            return None
        wrapper = _wrappers_by_name(nation).get(normal(selection.name))
        if wrapper is not None and selection.children:
            self._wrapped(into, nation, wrapper, selection)
            return None
        if not self._rules_choice(into, nation, selection):
            self._empty_root(into, nation, selection)
        return None

    def _wrapped(self, into: ET.Element, nation: str, chain: str, selection: PastedSelection) -> None:
        """An entry holding the unit a player picks in it ("Officer" holding a Second Lieutenant): the line's
        points are the unit's."""
        node = ET.SubElement(into, "selection", entryId=chain, name=selection.name, number="1", type="upgrade")
        held = ET.SubElement(node, "selections")
        points = selection.points
        for child in selection.children:
            keys = _units_by_name(nation).get(normal(child.name))
            if not keys:
                self.unread(child.line, f"{child.name!r} is not a unit {selection.name} holds in the data")
                continue
            child.category = child.category or selection.category
            self._unit(held, nation, child, keys, points)
            points = None

    def _nation_name(self, nation: str) -> str:
        return battlescribe_ids.ids()["catalogues"][nation]["name"]

    def _rules_choice(self, into: ET.Element, nation: str, selection: PastedSelection) -> bool:
        """A set of national rules the force plays ("National Rules: Case Blue"), where the nation has a choice."""
        choices = battlescribe_ids.ids().get("rule_choices", {}).get(nation, {})
        picked = [choices[name] for name in choices if normal(name) in {normal(c.name) for c in selection.children}]
        if not picked:
            return False
        root, chain, _ = picked[0]
        node = ET.SubElement(into, "selection", entryId=root, name=selection.name, number="1", type="upgrade")
        ET.SubElement(ET.SubElement(node, "selections"), "selection", entryId=chain, number="1", type="upgrade")
        return True

    def _empty_root(self, into: ET.Element, nation: str, selection: PastedSelection) -> bool:
        """An entry BattleScribe adds to every force holding nothing (Command Vehicle Options); another such entry
        our data left out is told, not read."""
        others = battlescribe_ids.ids().get("other_roots", {}).get(nation, {})
        for chain, (name, empty) in others.items():
            if normal(name) == normal(selection.name):
                if empty and not selection.children:
                    ET.SubElement(into, "selection", entryId=chain, name=name, number="1", type="upgrade")
                else:
                    self.unread(selection.line, f"{name!r}: an entry our Bolt Action data does not offer")
                return True
        return False

    def _unit(self, into: ET.Element, nation: str, selection: PastedSelection, keys: list[str], points) -> None:
        self.units += 1
        if self.units > MAX_UNITS:  # the cap every roster has, told at the line past it
            message = f"more than {MAX_UNITS} units: a roster holds at most {MAX_UNITS}"
            raise RosterFileInvalid([Problem("", message, selection.line)])
        units = battlescribe_ids.ids()["units"]
        key = next(
            (k for k in keys if normal((units[k].get("category") or ["", ""])[1]) == normal(selection.category)),
            keys[0],
        )
        unit = units[key]
        node = ET.SubElement(into, "selection", entryId=unit["chain"], name=selection.name, number="1", type="unit")
        if points is not None:
            costs = ET.SubElement(node, "costs")
            ET.SubElement(costs, "cost", name="pts", typeId="points", value=str(points))
        if selection.number != 1:
            self.unread(
                selection.line, f"{selection.number}x {selection.name}: read as one unit; list each on its own line"
            )
        self._children(node, nation, unit["root"], unit["chain"], selection)

    def _children(self, node: ET.Element, nation: str, root: str, parent: str, selection: PastedSelection) -> None:
        under, anywhere = _tree_index(nation, root)
        held = None
        for pasted in regrouped(selection.children, set(anywhere)):
            chains, child = [], pasted
            for child in pasted.readings():
                chains = _named_below(under, anywhere, parent, nation, root, child.name)
                if chains:
                    break
            if not chains:
                self.unread(child.line, f"{child.name!r} is not an option of {selection.name} in the data")
                continue
            if held is None:
                held = ET.SubElement(node, "selections")
            record = battlescribe_ids.tree(nation, root)[chains[0]]
            element = ET.SubElement(
                held, "selection", entryId=chains[0], name=child.name, number=str(child.number), type="upgrade"
            )
            if record[GROUP_KIND] == "men":
                element.set("type", "model")
            self._children(element, nation, root, chains[0], child)


def _named_below(under, anywhere, parent: str, nation: str, root: str, name: str) -> list[str]:
    """The chains of entries called `name` under `parent`: right under it, else deeper."""
    return under.get(parent, {}).get(normal(name)) or _below(anywhere.get(normal(name), []), parent, nation, root)


def _below(chains: list[str], parent: str, nation: str, root: str) -> list[str]:
    """Those of `chains` under `parent` at any depth (a selection the text shows under its unit, the data deeper)."""
    tree = battlescribe_ids.tree(nation, root)
    found = []
    for chain in chains:
        seen, step = set(), tree.get(chain)
        while step is not None and step[PARENT] and step[PARENT] not in seen:
            if step[PARENT] == parent:
                found.append(chain)
                break
            seen.add(step[PARENT])
            step = tree.get(step[PARENT])
    return found
