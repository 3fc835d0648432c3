"""The BattleScribe ids a roster file needs, written beside the converted packs.

A BattleScribe or New Recruit roster names each selection by its entry-id
chain: the ids of the entry links (and group links) from the force down, joined
by `::`, ending in the entry's own id (a group adds no segment); its
`entryGroupId` is the same prefix and the id of the group holding it. The packs
keep one id per unit and option (`source_id`); this module records, for every
converted unit, the whole tree of entries under the root entry a player adds,
so that a roster can be read (every selection mapped or refused) and written
(the chains BattleScribe builds), plus the game system's and catalogues' ids and
revisions. The chains are the engine's (lists/battlescribe/engine/options.py,
which builds them exactly as BattleScribe does), read from the data files as
published (no override applied: a file names what BattleScribe saw), one
catalogue at a time with its game system (catalogues copied from one another
share ids); the converter's reading only says what each entry is to us
(quality, men, a compulsory choice...). The file is data for the roster reader and writer
(lists/rosters/battlescribe_reading.py), not game data, so the pack loader skips it.
"""

from __future__ import annotations

from lists.battlescribe.converter import Converter
from lists.battlescribe.engine import GroupOption, Option, Roster, load_data_files, root_options
from lists.battlescribe.names import QUALITIES, THEATRE_SELECTOR
from lists.battlescribe.nodes import Node, chosen_default
from lists.battlescribe.reader import DataFile
from lists.battlescribe.units import is_quality_entry, is_weapon

# The fields of an entry's record in the ids file, by position.
NODE_ID, NAME, TYPE, GROUP, GROUP_KIND, LEAST, MOST, PARENT, COST = range(9)

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
        # Root entries that are neither units nor theatre selectors (chain -> [name, BattleScribe adds it to
        # every new force]): a file may hold them empty, as BattleScribe adds them (Command Vehicle Options).
        "other_roots": {},
        "force_roots": {},  # nation -> the kept root entries BattleScribe adds to every new force (the Officer)
        # The sets of national rules a roster picks one of (Italy's "National Rules"): set name -> [its root
        # entry's chain, the chosen entry's chain, the chosen entry's record], so files read and write the pick.
        "rule_choices": {},
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
        trees, compulsory = _root_trees(converter, catalogue)
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
                    "options": _option_rows(unit, trees[found[0]]),
                }
                document["roots"].setdefault(nation, {}).setdefault(found[0], trees[found[0]])
        for army in armies[1:]:
            if army["key"] in document["armies"]:
                root_chain = document["armies"][army["key"]]["root"]
                document["roots"].setdefault(nation, {}).setdefault(root_chain, trees[root_chain])
        kept = document["roots"].get(nation, {})
        document["other_roots"][nation] = {
            chain: [tree[chain][1], chain in compulsory] for chain, tree in trees.items() if chain not in kept
        }
        document["force_roots"][nation] = sorted(chain for chain in compulsory if chain in kept)
        names = {choice["name"] for choice in armies[0].get("rule_choices", [])}
        picks = {
            record[1]: [root_chain, chain, record]
            for root_chain in document["other_roots"][nation]
            for chain, record in trees[root_chain].items()
            if chain != root_chain and record[1] in names
        }
        if picks:
            document["rule_choices"][nation] = picks
    return document


def _option_rows(unit: dict, tree: dict[str, list]) -> list[list]:
    """Each option of a unit: key, id, priced per unit or per man, the qualities offering it (empty: all), adds
    men. An option each quality's entry holds (a US squad's Anti-tank Grenades under Inexperienced, Regular and
    Veteran alike) is one option of the pack, keeping the first entry's id: the others' ids are rows of their
    quality, so a file naming any of them is read."""
    rows = [
        [o["key"], o.get("source_id", ""), o.get("per", "unit"), o.get("qualities", []), bool(o.get("adds_models"))]
        for o in unit.get("options", [])
    ]
    known = {row[1] for row in rows}
    by_path: dict[tuple, list[tuple[list, list]]] = {}  # names below the quality -> (record, its quality)
    for record in tree.values():
        path, quality = _below_quality(tree, record)
        if quality is not None:
            by_path.setdefault(path, []).append((record, quality))
    first = {record[NODE_ID]: (path, quality) for path, found in by_path.items() for record, quality in found}
    for key, source_id, per, qualities, adds in list(rows):
        if source_id not in first:
            continue
        path, holder = first[source_id]
        for twin, quality in by_path[path]:
            named = quality[NAME].strip().lower()
            if twin[NODE_ID] in known or quality[GROUP] != holder[GROUP] or (qualities and named not in qualities):
                continue
            rows.append([key, twin[NODE_ID], per, [named], adds])
            known.add(twin[NODE_ID])
    # A quality's own entry of an option the unit holds too (a French Veteran Cavalry Section's LMG beside the
    # section's): the converter keeps the unit's (options.py, merge_quality_options), and the file's is read as it.
    names = {o["name"].strip().lower(): o for o in unit.get("options", []) if o.get("source_id") not in first}
    for path, found in by_path.items():
        option = names.get(path[0]) if len(path) == 1 else None
        if option is None or option.get("qualities"):
            continue
        for twin, quality in found:  # an optional entry only: a compulsory part or a choice is read as one
            if twin[NODE_ID] not in known and twin[LEAST] < 1 and not twin[GROUP_KIND]:
                rows.append(
                    [
                        option["key"],
                        twin[NODE_ID],
                        option.get("per", "unit"),
                        [quality[NAME].strip().lower()],
                        bool(option.get("adds_models")),
                    ]
                )
                known.add(twin[NODE_ID])
    return rows


