"""The community's indexes of BattleScribe data, read: what files a source publishes, at which revision.

Three shapes, as BattleScribe and the BSData gallery publish them:

- a repository's data index (`index.bsi`, a zip holding `index.xml`; or that XML alone): a `<dataIndex>`
  whose `<dataIndexEntry>` elements give each file's `filePath` (relative to the index's address),
  `dataType` (gamesystem or catalogue; the files' own root elements decide), `dataId`, `dataName` and `dataRevision`;
- a repository's package index (`*.catpkg.json`): `repositoryFiles`, each with `fileUrl`, `id`, `name`,
  `type` and `revision`;
- the gallery (`bsdata.catpkg-gallery.json`): `repositories`, each with its `name`, `description` and
  the `indexUrl` of its own data index.

Reading bounds what it trusts: the XML through the engine's safe parser, at most `MAX_INDEX_ENTRIES`
entries, revisions whole numbers within the engine's bounds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from lists.battlescribe.engine import DATA_SUFFIXES, MAX_REVISION, local_name
from lists.battlescribe.safe_xml import XmlRefused, parse_xml
from lists.gamedata.fetching import SourceRefused

MAX_INDEX_ENTRIES = 1_000  # files one index may list (BSData's largest repositories list about 150)


@dataclass(frozen=True)
class IndexEntry:
    """One data file an index lists: where to fetch it, its file name, id, name and revision."""

    location: str
    file_name: str
    data_id: str
    name: str
    revision: int


@dataclass(frozen=True)
class GalleryGame:
    """One repository of the gallery: a game's name, what it says of itself, and its data index."""

    name: str
    description: str
    index_url: str


def file_name_of(location: str) -> str:
    """The file name a location ends in (`Team Yankee WW3.gstz`), refused when it names no data file."""
    name = unquote(urlsplit(location).path.replace("\\", "/")).rsplit("/", 1)[-1]
    if not name.lower().endswith(DATA_SUFFIXES) or name.startswith("."):
        raise SourceRefused(f"{location}: the index lists it, but it is not a .gst, .cat, .gstz or .catz file")
    return name


def listed_file(location: str, data_id, name, revision) -> IndexEntry:
    """One file an index lists, from its fields as the index gives them (any of them missing or of a wrong type)."""
    return IndexEntry(
        location=location,
        file_name=file_name_of(location),
        data_id=str(data_id or ""),
        name=str(name or ""),
        revision=_revision(revision if revision is not None else 0, location),
    )


def _revision(value, where: str) -> int:
    try:
        revision = int(str(value).strip())
    except ValueError:
        raise SourceRefused(f"{where}: its revision {value!r} is not a whole number") from None
    if not 0 <= revision <= MAX_REVISION:
        raise SourceRefused(f"{where}: its revision {revision} is out of bounds")
    return revision


def _bounded(entries: list, where: str) -> list:
    if len(entries) > MAX_INDEX_ENTRIES:
        raise SourceRefused(f"{where}: lists {len(entries)} files, more than the {MAX_INDEX_ENTRIES} read")
    return entries


def is_data_index(xml: bytes) -> bool:
    """Whether XML is a BattleScribe data index (its root element is <dataIndex>)."""
    head = xml[:2048]
    return b"<dataIndex" in head


def read_data_index(xml: bytes, address: str, join) -> list[IndexEntry]:
    """The entries of a `<dataIndex>`; `join(address, file_path)` places each file beside the index."""
    try:
        root = parse_xml(xml)
    except XmlRefused as error:
        raise SourceRefused(f"{address}: not a readable data index ({error})") from None
    if local_name(root) != "dataIndex":
        raise SourceRefused(f"{address}: its root element is <{local_name(root)}>, a data index holds <dataIndex>")
    listed = [element for element in root.iter() if local_name(element) == "dataIndexEntry"]
    return [
        listed_file(
            join(address, element.get("filePath", "")),
            element.get("dataId"),
            element.get("dataName"),
            element.get("dataRevision"),
        )
        for element in _bounded(listed, address)
    ]


def read_json_index(content: bytes, address: str) -> dict:
    """A JSON index as a dictionary, refused when it is not JSON or not an object."""
    try:
        document = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SourceRefused(f"{address}: not readable JSON ({error})") from None
    if not isinstance(document, dict) or not ("repositoryFiles" in document or "repositories" in document):
        raise SourceRefused(f"{address}: JSON, but neither a repository's files nor a gallery of repositories")
    return document


def _listed(document: dict, key: str, address: str) -> list:
    listed = document.get(key)
    if not isinstance(listed, list):
        raise SourceRefused(f"{address}: its {key} is not a list")
    return _bounded(listed, address)


def package_entries(document: dict, address: str, join) -> list[IndexEntry]:
    """The files a repository's package index (`repositoryFiles`) lists."""
    entries = []
    for item in _listed(document, "repositoryFiles", address):
        if not isinstance(item, dict) or not isinstance(item.get("fileUrl"), str):
            raise SourceRefused(f"{address}: a listed file has no fileUrl")
        location = join(address, item["fileUrl"])
        entries.append(listed_file(location, item.get("id"), item.get("name"), item.get("revision")))
    return entries


def gallery_games(document: dict, address: str, join) -> list[GalleryGame]:
    """The repositories a gallery lists, each with the address of its data index."""
    games = []
    for item in _listed(document, "repositories", address):
        if isinstance(item, dict) and isinstance(item.get("indexUrl"), str) and item.get("name"):
            games.append(
                GalleryGame(str(item["name"]), str(item.get("description", "")), join(address, item["indexUrl"]))
            )
    return games


def chosen_game(games: list[GalleryGame], choice: str, address: str) -> GalleryGame:
    """The gallery's repository named `choice` (its name, case aside), or the only one it lists."""
    if len(games) == 1 and not choice:
        return games[0]
    wanted = [game for game in games if game.name.casefold() == choice.strip().casefold()]
    if wanted:
        return wanted[0]
    names = ", ".join(game.name for game in games[:40]) + (" …" if len(games) > 40 else "")
    asked = f"no repository named {choice!r}" if choice else f"{len(games)} repositories"
    raise SourceRefused(f"{address}: a gallery with {asked}; name one of: {names}")
