"""Parsing a roster file: YAML or JSON read defensively, then checked against the format, problems located.

Reading never trusts its input: size, nesting and aliases are limited, and
every problem is collected with its field (and line, for YAML).
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from pydantic import ValidationError

from lists.rosters.format import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_FILE_BYTES,
    MAX_PROBLEMS,
    Problem,
    RosterFile,
    RosterFileInvalid,
)

# libyaml's parser where PyYAML has it (its wheels do): the pure-Python one takes seconds on a 512 KB file.
_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _SafeLoader(_Parser):
    """Safe YAML without aliases (no exponential expansion), duplicate keys or values it cannot read.

    Aliases and depth are checked on the parser's events before any node is
    composed (`_check_events`). Dates are not a roster file's business: they stay
    text, like any other value that only looks like a date. A value whose tag
    cannot be read (`!!int ""`, `!!timestamp "x"`, a 5,000-digit number) is a located error.
    """

    def construct_object(self, node, deep=False):
        if isinstance(node, yaml.ScalarNode) and node.tag in _NUMBER_TAGS and _too_long(node.value):
            raise yaml.constructor.ConstructorError(
                None, None, f"a number longer than {MAX_DIGITS} digits", node.start_mark
            )
        try:
            return super().construct_object(node, deep=deep)
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError):
            shown = node.value if isinstance(node.value, str) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"{shown[:40]!r} cannot be read as {node.tag.rsplit(':', 1)[-1]}", node.start_mark
            ) from None

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str | int | float | bool) or key is None:
                raise yaml.constructor.ConstructorError(
                    None, None, "mapping keys must be plain text", key_node.start_mark
                )
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} appears twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}


MAX_KEYS = 200  # no mapping of a roster file has near as many keys (settings have a few dozen at most)
MAX_ITEMS = 1000  # nor any list as many items (400 units, 100 house rules)
# Nor a whole file as many values (keys and scalars): 400 units of 100 each. A file past it is refused while
# its events are read, before the slow part (building and checking its values) starts.
MAX_VALUES = 40_000


def _check_events(text: str) -> None:
    """Refuse aliases, nesting deeper than MAX_DEPTH, oversized mappings or lists and more values than any roster
    holds, in one pass over the events.

    A file refused here costs the parser's time alone, not the composing and checking of every node.
    """
    sizes: list[list] = []  # for each open mapping or list: [is a mapping, nodes so far, its start mark]
    values = 0
    for event in yaml.parse(text, Loader=_Parser):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", event.start_mark)
        if isinstance(event, yaml.ScalarEvent):
            values += 1
            if values > MAX_VALUES:
                raise yaml.composer.ComposerError(
                    None, None, f"more than {MAX_VALUES:,} keys and values: no roster holds as many", event.start_mark
                )
        if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            sizes.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        if sizes:
            sizes[-1][1] += 1
            mapping, nodes, mark = sizes[-1]
            if (mapping and nodes > 2 * MAX_KEYS) or (not mapping and nodes > MAX_ITEMS):
                what = f"more than {MAX_KEYS} keys" if mapping else f"more than {MAX_ITEMS} items"
                raise yaml.composer.ComposerError(None, None, f"a {'mapping' if mapping else 'list'} of {what}", mark)
        if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            sizes.append([isinstance(event, yaml.MappingStartEvent), 0, event.start_mark])
            if len(sizes) > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark
                )


# Plain dates and times are read as text: drop the resolver that would make them timestamps.
_SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _too_long(number: str) -> bool:
    return sum(character.isdigit() for character in number) > MAX_DIGITS


def _json_number(text: str) -> int | float:
    if _too_long(text):
        raise ValueError(f"a number longer than {MAX_DIGITS} digits")
    return float(text) if any(c in text for c in ".eE") else int(text)


def _json_mapping(pairs: list[tuple[str, Any]]) -> dict:
    mapping: dict = {}
    for key, value in pairs:
        if key in mapping:
            raise ValueError(f"the key {key!r} appears twice")
        mapping[key] = value
    return mapping


def _check_json_structure(value: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and oversized mappings or lists, as YAML's `_check_events` does:
    at the first one met, in one walk, before any field is checked."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RosterFileInvalid([Problem("", f"nested more than {MAX_DEPTH} levels deep")])
        if isinstance(item, dict):
            if len(item) > MAX_KEYS:
                raise RosterFileInvalid(
                    [Problem("", f"a mapping of more than {MAX_KEYS} keys: no roster file has near as many")]
                )
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            if len(item) > MAX_ITEMS:
                raise RosterFileInvalid(
                    [Problem("", f"a list of more than {MAX_ITEMS} items: no roster file has near as many")]
                )
            stack.extend((v, depth + 1) for v in item)


def decoded_text(raw: bytes) -> str:
    """A roster file's bytes as text: within the size limit, UTF-8, not empty, no NUL character."""
    if len(raw) > MAX_FILE_BYTES:
        raise RosterFileInvalid([Problem("", f"the file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RosterFileInvalid([Problem("", f"the file is not UTF-8 text (byte {exc.start})")]) from None
    if not text.strip():
        raise RosterFileInvalid([Problem("", "the file is empty")])
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RosterFileInvalid([Problem("", "the file holds a NUL character; a roster file is plain text", line)])
    return text


def parse(raw: bytes, filename: str = "") -> tuple[dict, yaml.Node | None]:
    """Bytes to a mapping; the YAML node tree comes back too, to give line numbers."""
    text = decoded_text(raw)
    node = None
    try:
        if filename.lower().endswith(".json") or text.lstrip().startswith(("{", "[")):
            try:
                data = json.loads(
                    text, object_pairs_hook=_json_mapping, parse_int=_json_number, parse_float=_json_number
                )
            except ValueError as exc:
                if isinstance(exc, json.JSONDecodeError):
                    raise
                raise RosterFileInvalid([Problem("", f"not valid JSON: {exc}")]) from None
            _check_json_structure(data)
        else:
            _check_events(text)
            loader = _SafeLoader(text)
            try:
                node = loader.get_single_node()
                data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
    except json.JSONDecodeError as exc:
        raise RosterFileInvalid([Problem("", f"not valid JSON: {exc.msg}", exc.lineno)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise RosterFileInvalid([Problem("", f"not valid YAML: {problem}", mark.line + 1 if mark else None)]) from None
    except RecursionError:
        raise RosterFileInvalid([Problem("", f"nested more than {MAX_DEPTH} levels deep")]) from None
    if not isinstance(data, dict):
        raise RosterFileInvalid([Problem("", "a roster file is a mapping with game, army and units")])
    return data, node


def _line_index(node: yaml.Node | None) -> dict[tuple, int]:
    """Every path in the YAML node tree with the line it starts on, found in one walk (linear in the file)."""
    lines: dict[tuple, int] = {}
    stack = [((), node)] if node is not None else []
    while stack:
        path, item = stack.pop()
        lines[path] = item.start_mark.line + 1
        if isinstance(item, yaml.MappingNode):
            stack.extend(((*path, str(key.value)), value) for key, value in item.value)
        elif isinstance(item, yaml.SequenceNode):
            stack.extend(((*path, index), value) for index, value in enumerate(item.value))
    return lines


def _line_of(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line a path starts on; for a path the file lacks, the line of its nearest part the file has."""
    for end in range(len(path), 0, -1):
        found = lines.get(tuple(str(part) if isinstance(part, str) else part for part in path[:end]))
        if found is not None:
            return found
    return lines.get(())


def read_roster_file(raw: bytes, filename: str = "") -> RosterFile:
    return _read(raw, filename)[0]


def _read(raw: bytes, filename: str) -> tuple[RosterFile, yaml.Node | None]:
    data, node = parse(raw, filename)
    return check_document(data, node), node


def check_document(data: dict, node: yaml.Node | None = None) -> RosterFile:
    """A roster file's mapping checked against the format: every editor change passes here too, like an import."""
    try:
        return RosterFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        lines = _line_index(node)
        problems = []
        for error in errors[:MAX_PROBLEMS]:  # only the problems shown are located
            # pydantic names union members in the path; keep the fields only.
            loc = tuple(
                part for part in error["loc"] if not (isinstance(part, str) and ("[" in part or part in {"str", "int"}))
            )
            problems.append(Problem(".".join(str(p) for p in loc), error["msg"], _line_of(lines, loc)))
        raise RosterFileInvalid(problems, more=len(errors) - len(problems)) from None


def _with_lines(problems: list[Problem], node: yaml.Node | None) -> list[Problem]:
    """Give each problem the YAML line of its field, where it can be found."""
    located = []
    lines = _line_index(node)
    for problem in problems:
        parts = tuple(
            int(part) if part.isdecimal() and part.isascii() else part for part in problem.path.split(".") if part
        )
        line = problem.line or (_line_of(lines, parts) if parts else None)
        located.append(Problem(problem.path, problem.message, line))
    return located