def _below_quality(tree: dict[str, list], record: list) -> tuple[tuple, list | None]:
    """The names from a record up to its quality entry, the quality word left out ("Regular NCO" is "nco"), and
    that quality's record; None where no quality entry holds it."""
    names = []
    while record is not None and record[GROUP_KIND] != "quality" and len(names) <= MAX_DEPTH:
        words = record[NAME].split()
        # Compared without case: the US Glider Squad's Veteran NCO has an "Smg" where the Regular's has an "SMG".
        names.append(" ".join(words[1:] if words and words[0].lower() in QUALITIES else words).lower())
        above = tree.get(record[PARENT])
        if record[GROUP_KIND] in ("default", "choice") and _wraps(tree, above):
            above = tree.get(above[PARENT])  # a man's "Weapon" entry is his weapon group: the Regular NCO's twin
        record = above
    return tuple(names), record


def _wraps(tree: dict[str, list], record: list | None) -> bool:
    """A man's compulsory entry holding his weapon choice (_weapon_wrapper): once, in a man."""
    man = tree.get(record[PARENT]) if record is not None else None
    return (
        man is not None and record[GROUP_KIND] == "" and record[LEAST] == record[MOST] == 1 and man[GROUP_KIND] == "men"
    )


def _find(trees: dict[str, dict], wanted: str, own: bool) -> tuple[str, str] | None:
    """(root chain, chain) of the entry whose id (own=True: the entry's, else the link's or entry's) is `wanted`."""
    for root_chain, tree in trees.items():
        for chain, record in tree.items():
            if (chain.rsplit("::", 1)[-1] if own else record[0]) == wanted:
                return root_chain, chain
    return None


def _root_trees(converter: Converter, catalogue: DataFile) -> tuple[dict[str, dict], set[str]]:
    """Every root entry of a catalogue (what a player adds to a force) with the tree of entries under it, and
    the chains of those BattleScribe selects in a new force of the converter's organisation."""
    trees: dict[str, dict] = {}
    root = catalogue.root
    system = converter.library.system.path
    data = load_data_files([(system.name, system.read_bytes()), (catalogue.path.name, catalogue.path.read_bytes())])
    engine_catalogue = next(c for c in data.catalogues if c.id == root.get("id"))
    engine_roots, _ = root_options(data, data.root_entries(engine_catalogue))
    for element in [*root.findall("entryLinks/entryLink"), *root.findall("selectionEntries/selectionEntry")]:
        node = converter.resolve(element, catalogue)
        option = _match(node, [o for o in engine_roots if o.group is None]) if node is not None else None
        if node is None or node.is_group or option is None:
            continue
        tree: dict[str, list] = {}
        _walk(converter, catalogue, node, option, "", "", tree, 0)
        if tree:
            trees[next(iter(tree))] = tree
    roster = Roster(data)
    force = roster.add_force(converter.force_id, engine_catalogue.id)
    return trees, {selection.entry_id for selection in force.selections}


def _match(node: Node, candidates: list) -> Option | GroupOption | None:
    """The engine's option (or group option) for the converter's node: the same link, or the same entry."""
    return next((c for c in candidates if (c.link.id if c.link is not None else c.entry.id) == node.id), None)


def _under(option: Option | GroupOption) -> list:
    """What sits straight under an engine option or group option: its entries and groups, not theirs."""
    if isinstance(option, GroupOption):
        return [o for o in [*option.options, *option.nested_groups] if o.group is option]
    return [o for o in [*option.children, *option.groups] if o.group is None and o.parent is option]


def _fallback_default(converter: Converter, catalogue: DataFile, entries: list[Node], man: list | None) -> Node | None:
    """A compulsory one-of group's default where the data names none, as the converter takes it: for a
    man of a squad (lists/battlescribe/men.py), the cheapest weapon; else the first entry."""
    if not entries:
        return None
    if man is not None and man[4] == "men":
        return min(entries, key=lambda c: _cost_with_contents(converter, catalogue, c))
    return entries[0]


