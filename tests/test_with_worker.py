"""`make run` and `make serve` start the PDF worker beside the server, and stop it when the server stops."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Stands in for the web server: queues a render and waits until a worker has run it.
SERVER = """
import time, django
django.setup()
from lists.tasks import render_pdf
result = render_pdf.enqueue("no-such-roster", "list", "poker", "a4", False)
for _ in range(300):
    result.refresh()
    if result.is_finished:
        print("worker ran the render:", result.status)
        raise SystemExit(0)
    time.sleep(0.1)
raise SystemExit("no worker ran the render")
"""


def test_the_server_command_gets_a_worker_that_stops_with_it(tmp_path):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_DEBUG": "1",
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"),
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)

    result = subprocess.run(
        [sys.executable, "scripts/with_worker.py", sys.executable, "-c", SERVER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "worker ran the render: FAILED" in result.stdout  # the roster does not exist: the worker said so
