"""The BattleScribe engine and the converted Bolt Action packs, side by side on every theatre list.

    python scripts/bolt_action_side_by_side.py [--army TEXT] [--show N] [--no-options] [--points-only] [BSDATA_FOLDER]

For each theatre list of lists/packs/bolt-action-2e/armies and each unit it shows, at each quality
the list offers: the engine builds a roster of the game system's Reinforced Platoon with the list's
theatre selector chosen, adds the unit (through battlescribe-ids.json's entry-id chains) with its
quality entry, and reads the unit's points; the pack prices the same unit and quality in the same
list (the quality's price, or the theatre's own). Then each option the unit offers at that quality
in that list is taken on its own (a choice replacing its group's default), and the engine's change
in points is set beside the pack's price for it.

With each option taken, the weapons and rules the engine shows for it (its selection and what that holds)
are set beside those the pack's option carries (lists/battlescribe/profile_check.py): a weapon or a
played rule the data gives the option that the pack leaves off it, or a weapon option carrying no
weapon, is a difference (`weapons and rules`), classified as the points are.

Prints how many agree, and how many differ by cause:
- `override`: the unit's entries hold one of lists/battlescribe/overrides.yaml's corrections;
- `reading`: a construct docs/battlescribe.md reads one way on purpose (its "Readings");
- `unexplained`: anything else (an engine bug, or a converter one), listed with --show.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lists.battlescribe.engine import Roster  # noqa: E402
from lists.battlescribe.engine.compiled import compiled_game_data  # noqa: E402
from lists.battlescribe.engine.elements import Force, Selection  # noqa: E402
from lists.battlescribe.engine.options import find_option  # noqa: E402
from lists.battlescribe.profile_check import PackNames, option_differences, shown_under  # noqa: E402
from lists.battlescribe.safe_xml import parse_xml  # noqa: E402

ARMIES = ROOT / "lists" / "packs" / "bolt-action-2e" / "armies"
OVERRIDES = ROOT / "lists" / "battlescribe" / "overrides.yaml"
DEFAULT_BSDATA = ROOT.parent / "shared" / "bsdata" / "boltaction"
PLATOON = "bs-reinforced-platoon"
HOLDERS = ("selectionEntry", "selectionEntryGroup", "entryLink")
QUALITY_NAMES = {"inexperienced": "Inexperienced", "regular": "Regular", "veteran": "Veteran"}
NODE_ID, NAME, TYPE, GROUP, GROUP_KIND, LEAST, MOST, PARENT, COST = range(9)
# Units whose price docs/battlescribe.md reads one way on purpose ("Readings where the data leaves
# BattleScribe's answer in doubt"), by an entry id of their root entry's chain: the theatre list the
# reading concerns (None: every list) and the reading.
READINGS = {
    "b36eaca3-feb2-59ba-fe33-e5b4804ea6e9": (
        None,
        "Marder II: its Crew carried MMG 360° (least 1) sits inside the Rating group (one of), so "
        "BattleScribe selects it and no rating (0 points); the packs price the Inexperienced rating "
        "as the default and the MMG as replacing it",
    ),
    "3c5586f7-00bf-c34c-9e63-339bc6fb26a7": (
        "germany-1945-last-levy",
        "Panther with IR equipment in 1945: Last Levy: two set-points modifiers (the theatre's price and "
        "the IR price) applied in opposite orders for each quality; the packs price the theatre's price "
        "plus the IR surcharge",
    ),
}


@dataclass
class Finding:
    """One unit (or option) priced by the engine and by the pack."""

    army: str
    unit: str
    quality: str
    option: str | None
    engine: float
    pack: float
    cause: str = "agree"
    kind: str = "points"  # or "weapons and rules": what the option shows, beside what it carries
    detail: str = ""


@dataclass
class Pack:
    """The converted packs: units by key, theatre lists by key, and the BattleScribe ids."""

    units: dict[str, dict] = field(default_factory=dict)
    armies: dict[str, dict] = field(default_factory=dict)
    ids: dict = field(default_factory=dict)
    overridden: set[str] = field(default_factory=set)
    names: PackNames = field(default_factory=PackNames)
    carried: bool = False  # compare what each option shows (weapons, rules) too, not its points only


def read_pack(folder: Path = DEFAULT_BSDATA) -> Pack:
    """Every army file's units and armies, the ids file, and the ids the overrides name (with the entries
    holding an overridden constraint or modifier, read from the data in `folder`)."""
    pack = Pack()
    for path in sorted(ARMIES.glob("*.yaml")):
        text = path.read_text()
        document = json.loads(text[text.index("{") :])
        pack.units.update((u["key"], u) for u in document.get("units", []))
        pack.armies.update((a["key"], a) for a in document.get("armies", []))
    pack.ids = json.loads((ARMIES / "battlescribe-ids.json").read_text())
    pack.names = pack_names()
    overrides = yaml.safe_load(OVERRIDES.read_text())["overrides"]
    for override in overrides:
        for key in ("id", "source_value", "used_value"):
            if override.get(key):
                pack.overridden.add(str(override[key]))
    pack.overridden |= holding_entries(folder, overrides)
    return pack


def pack_names() -> PackNames:
    """The base pack's weapons and rules by name, and the rules with a text of ours."""
    names = PackNames()
    for path in sorted(ARMIES.parent.glob("*.yaml")):
        data = yaml.safe_load(path.read_text()) or {}
        names.weapons.update((w["name"].lower(), w["key"]) for w in data.get("weapons", []))
        for rule in data.get("rules", []):
            names.rules[rule["name"].lower()] = names.rules[rule["key"]] = rule["key"]
            if rule.get("kind") != "weapon":  # a weapon's own rules come with its profile (Assault, Team)
                names.worded.add(rule["key"])
    shared = json.loads((ARMIES / "shared.yaml").read_text().split("\n", 1)[1])
    # Rules a player plays by: labels and list-building notes print on no card (docs/battlescribe.md).
    played = [rule for rule in shared.get("rules", []) if rule.get("summary") and rule.get("applies_to") != {}]
    names.worded |= {rule["key"] for rule in played}
    return names