def _cost_with_contents(converter: Converter, catalogue: DataFile, node: Node) -> float:
    """An entry's cost and what its compulsory contents cost (as UnitBuilder.mandatory_cost adds them)."""
    total = node.cost
    for child in converter.children(node, catalogue):
        least = child.limit("min") or 0
        if not child.is_group and least >= 1:
            total += least * _cost_with_contents(converter, catalogue, child)
    return total


def _walk(
    converter: Converter,
    catalogue: DataFile,
    node: Node,
    option: Option | GroupOption,
    group_kind: str,
    parent: str,
    tree: dict[str, list],
    depth: int,
) -> None:
    """Record `node` (the engine's `option`) and what is under it: chain -> [link-or-entry id, name, type,
    group chain, group kind, least, most, parent chain, own points]. The chains are the engine's."""
    if depth > MAX_DEPTH:
        return
    under = _under(option)
    if node.is_group:
        children = converter.children(node, catalogue)
        names = [c.name.strip().lower() for c in children if not c.is_group]
        low, high = node.limit("min") or 0, node.limit("max")
        entries = [c for c in children if not c.is_group]
        kind = ""
        if names and all(name in QUALITIES for name in names):
            kind = "quality"
        elif node.name.strip() == THEATRE_SELECTOR:
            kind = "selector"
        elif low >= 1 and (high is None or high > 1) and not all(is_weapon(converter, c, catalogue) for c in entries):
            kind = "men"  # not a weapons group of at most two (an Indian Royal Engineers NCO's Rifle), as the converter reads it
        # A compulsory one-of (an officer's weapon): its default is part of the unit, the others are options.
        default = chosen_default(node, entries) or _fallback_default(converter, catalogue, entries, tree.get(parent))
        # Weapons fitted N times (an LVT4's two pintle mounts): the default N times, the others replacing it (units.py).
        fitted = low >= 1 and low == high and bool(entries) and all(is_weapon(converter, c, catalogue) for c in entries)
        for child in children:
            child_kind = kind
            if not kind and low >= 1 and (high == 1 or fitted):
                child_kind = "default" if child is default else "choice"
            found = _match(child, under)
            if found is not None:
                _walk(converter, catalogue, child, found, child_kind, parent, tree, depth + 1)
        return
    chain = option.id
    if chain in tree:
        return
    least, most = node.limit("min"), node.limit("max")
    tree[chain] = [
        node.id,
        node.name,
        node.entry_type or "upgrade",
        option.group_id or "",
        group_kind,
        int(least or 0),
        None if most is None else int(most),
        parent,
        node.cost,
    ]
    loose = _loose_weapons(converter, catalogue, node) if group_kind == "men" else []
    if (
        group_kind != "men"
        and tree.get(parent, [""] * 5)[GROUP_KIND] == "men"
        and _weapon_wrapper(converter, catalogue, node)
    ):
        loose = _loose_weapons(converter, catalogue, node, 1)  # a man's "Weapon" entry: his choice (men.py)
    for child in converter.children(node, catalogue):
        # A quality entry with its own men straight under an entry (no price group) is a quality all the same.
        kind = "quality" if not child.is_group and is_quality_entry(converter, child, catalogue) else ""
        if child in loose:  # read as his weapon choice, as the converter reads it (men.py)
            kind = "default" if child == loose[0] else "choice"
        found = _match(child, under)
        if found is not None:
            _walk(converter, catalogue, child, found, kind, chain, tree, depth + 1)


def _weapon_wrapper(converter: Converter, catalogue: DataFile, node: Node) -> bool:
    """A man's compulsory entry, once, with no weapon of its own, holding only weapons each at most once (a
    Veteran Honvéd NCO's "Weapon"): his one-of weapon group written as an entry, as the converter reads it."""
    if node.is_group or node.limit("min") != 1 or node.limit("max") != 1 or converter.weapons_of(node, catalogue):
        return False
    held = converter.children(node, catalogue)
    loose = _loose_weapons(converter, catalogue, node, 1)
    # One priced weapon is an option of the squad (men.py, wrapped_option), not his default.
    free = len(loose) == 1 and not _cost_with_contents(converter, catalogue, loose[0])
    return bool(held) and len(loose) == len(held) and (len(loose) >= 2 or free)


def _loose_weapons(converter: Converter, catalogue: DataFile, man: Node, least: int = 2) -> list[Node]:
    """A man's weapons with no group around them, each at most once and none compulsory (a Regular British
    NCO's Rifle and SMG): his weapon choice, the cheapest first (his default); none where he has fewer than
    `least`."""

    def armed(entry: Node) -> bool:
        held = [c for c in converter.children(entry, catalogue) if not c.is_group]
        return any(converter.weapons_of(c, catalogue) for c in [entry, *held])

    loose = [
        c
        for c in converter.children(man, catalogue)
        if not c.is_group and not c.limit("min") and c.limit("max") == 1 and armed(c)
    ]
    return sorted(loose, key=lambda c: _cost_with_contents(converter, catalogue, c)) if len(loose) >= least else []
