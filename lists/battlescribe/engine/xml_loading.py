"""Loading BattleScribe data files: .gst/.cat XML, and their zipped forms .gstz/.catz.

The XML is read with a safe parser (no entities, no network, no huge trees) into the protocol's
dictionary shape and built by `loading`, so both sources make the same model.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

from lxml import etree

from .gamedata import GameData
from .loading import Reader

TEXT_ELEMENTS = {"description", "readme", "comment"}
DATA_SUFFIXES = (".gst", ".cat", ".gstz", ".catz")


def safe_parser() -> etree.XMLParser:
    """An XML parser that resolves no entities and reaches no network."""
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


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
    """The XML of a data file, taken out of its zip where it is zipped."""
    if name.lower().endswith(("z",)) or content[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            member = next(n for n in archive.namelist() if not n.endswith("/"))
            return archive.read(member)
    return content


def parse_data_file(name: str, content: bytes | str) -> dict[str, Any]:
    """One data file as a dictionary, with `_root` naming its root element."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    root = etree.fromstring(unzip_if_needed(name, raw), safe_parser())
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


def load_data_folder(folder: str | Path, catalogue_names: list[str] | None = None) -> GameData:
    """Game data from a folder of .gst/.cat files (only the named catalogues, if names are given)."""
    files = []
    for path in sorted(Path(folder).iterdir()):
        if not path.name.lower().endswith(DATA_SUFFIXES):
            continue
        is_system = path.name.lower().endswith((".gst", ".gstz"))
        if catalogue_names is not None and not is_system and path.name not in catalogue_names:
            continue
        files.append((path.name, path.read_bytes()))
    return load_data_files(files)
