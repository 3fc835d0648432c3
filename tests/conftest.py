import signal
import sqlite3
import time
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db.backends.sqlite3.base import SQLiteCursorWrapper

from tests.live_database import transactions_in_turn  # noqa: F401 - the live server's tests' fixture

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


class CommittedPacks:
    """The project's own packs, committed in this test process's database once and put back when a test emptied it.

    Writing every pack takes seconds; each test still rolls back its own changes (pytest-django's transactions),
    so the committed packs stay as loaded. A test in a transaction of its own (`transactional_db`, the live
    server) empties every table at its end; the packs then come back from a copy taken right after the first
    load: on SQLite the whole database (SQLite's backup API), on PostgreSQL the tables the load filled, kept in
    a schema of their own that emptying Django's tables leaves alone (copied back with one INSERT each).
    """

    COPY_SCHEMA = "committed_packs"

    def __init__(self, packs):
        self.packs = packs
        self.keys = sorted(pack.system.key for pack in packs)
        self.copy = None  # SQLite: a connection holding the database as it was right after the first load
        self.tables: list[str] = []  # PostgreSQL: the tables the first load filled, copied into COPY_SCHEMA

    def present(self) -> bool:
        from lists.models import GameSystem

        return sorted(GameSystem.objects.values_list("key", flat=True)) == self.keys

    def empty(self) -> None:
        """Every table emptied, as a test in a transaction of its own leaves them."""
        from django.core.management import call_command

        from lists.models import GameSystem

        if GameSystem.objects.exists():
            call_command("flush", interactive=False, verbosity=0)

    def ensure(self) -> None:
        """The packs in the database, and nothing else a test left committed."""
        from django.contrib.contenttypes.models import ContentType
        from django.db import connection

        from lists.gamedata.packs import write_all

        if self.present():
            return
        self.empty()
        if self.copy is not None or self.tables:
            self._restore(connection)
            ContentType.objects.clear_cache()  # the copy's content types, not those the emptied tables made again
            return
        filled_before = self._filled(connection)
        write_all(self.packs, settings.PACKS_DIR)
        self._keep(connection, sorted(self._filled(connection) - filled_before))

    @staticmethod
    def _filled(connection) -> set[str]:
        filled = set()
        with connection.cursor() as cursor:
            for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
                cursor.execute(f'SELECT 1 FROM "{table}" LIMIT 1')  # noqa: S608 - Django's own table names
                if cursor.fetchone():
                    filled.add(table)
        return filled

    def _keep(self, connection, tables: list[str]) -> None:
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            self.copy = sqlite3.connect(":memory:")
            connection.connection.backup(self.copy)
        elif connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"DROP SCHEMA IF EXISTS {self.COPY_SCHEMA} CASCADE; CREATE SCHEMA {self.COPY_SCHEMA}")
                for table in tables:
                    cursor.execute(f'CREATE TABLE {self.COPY_SCHEMA}."{table}" AS TABLE public."{table}"')
            self.tables = tables

    def _restore(self, connection) -> None:
        from django.apps import apps
        from django.core.management.color import no_style
        from django.db import transaction

        from lists.gamedata.statistics import refresh_statistics

        if self.copy is not None:
            self.copy.backup(connection.connection)
            return
        with transaction.atomic(), connection.cursor() as cursor:  # foreign keys are checked at the commit
            for table in self.tables:
                cursor.execute(f'INSERT INTO public."{table}" SELECT * FROM {self.COPY_SCHEMA}."{table}"')  # noqa: S608
            copied = [m for m in apps.get_models(include_auto_created=True) if m._meta.db_table in self.tables]
            for statement in connection.ops.sequence_reset_sql(no_style(), copied):
                cursor.execute(statement)
        refresh_statistics()  # as a load ends: the tables' first reads planned on the rows copied back


def _uses_database(item) -> bool:
    needs = {"db", "transactional_db", "live_server", "django_db_setup", "real_packs", "packs_in_database"}
    return item.get_closest_marker("django_db") is not None or bool(needs & set(item.fixturenames))


