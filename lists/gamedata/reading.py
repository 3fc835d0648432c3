"""Reading one game-system pack: its YAML files, parsed strictly and checked against the schema.

A pack is a folder under `settings.PACKS_DIR` holding YAML files; their
sections are merged into one `Pack`, with the file and path of each item kept
for error messages.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import ValidationError

from lists.gamedata.schema import LIST_SECTIONS, PackFile, System

MAX_PACK_FILE_BYTES = 5_000_000
# Part of every content hash: bump it when the loader writes rows differently,
# so that the next loadpacks rewrites packs whose YAML did not change.
LOADER_VERSION = b"3"


@dataclass(frozen=True)
class PackError:
    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


class PackInvalid(Exception):
    def __init__(self, errors: list[PackError]):
        self.errors = errors
        super().__init__("\n".join(str(error) for error in errors))


@dataclass
class Located:
    """A pack item with the file and path it came from, for error messages."""

    item: object
    file: str
    path: str


@dataclass
class Pack:
    folder: Path
    system: System | None = None
    system_file: str = ""
    sections: dict[str, list[Located]] = field(default_factory=lambda: {name: [] for name in LIST_SECTIONS})
    content_hash: str = ""

    def items(self, section: str) -> list:
        return [located.item for located in self.sections[section]]


# libyaml's parser where PyYAML was built with it: the generated armies are ~5 MB of YAML.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeLoader):
    """A safe YAML loader that refuses a mapping with the same key twice."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice in one mapping", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} appears twice in one mapping")
        seen[key] = value
    return seen


def _parse(raw: bytes):
    """A pack file's data. Generated files are JSON-style YAML (a YAML subset), read by the fast JSON parser."""
    body = raw
    while body.startswith(b"#"):  # comment lines before the document
        body = body.partition(b"\n")[2]
    if body.lstrip().startswith(b"{"):
        return json.loads(body, object_pairs_hook=_refuse_duplicates)
    return yaml.load(raw, Loader=_StrictLoader)  # noqa: S506 - _StrictLoader is a SafeLoader


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _location(loc: Iterable) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def read_pack(folder: Path) -> Pack:
    """Read and schema-check every YAML file of one pack folder."""
    pack = Pack(folder=folder)
    errors: list[PackError] = []
    digest = hashlib.sha256(LOADER_VERSION)
    files = sorted(folder.rglob("*.yaml"))
    if not files:
        raise PackInvalid([PackError(_display(folder), "(folder)", "the pack folder holds no .yaml file")])
    for path in files:
        name = _display(path)
        raw = path.read_bytes()
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + raw)
        if len(raw) > MAX_PACK_FILE_BYTES:
            errors.append(PackError(name, "(file)", f"the file is larger than {MAX_PACK_FILE_BYTES} bytes"))
            continue
        try:
            data = _parse(raw)
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(file)"
            problem = getattr(error, "problem", None) or str(error)
            errors.append(PackError(name, where, f"not valid YAML: {problem}"))
            continue
        except ValueError as error:
            where = (
                f"line {error.lineno}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else "(file)"
            )
            errors.append(PackError(name, where, f"not valid JSON-style YAML: {getattr(error, 'msg', error)}"))
            continue
        if data is None:
            data = {}
        if not isinstance(data, dict):
            errors.append(PackError(name, "(top level)", "a pack file must be a mapping of sections"))
            continue
        try:
            part = PackFile.model_validate(data)
        except ValidationError as error:
            for problem in error.errors():
                errors.append(PackError(name, _location(problem["loc"]), problem["msg"]))
            continue
        if part.system is not None:
            if pack.system is not None:
                errors.append(PackError(name, "system", f"the system is already given in {pack.system_file}"))
            pack.system, pack.system_file = part.system, name
        for section in LIST_SECTIONS:
            for index, item in enumerate(getattr(part, section)):
                pack.sections[section].append(Located(item, name, f"{section}.{index}"))
    if errors:
        raise PackInvalid(errors)
    if pack.system is None:
        raise PackInvalid([PackError(_display(folder), "system", "no file of the pack gives its system")])
    pack.content_hash = digest.hexdigest()
    return pack
