"""Runs the community conformance suite's roster specs (YAML) through the adapter protocol.

A spec gives game data (`setup`) and steps: actions, expected states and expected files. Each
step is sent as protocol messages to an adapter (a callable taking and returning dicts, so it
can be in-process or a subprocess) and checked as the suite's own runner checks it: lists of
forces and selections by position, costs by type, errors as an exact or subset match.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Message = dict[str, Any]
# libyaml's safe loader when PyYAML has it: it reads the suite several times faster.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Send = Callable[[Message], Message]
ENGINE = "battlescribe"
ACTION_FIELDS = (
    "forceEntryId",
    "entryId",
    "catalogueId",
    "costTypeId",
    "count",
    "value",
    "customName",
    "customNotes",
    "categoryEntryId",
)


class SpecFailure(Exception):
    """A step that could not be run at all."""


@dataclass(slots=True)
class SpecResult:
    """What running one spec found."""

    spec_id: str
    category: str
    failures: list[str] = field(default_factory=list)
    skipped: str | None = None
    elapsed_ms: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether every assertion held."""
        return not self.failures and self.skipped is None


def load_spec(path: Path) -> Message:
    """A spec file (YAML 1.1 reads the key `on` as True; it is put back)."""
    spec = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)  # noqa: S506 - a safe loader
    spec.setdefault("id", path.stem)
    spec["_path"] = path
    return spec


def spec_paths(root: Path) -> list[Path]:
    """Every roster spec under a folder, in category order."""
    return sorted(root.glob("*/*.yaml"))


def setup_message(spec: Message) -> Message:
    """The protocol's setup message for a spec, with the suite's defaults for missing names."""
    setup = spec["setup"]
    spec_id = spec["id"]
    game_system = dict(setup.get("gameSystem") or {})
    game_system.setdefault("id", spec_id)
    game_system["id"] = game_system["id"] or spec_id
    game_system["name"] = game_system.get("name") or spec_id
    catalogues = [dict(c) for c in setup.get("catalogues") or []]
    for index, catalogue in enumerate(catalogues):
        catalogue["gameSystemId"] = catalogue.get("gameSystemId") or game_system["id"]
        catalogue["name"] = catalogue.get("name") or (f"{spec_id}-{index + 1}" if len(catalogues) > 1 else spec_id)
    return {"type": "setup", "version": "1.0", "specId": spec_id, "gameSystem": game_system, "catalogues": catalogues}


class Expressions:
    """The `${{ steps.<id>.<field> }}` references between steps."""

    PATTERN = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")

    def __init__(self) -> None:
        self.outputs: dict[str, Message] = {}

    def resolve(self, value: Any) -> Any:
        """A step field with a whole-value reference replaced."""
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not (text.startswith("${{") and text.endswith("}}")):
            return value
        return self.lookup(text[3:-2].strip())

    def lookup(self, expression: str) -> str:
        """The value a `steps.` expression names."""
        if not expression.startswith("steps."):
            raise SpecFailure(f"Unsupported expression {expression}")
        step_id, _, name = expression[len("steps.") :].partition(".")
        outputs = self.outputs.get(step_id)
        if outputs is None:
            raise SpecFailure(f"Step '{step_id}' not found")
        if name.startswith("selections."):
            found = (outputs.get("selections") or {}).get(name[len("selections.") :])
        else:
            found = outputs.get(name)
        if found is None:
            raise SpecFailure(f"Expression steps.{step_id}.{name} has no value")
        return str(found)

    def line_pattern(self, line: str) -> str:
        """A regular expression for one template line of an expected file."""
        parts = []
        position = 0
        for match in self.PATTERN.finditer(line):
            parts.append(re.escape(line[position : match.start()]))
            expression = match.group(1)
            if expression.startswith("match("):
                argument = expression[expression.index("(") + 1 : expression.rindex(")")].strip()
                parts.append("(?:" + argument.strip("'\"") + ")")
            else:
                parts.append(re.escape(self.lookup(expression)))
            position = match.end()
        parts.append(re.escape(line[position:]))
        return r"\A" + "".join(parts) + r"\Z"

    def matches_template(self, template: str, actual: str) -> str | None:
        """None if the actual text matches a template line by line, else where it differs."""
        expected_lines = template.replace("\r\n", "\n").split("\n")
        actual_lines = actual.replace("\r\n", "\n").split("\n")
        for index in range(max(len(expected_lines), len(actual_lines))):
            want = expected_lines[index] if index < len(expected_lines) else None
            got = actual_lines[index] if index < len(actual_lines) else None
            if want is None or got is None or not re.match(self.line_pattern(want), got):
                return f"line {index + 1}: expected {want!r} got {got!r}"
        return None


def for_engine(expected: Message, engine: str) -> Message:
    """An expected state with one engine's overrides put over it (field by field)."""
    merged = {k: v for k, v in expected.items() if k != "engines"}
    override = (expected.get("engines") or {}).get(engine)
    if override:
        merged.update(override)
    return merged


