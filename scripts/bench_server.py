"""The production server the benchmarks of `make bench` start: `make serve`'s command (gunicorn, the PDF
worker beside it) on a loopback port, over a throwaway SQLite database holding the packs and the rosters
a benchmark asks for. Used by scripts/bench_print.py and scripts/load.py.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = [str(Path(sys.executable).parent / "gunicorn"), "-c", "armybuilder/gunicorn.py", "armybuilder.wsgi"]


def environment(tmp: Path, port: int, name: str, **settings: str) -> dict:
    """The server's settings: production ones (DEBUG off) on loopback, its database and cache under `tmp`."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_DEBUG"}}
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings",
        DJANGO_SECRET_KEY=f"{name}-only-" + "k" * 50,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SQLITE_PATH=str(tmp / f"{name}.sqlite3"),
        ARMYBUILDER_CACHE_DIR=str(tmp / "cache"),
        ARMYBUILDER_BIND=f"127.0.0.1:{port}",
        **settings,
    )
    return env


def prepare(env: dict, script: str) -> str:
    """Migrate, collect the static files and load the packs, then run `script` (Python, Django set up
    first) against the database; returns what it prints."""
    for command in (["migrate", "-v0"], ["collectstatic", "--no-input", "-v0"], ["loadpacks"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    code = "import django; django.setup()\n" + script
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return result.stdout.strip()


def wait_until_up(base: str, server: subprocess.Popen) -> None:
    for _ in range(150):
        if server.poll() is not None:
            raise SystemExit("the server stopped: " + server.stderr.read().decode()[-500:])
        try:
            urllib.request.urlopen(f"{base}/", timeout=1)  # noqa: S310 - loopback only
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


@contextmanager
def serving(prefix: str) -> Iterator[Path]:
    """A temporary folder for the server's database and cache, removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def server(env: dict, base: str) -> Iterator[subprocess.Popen]:
    """`make serve`'s command running until the block ends, once it answers."""
    process = subprocess.Popen(
        [sys.executable, "scripts/with_worker.py", *GUNICORN],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until_up(base, process)
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
