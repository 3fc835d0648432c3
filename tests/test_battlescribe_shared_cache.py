"""A loaded data set's compiled form, kept in the app's cache so a fresh process reads it instead of compiling.

Each test loads a small data folder written in tmp_path; "a fresh process" is this one with its own
compiled data sets forgotten (`forget_compiled`), and compiling is made to fail where it must not run.
"""

import threading
from io import StringIO
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command

from lists.battlescribe.engine import Roster, pickled
from lists.gamedata import battlescribe_cache
from lists.gamedata.battlescribe_cache import (
    battlescribe_game_data,
    forget_compiled,
    shared_key,
    warm_battlescribe_data,
)
from lists.models import BattleScribeDataSet

pytestmark = pytest.mark.django_db

GAME_SYSTEM = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-c" name="Cached Game" revision="3" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <forceEntries><forceEntry id="force-c" name="Platoon" hidden="false"/></forceEntries>
</gameSystem>
"""

CATALOGUE = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-c" name="Cached Army" revision="1" library="false" gameSystemId="gs-c"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="unit-lt" name="Lieutenant" hidden="false" type="unit">
      <entryLinks><entryLink id="link-smg" name="SMG" hidden="false" targetId="smg" type="selectionEntry">
        <constraints><constraint id="min-smg" type="min" value="1" field="selections" scope="parent"/></constraints>
      </entryLink></entryLinks>
      <costs><cost name="pts" typeId="pts" value="50"/></costs>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>
    <selectionEntry id="smg" name="SMG" hidden="false" type="upgrade"><costs><cost name="pts" typeId="pts" value="3"/></costs></selectionEntry>
  </sharedSelectionEntries>
</catalogue>
"""


@pytest.fixture
def data_set(tmp_path: Path) -> BattleScribeDataSet:
    folder = tmp_path / "cached"
    folder.mkdir()
    (folder / "Cached Game.gst").write_text(GAME_SYSTEM)
    (folder / "Cached Army.cat").write_text(CATALOGUE)
    call_command("load_battlescribe", str(folder), stdout=StringIO())
    forget_compiled()
    yield BattleScribeDataSet.objects.get()
    forget_compiled()


@pytest.fixture
def compiling_fails(monkeypatch):
    def compile_refused(files):
        raise AssertionError("compiled, where the cache's copy should have been read")

    monkeypatch.setattr(battlescribe_cache, "load_data_files", compile_refused)


def lieutenant_points(data) -> float:
    """What a new Lieutenant costs with its one SMG, as the editor would show it."""
    roster = Roster(data)
    force = roster.add_force("force-c", "cat-c")
    roster.select(force, next(o for o in force.options if o.entry.id == "unit-lt"))
    return roster.totals["pts"]


def test_a_fresh_process_reads_the_data_load_battlescribe_kept_without_compiling(data_set, compiling_fails):
    data = battlescribe_game_data(data_set)

    assert lieutenant_points(data) == 53
    assert battlescribe_game_data(data_set) is data  # then kept in the process


def test_a_data_set_the_cache_lacks_is_compiled_once_and_kept_for_the_others(data_set, monkeypatch):
    cache.clear()

    assert lieutenant_points(battlescribe_game_data(data_set)) == 53
    assert cache.has_key(shared_key(data_set))
    forget_compiled()
    monkeypatch.setattr(battlescribe_cache, "load_data_files", lambda files: pytest.fail("compiled twice"))
    assert lieutenant_points(battlescribe_game_data(data_set)) == 53


def test_a_damaged_copy_in_the_cache_is_compiled_again(data_set):
    cache.set(shared_key(data_set), b"not a compiled game", timeout=None)

    assert lieutenant_points(battlescribe_game_data(data_set)) == 53
    assert pickled.loads(cache.get(shared_key(data_set))).entries["unit-lt"].name == "Lieutenant"


def test_the_key_names_the_data_set_its_revision_digest_and_the_engine_code(data_set, monkeypatch):
    key = shared_key(data_set)
    assert key.startswith(f"battlescribe-compiled:{pickled.ENGINE_VERSION}:{data_set.pk}:3:{data_set.digest[:32]}")

    monkeypatch.setattr(battlescribe_cache, "ENGINE_VERSION", "other-code")

    assert shared_key(data_set) != key
    assert not cache.has_key(shared_key(data_set))  # another engine's copy is never read as this one's


def test_warming_at_worker_start_compiles_only_the_data_sets_the_cache_lacks(data_set):
    assert warm_battlescribe_data() == []
    cache.clear()

    assert warm_battlescribe_data() == [data_set]
    assert cache.has_key(shared_key(data_set))


def test_a_process_building_one_data_set_still_hands_out_another_at_once():
    # One thread builds a slow data set; another asks for one already kept and one of its own meanwhile.
    from lists.battlescribe.engine import compiled

    compiled.clear_cache()
    first, other = object(), object()
    compiled.kept("first", lambda: first)
    release, started, finished, answers = threading.Event(), threading.Event(), threading.Event(), []

    def slow_build():
        started.set()
        release.wait(3)
        finished.set()
        return object()

    builder = threading.Thread(target=lambda: compiled.kept("slow", slow_build))
    builder.start()
    started.wait(3)
    try:
        answers.append(compiled.kept("first", lambda: pytest.fail("built again")))
        answers.append(compiled.kept("other", lambda: other))
        answered_during_the_build = not finished.is_set()
    finally:
        release.set()
        builder.join(10)
        compiled.clear_cache()

    assert answers == [first, other]
    assert answered_during_the_build