def holding_entries(folder: Path, overrides: list[dict]) -> set[str]:
    """The ids of the entries, links and groups holding an element an override names by id (a constraint
    of an entry, a modifier, an info link): a unit holding one is overridden though the element is not an entry."""
    wanted: dict[str, set[str]] = {}
    for override in overrides:
        # A corrected info link (`targetId`: a pintle HMG linking the MMG's profile) is no entry either.
        if override.get("id") and override.get("file") and override["field"] in ("value", "childId", "targetId"):
            wanted.setdefault(override["file"], set()).add(str(override["id"]))
    found: set[str] = set()
    for name, ids in wanted.items():
        if not (folder / name).is_file():
            continue
        root = parse_xml((folder / name).read_bytes())
        parents = {child: parent for parent in root.iter() for child in parent}
        for element in root.iter():
            if element.get("id") not in ids:
                continue
            above = parents.get(element)
            while above is not None:
                if above.tag.rsplit("}", 1)[-1] in HOLDERS and above.get("id"):
                    found.add(above.get("id"))
                above = parents.get(above)
    return found


def offered(item: dict, army: str, quality: str | None = None) -> bool:
    """Whether a quality or option of the pack is offered in a theatre list (and to a quality)."""
    if item.get("armies") and army not in item["armies"]:
        return False
    return not (quality and item.get("qualities") and quality not in item["qualities"])


def pack_price(unit: dict, quality: dict | None, army: str) -> float:
    """The pack's price of a unit at a quality in a theatre list, before options."""
    if quality is None:
        return float(unit.get("points") or 0)
    return float(quality.get("army_points", {}).get(army, quality["points"]))


def pack_option_price(unit: dict, option: dict, quality: str | None, men: int) -> float:
    """What one of an option adds to the unit in the pack: per man where every man pays."""
    each = option.get("quality_points", {}).get(quality, option.get("points", 0)) if quality else option["points"]
    if option.get("every_man"):
        each *= men
    return float(each + option.get("points_once", 0))


