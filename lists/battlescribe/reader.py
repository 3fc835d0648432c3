"""Reading BattleScribe data files (.gst/.cat and their zipped .gstz/.catz) safely.

The files are parsed by the one safe parser (lists/battlescribe/safe_xml.py), which
refuses DTDs and entities and fetches nothing, so a hostile catalogue cannot read
local files or blow up memory. Namespaces are stripped: the tags are the same in both schemas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lxml.etree import _Element as Element

from lists.battlescribe.archives import ArchiveRefused, read_single_member
from lists.battlescribe.safe_xml import XmlRefused, parse_xml

MAX_FILE_BYTES = 20_000_000
DATA_SUFFIXES = (".gst", ".gstz", ".cat", ".catz")


class DataError(Exception):
    """A data file that cannot be used (not XML, too large, no game system...)."""


def _read_bytes(path: Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """A data file's bytes; a zipped one inflated to at most `max_bytes` (lists/battlescribe/archives.py)."""
    if path.suffix in (".gstz", ".catz"):
        try:
            return read_single_member(path, max_bytes, what="data file")
        except ArchiveRefused as refused:
            raise DataError(f"{path.name}: {refused}") from None
    if path.stat().st_size > max_bytes:
        raise DataError(f"{path.name}: larger than {max_bytes} bytes")
    return path.read_bytes()


def parse(path: Path) -> Element:
    """The root element of one data file, namespaces stripped."""
    try:
        root = parse_xml(_read_bytes(path))
    except XmlRefused as refused:
        raise DataError(f"{path.name}: {refused}") from None
    for element in root.iter():
        element.tag = element.tag.rpartition("}")[2]
    return root


@dataclass
class DataFile:
    """One parsed game-system or catalogue file."""

    path: Path
    root: Element

    @property
    def name(self) -> str:
        """The file's name as cited (zipped forms cite their unzipped name)."""
        return self.path.name.removesuffix("z") if self.path.suffix in (".gstz", ".catz") else self.path.name


@dataclass
class Library:
    """The game system and its catalogues, with every element findable by id."""

    system: DataFile
    catalogues: list[DataFile]
    by_file: dict[str, dict[str, Element]] = field(default_factory=dict)

    def index(self) -> None:
        """Index every element with an id, per file (the first element with an id wins)."""
        self.by_file = {}
        for data_file in [self.system, *self.catalogues]:
            ids: dict[str, Element] = {}
            for element in data_file.root.iter():
                element_id = element.get("id")
                if element_id and element_id not in ids:
                    ids[element_id] = element
            self.by_file[data_file.name] = ids

    def find(self, element_id: str | None, catalogue: DataFile) -> Element | None:
        """The element an id names, looked up as BattleScribe does: the catalogue, then the game system."""
        if not element_id:
            return None
        found = self.by_file[catalogue.name].get(element_id)
        return found if found is not None else self.by_file[self.system.name].get(element_id)


def read_library(folder: Path) -> Library:
    """Parse the one game-system file and every catalogue of a folder."""
    paths = sorted(path for path in folder.iterdir() if path.suffix in DATA_SUFFIXES)
    systems = [DataFile(path, parse(path)) for path in paths if path.suffix in (".gst", ".gstz")]
    if len(systems) != 1:
        raise DataError(f"{folder}: expected one game-system file (.gst or .gstz), found {len(systems)}")
    catalogues = [DataFile(path, parse(path)) for path in paths if path.suffix in (".cat", ".catz")]
    library = Library(systems[0], catalogues)
    library.index()
    return library
