"""Keep lists/ easy to change: no module over 600 lines, no function over 80 lines.

    python scripts/check_sizes.py      (run by `make lint`)

Prints every module and function over the limit and exits 1 if there is any.
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

# Modules allowed over the limits (none: add one only with the reason beside it).
KNOWN_EXCEPTIONS: set[str] = set()


def oversized(path: Path, root: Path) -> list[str]:
    """What in one module is over the limits, one line each."""
    source = path.read_text(encoding="utf-8")
    name = path.relative_to(root).as_posix()
    found = []
    lines = len(source.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"{name}: {lines} lines (limit {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(source, filename=name)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.lineno}: {node.name}() is {length} lines (limit {MAX_FUNCTION_LINES})")
    return found


def check(root: Path = ROOT, exceptions: set[str] = KNOWN_EXCEPTIONS) -> list[str]:
    """Everything over the limits in root/lists, but Django's generated migrations and the known exceptions."""
    found = []
    for path in sorted((root / "lists").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if "migrations" in path.relative_to(root).parts or name in exceptions:
            continue
        found.extend(oversized(path, root))
    return found


def main() -> int:
    found = check()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
