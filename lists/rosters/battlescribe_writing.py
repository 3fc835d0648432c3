"""A Bolt Action roster of ours as a BattleScribe 2.03 roster (`roster.ros`, zipped as `roster.rosz`).

Every force names its force entry and catalogue (id, revision, name), every
selection its entry-id chain as BattleScribe builds it (lists/battlescribe/
entry_ids.py), its number, type, categories and its own points (ours,
multiplied by its number, children excluded: the roster's total is the sum).
A unit's note is its selection's custom notes; a transport is a line of them ("Transport: label"), which
battlescribe_reading.py reads back.
"""

from __future__ import annotations

import io
import uuid
import zipfile
from dataclasses import replace
from xml.etree.ElementTree import Element, SubElement, tostring

from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rosters import battlescribe_ids
from lists.rosters.battlescribe_ids import GROUP, GROUP_KIND, LEAST, MOST, NAME, NODE_ID, PARENT, TYPE
from lists.rosters.battlescribe_reading import TRANSPORT_NOTE
from lists.rules.pricing import base_points, unit_points

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
SELECTOR_NAME = "Theatre Selector"


def exportable(roster: RosterSnapshot) -> bool:
    """Whether every part of the roster has BattleScribe ids: a converted theatre list, its units and forces."""
    known = battlescribe_ids.ids()
    if roster.system.key != battlescribe_ids.GAME_KEY or roster.army_key not in known.get("armies", {}):
        return False
    units = known["units"]
    return all(u.unit_type.key in units for u in roster.units) and all(
        f.organisation is not None and f.organisation.key in known["organisations"] for f in roster.forces
    )


def _id() -> str:
    return str(uuid.uuid4())


def _cost(parent: Element, points: float, tag: str = "costs", item: str = "cost") -> None:
    SubElement(SubElement(parent, tag), item, name="pts", typeId="points", value=f"{points:.1f}")


def _contents(element: Element, tree: dict, chain: str, number: int, options: frozenset) -> None:
    """What a selection holds without choice (a man's rifle, an option's weapon), as BattleScribe adds it;
    not the unit's `options` (ids), which are written as chosen."""
    for child, record in tree.items():
        if record[PARENT] == chain and record[LEAST] >= 1 and not record[GROUP_KIND] and record[NODE_ID] not in options:
            _chosen(element, tree, child, record[LEAST] * number, 0, options)


def _selection(parent: Element, chain: str, record: list, number: int = 1, name: str | None = None) -> Element:
    selections = parent.find("selections")
    if selections is None:
        selections = Element("selections")
        # Before costs and categories, as the schema orders a selection's children.
        parent.insert(sum(1 for child in parent if child.tag in ("customNotes", "rules", "profiles")), selections)
    element = SubElement(
        selections, "selection", id=_id(), name=name or record[NAME], entryId=chain, number=str(number)
    )
    if record[GROUP]:
        element.set("entryGroupId", record[GROUP])
    element.set("type", record[TYPE] if record[TYPE] in ("unit", "model", "upgrade") else "upgrade")
    return element


def _chosen(parent: Element, tree: dict, chain: str, number: int, cost: float, options: frozenset) -> Element:
    """A selection with what it holds without choice, and its own points."""
    element = _selection(parent, chain, tree[chain], number)
    _contents(element, tree, chain, number, options)
    _cost(element, cost)
    return element


def roster_xml(roster: RosterSnapshot, unit_points_list: list[int]) -> bytes:
    """The roster as a BattleScribe .ros file."""
    known = battlescribe_ids.ids()
    system = known["game_system"]
    army = known["armies"][roster.army_key]
    catalogue = known["catalogues"][army["catalogue"]]
    root = Element(
        "roster",
        id=_id(),
        name=roster.name,
        battleScribeVersion="2.03",
        gameSystemId=system["id"],
        gameSystemName=system["name"],
        gameSystemRevision=str(system["revision"]),
        xmlns=NAMESPACE,
    )
    _cost(root, sum(unit_points_list))
    if roster.points_limit is not None:
        _cost(root, roster.points_limit, "costLimits", "costLimit")
    forces = SubElement(root, "forces")
    for force in roster.forces:
        element = SubElement(
            forces,
            "force",
            id=_id(),
            name=force.organisation.name,
            entryId=known["organisations"][force.organisation.key],
            catalogueId=catalogue["id"],
            catalogueRevision=str(catalogue["revision"]),
            catalogueName=catalogue["name"],
        )
        element.set("customName", force.name)
        _theatre(element, army)
        picked = (
            known.get("rule_choices", {})
            .get(army["catalogue"], {})
            .get(roster.setting(battlescribe_ids.RULE_CHOICE_SETTING))
        )
        for chain, (name, compulsory) in known.get("other_roots", {}).get(army["catalogue"], {}).items():
            if compulsory:  # an entry BattleScribe adds to every new force (Command Vehicle Options), empty
                selection = _selection(element, chain, [chain, name, "upgrade", "", "", 1, 1, "", 0.0])
                if picked and picked[0] == chain:  # the set of national rules played, chosen in it
                    _cost(_selection(selection, picked[1], picked[2]), 0)
                _cost(selection, 0)
        for unit in roster.force_units(force):
            _unit(element, roster, unit, unit_points_list[unit.index])
    body = tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + body).encode()


def _theatre(force: Element, army: dict) -> None:
    tree = battlescribe_ids.tree(army["catalogue"], army["root"])
    parent = force
    if army["root"] != army["chain"]:
        parent = _selection(force, army["root"], tree[army["root"]], name=SELECTOR_NAME)
        _cost(parent, 0)
    chosen = _selection(parent, army["chain"], tree[army["chain"]])
    _cost(chosen, 0)


