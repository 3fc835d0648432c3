"""Roster files (.ros): writing a roster as BattleScribe 2.03 does, and reading one back.

A file's costs are never trusted: reading links each force and selection to the data by its
entry ids and evaluates the roster afresh. Writing follows BattleScribe's element and attribute
order, so exports compare byte for byte with BattleScribe's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lxml import etree

from ..archives import ArchiveRefused, read_single_member
from ..safe_xml import parse_xml
from .elements import Force, RosterCategory, Selection
from .info import ShownProfile, ShownRule, shown_info
from .options import Option, find_option, root_options
from .queries import Context
from .xml_loading import local_name

if TYPE_CHECKING:
    from .gamedata import GameData
    from .roster import Roster

MAX_ROSTER_XML_BYTES = 512 * 1024  # a roster's XML, unzipped: the bound every roster file has
NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def java_double(value: float) -> str:
    """A number as Java prints a double (100.0, 0.5)."""
    rounded = float(f"{value:.15g}")
    return repr(rounded)


def element(parent: Any, tag: str, attributes: list[tuple[str, str | None]]) -> Any:
    """A child element with the attributes that have values, in order."""
    node = etree.SubElement(parent, f"{{{NAMESPACE}}}{tag}")
    for name, value in attributes:
        if value is not None:
            node.set(name, value)
    return node


def text_child(parent: Any, tag: str, text: str | None) -> None:
    """A child element holding text, when there is text."""
    if text:
        element(parent, tag, []).text = text


def write_costs(roster: Roster, parent: Any, costs: dict[str, float], declared: list[str], tag: str = "cost") -> None:
    """A costs element: declared costs first, then the others BattleScribe fills with zero."""
    if not costs:
        return
    holder = element(parent, tag + "s" if tag == "cost" else "costLimits", [])
    names = {c.id: c.name for c in roster.data.cost_types}
    order = [t for t in declared if t in costs] + [t for t in reversed(list(costs)) if t not in declared]
    for type_id in order:
        element(
            holder,
            tag,
            [("name", names.get(type_id, type_id)), ("typeId", type_id), ("value", java_double(costs[type_id]))],
        )


def write_info(roster: Roster, parent: Any, profiles: list[ShownProfile], rules: list[ShownRule]) -> None:
    """The rules and profiles elements of a force or selection."""
    rules = [r for r in rules if not r.hidden]
    profiles = [p for p in profiles if not p.hidden]
    if rules:
        holder = element(parent, "rules", [])
        for rule in rules:
            node = element(
                holder,
                "rule",
                [
                    ("id", roster.next_id("rule")),
                    ("name", rule.name),
                    ("publicationId", rule.publication_id),
                    ("page", rule.page),
                    ("hidden", "false"),
                ],
            )
            text_child(node, "description", rule.description)
    if profiles:
        holder = element(parent, "profiles", [])
        for profile in profiles:
            node = element(
                holder,
                "profile",
                [
                    ("id", roster.next_id("profile")),
                    ("name", profile.name),
                    ("publicationId", profile.publication_id),
                    ("page", profile.page),
                    ("hidden", "false"),
                    ("typeId", profile.type_id),
                    ("typeName", profile.type_name),
                ],
            )
            characteristics = element(node, "characteristics", [])
            for name, type_id, value in profile.characteristics:
                element(characteristics, "characteristic", [("name", name), ("typeId", type_id)]).text = value


def write_selection(roster: Roster, parent: Any, selection: Selection, with_info: bool = True) -> None:
    """One selection element and everything in it (its profiles and rules `with_info`)."""
    node = element(
        parent,
        "selection",
        [
            ("id", selection.id),
            ("name", selection.name),
            ("entryId", selection.entry_id),
            ("entryGroupId", selection.entry_group_id),
            ("customName", selection.custom_name or None),
            ("publicationId", selection.publication_id),
            ("page", selection.page),
            ("number", str(selection.number)),
            ("type", selection.type),
        ],
    )
    text_child(node, "customNotes", selection.custom_notes)
    if with_info:
        profiles, rules = shown_info(roster.data, selection.option.sources, Context.of_selection(roster, selection))
        write_info(roster, node, profiles, rules)
    if selection.children:
        holder = element(node, "selections", [])
        for child in selection.children:
            write_selection(roster, holder, child, with_info)
    write_costs(roster, node, selection.costs, [t for t in selection.costs if t in selection.declared_costs])
    if selection.categories:
        holder = element(node, "categories", [])
        for category in selection.categories:
            element(
                holder,
                "category",
                [
                    ("id", roster.next_id("category")),
                    ("name", category.name),
                    ("entryId", category.entry_id),
                    ("primary", "true" if category.primary else "false"),
                ],
            )


def write_force(roster: Roster, parent: Any, force: Force, with_info: bool = True) -> None:
    """One force element and everything in it (its profiles and rules `with_info`)."""
    from .state import force_info

    node = element(
        parent,
        "force",
        [
            ("id", force.id),
            ("name", force.name),
            ("entryId", force.entry.id),
            ("customName", force.custom_name or None),
            ("publicationId", force.entry.publication_id),
            ("page", force.entry.page),
            ("catalogueId", force.catalogue.id),
            ("catalogueRevision", str(force.catalogue.revision)),
            ("catalogueName", force.catalogue.name),
        ],
    )
    text_child(node, "customNotes", force.custom_notes)
    if with_info:
        profiles, rules = force_info(roster, force)
        write_info(roster, node, profiles, rules)
    if force.selections:
        holder = element(node, "selections", [])
        for selection in force.selections:
            write_selection(roster, holder, selection, with_info)
    publications = [*force.catalogue.publications, *roster.data.game_system.publications]
    if publications:
        holder = element(node, "publications", [])
        for publication in publications:
            element(holder, "publication", [("id", roster.next_id("publication")), ("name", publication.name)])
    holder = element(node, "categories", [])
    for category in force.categories:
        category_node = element(
            holder,
            "category",
            [
                ("id", category.id),
                ("name", category.name),
                ("entryId", category.entry_id),
                ("customName", category.custom_name or None),
                ("primary", "false"),
            ],
        )
        text_child(category_node, "customNotes", category.custom_notes)
    if force.forces:
        forces = element(node, "forces", [])
        for child in force.forces:
            write_force(roster, forces, child, with_info)


def write_roster_xml(roster: Roster, with_info: bool = True) -> str:
    """The roster as .ros XML, as BattleScribe writes it; without the profiles and rules shown in it
    (`with_info` False) where only this engine reads it back, which never reads them."""
    system = roster.data.game_system
    root = etree.Element(f"{{{NAMESPACE}}}roster", nsmap={None: NAMESPACE})
    for name, value in (
        ("id", roster.id),
        ("name", roster.name),
        ("battleScribeVersion", "2.03"),
        ("gameSystemId", system.id),
        ("gameSystemName", system.name),
        ("gameSystemRevision", str(system.revision)),
    ):
        root.set(name, value)
    write_costs(roster, root, roster.totals, list(roster.totals))
    limits = {t: v for t, v in roster.cost_limits.items() if v >= 0}
    write_costs(roster, root, limits, list(limits), tag="costLimit")
    if roster.forces:
        forces = element(root, "forces", [])
        for force in roster.forces:
            write_force(roster, forces, force, with_info)
    text = etree.tostring(root, pretty_print=True, encoding="unicode")
    # BattleScribe writes the namespace after the roster's attributes; lxml writes it first.
    namespace = f' xmlns="{NAMESPACE}"'
    head, rest = text.split(">", 1)
    head = head.replace(namespace, "", 1)
    if head.endswith("/"):
        head = head[:-1] + namespace + "/"
    else:
        head += namespace
    return DECLARATION + head + ">" + rest


def roster_xml_text(content: bytes | str) -> bytes:
    """The XML of a .ros or zipped .rosz file (its one member, through the bounded reader of every zip)."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    if raw[:2] == b"PK":
        try:
            return read_single_member(raw, MAX_ROSTER_XML_BYTES, what="roster file")
        except ArchiveRefused as refused:
            raise ValueError(f"the .rosz cannot be read: {refused}") from None
    return raw