def required_options(unit: dict, army: str, quality: str | None) -> float:
    """What the options a theatre list makes compulsory add (`least_in`: Italy's X Arditi Support in the
    X Reggimento Arditi list), as BattleScribe selects them with the unit."""
    total = 0.0
    for option in unit.get("options", []):
        least = option.get("least_in", {}).get(army, 0)
        if least and offered(option, army, quality):
            total += least * pack_option_price(unit, option, quality, listed_men(unit, quality))
    return total


def listed_men(unit: dict, quality: str | None = None) -> int:
    """How many men the unit lists (at a quality with its own size, that size)."""
    for price in unit.get("qualities", []):
        if price["quality"] == quality and price.get("base_size"):
            return price["base_size"]
    return sum(line.get("count", 1) for line in unit.get("composition", []))


def extra_order(record: list) -> tuple[float, bool]:
    """The converter's order of the men a squad may add (lists/battlescribe/men.py, men_order): the one it
    may add most of first, plain men ("Inexperienced Men") before men named for a weapon ("... with Pistol"),
    else in the data's order (min keeps the first of equals)."""
    most = record[MOST]
    return -(most if most is not None else float("inf")), " with" in record[NAME].lower()


class ArmyRoster:
    """One theatre list's roster: a platoon with the theatre chosen, units added and removed in turn."""

    def __init__(self, data, pack: Pack, army_key: str) -> None:
        self.pack = pack
        self.army_key = army_key
        self.nation = pack.ids["armies"][army_key]["catalogue"]
        self.roster = Roster(data, army_key)
        self.trees = pack.ids["roots"][self.nation]
        self.units = 0
        self.force = self.new_force()

    def new_force(self) -> Force:
        """Another Reinforced Platoon, with the theatre chosen."""
        ids = self.pack.ids
        army = ids["armies"][self.army_key]
        force = self.roster.add_force(ids["organisations"][PLATOON], ids["catalogues"][self.nation]["id"])
        selector = next((s for s in force.selections if s.option.id == army["root"]), None)
        if selector is None:
            selector = self.roster.select(force, find_option(force.options, army["root"]))
        theatre = find_option(self.roster.options_under(selector), army["chain"])
        if theatre is None:
            raise LookupError(f"theatre {army['chain']}")
        self.roster.select(selector, theatre)
        self.force = force
        return force

    def add_unit(self, unit_key: str, quality: str, options: int = 0) -> Selection | None:
        """Add a unit at a quality (the first it offers in the list, if not that one) with its first
        `options` options that add to it (no choice replacing a default); None if it cannot be."""
        unit = self.pack.units[unit_key]
        ids = self.pack.ids["units"][unit_key]
        qualities = [q["quality"] for q in unit.get("qualities", []) if offered(q, self.army_key)]
        key = quality if quality in qualities else (qualities[0] if qualities else None)
        root, chain = ids["root"], ids["chain"]
        chains = self.path(root, chain)
        try:
            top = self.select_path(self.force, chains[:1])
            self.select_path(top, chains[1:])
            quality_chain = self.quality_chain(root, chain, key) if key else None
            if quality_chain is not None:
                self.select_path(top, self.path(root, quality_chain)[1:])
            self.select_defaults(top, root, chain, key)
            self.add_men(top, root, chain, key, listed_men(unit, key))
        except LookupError:
            return None
        tree = self.trees[root]
        taken = 0
        for option in unit.get("options", []):
            if taken >= options:
                break
            if not offered(option, self.army_key, key) or option.get("needs_units") or option.get("group"):
                continue
            path = self.option_path(root, chain, option.get("source_id"), key)
            if path is None or tree[path[-1]][GROUP_KIND] == "choice":
                continue
            try:
                parent = self.select_path(top, path[1:-1]) if len(path) > 2 else top
            except LookupError:
                continue
            found = find_option(self.roster.options_under(parent), path[-1])
            if found is not None:
                self.roster.select(parent, found)
                self.select_defaults(top, root, path[-1], key)
                taken += 1
        self.units += 1
        return top

    def option_path(self, root: str, unit_chain: str, source: str | None, quality: str | None) -> list[str] | None:
        """The path to an option's entry under a unit (the nearest of its id, through the unit's quality)."""
        tree = self.trees[root]
        chains = [c for c, r in tree.items() if source in (r[NODE_ID], c.rsplit("::", 1)[-1])]
        paths = [self.path(root, c) for c in chains]
        paths = [p for p in paths if unit_chain in p[:-1] and self.fits(root, p[:-1], quality)]
        return min(paths, key=len) if paths else None

    def fits(self, root: str, path: list[str], quality: str | None) -> bool:
        """Whether a path passes through no quality entry but the unit's own."""
        tree = self.trees[root]
        wanted = QUALITY_NAMES.get(quality or "")
        return all(tree[c][GROUP_KIND] != "quality" or tree[c][NAME] == wanted for c in path)

    def add_men(self, top: Selection, root: str, unit_chain: str, quality: str | None, wanted: int) -> None:
        """Add men of the unit's extra kind (the one it may add most of) up to the size the pack lists."""
        tree = self.trees[root]
        men = [
            path
            for chain, record in tree.items()
            if record[GROUP_KIND] == "men"
            for path in [self.path(root, chain)]
            if unit_chain in path[:-1] and self.fits(root, path, quality) and all(self.selected(top, path[1:-1]))
        ]
        if not men:
            return
        present = sum(s.number for s in top.walk() if tree.get(s.option.id, [None] * 9)[GROUP_KIND] == "men")
        extra = min(men, key=lambda p: extra_order(tree[p[-1]]))
        parent = self.select_path(top, extra[1:-1]) if len(extra) > 2 else top
        option = find_option(self.roster.options_under(parent), extra[-1])
        for _ in range(max(wanted - present, 0) if option is not None else 0):
            self.roster.select(parent, option)

    def path(self, root: str, chain: str) -> list[str]:
        """The chains from a root entry down to one of its entries."""
        tree = self.trees[root]
        found = [chain]
        while found[-1] != root and tree[found[-1]][PARENT]:
            found.append(tree[found[-1]][PARENT])
        return list(reversed(found))

    def select_path(self, parent: Force | Selection, chains: list[str]) -> Selection:
        """Select each entry of a path (keeping what is selected already); the last selection."""
        current = parent
        for chain in chains:
            existing = None
            if isinstance(current, Selection):
                existing = next((c for c in current.children if c.option.id == chain), None)
            if existing is None:
                option = find_option(self.roster.options_under(current), chain)
                if option is None:
                    raise LookupError(chain)
                existing = self.roster.select(current, option)
            current = existing
        return current  # type: ignore[return-value]

    def select_defaults(self, top: Selection, root: str, under: str, quality: str | None) -> None:
        """Select what the pack counts as part of the unit and a player must still choose: the default
        of each compulsory one-of group left empty, and a rating group's entry of the unit's quality."""
        tree = self.trees[root]
        for chain, record in tree.items():
            kind = record[GROUP_KIND]
            if kind not in ("default", "quality") or chain == under:
                continue
            path = self.path(root, chain)
            if under not in path[:-1] or not all(self.selected(top, path[1:-1])):
                continue
            if kind == "quality" and (quality is None or record[NAME] != QUALITY_NAMES[quality]):
                continue
            parent = self.select_path(top, path[1:-1]) if len(path) > 2 else top
            if any(tree.get(c.option.id, [None] * 9)[GROUP] == record[GROUP] for c in parent.children):
                continue
            option = find_option(self.roster.options_under(parent), chain)
            if option is not None:
                self.roster.select(parent, option)

    def selected(self, top: Selection, chains: list[str]) -> list[bool]:
        """Whether each entry of a path under `top` is selected."""
        found, current = [], top
        for chain in chains:
            current = next((c for c in current.children if c.option.id == chain), None)
            found.append(current is not None)
            if current is None:
                break
        return found

    def quality_chain(self, root: str, unit_chain: str, quality: str) -> str | None:
        """The quality entry of a unit (the nearest under it)."""
        tree = self.trees[root]
        name = QUALITY_NAMES[quality]
        best = None
        for chain, record in tree.items():
            if record[GROUP_KIND] != "quality" or record[NAME] != name:
                continue
            depth = self.path(root, chain)
            if unit_chain in depth and (best is None or len(depth) < len(best)):
                best = depth
        return best[-1] if best else None


