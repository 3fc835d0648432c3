"""The suite's own set-up: parallel test workers against one Redis server keep out of each other's way."""

import pytest

from tests.settings import _worker_redis_url

pytestmark = pytest.mark.database_free  # runs once: no database, nothing PostgreSQL would change


def test_each_worker_clears_only_a_redis_database_of_its_own():
    # Django's Redis cache clears with FLUSHDB: a shared database would lose another worker's PDFs mid-test.
    assert _worker_redis_url("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/1"
    assert _worker_redis_url("redis://:secret@cache.example:6380/0", "gw3") == "redis://:secret@cache.example:6380/4"


def test_more_workers_than_redis_databases_is_refused_with_the_fix():
    with pytest.raises(RuntimeError, match="-n 15 or fewer"):
        _worker_redis_url("redis://127.0.0.1:6379/0", "gw15")
