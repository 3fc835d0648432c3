"""Settings for the test suite: production settings with a test-only key, served over plain HTTP."""

import atexit
import os
import shutil
import tempfile
from urllib.parse import urlsplit

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-0123456789abcdefghijkl")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_HSTS_SECONDS", "0")


def _worker_redis_url(url: str, worker: str) -> str:
    """A Redis database of this test worker's own (gw0 → 1, gw1 → 2, …): Django's Redis cache clears
    with FLUSHDB, which empties the whole database, so workers sharing one would clear each other's
    cached PDFs, job records and RQ queues in the middle of a test."""
    number = int(worker.removeprefix("gw")) + 1
    if number > 15:  # a Redis server has databases 0-15 unless configured otherwise
        raise RuntimeError(f"xdist worker {worker} has no Redis database of its own: run the suite with -n 15 or fewer")
    return urlsplit(url)._replace(path=f"/{number}").geturl()


if os.environ.get("REDIS_URL") and os.environ.get("PYTEST_XDIST_WORKER"):
    # Read by armybuilder.settings below, and passed on to the servers and workers tests start.
    os.environ["REDIS_URL"] = _worker_redis_url(os.environ["REDIS_URL"], os.environ["PYTEST_XDIST_WORKER"])

from armybuilder.settings import *  # noqa: E402,F403

if REDIS_URL:  # noqa: F405 - CI runs the suite against a real Redis: this run's keys apart from any other's
    CACHES["default"]["KEY_PREFIX"] = f"test-{os.getpid()}"  # noqa: F405
else:  # the embedded production cache (diskcache), in a folder of this process's own
    CACHES["default"]["LOCATION"] = tempfile.mkdtemp(prefix="armybuilder-test-cache-")  # noqa: F405
    atexit.register(shutil.rmtree, CACHES["default"]["LOCATION"], ignore_errors=True)  # noqa: F405
# Tasks run at once inside the request; tests/test_pdf_delivery.py runs the real database worker.
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
ROSTER_CREATE_RATE = PDF_RATE = UNIT_ADD_RATE = EDIT_RATE = VERIFY_RATE = PAGE_RATE = "10000/m"
WHITENOISE_AUTOREFRESH = True  # serve from the finders: tests run without collectstatic
WHITENOISE_USE_FINDERS = True

# The suite's SQLite database lives in memory as one shared cache, where a reader's table lock fails a
# writer at once instead of making it wait: the live-server tests' pages poll while the PDF worker claims
# its job. Readers of a shared cache that read uncommitted rows take no such locks.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["init_command"] = _options.get("init_command", "") + " PRAGMA read_uncommitted=1;"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # A test stopped by pytest-timeout leaves its query running in the server, holding its locks for every
    # test after it: the server stops any statement first, sooner than pytest-timeout's 120 s.
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["options"] = (_options.get("options", "") + " -c statement_timeout=90s").strip()
