"""Zip archives read with a bound: the one reader of every zipped file (`.rosz`, `.gstz`, `.catz`).

A zip's header may claim any size; bzip2 and LZMA members are inflated whole by
`zipfile` before any limit applies (a 1 KB member can hold gigabytes). So only
stored and deflate members are read, in chunks, and refused as soon as what was
actually inflated passes the cap; the sizes the header claims are never trusted.

May import: the standard library only; nothing else of `lists/`.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

# Compression methods read: both are inflated in bounded steps (zipfile's deflate reader honours
# the size it is asked for; bzip2 and LZMA ones inflate a whole block, however large, at once).
READABLE_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
CHUNK_BYTES = 64 * 1024
METHOD_NAMES = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA", 9: "deflate64"}


class ArchiveRefused(Exception):
    """The archive cannot be used; the message says why, for the person who sent it."""


def read_single_member(source: bytes | str | Path | BinaryIO, max_bytes: int, what: str = "file") -> bytes:
    """The one file a zip archive holds, inflated to at most `max_bytes`.

    `what` names that file in the messages ("roster file", "data file"). Raises
    ArchiveRefused when the archive is not a readable zip, holds other than one
    file, compresses it other than stored or deflate, or inflates it past the cap.
    """
    opened = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    try:
        with zipfile.ZipFile(opened) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) != 1:
                raise ArchiveRefused(f"the archive holds one {what}; this one holds {len(members)} files")
            return _inflate(archive, members[0], max_bytes, what)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError, ValueError) as exc:
        raise ArchiveRefused(f"not a readable zip archive: {exc}") from None


def _inflate(archive: zipfile.ZipFile, member: zipfile.ZipInfo, max_bytes: int, what: str) -> bytes:
    if member.compress_type not in READABLE_METHODS:
        method = METHOD_NAMES.get(member.compress_type, f"method {member.compress_type}")
        raise ArchiveRefused(
            f"the {what} in the archive is compressed with {method}; only stored or deflate (ordinary zip) is read"
        )
    chunks: list[bytes] = []
    inflated = 0
    with archive.open(member) as stream:
        while chunk := stream.read(CHUNK_BYTES):
            inflated += len(chunk)
            if inflated > max_bytes:
                raise ArchiveRefused(f"the {what} in the archive is larger than {max_bytes} bytes unzipped")
            chunks.append(chunk)
    return b"".join(chunks)


def read_members(
    source: bytes, max_bytes: int, max_total: int, max_members: int, what: str = "file"
) -> list[tuple[str, bytes]]:
    """Every file a zip archive holds (a published release of many data files), each inflated to at most
    `max_bytes` and all together to at most `max_total`; folders are walked, their files named by path.

    Raises ArchiveRefused as `read_single_member` does, and when the archive holds more than `max_members` files.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(source)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) > max_members:
                raise ArchiveRefused(f"the archive holds {len(members)} files, more than the {max_members} read")
            read: list[tuple[str, bytes]] = []
            total = 0
            for member in members:
                content = _inflate(archive, member, min(max_bytes, max_total - total), what)
                total += len(content)
                read.append((member.filename, content))
            return read
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError, ValueError) as exc:
        raise ArchiveRefused(f"not a readable zip archive: {exc}") from None