# The files `make test-postgres` runs again against PostgreSQL and Redis, each for what it exercises that differs
# between the databases or the caches. Every other test behaves alike on any of them and runs once, on SQLite and
# the embedded cache (`make test`).
ON_EVERY_BACKEND = {
    "test_migrations.py": "the migrations, forwards and back",
    "test_loadpacks.py": "loading every pack in one transaction, and a failed load leaving nothing",
    "test_load_battlescribe.py": "data sets written in bulk, large texts",
    "test_editor.py": "the one write path: a claimed version, edits kept in place",
    "test_hostile_editing.py": "hostile edits: lengths and characters the database itself refuses",
    "test_bad_input.py": "bad files saving nothing, in one transaction",
    "test_roster_files.py": "imports and exports through the database",
    "test_battlescribe_data_rosters.py": "rosters of data sets kept as XML",
    "test_events.py": "submissions under select_for_update",
    "test_event_ownership.py": "one submission per player under select_for_update",
    "test_battlescribe_events.py": "submissions of data-set rosters under select_for_update",
    "test_api.py": "the API's queries and their order",
    "test_verify.py": "fingerprints and the look-ups' rate limit (counts in the cache)",
    "test_heavy_pages.py": "cached pages and rate-limit counts (the Redis cache)",
    "test_security.py": "the cache a refusal and a share page use",
    "test_pdf_delivery.py": "the PDF queue (the database's, or RQ's) and the cached PDFs",
    "test_pdf_long_poll.py": "held requests answered when the worker has made the PDF",
    "test_event_pack_queue.py": "the print pack's jobs through the queue",
    "test_battlescribe_pdf_delivery.py": "data-set PDFs through the queue",
    "test_locker.py": "lockers, devices and their rosters: joins, removals, deletions for good",
    "test_suite_settings.py": "the committed packs written again where no copy of the database can be taken",
}


# Tests of those files that run once all the same: generated input through forms the database never sees
# unchecked, whose writes the file's other tests make on PostgreSQL too.
ONCE_IN_THOSE_FILES = {"test_every_state_the_editor_saves_exports_and_reimports_to_the_same_roster_and_points"}


def pytest_itemcollected(item):
    """The tests of ON_EVERY_BACKEND are marked as they are collected, before `-m backends` selects by marks."""
    if item.path.name in ON_EVERY_BACKEND and item.originalname not in ONCE_IN_THOSE_FILES:
        item.add_marker(pytest.mark.backends)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Puts the files that use the packs first, so each test process loads them once, then empties the database
    once for the files that want it empty (xdist's loadfile hands out files in this order)."""
    wanting = {item.path for item in items if "real_packs" in item.fixturenames}
    items.sort(key=lambda item: item.path not in wanting)


@pytest.fixture(scope="session")
def committed_packs(django_db_setup, checked_packs):
    return CommittedPacks(checked_packs)


@pytest.fixture(scope="module", autouse=True)
def _module_database(request, django_db_blocker):
    """A test file that uses the packs finds them committed; one that uses the database without them finds it empty,
    whatever the file before it left."""
    items = [item for item in request.session.items if item.path == request.path]
    if not any(_uses_database(item) for item in items):
        return
    committed = request.getfixturevalue("committed_packs")
    with django_db_blocker.unblock():
        if any("real_packs" in item.fixturenames for item in items):
            committed.ensure()
        else:
            committed.empty()


@pytest.fixture(scope="module")
def real_packs(committed_packs, django_db_blocker):
    """The project's own packs in the database for the module's tests (each test rolls back its own changes)."""
    with django_db_blocker.unblock():
        committed_packs.ensure()


@pytest.fixture
def packs_in_database(committed_packs, transactional_db):
    """The packs, for a test in a transaction of its own: the test before it emptied every table at its end."""
    committed_packs.ensure()


@pytest.fixture(autouse=True)
def _renders_in_this_process_beside_a_browser(request, settings):
    """With a browser open, the live server renders PDFs in its own thread: render helpers forked then would hold
    the browser driver's pipes open, and it would never see the suite close them."""
    if "browser" in request.fixturenames:
        settings.PDF_RENDER_PROCESSES = 1


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


@pytest.fixture
def served(tmp_path):
    """BattleScribe data published on the loopback address from tmp_path/served (tests/data_server.py)."""
    from tests.data_server import DataServer

    (tmp_path / "served").mkdir()
    server = DataServer(tmp_path / "served")
    yield server
    server.close()
