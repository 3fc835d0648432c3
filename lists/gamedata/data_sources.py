"""A game's BattleScribe data taken from where players get it: an address, or a file or folder here.

`load_source(source)` reads what `source` names, in any shape the community publishes it (see
`data_index`): a repository's data index (`index.bsi`) or package index (`.catpkg.json`) and the
files it lists, the gallery's index with one of its repositories chosen by name, a release (`.bsr`)
or any `.zip` of data files, one `.gstz`/`.gst` file, or a folder as `load_data_set` reads it.
Every file is fetched bounded (`fetching`) before anything is checked; then the files are checked
and written all or nothing by `battlescribe_data`, the data set keeping the address it came from
(`source_url`). A file the index lists that the server lacks, an answer too late, too large or not
data: nothing is loaded, and `SourceRefused` says which file and why.

`check_source(data_set)` reads the source's index again and says what it holds that is newer than
the loaded data set, per file; loading the source again keeps the newer revision beside the old.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urljoin

from lxml import etree

from lists import models
from lists.battlescribe.archives import ArchiveRefused, read_members
from lists.battlescribe.engine import DATA_SUFFIXES, MAX_XML_BYTES, unzip_if_needed
from lists.gamedata.battlescribe_data import LoadedDataSet, load_data_set
from lists.gamedata.data_index import (
    IndexEntry,
    chosen_game,
    file_name_of,
    gallery_games,
    is_data_index,
    package_entries,
    read_data_index,
    read_json_index,
)
from lists.gamedata.fetching import SourceRefused, fetch, is_address

__all__ = ["SourceCheck", "SourceRefused", "check_source", "load_source", "read_source"]

MAX_INDEX_BYTES = 4 * 1024 * 1024  # an index lists files; BSData's largest is a few KB zipped
MAX_SOURCE_BYTES = 4 * MAX_XML_BYTES  # every file of one game together (BSData's largest game: about 25 MB)
MAX_ARCHIVE_FILES = 1_000

Progress = Callable[[str], None]


@dataclass
class SourceFiles:
    """What a source holds: its data files by name, the entries its index lists, and its address."""

    address: str
    files: list[tuple[str, bytes]] = field(default_factory=list)
    entries: list[IndexEntry] = field(default_factory=list)


def read_at(location: str, max_bytes: int) -> bytes:
    """The content at an address, or of a file on this machine, at most `max_bytes`."""
    if is_address(location):
        return fetch(location, max_bytes)
    path = Path(location)
    if not path.is_file():
        raise SourceRefused(f"{location}: no such file or folder")
    if path.stat().st_size > max_bytes:
        raise SourceRefused(f"{location}: larger than the {max_bytes:,} bytes allowed")
    return path.read_bytes()


def join(base: str, relative: str) -> str:
    """Where a file an index lists is: beside the index, at an address or in a folder here."""
    if is_address(base) or is_address(relative):
        # Indexes list paths as written ("LW - Bagration_German.catz"): spaces and the like are encoded, once.
        return urljoin(base, quote(relative, safe=":/?#[]@!$&'()*+,;=%"))
    return str(Path(base).parent / relative)


def read_source(
    source: str, choice: str = "", progress: Progress | None = None, listed_only: bool = False
) -> SourceFiles:
    """Every data file `source` names, fetched (see the module); `choice` names a gallery's repository.
    With `listed_only`, an index's files are not fetched: only its entries are returned."""
    content = read_at(source, MAX_SOURCE_BYTES)
    if content.lstrip()[:1] in (b"{", b"["):
        document = read_json_index(content, source)
        if "repositoryFiles" in document:
            return fetch_listed(source, package_entries(document, source, join), progress, listed_only)
        game = chosen_game(gallery_games(document, source, join), choice, source)
        if progress:
            progress(f"{game.name}: its index is {game.index_url}")
        return read_source(game.index_url, progress=progress, listed_only=listed_only)
    if content[:2] == b"PK":
        return read_archive(source, content, progress, listed_only)
    if is_data_index(content):
        return fetch_listed(source, read_data_index(content, source, join), progress, listed_only)
    if b"<gameSystem" in content[:4096] or b"<catalogue" in content[:4096]:
        return SourceFiles(source, files=[(file_name_of(source), content)])
    raise SourceRefused(
        f"{source}: neither a data index, a repository's or gallery's JSON index, a zip nor a data file "
        f"(it begins {content[:40]!r})"
    )


