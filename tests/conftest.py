import pytest
from django.conf import settings
from django.core.cache import cache


@pytest.fixture(scope="module")
def real_packs(django_db_setup, django_db_blocker):
    """The project's own packs, loaded once per test module (each test still rolls back its own changes)."""
    from lists.models import GameSystem, Roster
    from lists.packs import load_all

    with django_db_blocker.unblock():
        load_all(settings.PACKS_DIR)
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
