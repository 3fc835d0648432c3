import signal
import sqlite3
import time
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db.backends.sqlite3.base import SQLiteCursorWrapper

LOCK_WAIT_SECONDS = 10


def _waiting(execute):
    """The suite's in-memory database is one shared cache, where a table (or the schema) another thread is writing fails
    a statement at once ("database table is locked") instead of waiting, as a database file does with its
    busy timeout in production: the statement is tried again, as SQLite would, for a while."""

    def execute_waiting(self, *args, **kwargs):
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                return execute(self, *args, **kwargs)
            except sqlite3.OperationalError as error:
                if (
                    not str(error).endswith(("table is locked", "schema is locked: main"))
                    or time.monotonic() > deadline
                ):
                    raise
                time.sleep(0.005)

    return execute_waiting


SQLiteCursorWrapper.execute = _waiting(SQLiteCursorWrapper.execute)
SQLiteCursorWrapper.executemany = _waiting(SQLiteCursorWrapper.executemany)


@pytest.fixture(scope="session")
def checked_packs():
    """The project's own packs, read and checked once per test run (reading is most of a load)."""
    from lists.gamedata.packs import read_all

    return read_all(settings.PACKS_DIR)


@pytest.fixture(scope="module")
def real_packs(django_db_setup, django_db_blocker, checked_packs):
    """The project's own packs, loaded once per test module (each test still rolls back its own changes)."""
    from lists.gamedata.packs import write_all
    from lists.models import GameSystem, Roster

    with django_db_blocker.unblock():
        write_all(checked_packs, settings.PACKS_DIR)
    yield
    with django_db_blocker.unblock():
        Roster.objects.all().delete()
        GameSystem.objects.all().delete()


@pytest.fixture
def empty_cache():
    """An empty cache around the test: share pages are cached by roster id and version, which a
    rolled-back test leaves free for the next one to reuse."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def one_rate_window(monkeypatch):
    """django-ratelimit counts requests in windows of the clock (a minute for "3/m"): a test's requests all fall
    in one window, not across a window's end, where the count starts again."""
    import django_ratelimit.core

    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def worker_signals():
    """db_worker installs its own SIGINT/SIGTERM handlers: give the test run its own back afterwards."""
    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    yield
    for number, handler in saved.items():
        signal.signal(number, handler)
