"""The layout of lists/ shows its architecture: a few packages by concern, imports running one way, no cycles.

See docs/architecture.md. Imports are read from the source (ast), so a lazy import inside a function counts
as much as one at the top of a module: hiding a cycle in a function does not remove it. Imports under
`if TYPE_CHECKING:` count too: a module that names another's type depends on it as much as one that calls it.
"""

from __future__ import annotations

import ast
from pathlib import Path

LISTS = Path(__file__).resolve().parent.parent / "lists"

# What each part of lists/ may import of lists/ besides itself, bottom to top. The top (`urls`,
# `templatetags`, `management`) may import anything.
MAY_IMPORT = {
    "models": {"event_models", "battlescribe_models", "locker_models"},
    "event_models": set(),
    "locker_models": set(),
    "battlescribe_models": set(),
    "battlescribe": set(),
    "gamedata": {"battlescribe", "models", "event_models"},
    "rules": {"gamedata", "models", "event_models"},
    "rosters": {"battlescribe", "rules", "gamedata", "models", "event_models"},
    "cards": {"rosters", "rules", "gamedata", "models", "event_models"},
    "pdfs": {"cards", "rosters", "rules", "gamedata", "models", "event_models"},
    "events": {"pdfs", "cards", "rosters", "rules", "gamedata", "models", "event_models"},
    "web": {"events", "pdfs", "cards", "rosters", "rules", "battlescribe", "gamedata", "models", "event_models"},
}
TOP = {"urls", "templatetags", "management", "apps", "__init__"}
MAX_TOP_LEVEL_MODULES = 8


def module_name(path: Path) -> str:
    parts = list(path.relative_to(LISTS.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in LISTS.rglob("*.py") if "migrations" not in p.parts}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of lists/ that one module imports, wherever in it the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {target for target in found if target in known and target != name}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def part_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle depth-first search meets, each as the chain of modules that closes it."""
    state: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                found.append(stack[stack.index(target) :] + [target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    return found


def test_no_module_of_lists_imports_one_that_imports_it_back():
    assert cycles(import_graph()) == []


def test_modules_outside_the_engine_use_it_only_through_its_public_face():
    engine = "lists.battlescribe.engine"
    past_the_face = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        if not name.startswith(engine)
        for target in sorted(targets)
        if target.startswith(f"{engine}.")
    ]
    assert past_the_face == []


def test_imports_run_one_way_from_the_web_down_to_game_data_and_models():
    wrong = []
    for name, targets in import_graph().items():
        part = part_of(name)
        if part in TOP:
            continue
        allowed = MAY_IMPORT[part] | {part}
        wrong += [f"{name} imports {target}" for target in sorted(targets) if part_of(target) not in allowed]
    assert wrong == []


def test_every_part_of_lists_is_placed_in_the_layers():
    parts = {part_of(name) for name in modules()}
    assert parts <= set(MAY_IMPORT) | TOP


def test_the_top_level_of_lists_holds_few_modules_beside_its_packages():
    top_level = sorted(p.name for p in LISTS.glob("*.py"))
    assert len(top_level) <= MAX_TOP_LEVEL_MODULES, top_level


def test_every_package_says_what_it_holds_and_what_it_may_import():
    for package in sorted(p.parent for p in LISTS.glob("*/__init__.py")):
        if package.name in {"migrations", "templatetags", "management"}:
            continue
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "May import" in docstring, f"{package.name}/__init__.py names no imports it may make"


def test_an_import_inside_a_function_counts_and_so_does_one_for_type_checking(tmp_path):
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from lists.b import B\n"
        "def f():\n    from lists.c import C\n"
    )
    (tmp_path / "a.py").write_text(source)
    known = {"lists.a": tmp_path / "a.py", "lists.b": Path("b.py"), "lists.c": Path("c.py")}
    assert imports_of("lists.a", tmp_path / "a.py", known) == {"lists.b", "lists.c"}


def test_the_check_finds_a_cycle_hidden_in_a_function():
    graph = {"lists.a": {"lists.b"}, "lists.b": {"lists.c"}, "lists.c": {"lists.a"}, "lists.d": set()}
    assert cycles(graph) == [["lists.a", "lists.b", "lists.c", "lists.a"]]
