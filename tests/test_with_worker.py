"""`make run` and `make serve` start the PDF worker beside the server, and stop it when the server stops:
the database queue's worker, or with REDIS_URL a real RQ worker on a real Redis server (issue 12, items 1 and 4)."""

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis

ROOT = Path(__file__).resolve().parents[1]

# Stands in for the web server: queues a cards PDF of a saved roster, waits until a worker has
# rendered it, and reads the PDF from the shared cache, where the site serves it from.
SERVER = """
import io, sys, time, django
django.setup()
from pathlib import Path
from pypdf import PdfReader
from django.core.cache import cache
from lists.pdfs import tasks
from lists.cards import Layout, pdf_key
from lists.gamedata.loading import game_data, roster_snapshot
from lists.rosters.files import load_roster_file, save_new_roster
from lists.rosters.sharing import hash_secret

text = Path("examples/heroes-all.yaml").read_text().replace("name: Panzer support", f"name: {sys.argv[1]}")
roster = save_new_roster(load_roster_file(text.encode()), sys.argv[1], hash_secret("edit"))
key = pdf_key("cards", roster_snapshot(roster), game_data(roster.system), Layout())
tasks.start(key, roster.share_id, "cards", Layout())
tasks.start("missing", "no-such-roster", "list", Layout())
for _ in range(600):
    job, missing = tasks.follow(key), tasks.follow("missing")
    if job.state in {"done", "failed"} and missing.state in {"done", "failed"}:
        break
    time.sleep(0.1)
print("cards:", job.state, "/ a roster that does not exist:", missing.state, missing.reason)
pdf = cache.get(key)
print(" ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split()) if pdf else "no PDF in the cache")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """REDIS_URL when the suite runs against Redis (CI's second half); else a Redis server of the test's own."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    server = shutil.which("redis-server")
    assert server, "redis-server is needed (bash scripts/install-system-packages.sh test installs it)"
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(100):  # until it answers
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.timeout(300)  # make serve's server and worker started, used and stopped
@pytest.mark.parametrize("queue", ["database", "redis"])
def test_the_server_command_gets_a_worker_that_renders_the_pdf_and_stops_with_it(tmp_path, request, queue):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_DEBUG": "1",
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"),
        "ARMYBUILDER_PACKS_DIR": str(tmp_path / "packs"),
    }
    if queue == "redis":
        env["REDIS_URL"] = request.getfixturevalue("redis_url")
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "heroes-all").symlink_to(ROOT / "lists" / "packs" / "heroes-all")
    for command in (["migrate", "-v0"], ["loadpacks"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    name = f"Worker test {uuid.uuid4().hex[:8]}"  # a roster no earlier run cached a PDF of, in a shared Redis

    result = subprocess.run(
        [sys.executable, "scripts/with_worker.py", sys.executable, "-c", SERVER, name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "cards: done / a roster that does not exist: failed the roster no longer exists" in result.stdout, (
        result.stdout + result.stderr
    )
    assert "Panzer IV (Early)" in result.stdout  # the first card of the PDF the worker left in the cache
