"""A folder of BattleScribe data read and checked as a whole, before anything is kept of it.

`read_data_folder(path)` reads every file of a folder (a game system and its catalogues), checks
that the engine can use all of it, and returns the files' XML, their digest and the compiled
`GameData`; or raises `DataFolderInvalid` naming each file and id it cannot use:

- a file that is neither a game system nor a catalogue (`.gst`, `.cat`, `.gstz`, `.catz`); notes
  beside the data (README, LICENSE, `.md`, `.txt`) and sub-folders are left out, and named;
- malformed XML, a DTD or entity declaration, a zip that is not one deflated or stored member of
  bounded size (`xml_loading`);
- not exactly one game system, a catalogue of another game system;
- a catalogue link to a catalogue the folder does not hold, an entry link to no entry, a modifier
  of a kind BattleScribe does not have;
- data beyond the engine's bounds (`limits`): a number that is not finite or too large, too many
  entries or too deep (`data_limits`, on the parsed files), a cycle of entry links, groups or info
  groups, or too many entries under one (`data_graph`, on the compiled data).

What it can use but not fully read does not stop a load: it is listed in `notes`, by file and id.
That is an info link or category link to nothing, a cost of an unknown cost type, and a catalogue
whose id another file already has (BSData's Team Yankee has three such pairs): the first file by
name keeps the id, as the engine's first definition of an entry wins, and the others are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from .compiled import digest_of
from .data_graph import entry_graph_problems, info_graph_problems
from .data_limits import NumberCheck
from .gamedata import GameData
from .loading import Reader
from .model import CATEGORY_LINK, ENTRY_LINK, Entry, InfoLink, Modifier
from .xml_loading import DATA_SUFFIXES, DataFileError, parse_data_file

# The modifier kinds of BattleScribe's data format (Catalogue-2.03.xsd, ModifierKind).
MODIFIER_KINDS = {"set", "increment", "decrement", "append", "add", "remove", "set-primary", "unset-primary"}
NOTE_SUFFIXES = (".md", ".txt", ".markdown", ".rst")
NOTE_NAMES = ("readme", "license", "licence", "changelog", "copying")
ROOT_OF_SUFFIX = {".gst": "gameSystem", ".gstz": "gameSystem", ".cat": "catalogue", ".catz": "catalogue"}

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Note:
    """Something in the data that could not be read: in which file, its id and name, and why."""

    file: str
    item_id: str
    name: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.item_id} ({self.name}): {self.reason}"


class DataFolderInvalid(ValueError):
    """A folder of data the engine cannot use; `problems` names each file and id."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class DataFile:
    """One data file: its name in the folder and its content as found there (zipped or not)."""

    name: str
    content: bytes


@dataclass
class DataFolder:
    """A checked folder: its files, what was left out, the digest, the compiled data and notes."""

    path: Path
    files: list[DataFile]
    left_out: list[str]
    digest: str
    game_data: GameData
    file_of: dict[str, str]  # catalogue (or game system) id -> file name
    notes: list[Note] = field(default_factory=list)
    bounds_seconds: float = 0.0  # the time the engine's bounds and the cycles took to check


def data_digest(files: list[DataFile]) -> str:
    """The digest the engine's cache knows these files by (compiled.digest_of)."""
    return digest_of([(data_file.name, data_file.content) for data_file in files])


def is_note(path: Path) -> bool:
    """Whether a file is a note kept beside the data (a README, a licence), not data."""
    name = path.name.lower()
    return name.endswith(NOTE_SUFFIXES) or name.startswith(NOTE_NAMES)


def folder_files(folder: Path) -> tuple[list[Path], list[str], list[str]]:
    """The data files of a folder, the notes and folders left out, and the files refused."""
    data, left_out, refused = [], [], []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_dir():
            left_out.append(f"{path.name}/")
        elif path.name.lower().endswith(DATA_SUFFIXES):
            data.append(path)
        elif is_note(path):
            left_out.append(path.name)
        else:
            refused.append(f"{path.name}: neither a game system (.gst, .gstz) nor a catalogue (.cat, .catz)")
    return data, left_out, refused


