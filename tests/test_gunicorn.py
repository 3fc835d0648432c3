"""The production server (gunicorn with armybuilder/gunicorn.py) against hostile visitors:
slow clients cannot hold every worker, and no edit secret reaches its access log however the path is encoded."""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECRET = "Zq8v3xYpW1sFhK0mL2nB4cD6eG8iJ9oA7tR5uE3wQ1y"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """gunicorn as `make serve` starts it (2 workers), on a database of its own; its base URL and access log."""
    folder = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_SECRET_KEY": "gunicorn-test-only-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_DEBUG": "1",  # static files from the finders: no collectstatic into the work tree
        "DJANGO_SQLITE_PATH": str(folder / "db.sqlite3"),
        "ARMYBUILDER_CACHE_DIR": str(folder / "cache"),
        "ARMYBUILDER_BIND": f"127.0.0.1:{port}",
        "ARMYBUILDER_ACCESS_LOG": str(folder / "access.log"),
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "armybuilder/gunicorn.py", "armybuilder.wsgi"],
        cwd=ROOT,
        env=env,
        stderr=open(folder / "error.log", "wb"),  # noqa: SIM115 - closed with the process
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/rosters/mine/", timeout=2)
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    yield base, folder / "access.log"
    process.terminate()
    process.wait(timeout=30)


def get(url: str, **headers) -> int:
    try:
        return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("path", [f"/%65/{SECRET}/", f"/e%2F{SECRET}/", f"/e%2f{SECRET}%2f", f"/e/{SECRET}/"])
def test_no_edit_secret_reaches_the_access_log_however_the_path_is_encoded(server, path):
    base, log = server

    get(f"{base}{path}", Referer=f"{base}{path}")
    time.sleep(0.5)  # the access log is written after the answer

    text = log.read_text()
    assert "/e/[secret]" in text
    assert SECRET not in text


def test_slow_clients_dripping_headers_do_not_hold_every_worker(server):
    base, _ = server
    host, port = base.removeprefix("http://").split(":")
    dripping = []
    for _ in range(6):  # more than the workers, as many as a small botnet of one address
        slow = socket.create_connection((host, int(port)))
        slow.sendall(b"GET /rosters/mine/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        dripping.append(slow)
    try:
        time.sleep(1)
        for slow in dripping:
            slow.sendall(b"X-a: b\r\n")  # still sending headers, a byte at a time

        started = time.monotonic()
        status = get(f"{base}/rosters/mine/")

        assert status == 200
        assert time.monotonic() - started < 2
    finally:
        for slow in dripping:
            slow.close()


def test_the_deploy_check_passes_behind_a_proxy_that_redirects_to_https(tmp_path):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
        "DJANGO_SECRET_KEY": "deploy-check-only-key-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG",
        "DJANGO_ALLOWED_HOSTS": "lists.example.org",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"),
    }
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]

    unsaid = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    said = subprocess.run(
        command, cwd=ROOT, env={**env, "DJANGO_PROXY_REDIRECTS_TO_HTTPS": "1"}, capture_output=True, text=True
    )

    assert unsaid.returncode != 0 and "security.W008" in unsaid.stderr  # no redirect anywhere is still refused
    assert said.returncode == 0, said.stderr