def points_of(selection: Selection) -> float:
    """A selection's points and everything under it."""
    return sum(s.costs.get("points", 0.0) for s in selection.walk())


def classify(finding: Finding, unit_tree: dict[str, list], root: str, pack: Pack) -> str:
    """Why the engine and the pack differ (or that they agree)."""
    if abs(finding.engine - finding.pack) < 1e-6:
        return "agree"
    if finding.engine != finding.engine:
        return "not found"  # the entry is not where the ids file places it: nothing to compare
    if any(READINGS[i][0] in (None, finding.army) for i in READINGS.keys() & set(root.split("::"))):
        return "reading"
    ids = {part for chain, record in unit_tree.items() for part in [*chain.split("::"), record[NODE_ID]]}
    if ids & pack.overridden:
        return "override"
    return "unexplained"


def compare_unit(data, pack: Pack, army: ArmyRoster, army_key: str, unit_key: str, options: bool) -> list[Finding]:
    """The unit at each quality the list offers, and each of its options on its own."""
    unit = pack.units[unit_key]
    ids = pack.ids["units"][unit_key]
    root, chain = ids["root"], ids["chain"]
    qualities = [q for q in unit.get("qualities", []) if offered(q, army_key)] or [None]
    found: list[Finding] = []
    for quality in qualities:
        key = quality["quality"] if quality else None
        chains = army.path(root, chain)
        top = army.select_path(army.force, chains[:1])
        try:
            unit_selection = army.select_path(top, chains[1:]) if len(chains) > 1 else top
            quality_chain = army.quality_chain(root, chain, key) if key else None
            if quality_chain is not None:
                army.select_path(top, army.path(root, quality_chain)[1:])
            elif key and len(qualities) > 1:
                raise LookupError(f"no {key} entry")
            army.select_defaults(top, root, chain, key)
            army.add_men(top, root, chain, key, listed_men(unit, key))
            base = points_of(top)
            price = pack_price(unit, quality, army_key) + required_options(unit, army_key, key)
            finding = Finding(army_key, unit_key, key or "-", None, base, price)
            finding.cause = classify(finding, army.trees[root], root, pack)
            found.append(finding)
            if options:
                found.extend(compare_options(pack, army, army_key, unit, ids, key, top, unit_selection, base))
        finally:
            army.roster.deselect(top)
    return found


