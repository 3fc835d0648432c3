"""The production server (gunicorn with armybuilder/gunicorn.py) against hostile visitors:
slow clients cannot hold every worker, and no edit secret reaches its access log however the path is encoded."""

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECRET = "Zq8v3xYpW1sFhK0mL2nB4cD6eG8iJ9oA7tR5uE3wQ1y"
ROSTER_SECRET = "Kw2oR4tY6uI8pA0sD2fG4hJ6kL8zX0cV2bN4mQ6wE8r"
SAVE_ROSTER = f"""
import django
django.setup()
from lists.rosters.files import load_roster_file, save_new_roster
from lists.rosters.sharing import hash_secret
text = "game: skirmish\\narmy: blue\\nunits:\\n" + "  - {{unit: rifle-squad}}\\n" * 4
save_new_roster(load_roster_file(text.encode()), "torn-reads", hash_secret("{ROSTER_SECRET}"))
"""


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
        "ARMYBUILDER_PACKS_DIR": str(ROOT / "tests" / "fixtures" / "packs"),
        "ARMYBUILDER_UNIT_ADD_RATE": "10000/m",
        "ARMYBUILDER_EDIT_RATE": "10000/m",
        "ARMYBUILDER_PAGE_RATE": "10000/m",  # these tests read the editor hundreds of times a minute on purpose
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([sys.executable, "manage.py", "loadpacks"], cwd=ROOT, env=env, check=True, capture_output=True)
    # A roster of four units whose edit secret the tests know (only its hash is saved).
    subprocess.run([sys.executable, "-c", SAVE_ROSTER], cwd=ROOT, env=env, check=True)
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


def logged_line(log: Path, marker: str) -> str:
    """The access log's line of the request sent with `marker`, once gunicorn has written it (after the answer)."""
    for _ in range(200):
        line = next((line for line in log.read_text().splitlines() if marker in line), None)
        if line is not None:
            return line
        time.sleep(0.05)
    raise AssertionError(f"gunicorn wrote no access-log line of {marker} within 10 s")


def get(url: str, **headers) -> int:
    try:
        return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("path", [f"/%65/{SECRET}/", f"/e%2F{SECRET}/", f"/e%2f{SECRET}%2f", f"/e/{SECRET}/"])
def test_no_edit_secret_reaches_the_access_log_however_the_path_is_encoded(server, path):
    base, log = server

    marker = f"probe-{abs(hash(path))}"  # the request's own line, whatever else the log gains meanwhile
    get(f"{base}{path}", Referer=f"{base}{path}", **{"User-Agent": marker})

    text = logged_line(log, marker)
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

        # Answered while all six still hold their connections (get() gives up after 10 s).
        assert get(f"{base}/rosters/mine/") == 200
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


class Browser:
    """One visitor: its own cookies (the CSRF token), posting forms as the editor page gives them."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(f"{self.base}{path}", timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, path: str, page: str, **fields) -> int:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "version": version, **fields}).encode()
        request = urllib.request.Request(f"{self.base}{path}", data=body, headers={"HX-Request": "true"})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code


ROUNDS = 40  # each client's rounds: the work is fixed, however fast the machine runs it


def test_reads_during_concurrent_edits_never_fail_and_stale_edits_never_get_not_found(server):
    base, log = server
    logged_before = log.stat().st_size
    edit = f"/e/{ROSTER_SECRET}/"
    statuses: list[int] = []

    def writer():
        browser = Browser(base)
        for _ in range(ROUNDS):
            status, page = browser.get(edit)
            statuses.append(status)
            ids = re.findall(r'action="/e/[^/]+/units/(\d+)/duplicate/"', page)
            if len(ids) < 8:
                statuses.append(browser.post(f"{edit}units/{ids[-1]}/duplicate/", page))
            else:
                statuses.append(browser.post(f"{edit}units/{ids[-1]}/remove/", page))
                statuses.append(browser.post(f"{edit}undo/", page) if len(ids) % 2 else 200)

    def reader():
        browser = Browser(base)
        for _ in range(ROUNDS):
            for path in ("/r/torn-reads/roster.json", "/r/torn-reads/roster.txt", "/r/torn-reads/", edit):
                statuses.append(browser.get(path)[0])

    threads = [threading.Thread(target=job) for job in (writer, writer, reader, reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=100)

    assert not any(thread.is_alive() for thread in threads)
    assert len(statuses) >= 2 * ROUNDS * (2 + 4)
    # A failure shows what the server said of it: Django's traceback is in its error log.
    logged = log.read_bytes()[logged_before:].decode()
    failures = [line for line in logged.splitlines() if re.search(r'" (500|404) ', line)]
    said = (log.parent / "error.log").read_text()[-6000:]
    assert 500 not in statuses and 404 not in statuses, (sorted(set(statuses)), failures[:5], said)
    assert set(statuses) <= {200, 409, 400}