def children_named(node: Any, container: str, tag: str) -> list[Any]:
    """The elements `tag` inside a child container element."""
    found = []
    for child in node:
        if local_name(child) == container:
            found.extend(item for item in child if local_name(item) == tag)
    return found


def read_roster_xml(data: GameData, xml: bytes | str) -> Roster:
    """A roster read from .ros (or .rosz) content and linked to the data; its costs are recomputed."""
    return read_roster_tree(data, parse_xml(roster_xml_text(xml)))


def read_roster_tree(data: GameData, root: Any) -> Roster:
    """A roster read from a parsed .ros (its root element, namespaced or not) and linked to the data."""
    from .roster import Roster

    roster = Roster(data, root.get("name") or "Roster")
    roster.id = root.get("id") or roster.id
    roster.roots_auto_selected = True
    for limit in children_named(root, "costLimits", "costLimit"):
        roster.cost_limits[limit.get("typeId") or ""] = float(limit.get("value") or -1)
    with roster.action():  # the whole tree read, then evaluated once
        for node in children_named(root, "forces", "force"):
            read_force(roster, node, None)
        roster.changed()
    return roster


def read_force(roster: Roster, node: Any, parent: Force | None) -> None:
    """One force element, added to the roster with its selections."""
    data = roster.data
    entry = data.force_entries.get(node.get("entryId") or "")
    if entry is None:
        return
    catalogue = data.catalogues_by_id.get(node.get("catalogueId") or "") or data.catalogue(None)
    force = Force(
        node.get("id") or roster.next_id("force"), entry, catalogue, parent, roster.next_serial(), name=entry.name
    )
    force.custom_name = node.get("customName")
    force.custom_notes = next((c.text for c in node if local_name(c) == "customNotes"), None)
    force.categories = [RosterCategory(roster.next_id("category"), "(No Category)", "Uncategorised")]
    for link in entry.category_links:
        target = link.target_id or ""
        force.categories.append(
            RosterCategory(roster.next_id("category"), target, data.category_name(target) or link.name)
        )
    for category_node in children_named(node, "categories", "category"):
        for category in force.categories:
            if category.entry_id == category_node.get("entryId"):
                category.custom_name = category_node.get("customName")
                category.custom_notes = next((c.text for c in category_node if local_name(c) == "customNotes"), None)
    force.options, force.groups = root_options(data, data.root_entries(catalogue))
    (parent.forces if parent is not None else roster.forces).append(force)
    for selection_node in children_named(node, "selections", "selection"):
        read_selection(roster, selection_node, force, None, force.options)
    for child in children_named(node, "forces", "force"):
        read_force(roster, child, force)


