"""The site outlives its PDF worker: a killed worker is started again while the server keeps serving,
and a render its worker dropped is shown failed within the time limit, and "Try again" queues it anew."""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from lists.models import Roster
from tests.test_with_worker import redis_url  # noqa: F401 - the fixture: a Redis server of the test's own

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "bolt-action-2e.yaml").read_text()
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("real_packs", "empty_cache")
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_render_whose_worker_died_is_failed_and_try_again_queues_it_anew(client):
    from django_tasks_db.models import DBTaskResult

    client.post("/rosters/import/", {"text": EXAMPLE})
    share = f"/r/{Roster.objects.get().share_id}/"
    assert client.get(f"{share}cards.pdf").status_code == 202
    # What a worker killed mid-render leaves: a job running since longer than any render may take.
    started = timezone.now() - timedelta(seconds=settings.PDF_RENDER_SECONDS + 60)
    DBTaskResult.objects.update(status="RUNNING", started_at=started)

    page = client.get(f"{share}cards.pdf?wait=1")

    assert page.status_code == 503
    assert "the renderer stopped before it finished" in page.content.decode()
    assert "retry=1" in page.content.decode()

    retried = client.get(f"{share}cards.pdf?retry=1")

    assert retried.status_code == 202
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # queued anew, for the restarted worker


def children(pid: int) -> dict[int, str]:
    """The processes `pid` started, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except (OSError, ValueError, IndexError):
                continue
    return found


def wait_for(check, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    return None


@pytest.mark.parametrize("queue", ["database", "redis"])
def test_a_killed_worker_is_started_again_and_the_server_keeps_running(tmp_path, request, queue):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_DEBUG": "1",
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"),
    }
    if queue == "redis":
        env["REDIS_URL"] = request.getfixturevalue("redis_url")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    server = [sys.executable, "-c", "import time; time.sleep(300)"]  # stands in for gunicorn
    supervisor = subprocess.Popen([sys.executable, "scripts/with_worker.py", *server], cwd=ROOT, env=env)
    try:

        def worker():
            name = "rqworker" if queue == "redis" else "db_worker"
            return [pid for pid, command in children(supervisor.pid).items() if name in command]

        first = wait_for(worker)
        assert first, "no worker was started"
        os.kill(first[0], signal.SIGKILL)

        second = wait_for(lambda: [pid for pid in worker() if pid != first[0]])

        assert second, "the killed worker was not started again"
        assert supervisor.poll() is None  # the server was never stopped
        assert any("time.sleep(300)" in command for command in children(supervisor.pid).values())
    finally:
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=60) == 0