def compare_options(pack, army, army_key, unit, ids, quality, top, unit_selection, base) -> list[Finding]:
    """Each option of the unit on its own: the engine's change in points beside the pack's price."""
    found = []
    root = ids["root"]
    tree = army.trees[root]
    for option in unit.get("options", []):
        if not offered(option, army_key, quality) or option.get("needs_units") or option.get("copies_unit"):
            continue
        path = army.option_path(root, ids["chain"], option.get("source_id"), quality)
        if path is None:
            continue
        price = pack_option_price(unit, option, quality, listed_men(unit, quality))
        shown: list[set[str]] = []
        engine = option_delta(army, top, path, tree, quality, shown if pack.carried else None) - base
        finding = Finding(army_key, unit["key"], quality or "-", option["key"], engine, price)
        finding.cause = classify(finding, tree, root, pack)
        found.append(finding)
        if shown:
            problems = option_differences(pack.names, option, *shown)
            carried = Finding(army_key, unit["key"], quality or "-", option["key"], 0, 0, kind="weapons and rules")
            if problems:
                carried.engine, carried.detail = len(problems), "; ".join(problems)
                carried.cause = classify(carried, tree, root, pack)
            found.append(carried)
    return found


def option_delta(
    army: ArmyRoster, top: Selection, path: list[str], tree: dict[str, list], quality: str | None, shown=None
) -> float:
    """The unit's points with one option taken (a choice replacing its group's default), then undone; the
    weapons and rules the option shows are added to `shown` where it is given."""
    made: list[Selection] = []
    removed: list[tuple[Selection, int]] = []
    leaf = tree[path[-1]]
    parent = army.select_path(top, path[1:-1]) if len(path) > 2 else top
    if leaf[GROUP_KIND] == "choice":
        for child in list(parent.children):
            if tree.get(child.option.id, [None] * 9)[GROUP] == leaf[GROUP]:
                removed.append((child, child.number))
                army.roster.deselect(child)
    option = find_option(army.roster.options_under(parent), path[-1])
    if option is None:
        return float("nan")
    made.append(army.roster.select(parent, option))
    army.select_defaults(top, path[0], path[-1], quality)
    points = points_of(top)
    if shown is not None:
        shown.extend(shown_under(army.roster, made[0]))
    for selection in made:
        army.roster.deselect(selection)
    for selection, number in removed:
        for _ in range(number):
            army.roster.select(parent, selection.option)
    return points