def read_selection(roster: Roster, node: Any, force: Force, parent: Selection | None, options: list[Option]) -> None:
    """One selection element, linked to the option its entry id names."""
    option = find_option(options, node.get("entryId") or "")
    if option is None:
        return
    selection = Selection(
        node.get("id") or roster.next_id("selection"),
        option,
        force,
        parent,
        int(node.get("number") or 1),
        roster.next_serial(),
    )
    selection.name = option.name
    selection.custom_name = node.get("customName")
    selection.custom_notes = next((c.text for c in node if local_name(c) == "customNotes"), None)
    (parent.children if parent is not None else force.selections).append(selection)
    for child in children_named(node, "selections", "selection"):
        read_selection(roster, child, force, selection, option.children)


def duplicate_force(roster: Roster, force: Force) -> Force:
    """A copy of a force with its selections, beside it."""
    from .selecting import copy_tree

    copy = Force(
        roster.next_id("force"), force.entry, force.catalogue, force.parent, roster.next_serial(), name=force.name
    )
    copy.categories = [
        RosterCategory(roster.next_id("category"), c.entry_id, c.name, c.custom_name, c.custom_notes)
        for c in force.categories
    ]
    copy.options, copy.groups = force.options, force.groups
    copy.custom_name, copy.custom_notes = force.custom_name, force.custom_notes
    for selection in force.selections:
        duplicate = copy_tree(roster, selection, None)
        for item in duplicate.walk():
            item.force = copy
        copy.selections.append(duplicate)
    (force.parent.forces if force.parent is not None else roster.forces).append(copy)
    roster.changed()
    return copy