def read_archive(source: str, content: bytes, progress: Progress | None, listed_only: bool = False) -> SourceFiles:
    """A zip: an index (`index.bsi`), one zipped data file (`.gstz`), or a release or folder of data files."""
    try:
        members = read_members(content, MAX_XML_BYTES, MAX_SOURCE_BYTES, MAX_ARCHIVE_FILES, "data file")
    except ArchiveRefused as refused:
        raise SourceRefused(f"{source}: {refused}") from None
    data = [(name.rsplit("/", 1)[-1], body) for name, body in members if name.lower().endswith(DATA_SUFFIXES)]
    if data:
        names = [name for name, _ in data]
        if len(set(names)) != len(names):
            twice = sorted({name for name in names if names.count(name) > 1})
            raise SourceRefused(f"{source}: the archive holds {', '.join(twice)} more than once")
        return SourceFiles(source, files=data)
    indexes = [body for _, body in members if is_data_index(body)]  # index.xml, as BattleScribe names it
    if len(indexes) == 1:
        return fetch_listed(source, read_data_index(indexes[0], source, join), progress, listed_only)
    raise SourceRefused(f"{source}: the archive holds neither data files (.gst, .cat) nor a data index")


def fetch_listed(
    source: str, entries: list[IndexEntry], progress: Progress | None, listed_only: bool = False
) -> SourceFiles:
    """The files an index lists, each fetched whole (unless `listed_only`); the first one missing or refused
    stops everything."""
    names = [entry.file_name for entry in entries]
    if len(set(names)) != len(names):
        raise SourceRefused(f"{source}: the index lists a file name twice")
    read = SourceFiles(source, entries=entries)
    if listed_only:
        return read
    total = 0
    for entry in entries:
        try:
            content = read_at(entry.location, min(MAX_XML_BYTES, MAX_SOURCE_BYTES - total))
        except SourceRefused as refused:
            raise SourceRefused(f"{entry.file_name}, listed by the index, could not be fetched: {refused}") from None
        total += len(content)
        read.files.append((entry.file_name, content))
        if progress:
            progress(f"fetched {entry.file_name} ({len(content):,} bytes)")
    return read


def load_source(source: str, choice: str = "", progress: Progress | None = None) -> LoadedDataSet:
    """Read `source` whole, then check it and load it as a data set pinned to its revision (see the module)."""
    if not is_address(source) and Path(source).is_dir():
        return load_data_set(source, progress)
    read = read_source(source, choice, progress)
    with tempfile.TemporaryDirectory(prefix="battlescribe-") as folder:
        for name, content in read.files:
            (Path(folder) / name).write_bytes(content)
        if is_address(read.address):
            return load_data_set(folder, progress, source_url=read.address)
        loaded = load_data_set(folder, progress)
    if loaded.created:  # a file on this machine: the data set names it, not the temporary folder
        loaded.data_set.source_folder = str(Path(source).resolve())[:500]
        loaded.data_set.save(update_fields=["source_folder"])
    return loaded


@dataclass
class SourceCheck:
    """What a data set's source holds now: per file, what is newer than the loaded revision."""

    data_set: models.BattleScribeDataSet
    newer: list[str]  # "Finland.cat: revision 4 (loaded: 3)", "New Army.cat: not loaded yet"

    @property
    def has_newer(self) -> bool:
        return bool(self.newer)


def source_revisions(source: str) -> list[IndexEntry]:
    """The files a source holds and their revisions: read from its index, else from the files themselves."""
    read = read_source(source, listed_only=True)
    if read.entries:
        return read.entries
    return [_entry_of(name, content) for name, content in read.files]


def _entry_of(name: str, content: bytes) -> IndexEntry:
    """A data file's id and revision, read from its root element alone."""
    try:
        xml = unzip_if_needed(name, content)
        root = next(etree.iterparse(io.BytesIO(xml), events=("start",), resolve_entities=False, no_network=True))[1]
    except (ValueError, StopIteration, etree.XMLSyntaxError):
        raise SourceRefused(f"{name}: not readable data") from None
    revision = root.get("revision", "0")
    return IndexEntry(
        name,
        name,
        root.get("id", ""),
        root.get("name", ""),
        int(revision) if revision.isdigit() else 0,
    )


def check_source(data_set: models.BattleScribeDataSet) -> SourceCheck:
    """What the data set's source publishes now that is newer than the data set, file by file."""
    if not data_set.source_url:
        raise SourceRefused(f"{data_set} was loaded from a folder on the server, not an address: nothing to check")
    loaded = {book.catalogue_id: book.revision for book in data_set.catalogues.all()}
    newer = []
    for entry in source_revisions(data_set.source_url):
        if entry.data_id not in loaded:
            newer.append(f"{entry.file_name}: not loaded yet (revision {entry.revision})")
        elif entry.revision > loaded[entry.data_id]:
            newer.append(f"{entry.file_name}: revision {entry.revision} (loaded: {loaded[entry.data_id]})")
    return SourceCheck(data_set, newer)
