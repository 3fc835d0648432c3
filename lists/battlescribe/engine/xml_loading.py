"""Loading BattleScribe data files: .gst/.cat XML, and their zipped forms .gstz/.catz.

The XML is read with the one safe parser (`battlescribe.safe_xml`: no entities, DTD, network or huge
trees) into the protocol's dictionary shape and built by `loading`, so both sources make the same model. A file declaring a
DTD or entities is refused, and a zipped file is opened only if it holds one member, deflated or
stored, of at most `MAX_XML_BYTES` (read in bounded steps, whatever its header claims).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..archives import ArchiveRefused, read_single_member
from ..safe_xml import XmlRefused, parse_xml
from .gamedata import GameData
from .loading import Reader

TEXT_ELEMENTS = {"description", "readme", "comment"}
DATA_SUFFIXES = (".gst", ".cat", ".gstz", ".catz")
MAX_XML_BYTES = 64 * 1024 * 1024  # the largest BSData catalogues are a few MB of XML


class DataFileError(ValueError):
    """A data file that cannot be read; the message names the file and what is wrong."""


def local_name(element: Any) -> str:
    """An element's tag without its namespace."""
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def element_data(element: Any) -> dict[str, Any]:
    """An element as a dictionary: attributes, then child lists (or text for text elements)."""
    data: dict[str, Any] = dict(element.attrib)
    for child in element:
        name = local_name(child)
        if not name:
            continue
        if name in TEXT_ELEMENTS:
            data[name] = child.text or ""
        else:
            data[name] = [element_data(item) for item in child if local_name(item)]
    if local_name(element) == "characteristic":
        data["value"] = element.text or ""
    return data


def unzip_if_needed(name: str, content: bytes) -> bytes:
    """The XML of a data file, taken out of its zip where it is zipped (one member, bounded in size)."""
    if not (name.lower().endswith("z") or content[:2] == b"PK"):
        return content
    try:
        return read_single_member(content, MAX_XML_BYTES, "data file")
    except ArchiveRefused as refused:
        raise DataFileError(f"{name}: {refused}") from None


def parse_data_file(name: str, content: bytes | str) -> dict[str, Any]:
    """One data file as a dictionary, with `_root` naming its root element."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    xml = unzip_if_needed(name, raw)
    try:
        root = parse_xml(xml)
    except XmlRefused as refused:
        raise DataFileError(f"{name}: {refused}") from None
    data = element_data(root)
    data["_root"] = local_name(root)
    return data


def load_data_files(files: list[tuple[str, bytes | str]]) -> GameData:
    """Game data from file names and contents: exactly one game system, any number of catalogues."""
    parsed = [parse_data_file(name, content) for name, content in files if name.lower().endswith(DATA_SUFFIXES)]
    systems = [p for p in parsed if p["_root"] == "gameSystem"]
    if len(systems) != 1:
        raise ValueError(f"Expected exactly one game system, found {len(systems)}")
    reader = Reader(xml_defaults=True)
    system = reader.catalogue(systems[0], is_game_system=True)
    catalogues = [reader.catalogue(p, is_game_system=False) for p in parsed if p["_root"] == "catalogue"]
    return GameData(system, catalogues)


def data_files(folder: str | Path) -> list[tuple[str, bytes]]:
    """The data files of a folder (names and bytes), in name order."""
    return [
        (path.name, path.read_bytes())
        for path in sorted(Path(folder).iterdir())
        if path.is_file() and path.name.lower().endswith(DATA_SUFFIXES)
    ]


def load_data_folder(folder: str | Path, catalogue_names: list[str] | None = None) -> GameData:
    """Game data from a folder of .gst/.cat files (only the named catalogues, if names are given)."""
    files = [
        (name, content)
        for name, content in data_files(folder)
        if catalogue_names is None or name.lower().endswith((".gst", ".gstz")) or name in catalogue_names
    ]
    return load_data_files(files)
