"""The BattleScribe ids a roster file needs, written beside the converted packs.

A BattleScribe or New Recruit roster names each selection by its entry-id
chain: the entry-link ids from the force down, joined by `::`, ending in the
entry's own id (a group adds no segment). The packs keep one id per unit and
option (`source_id`); this module records, for every converted unit, the
whole tree of entries under the root entry a player adds, so that a roster can
be read (every selection mapped or refused) and written (the chains
BattleScribe builds), plus the game system's and catalogues' ids and
revisions. The file is data for the roster reader and writer
(lists/rosters/battlescribe_reading.py), not game data, so the pack loader skips it.
"""

from __future__ import annotations

from lists.battlescribe.converter import Converter
from lists.battlescribe.names import QUALITIES, THEATRE_SELECTOR
from lists.battlescribe.nodes import Node
from lists.battlescribe.reader import DataFile
from lists.battlescribe.units import is_quality_entry

FILE_NAME = "battlescribe-ids.json"
MAX_DEPTH = 12  # links may point back up the tree; no real entry is nested this deep


def entry_ids(converter: Converter, files: dict[str, dict]) -> dict:
    """The ids file's content for the converted `files` (pack file name -> content)."""
    library = converter.library
    system = library.system.root
    document: dict = {
        "game_system": {"id": system.get("id"), "name": system.get("name"), "revision": system.get("revision")},
        "catalogues": {},
        "armies": {},
        "organisations": {},
        "units": {},
        "roots": {},
    }
    categories = {
        c["key"]: [c["source_id"], c["name"]] for c in files.get("shared.yaml", {}).get("unit_categories", [])
    }
    by_id = {catalogue.root.get("id"): catalogue for catalogue in library.catalogues}
    for content in files.values():
        for organisation in content.get("organisations", []):
            document["organisations"][organisation["key"]] = organisation["source_id"]
        armies = content.get("armies", [])
        if not armies or armies[0]["source_id"] not in by_id:
            continue
        catalogue = by_id[armies[0]["source_id"]]
        nation = armies[0]["key"]
        root = catalogue.root
        document["catalogues"][nation] = {
            "id": root.get("id"),
            "name": root.get("name"),
            "revision": root.get("revision"),
        }
        trees = _root_trees(converter, catalogue)
        for army in armies[1:]:
            chain = _find(trees, army["source_id"], own=True)
            if chain:
                document["armies"][army["key"]] = {"catalogue": nation, "root": chain[0], "chain": chain[1]}
        for unit in content.get("units", []):
            found = _find(trees, unit["source_id"], own=False)
            if found:
                document["units"][unit["key"]] = {
                    "catalogue": nation,
                    "root": found[0],
                    "chain": found[1],
                    "category": categories.get(unit["category"]),
                    # key, id, priced per unit or per man, the qualities offering it (empty: all), adds men
                    "options": [
                        [
                            o["key"],
                            o.get("source_id", ""),
                            o.get("per", "unit"),
                            o.get("qualities", []),
                            bool(o.get("adds_models")),
                        ]
                        for o in unit.get("options", [])
                    ],
                }
                document["roots"].setdefault(nation, {}).setdefault(found[0], trees[found[0]])
        for army in armies[1:]:
            if army["key"] in document["armies"]:
                root_chain = document["armies"][army["key"]]["root"]
                document["roots"].setdefault(nation, {}).setdefault(root_chain, trees[root_chain])
    return document


def _find(trees: dict[str, dict], wanted: str, own: bool) -> tuple[str, str] | None:
    """(root chain, chain) of the entry whose id (own=True: the entry's, else the link's or entry's) is `wanted`."""
    for root_chain, tree in trees.items():
        for chain, record in tree.items():
            if (chain.rsplit("::", 1)[-1] if own else record[0]) == wanted:
                return root_chain, chain
    return None


def _root_trees(converter: Converter, catalogue: DataFile) -> dict[str, dict]:
    """Every root entry of a catalogue (what a player adds to a force) with the tree of entries under it."""
    trees: dict[str, dict] = {}
    root = catalogue.root
    for element in [*root.findall("entryLinks/entryLink"), *root.findall("selectionEntries/selectionEntry")]:
        node = converter.resolve(element, catalogue)
        if node is None or node.is_group:
            continue
        tree: dict[str, list] = {}
        _walk(converter, catalogue, node, [], "", "", "", tree, 0)
        if tree:
            trees[next(iter(tree))] = tree
    return trees


def _walk(
    converter: Converter,
    catalogue: DataFile,
    node: Node,
    links: list[str],
    group: str,
    group_kind: str,
    parent: str,
    tree: dict[str, list],
    depth: int,
) -> None:
    """Record `node` and what is under it: chain -> [link-or-entry id, name, type, group chain, group kind,
    least, most, parent chain, own points]."""
    if depth > MAX_DEPTH:
        return
    if node.is_group:
        children = converter.children(node, catalogue)
        names = [c.name.strip().lower() for c in children if not c.is_group]
        low, high = node.limit("min") or 0, node.limit("max")
        kind = ""
        if names and all(name in QUALITIES for name in names):
            kind = "quality"
        elif node.name.strip() == THEATRE_SELECTOR:
            kind = "selector"
        elif low >= 1 and (high is None or high > 1):
            kind = "men"
        prefix = "::".join([*links, node.element.get("id", "")])
        # A compulsory one-of (an officer's weapon): its default is part of the unit, the others are options.
        wanted = node.element.get("defaultSelectionEntryId")
        entries = [c for c in children if not c.is_group]
        default = next((c for c in entries if wanted in (c.id, c.element.get("id"))), entries[0] if entries else None)
        for child in children:
            child_kind = kind
            if not kind and low >= 1 and high == 1:
                child_kind = "default" if child is default else "choice"
            _walk(converter, catalogue, child, links, prefix, child_kind, parent, tree, depth + 1)
        return
    own = node.element.get("id", "")
    chain_links = [*links, node.link.get("id", "")] if node.link is not None else links
    chain = "::".join([*chain_links, own])
    if chain in tree:
        return
    least, most = node.limit("min"), node.limit("max")
    tree[chain] = [
        node.id,
        node.name,
        node.entry_type or "upgrade",
        group,
        group_kind,
        int(least or 0),
        None if most is None else int(most),
        parent,
        node.cost,
    ]
    for child in converter.children(node, catalogue):
        # A quality entry with its own men straight under an entry (no price group) is a quality all the same.
        kind = "quality" if not child.is_group and is_quality_entry(converter, child, catalogue) else ""
        _walk(converter, catalogue, child, chain_links, "", kind, chain, tree, depth + 1)