def action_message(step: Message, expressions: Expressions, catalogue_ids: list[str]) -> Message:
    """The protocol's action message for an action step."""
    override = (step.get("engines") or {}).get(ENGINE) or {}
    step = {**step, **override}
    message: Message = {"type": "action", "action": step["action"]}
    for key in ACTION_FIELDS:
        if key in step:
            message[key] = step[key]
    for key in ("forceId", "selectionId"):
        if key in step:
            message[key] = expressions.resolve(step[key])
    if step["action"] in ("addForce", "addChildForce") and not message.get("catalogueId"):
        if len(catalogue_ids) != 1:
            raise SpecFailure("addForce requires catalogueId when there are several catalogues")
        message["catalogueId"] = catalogue_ids[0]
    if step["action"] == "loadRoster":
        content = step.get("content")
        if content is None:
            raise SpecFailure("loadRoster requires content")
        message["xml"] = expressions.resolve(content)
    return message


def expected_file(spec: Message, step: Message) -> str | None:
    """The snapshot an expectedFile step compares with: inline, this engine's, or the base one."""
    inline = (step["expectedFile"] or {}).get("content")
    if inline is not None:
        return inline
    folder = spec["_path"].parent
    for name in (f"{spec['id']}.{step['id']}.{ENGINE}.ros", f"{spec['id']}.{step['id']}.ros"):
        if (folder / name).exists():
            return (folder / name).read_text(encoding="utf-8")
    return None


def run_spec(spec: Message, send: Send) -> SpecResult:
    """Run one spec through an adapter; the result lists every failed assertion."""
    started = time.perf_counter()
    result = SpecResult(spec["id"], spec.get("category", spec["_path"].parent.name))
    if (spec.get("engines") or {}).get(ENGINE) == "skip":
        result.skipped = f"engines: {ENGINE}: skip"
        return result
    if spec["setup"].get("dataSource"):
        result.skipped = "needs a data source from the internet"
        return result
    try:
        run_steps(spec, send, result)
    finally:
        send({"type": "teardown"})
        result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def run_steps(spec: Message, send: Send, result: SpecResult) -> None:
    """Set up, then run each step in turn (an action that fails ends the spec)."""
    setup = setup_message(spec)
    answer = send(setup)
    if answer.get("type") != "setupResult" or answer.get("errors"):
        result.failures.append(f"Setup failed: {answer}")
        return
    catalogue_ids = [c["id"] for c in setup["catalogues"]]
    expressions = Expressions()
    for index, step in enumerate(spec["steps"]):
        if ENGINE in (step.get("skipEngines") or []):
            continue
        try:
            if "action" in step:
                if step["action"] == "dump":
                    continue
                answer = send(action_message(step, expressions, catalogue_ids))
                if not answer.get("ok"):
                    result.failures.append(f"Step {index}: action {step['action']} failed: {answer.get('error')}")
                    return
                if step.get("id"):
                    expressions.outputs[step["id"]] = answer.get("outputs") or {}
            elif "expectedState" in step:
                check_state_step(spec, step, index, send, result)
            elif "expectedFile" in step:
                check_file_step(spec, step, index, send, expressions, result)
        except SpecFailure as failure:
            result.failures.append(f"Step {index}: {failure}")
            return


def check_state_step(spec: Message, step: Message, index: int, send: Send, result: SpecResult) -> None:
    """Compare the adapter's state and errors with an expected state."""
    from tests.battlescribe_spec_checks import Checker

    expected = for_engine(step["expectedState"], ENGINE)
    state = send({"type": "getState"})
    errors = send({"type": "getErrors"}).get("errors") or []
    checker = Checker(index)
    checker.state(expected, state, errors, bool(spec["setup"].get("dataSource")))
    result.failures.extend(checker.failures)


def check_file_step(
    spec: Message, step: Message, index: int, send: Send, expressions: Expressions, result: SpecResult
) -> None:
    """Compare the adapter's exported roster with a snapshot."""
    answer = send({"type": "exportRosterXml"})
    if answer.get("type") != "rosterXmlResult":
        result.failures.append(f"Step {index}: expectedFile needs a roster export: {answer.get('message')}")
        return
    template = expected_file(spec, step)
    if template is None:
        result.failures.append(f"Step {index}: no snapshot for expectedFile")
        return
    difference = expressions.matches_template(template.rstrip("\n"), answer["xml"].rstrip("\n"))
    if difference:
        result.failures.append(f"Step {index}: exported roster differs at {difference}")


def run_suite(root: Path, send: Send, only: str | None = None) -> list[SpecResult]:
    """Run every roster spec under a folder (optionally only ids containing `only`)."""
    results = []
    for path in spec_paths(root):
        if only and only not in path.stem:
            continue
        results.append(run_spec(load_spec(path), send))
    return results
