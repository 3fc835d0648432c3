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
    "cards": {"rosters", "rules", "gamedata", "battlescribe", "models", "event_models"},  # battlescribe.safe_xml
    "roster_kinds": {"cards", "rosters", "rules", "battlescribe", "gamedata", "models", "event_models"},
    "pdfs": {"roster_kinds", "cards", "rosters", "rules", "gamedata", "models", "event_models"},
    "events": {"pdfs", "roster_kinds", "cards", "rosters", "rules", "gamedata", "models", "event_models"},
    "web": {
        "events",
        "pdfs",
        "roster_kinds",
        "cards",
        "rosters",
        "rules",
        "battlescribe",
        "gamedata",
        "models",
        "event_models",
    },
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


# Pages, events, cards and PDFs reach every roster through one interface (`lists.roster_kinds`, see
# docs/architecture.md): what tells the kinds of roster apart belongs in its implementations, not in them.
ROSTER_PAGES = ("web", "events", "cards", "pdfs")
KIND_FLAGS = {"data_set", "data_set_id"}  # an event's, a form's or a row's data set: set only for a data set's kind
KIND_CONSTANTS = {"data_set_id", "BATTLESCRIBE", "DATA_SET"}  # compared with, they name a kind
KIND_CLASSES = {"BattleScribeRoster", "BattleScribeDataSet", "DataSetRoster", "RosterXml"}
# At most 2 of each (issue 40): the events pick their kind once (`submitting.of_kind`), and a data set's event
# refuses a list of ours; the modules named after BattleScribe are its cards and its editor's views.
MAX_KIND_BRANCHES = 2
MAX_BATTLESCRIBE_MODULES = 2


def _named(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def is_kind_test(test: ast.AST) -> bool:
    """Whether a condition tests a roster's kind: a data set's presence (`data_set`, `data_set is None`), a
    comparison with a kind's name, or an isinstance() of a kind's class."""
    if isinstance(test, ast.BoolOp):
        return any(is_kind_test(value) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return is_kind_test(test.operand)
    if isinstance(test, ast.Compare):
        sides = [test.left, *test.comparators]
        names = {_named(side) for side in sides}
        none_check = any(isinstance(side, ast.Constant) and side.value is None for side in sides)
        return bool(KIND_CONSTANTS & names) or (none_check and bool(KIND_FLAGS & names))
    if isinstance(test, ast.Call) and _named(test.func) == "isinstance" and len(test.args) == 2:
        return bool(KIND_CLASSES & {_named(node) for node in ast.walk(test.args[1])})
    return _named(test) in KIND_FLAGS


def kind_branches(source: str) -> list[int]:
    """The lines of a module's conditions (if, elif, a conditional expression, a comprehension's if) that test
    a roster's kind."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If | ast.IfExp | ast.While):
            found += [node.test.lineno] if is_kind_test(node.test) else []
        elif isinstance(node, ast.comprehension):
            found += [test.lineno for test in node.ifs if is_kind_test(test)]
    return found


def test_pages_events_cards_and_pdfs_branch_on_the_rosters_kind_no_more_than_they_do_now():
    found = [
        f"{path.relative_to(LISTS)}:{line}"
        for package in ROSTER_PAGES
        for path in sorted((LISTS / package).glob("*.py"))
        for line in kind_branches(path.read_text(encoding="utf-8"))
    ]
    assert len(found) <= MAX_KIND_BRANCHES, found


def test_pages_events_cards_and_pdfs_hold_no_more_modules_named_after_battlescribe_than_now():
    named = sorted(
        str(p.relative_to(LISTS)) for package in ROSTER_PAGES for p in (LISTS / package).glob("*battlescribe*")
    )
    assert len(named) <= MAX_BATTLESCRIBE_MODULES, named


def test_the_count_finds_each_way_of_branching_on_the_kind_and_leaves_other_conditions():
    source = (
        "if event.data_set_id:\n    pass\n"
        "elif not form.data_set:\n    pass\n"
        "x = 1 if isinstance(found, DataSetRoster) else 2\n"
        "y = [s for s in all if s.subject == BATTLESCRIBE]\n"
        "if data_set is None or roster.version != version:\n    pass\n"
        "if event.data_set_id is not None:\n    pass\n"
        "if roster.version is None or name == data:\n    pass\n"
    )
    assert sorted(kind_branches(source)) == [1, 3, 5, 6, 7, 9]  # not line 11: a version and a name
