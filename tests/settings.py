"""Settings for the test suite: production settings with a test-only key, served over plain HTTP."""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-0123456789abcdefghijkl")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_SECURE_HSTS_SECONDS", "0")

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
ROSTER_CREATE_RATE = PDF_RATE = UNIT_ADD_RATE = VERIFY_RATE = PAGE_RATE = "10000/m"
WHITENOISE_AUTOREFRESH = True  # serve from the finders: tests run without collectstatic
WHITENOISE_USE_FINDERS = True

# The suite's SQLite database lives in memory as one shared cache, where a reader's table lock fails a
# writer at once instead of making it wait: the live-server tests' pages poll while the PDF worker claims
# its job. Readers of a shared cache that read uncommitted rows take no such locks.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["init_command"] = _options.get("init_command", "") + " PRAGMA read_uncommitted=1;"