def read_data_folder(folder: str | Path, progress: Progress | None = None) -> DataFolder:
    """Read and check a folder of BattleScribe data (see the module's docstring)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataFolderInvalid([f"{folder}: no such folder"])
    paths, left_out, problems = folder_files(folder)
    files: list[DataFile] = []
    parsed: list[tuple[str, dict[str, Any]]] = []
    bounds = NumberCheck()
    for path in paths:
        content = path.read_bytes()
        try:
            data = parse_data_file(path.name, content)
        except DataFileError as error:
            problems.append(str(error))
            continue
        wanted = ROOT_OF_SUFFIX[path.suffix.lower()]
        if data["_root"] != wanted:
            problems.append(
                f"{path.name}: its root element is <{data['_root']}>, a {path.suffix} file holds <{wanted}>"
            )
            continue
        bounds.timed(bounds.file, path.name, data)
        files.append(DataFile(path.name, content))
        parsed.append((path.name, data))
        if progress:
            progress(f"read {path.name} ({data.get('name', '')}, revision {data.get('revision', '?')})")
    problems += bounds.timed(bounds.finish)
    if problems:
        raise DataFolderInvalid(problems)
    game_data, file_of, notes = build_game_data(parsed)
    files = [f for f in files if f.name in file_of.values()]
    problems, more_notes = check_game_data(game_data, file_of)
    problems += bounds.timed(entry_graph_problems, game_data, file_of)
    problems += bounds.timed(info_graph_problems, game_data, file_of)
    if problems:
        raise DataFolderInvalid(problems)
    checked = DataFolder(folder, files, left_out, data_digest(files), game_data, file_of, notes + more_notes)
    checked.bounds_seconds = bounds.seconds
    return checked


def build_game_data(parsed: list[tuple[str, dict[str, Any]]]) -> tuple[GameData, dict[str, str], list[Note]]:
    """The game data of parsed files (one game system; one file per id, the first by name)."""
    systems = [(name, data) for name, data in parsed if data["_root"] == "gameSystem"]
    if len(systems) != 1:
        names = ", ".join(name for name, _ in systems) or "none"
        raise DataFolderInvalid([f"a data folder holds exactly one game system (.gst), this one {names}"])
    system_file, system_data = systems[0]
    system_id = str(system_data.get("id", ""))
    file_of: dict[str, str] = {system_id: system_file}
    problems: list[str] = []
    notes: list[Note] = []
    kept: list[dict[str, Any]] = []
    for name, data in parsed:
        book_id = str(data.get("id", ""))
        if data["_root"] != "catalogue":
            continue
        if data.get("gameSystemId") != system_id:
            problems.append(
                f"{name}: catalogue {book_id} is for game system {data.get('gameSystemId')}, not {system_id} ({system_file})"
            )
        elif book_id in file_of:
            reason = f"left out: {file_of[book_id]} has the same catalogue id"
            notes.append(Note(name, book_id, str(data.get("name", "")), reason))
        else:
            file_of[book_id] = name
            kept.append(data)
    if problems:
        raise DataFolderInvalid(problems)
    reader = Reader(xml_defaults=True)
    system = reader.catalogue(system_data, is_game_system=True)
    catalogues = [reader.catalogue(data, is_game_system=False) for data in kept]
    return GameData(system, catalogues), file_of, notes


def nodes(node: Any, owner: str = "") -> Iterator[tuple[Any, str]]:
    """Every model object under `node` (itself first), with the id of the nearest object holding it."""
    yield node, owner
    own_id = getattr(node, "id", owner) or owner
    for name in _list_fields(type(node)):
        for item in getattr(node, name):
            if is_dataclass(item):
                yield from nodes(item, own_id)


_LIST_FIELDS: dict[type, tuple[str, ...]] = {}


def _list_fields(kind: type) -> tuple[str, ...]:
    """The fields of a model class that hold lists of model objects (looked up once per class)."""
    if kind not in _LIST_FIELDS:
        _LIST_FIELDS[kind] = tuple(f.name for f in fields(kind) if str(f.type).startswith("list["))
    return _LIST_FIELDS[kind]


def check_game_data(data: GameData, file_of: dict[str, str]) -> tuple[list[str], list[Note]]:
    """What stops the data being used (problems), and what is left unread in it (notes)."""
    problems: list[str] = []
    notes: list[Note] = []
    cost_types = {c.id for c in data.cost_types}
    for book in data.books():
        name = file_of.get(book.id, book.name)
        problems += [
            f"{name}: catalogueLink to catalogue {link.target_id}, which no file of the folder holds"
            for link in book.catalogue_links
            if link.target_id not in data.catalogues_by_id
        ]
        for node, owner in nodes(book):
            if isinstance(node, Modifier) and node.type not in MODIFIER_KINDS:
                problems.append(f"{name}: {owner}: a modifier of unknown kind {node.type!r} (field {node.field})")
            elif isinstance(node, Entry):
                if node.kind == ENTRY_LINK and data.link_target(node) is None:
                    problems.append(
                        f"{name}: entryLink {node.id} ({node.name}) points at {node.target_id}, which no file defines"
                    )
                notes += entry_notes(data, name, node, cost_types)
            elif isinstance(node, InfoLink) and not info_target_exists(data, node):
                notes.append(Note(name, node.id, node.name, f"infoLink to {node.target_id}, which is nowhere"))
    return problems, notes


def entry_notes(data: GameData, file_name: str, entry: Entry, cost_types: set[str]) -> list[Note]:
    """A category link to no category, a cost of no cost type: read, but naming nothing."""
    found = []
    if entry.kind == CATEGORY_LINK and entry.target_id not in data.category_entries:
        found.append(Note(file_name, entry.id, entry.name, f"categoryLink to {entry.target_id}, which is nowhere"))
    found += [
        Note(file_name, entry.id, entry.name, f"a cost of type {cost.type_id}, which no file defines (left out)")
        for cost in entry.costs
        if cost.type_id not in cost_types
    ]
    return found


def info_target_exists(data: GameData, link: InfoLink) -> bool:
    """Whether an info link reaches a profile, rule or info group."""
    return link.target_id in data.profiles or link.target_id in data.rules or link.target_id in data.info_groups
