"""The size check `make lint` runs: a module of lists/ over 600 lines or a function over 80 fails it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "check_sizes.py"


def run_check(root: Path, exceptions: str = "set()") -> subprocess.CompletedProcess:
    """The script's check over another project folder, with the given known exceptions."""
    code = (
        f"import sys; sys.path.insert(0, {str(SCRIPT.parent)!r}); import check_sizes as c; "
        f"found = c.check(c.Path({str(root)!r}), {exceptions}); print(*found, sep='\\n'); sys.exit(1 if found else 0)"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)  # noqa: S603


def function(name: str, lines: int) -> str:
    """The source of a function `lines` long, def line included."""
    return f"def {name}():\n" + "".join(f"    x{i} = {i}\n" for i in range(lines - 2)) + "    return 0\n"


def test_a_long_module_and_a_long_function_are_named_with_their_sizes(tmp_path):
    (tmp_path / "lists" / "sub").mkdir(parents=True)
    (tmp_path / "lists" / "big.py").write_text("x = 1\n" * 601)
    (tmp_path / "lists" / "sub" / "long.py").write_text(
        "import os\n\n\n" + function("short", 80) + function("long", 81)
    )

    result = run_check(tmp_path)

    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "lists/big.py: 601 lines (limit 600)",
        "lists/sub/long.py:84: long() is 81 lines (limit 80)",
    ]


def test_modules_within_the_limits_migrations_and_known_exceptions_pass(tmp_path):
    (tmp_path / "lists" / "migrations").mkdir(parents=True)
    (tmp_path / "lists" / "fine.py").write_text("x = 1\n" * 600)
    (tmp_path / "lists" / "migrations" / "0001_initial.py").write_text("x = 1\n" * 900)
    (tmp_path / "lists" / "in_progress.py").write_text(function("long", 200))

    result = run_check(tmp_path, exceptions="{'lists/in_progress.py'}")

    assert result.returncode == 0, result.stdout
    assert result.stdout.strip() == ""


def test_the_project_is_within_the_limits():
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False)  # noqa: S603

    assert result.returncode == 0, result.stdout
