"""A PDF worker, once started, holds every loaded game's data: its first job of a BattleScribe game after a
restart reads neither the shared cache nor the data's files (each took seconds for Flames of War).

"A restart" is this process with its compiled data sets forgotten (`forget_compiled`); the data set is the
small one tests/test_battlescribe_shared_cache.py writes.
"""

import gc
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.gamedata import battlescribe_cache
from lists.gamedata.battlescribe_cache import battlescribe_game_data, forget_compiled
from lists.models import BattleScribeDataSet
from lists.pdfs import tasks
from tests.test_battlescribe_shared_cache import CATALOGUE, GAME_SYSTEM, lieutenant_points

pytestmark = pytest.mark.django_db


def load(folder: Path, revision: int) -> BattleScribeDataSet:
    folder.mkdir()
    (folder / "Cached Game.gst").write_text(GAME_SYSTEM.replace('revision="3"', f'revision="{revision}"'))
    (folder / "Cached Army.cat").write_text(CATALOGUE)
    call_command("load_battlescribe", str(folder), stdout=StringIO())
    return BattleScribeDataSet.objects.get(revision=revision)


@pytest.fixture
def restarted():
    forget_compiled()
    yield
    gc.unfreeze()  # the worker freezes what it built; this process goes on collecting it
    forget_compiled()


@pytest.fixture
def nothing_to_read(monkeypatch):
    """After the worker's start: the shared cache and the data's files are out of reach."""

    def unreachable(*args):
        raise AssertionError("read after the worker started: its first job would wait for it")

    def reach_them_no_more():
        monkeypatch.setattr(battlescribe_cache, "shared_or_compiled", unreachable)

    return reach_them_no_more


@pytest.mark.usefixtures("restarted")
def test_a_started_worker_prices_a_loaded_games_roster_without_reading_its_data_again(tmp_path, nothing_to_read):
    data_set = load(tmp_path / "game", revision=3)
    forget_compiled()

    tasks.warm_worker()
    nothing_to_read()

    assert lieutenant_points(battlescribe_game_data(data_set)) == 53


@pytest.mark.usefixtures("restarted")
def test_a_started_worker_holds_the_revision_of_each_game_loaded_last(tmp_path, nothing_to_read):
    load(tmp_path / "old", revision=3)
    newer = load(tmp_path / "new", revision=4)
    forget_compiled()

    tasks.warm_worker()
    nothing_to_read()

    assert lieutenant_points(battlescribe_game_data(newer)) == 53