def run(folder: Path, only: str | None, options: bool, carried: bool = True) -> list[Finding]:
    """Every theatre list's units (of the lists whose key holds `only`), side by side."""
    pack = read_pack()
    pack.carried = carried
    armies = [key for key in pack.armies if key in pack.ids["armies"] and (not only or only in key)]
    return compare_armies(compiled_game_data(folder), pack, armies, options)


def compare_armies(data, pack: Pack, armies: list[str], options: bool = True) -> list[Finding]:
    """The units of these theatre lists, side by side."""
    findings: list[Finding] = []
    for army_key in armies:
        try:
            army = ArmyRoster(data, pack, army_key)
        except LookupError as error:
            findings.append(Finding(army_key, "-", "-", f"not found: {error}", 0, 0, "not found"))
            continue
        for unit_key in pack.armies[army_key].get("borrow_units", []):
            try:
                findings.extend(compare_unit(data, pack, army, army_key, unit_key, options))
            except LookupError as error:
                findings.append(Finding(army_key, unit_key, "-", f"not found: {error}", 0, 0, "not found"))
    return findings


CAUSES = ("agree", "override", "reading", "unexplained", "not found")


def print_by_army(findings: list[Finding]) -> None:
    """A Markdown table: each theatre list's comparisons by cause."""
    table: dict[str, Counter[str]] = {}
    for finding in findings:
        table.setdefault(finding.army, Counter())[finding.cause] += 1
    print("| theatre list | " + " | ".join(CAUSES) + " |")
    print("|---|" + "---|" * len(CAUSES))
    for army, counts in table.items():
        print(f"| {army} | " + " | ".join(str(counts[c]) for c in CAUSES) + " |")


def main() -> int:
    """Compare and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bsdata", nargs="?", default=str(DEFAULT_BSDATA))
    parser.add_argument("--army", help="only theatre lists whose key contains this text")
    parser.add_argument("--show", type=int, default=20, help="list this many unexplained differences")
    parser.add_argument("--no-options", action="store_true", help="compare units only, not their options")
    parser.add_argument("--by-army", action="store_true", help="print the counts of each theatre list")
    parser.add_argument("--points-only", action="store_true", help="compare points, not the weapons and rules")
    args = parser.parse_args()
    started = time.perf_counter()
    findings = run(Path(args.bsdata), args.army, not args.no_options, not args.points_only)
    elapsed = time.perf_counter() - started
    by_kind = Counter(("option" if f.option else "unit", f.kind, f.cause) for f in findings)
    for (what, kind, cause), count in sorted(by_kind.items()):
        print(f"  {what:7} {kind:17} {cause:12} {count}")
    if args.by_army:
        print_by_army(findings)
    shown = [f for f in findings if f.cause not in ("agree", "override", "reading")][: args.show]
    for f in shown:
        what = f.detail or f"engine {f.engine:g}, pack {f.pack:g}"
        print(f"  {f.cause}: {f.army} {f.unit} {f.quality} {f.option or ''}: {what}")
    print(f"{len(findings)} comparisons in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