def _unit(force: Element, roster: RosterSnapshot, unit: UnitChoice, points: int) -> None:
    info = battlescribe_ids.ids()["units"][unit.unit_type.key]
    tree = battlescribe_ids.tree(info["catalogue"], info["root"])
    parent = force
    path = []  # a unit inside a wrapper entry (an officer entry holding his rank): the wrappers first
    chain = tree[info["chain"]][PARENT]
    while chain:
        path.insert(0, chain)
        chain = tree[chain][PARENT]
    for wrapper in path:
        parent = _selection(parent, wrapper, tree[wrapper])
        _cost(parent, 0)
    element = _selection(parent, info["chain"], tree[info["chain"]])
    element.set("customName", unit.label)
    lines = [unit.note] if unit.note else []  # the player's note, as BattleScribe's own custom notes
    if unit.transport is not None:
        lines.append(TRANSPORT_NOTE + roster.units[unit.transport].label)
    if lines:
        notes = Element("customNotes")
        notes.text = "\n".join(lines)
        element.insert(0, notes)
    options = frozenset(option[1] for option in info["options"])
    _contents(element, tree, info["chain"], 1, options)
    option_points = _choices(element, roster, unit, info, tree, options)
    _cost(element, points - option_points)
    if info.get("category"):
        categories = SubElement(element, "categories")
        category_id, category_name = info["category"]
        SubElement(categories, "category", id=_id(), name=category_name, entryId=category_id, primary="true")


def _choices(
    element: Element, roster: RosterSnapshot, unit: UnitChoice, info: dict, tree: dict, options: frozenset
) -> int:
    """The unit's quality, men, options and the defaults of its compulsory choices; the options' points."""
    holder = _quality(element, tree, info["chain"], unit, options)
    parents = {element.get("entryId"): element, holder.get("entryId"): holder}
    option_ids: dict[str, list[str]] = {}
    for row in info["options"]:  # an option each quality's entry holds has an id per quality
        option_ids.setdefault(row[0], []).append(row[1])
    chains = {}
    for option, count in unit.chosen_options:
        chain = _option_chain(tree, option_ids.get(option.key, []), holder.get("entryId"))
        if chain is not None and count:
            chains[option.key] = chain
    # A man's swap taken as an option (a sniper's SMG for his pistol) is one of the men of the size;
    # a man an option adds (a Soldier with LMG) comes on top of it.
    swaps = {o[0] for o in info["options"] if not o[4]}
    swapped = sum(unit.options[k] for k, c in chains.items() if tree[c][GROUP_KIND] == "men" and k in swaps)
    _men(parents, tree, unit, options, swapped)
    taken_groups = {tree[chain][GROUP] for chain in chains.values()}
    for chain, record in tree.items():
        is_default = record[GROUP_KIND] == "default" and record[NODE_ID] not in options
        if is_default and record[PARENT] in parents and record[GROUP] not in taken_groups:
            _chosen(parents[record[PARENT]], tree, chain, 1, 0, options)
    option_points = 0
    for option, count in unit.chosen_options:
        chain = chains.get(option.key)
        if chain is None:
            continue
        without = replace(unit, options={k: c for k, c in unit.options.items() if k != option.key})
        cost = base_points(roster, unit) - base_points(roster, without)
        option_points += cost
        number = 1 if option.per == "model" else count
        _chosen(parents.get(tree[chain][PARENT], element), tree, chain, number, cost, options)
    return option_points


def _option_chain(tree: dict, source_ids: list[str], under: str | None) -> str | None:
    """The chain of an option's entry; under the chosen quality where it sits there."""
    found = [chain for chain, record in tree.items() if record[NODE_ID] in source_ids]
    return next((chain for chain in found if tree[chain][PARENT] == under), found[0] if found else None)


def _quality(element: Element, tree: dict, unit_chain: str, unit: UnitChoice, options: frozenset) -> Element:
    """The quality's selection where the unit is priced by a group of qualities; else the unit itself."""
    for chain, record in tree.items():
        quality = record[NAME].strip().lower()
        if record[GROUP_KIND] == "quality" and record[PARENT] == unit_chain and quality == (unit.quality or ""):
            return _chosen(element, tree, chain, 1, 0, options)
    return element


def _men(parents: dict[str, Element], tree: dict, unit: UnitChoice, options: frozenset, option_men: int) -> None:
    """The men of a squad, by kind: the fixed ones (an NCO) first, the rest on the first kinds one may add.

    The men sit under the chosen quality or beside it, under the unit. Where our size runs past what the
    data's men allow (a few squads the pack lets grow larger), the last kind one may add takes the rest,
    so that the roster reads back the same.
    """
    men = [
        (c, r) for c, r in tree.items() if r[GROUP_KIND] == "men" and r[PARENT] in parents and r[NODE_ID] not in options
    ]
    if not men:
        return
    size = unit.own_size
    counts = [record[LEAST] for _, record in men]
    spare = size - option_men - sum(counts)
    growing = [index for index, (_, record) in enumerate(men) if record[MOST] is None or record[MOST] > record[LEAST]]
    for index in growing:
        record = men[index][1]
        room = spare if record[MOST] is None else min(spare, record[MOST] - record[LEAST])
        if room > 0:
            counts[index] += room
            spare -= room
    if spare > 0 and growing:
        counts[growing[-1]] += spare
    for (chain, record), count in zip(men, counts, strict=True):
        if count:
            _chosen(parents[record[PARENT]], tree, chain, count, 0, options)


def roster_rosz(xml: bytes) -> bytes:
    """The .ros zipped as BattleScribe does: one member, the roster."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("roster.ros", xml)
    return buffer.getvalue()


def export(roster: RosterSnapshot) -> bytes:
    return roster_xml(roster, [unit_points(roster, unit) for unit in roster.units])
