"""load_battlescribe ADDRESS: a game loaded from the community's published data, served on the loopback address.

The real data is Konflikt '47's BSData folder from ../shared (skipped where absent), zipped into .gstz/.catz
with an index.bsi beside them by tests/data_server.py; the answers no source should give (late, endless,
an HTML page, a redirect loop) need no data. No test reaches outside this machine.
"""

from __future__ import annotations

import json
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils.html import escape

from lists.gamedata import data_sources
from lists.management.commands.load_battlescribe import Command
from lists.models import BattleScribeDataSet
from tests.data_server import publish
from tests.test_battlescribe_revisions import dearer_leutnant, folder, next_revision  # noqa: F401 - its fixture
from tests.test_load_battlescribe import CATALOGUE, GAME_SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def konflikt(folder):  # noqa: F811 - the fixture, passed on
    """Konflikt '47's BSData folder, copied into tmp_path (skipped where ../shared is absent)."""
    return folder


def small_game(tmp_path: Path) -> Path:
    game = tmp_path / "small"
    game.mkdir()
    (game / "Test Game.gst").write_text(GAME_SYSTEM)
    (game / "Test Army.cat").write_text(CATALOGUE)
    return game


def load(*args: str) -> str:
    out = StringIO()
    call_command("load_battlescribe", *args, stdout=out)
    return out.getvalue()


def refusal(*args: str) -> str:
    with pytest.raises(CommandError) as refused:
        load(*args)
    assert BattleScribeDataSet.objects.count() == 0
    return str(refused.value)


@pytest.mark.timeout(300)
def test_a_game_loads_from_its_index_address_and_shows_on_the_home_page(client, served, konflikt):
    publish(konflikt, served.served)
    address = f"{served.url}/index.bsi"
    out = load(address)
    data_set = BattleScribeDataSet.objects.get()
    assert (data_set.revision, data_set.source_url, data_set.source_folder) == (3, address, "")
    assert f"{data_set} ({data_set.game_system_id}): loaded" in out
    assert "fetched Finland.catz" in out
    home = client.get("/").content.decode()
    assert escape(data_set.name) in home and address in home
    assert str(konflikt) not in home and "/tmp/" not in home
    assert "holds nothing newer than" in load(address, "--check")


@pytest.mark.timeout(300)
def test_a_newer_revision_at_the_same_address_is_found_and_kept_beside_the_old(served, konflikt):
    publish(konflikt, served.served)
    address = f"{served.url}/index.bsi"
    load(address)
    next_revision(konflikt, dearer_leutnant)
    publish(konflikt, served.served)
    checked = load(address, "--check")
    assert "Konflikt_47.gstz: revision 4 (loaded: 3)" in checked and "holds newer files than" in checked
    load(address)
    kept = BattleScribeDataSet.objects.order_by("revision")
    assert [(d.revision, d.source_url) for d in kept] == [(3, address), (4, address)]
    assert "already loaded, unchanged" in load(address)


@pytest.mark.timeout(120)
def test_an_index_naming_a_file_the_server_lacks_loads_nothing_and_names_it(served, konflikt):
    publish(konflikt, served.served)
    (served.served / "Finland.catz").unlink()
    message = refusal(f"{served.url}/index.bsi")
    assert "Finland.catz, listed by the index, could not be fetched" in message
    assert "404" in message and "nothing was loaded" in message


def test_a_gallery_index_loads_the_repository_named(served, tmp_path):
    publish(small_game(tmp_path), served.served / "small")
    gallery = {
        "name": "Test gallery",
        "repositories": [
            {"name": "small", "description": "A test game", "indexUrl": "small/index.bsi"},
            {"name": "other", "description": "Another", "indexUrl": "other/index.bsi"},
        ],
    }
    (served.served / "gallery.json").write_text(json.dumps(gallery))
    address = f"{served.url}/gallery.json"
    assert "a gallery with 2 repositories; name one of: small, other" in refusal(address)
    # As `python manage.py` runs it (with Django's system checks first, which call_command leaves out).
    Command(stdout=StringIO()).run_from_argv(["manage.py", "load_battlescribe", address, "--game", "Small"])
    assert BattleScribeDataSet.objects.get().source_url == f"{served.url}/small/index.bsi"


@pytest.mark.parametrize(
    "path, expected",
    [
        ("/slow/index.bsi", "no answer within 1 s"),
        ("/huge", "more than the 1,048,576 bytes allowed"),
        ("/page", "neither a data index, a repository's or gallery's JSON index, a zip nor a data file"),
        ("/loop", "too many redirects"),
        ("/missing/index.bsi", "the server answered 404"),
    ],
)
def test_a_source_answering_late_hugely_or_wrongly_loads_nothing_and_says_why(
    served, tmp_path, settings, monkeypatch, path, expected
):
    publish(small_game(tmp_path), served.served)
    settings.BATTLESCRIBE_FETCH_SECONDS = 1
    monkeypatch.setattr(data_sources, "MAX_SOURCE_BYTES", 1024 * 1024)
    message = refusal(f"{served.url}{path}")
    assert expected in message and "nothing was loaded" in message


def test_a_release_zip_and_a_package_index_load_too_and_a_zip_is_checked_by_its_files(served, tmp_path):
    game = small_game(tmp_path)
    with zipfile.ZipFile(served.served / "small.bsr", "w", zipfile.ZIP_DEFLATED) as release:
        for path in game.iterdir():
            release.write(path, f"small-main/{path.name}")
    load(f"{served.url}/small.bsr")
    assert "holds nothing newer than Test Game revision 1" in load(f"{served.url}/small.bsr", "--check")

    publish(game, served.served / "package")
    package = {"name": "small", "repositoryFiles": [{"id": "gs-1", "name": "Test Game", "type": "gamesystem",
               "revision": 2, "fileUrl": "Test%20Game.gstz"}, {"id": "cat-army", "name": "Test Army",
               "type": "catalogue", "revision": 1, "fileUrl": "Test Army.catz"}]}  # fmt: skip
    (served.served / "package" / "small.catpkg.json").write_text(json.dumps(package))
    load(f"{served.url}/package/small.catpkg.json")  # zipped files this time: another digest, another data set
    assert BattleScribeDataSet.objects.filter(source_url=f"{served.url}/package/small.catpkg.json").count() == 1
    checked = load(f"{served.url}/package/small.catpkg.json", "--check")
    assert "Test Game.gstz: revision 2 (loaded: 1)" in checked


def test_checking_for_updates_reads_the_index_alone(served, tmp_path):
    publish(small_game(tmp_path), served.served)
    address = f"{served.url}/index.bsi"
    load(address)
    (served.served / "Test Army.catz").unlink()  # a check that fetched the files would be refused now
    assert "holds nothing newer than Test Game revision 1" in load(address, "--check")


def test_a_zip_on_this_machine_loads_and_is_named_as_its_source(tmp_path):
    game = small_game(tmp_path)
    release = tmp_path / "small.zip"
    with zipfile.ZipFile(release, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in game.iterdir():
            archive.write(path, path.name)
    load(str(release))
    data_set = BattleScribeDataSet.objects.get()
    assert (data_set.source_folder, data_set.source_url) == (str(release), "")
