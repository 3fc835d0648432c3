"""The suite's own set-up: parallel test workers against one Redis server keep out of each other's way; the
packs committed once per process come back after a test that empties the database; the files run again against
PostgreSQL and Redis exist."""

from pathlib import Path

import pytest

from lists.models import GameSystem, Roster
from tests.conftest import ON_EVERY_BACKEND
from tests.settings import _worker_redis_url


def test_each_worker_clears_only_a_redis_database_of_its_own():
    # Django's Redis cache clears with FLUSHDB: a shared database would lose another worker's PDFs mid-test.
    assert _worker_redis_url("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/1"
    assert _worker_redis_url("redis://:secret@cache.example:6380/0", "gw3") == "redis://:secret@cache.example:6380/4"


def test_more_workers_than_redis_databases_is_refused_with_the_fix():
    with pytest.raises(RuntimeError, match="-n 15 or fewer"):
        _worker_redis_url("redis://127.0.0.1:6379/0", "gw15")


def test_every_file_named_to_run_on_every_backend_exists():
    assert {name for name in ON_EVERY_BACKEND if not (Path(__file__).parent / name).is_file()} == set()


@pytest.mark.django_db(transaction=True)
def test_a_test_that_empties_the_database_gets_the_packs_back(committed_packs):
    committed_packs.ensure()
    keys = sorted(GameSystem.objects.values_list("key", flat=True))
    GameSystem.objects.filter(key=keys[0]).delete()  # as a test of its own transaction may leave it

    committed_packs.ensure()

    assert sorted(GameSystem.objects.values_list("key", flat=True)) == keys
    assert not Roster.objects.exists()
