"""Extract the BattleScribe costs the Bolt Action pack cites into tests/fixtures/bsdata_costs.yaml.

Every Bolt Action figure taken from BSData carries a citation naming the catalogue
file and the path of entry names that holds the cost, e.g.

    BA2 - Armies of Great Britain.cat: Platoon Commander / Second Lieutenant / Inexperienced

(a path may pass through an entry link into the shared entry it targets, and a cost
made of several entries is written `PATH + 4 x PATH`). This script finds each cited
entry in the BSData files and records its file, id, name and points, so the pack can
be tested against the figures without the BSData files beside the repository.

    .venv/bin/python scripts/bsdata_costs.py [--bsdata ../shared/bsdata/boltaction]
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import deque
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "lists" / "packs" / "bolt-action-2e"
FIXTURE = ROOT / "tests" / "fixtures" / "bsdata_costs.yaml"
DEFAULT_BSDATA = ROOT.parent / "shared" / "bsdata" / "boltaction"
SOURCE = "BSData/boltaction"
GAME_SYSTEM = "Bolt Action 2.gst"
NAMED = {"selectionEntry", "selectionEntryGroup", "entryLink"}
TERM = re.compile(r"^(?:(\d+) x )?(.+)$")


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _normal(name: str) -> str:
    return " ".join(name.split()).lower()


def cited_entries(pack_dir: Path = PACK) -> list[str]:
    """Every BSData entry the pack cites, for points and for extra men, in the order they appear."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, dict):
            if value.get("source") == SOURCE:
                found.extend(entry for entry in (value.get("entry"), value.get("extra_model")) if entry)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted(pack_dir.glob("*.yaml")):
        walk(yaml.safe_load(path.read_text()))
    return list(dict.fromkeys(found))


class Catalogues:
    """The BSData files, with every entry reachable by id for following links."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.roots: dict[str, ET.Element] = {}
        self.by_id: dict[str, dict[str, ET.Element]] = {}  # file -> id -> entry
        self.root(GAME_SYSTEM)  # the shared entries every catalogue links to

    def root(self, file: str) -> ET.Element:
        if file not in self.roots:
            root = ET.parse(self.folder / file).getroot()  # noqa: S314 - the project's own copy of BSData, not user input
            self.roots[file] = root
            ids = self.by_id.setdefault(file, {})
            for element in root.iter():
                if _tag(element) in {"selectionEntry", "selectionEntryGroup"} and element.get("id"):
                    ids.setdefault(element.get("id"), element)
        return self.roots[file]

    def target(self, file: str, link: ET.Element) -> tuple[str, ET.Element] | None:
        """The entry an entry link points at: in the link's own file, else in the game-system file.

        Catalogues carry copies of other nations' entries under the same ids, at their own costs.
        """
        for where in (file, GAME_SYSTEM):
            if (found := self.by_id[where].get(link.get("targetId"))) is not None:
                return where, found
        return None

    def children(self, file: str, element: ET.Element) -> list[tuple[str, ET.Element]]:
        """Named entries directly below an element; an entry link's are its target's."""
        if _tag(element) == "entryLink":
            found = self.target(file, element)
            if found is None:
                return []
            file, element = found
        named = []
        for container in element:
            for child in container:
                if _tag(child) in NAMED:
                    named.append((file, child))
        return named

    def name(self, file: str, element: ET.Element) -> str:
        """An entry's name; an unnamed link goes by its target's."""
        if element.get("name"):
            return element.get("name")
        found = self.target(file, element) if _tag(element) == "entryLink" else None
        return found[1].get("name", "") if found else ""

    def find(self, file: str, names: list[str]) -> tuple[str, ET.Element]:
        """The entry reached by a path of names, each found below the last (nearest first)."""
        found = self._walk((file, self.root(file)), names)
        if found is None:
            raise LookupError(f"no entry {' / '.join(names)!r}")
        return found

    def _walk(self, start: tuple[str, ET.Element], names: list[str]) -> tuple[str, ET.Element] | None:
        if not names:
            return start
        for match in self._matches(start, names[0]):
            found = self._walk(match, names[1:])
            if found is not None:
                return found
        return None

    def _matches(self, start: tuple[str, ET.Element], name: str) -> list[tuple[str, ET.Element]]:
        """Every entry of that name below `start`, nearest first."""
        wanted = _normal(name)
        queue = deque([(*start, 0)])
        seen: set[int] = set()
        matches = []
        while queue:
            file, element, depth = queue.popleft()
            below = (
                [(file, child) for container in element for child in container if _tag(child) in NAMED]
                if _tag(element) not in NAMED
                else self.children(file, element)
            )
            for child_file, child in below:
                if id(child) in seen:
                    continue
                seen.add(id(child))
                if _normal(self.name(child_file, child)) == wanted:
                    matches.append((child_file, child))
                if depth < 12:
                    queue.append((child_file, child, depth + 1))
        return matches

    def cost(self, file: str, element: ET.Element) -> tuple[str, ET.Element, float]:
        """An entry's own points; an entry link without costs of its own costs what its target costs."""
        for costs in element:
            if _tag(costs) == "costs":
                for cost in costs:
                    if cost.get("typeId") == "points" or cost.get("name") == "pts":
                        return file, element, float(cost.get("value"))
        if _tag(element) == "entryLink" and (found := self.target(file, element)) is not None:
            return self.cost(*found)
        return file, element, 0.0


def extract(citation: str, catalogues: Catalogues) -> list[dict]:
    """The BSData entries a citation names, with their points."""
    file, _, path = citation.partition(": ")
    terms = []
    for term in path.split(" + "):
        count, names = TERM.match(term.strip()).groups()
        parts = [part.strip() for part in names.split(" / ")]
        entry_file, element = catalogues.find(file, parts)
        cost_file, cost_element, points = catalogues.cost(entry_file, element)
        terms.append(
            {
                "count": int(count or 1),
                "file": cost_file,
                "id": cost_element.get("id"),
                "name": " ".join(catalogues.name(cost_file, cost_element).split()),
                "points": int(points) if points == int(points) else points,
            }
        )
    return terms


def build(folder: Path = DEFAULT_BSDATA, pack_dir: Path = PACK) -> dict:
    """The fixture's content: every cited entry resolved against the BSData files in `folder`."""
    catalogues = Catalogues(folder)
    entries, problems = {}, []
    for citation in cited_entries(pack_dir):
        try:
            entries[citation] = extract(citation, catalogues)
        except (LookupError, FileNotFoundError) as problem:
            problems.append(f"{citation}: {problem}")
    if problems:
        raise LookupError("\n".join(problems))
    return {"source": "BSData/boltaction at d939efb5924e6e3f8494fc6e116be2c57597b344", "entries": entries}


def dump(content: dict) -> str:
    header = "# Generated by scripts/bsdata_costs.py from the BSData files; do not edit by hand.\n"
    return header + yaml.safe_dump(content, sort_keys=False, allow_unicode=True, width=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsdata", type=Path, default=DEFAULT_BSDATA)
    parser.add_argument("--check", action="store_true", help="exit 1 if the fixture is not current")
    args = parser.parse_args()
    try:
        text = dump(build(args.bsdata))
    except LookupError as problem:
        print(problem, file=sys.stderr)
        return 2
    if args.check:
        return 0 if FIXTURE.read_text() == text else 1
    FIXTURE.write_text(text)
    print(f"wrote {FIXTURE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
