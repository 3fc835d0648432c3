"""The operator's page: staff only; a game added from an address, checked for updates and updated, each in one step.

The data is a small game built in tmp_path and served on the loopback address (tests/data_server.py). The suite's
task backend runs a queued load at once, so the page the operator is sent back to shows how it went.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from lists.models import BattleScribeDataSet
from tests.data_server import DataServer, publish
from tests.test_load_battlescribe import CATALOGUE, GAME_SYSTEM

pytestmark = pytest.mark.django_db

PAGE = "/operator/games/"


@pytest.fixture
def operator(client, empty_cache):
    client.force_login(get_user_model().objects.create_user("operator", password="x", is_staff=True))
    return client


def publish_small_game(tmp_path: Path, served: DataServer, revision: int = 1, points: str = "50.0") -> str:
    folder = tmp_path / f"small-{revision}"
    folder.mkdir()
    (folder / "Test Game.gst").write_text(GAME_SYSTEM.replace('revision="1"', f'revision="{revision}"', 1))
    (folder / "Test Army.cat").write_text(CATALOGUE.replace('value="50.0"', f'value="{points}"'))
    publish(folder, served.served)
    return f"{served.url}/index.bsi"


def test_it_sends_visitors_and_players_to_the_admin_login(client):
    assert client.get(PAGE)["Location"].startswith("/admin/login/")
    assert client.post(f"{PAGE}add/", {"address": "http://127.0.0.1:1/index.bsi"})["Location"].startswith("/admin/")
    client.force_login(get_user_model().objects.create_user("player", password="x"))
    assert client.get(PAGE)["Location"].startswith("/admin/login/")
    assert client.post(f"{PAGE}add/", {"address": "http://127.0.0.1:1/index.bsi"}).status_code == 302
    assert BattleScribeDataSet.objects.count() == 0
    assert "operator-hint" not in client.get("/").content.decode()


def test_an_operator_adds_checks_and_updates_a_game_from_its_address(operator, served, tmp_path):
    assert 'href="/operator/games/"' in operator.get("/").content.decode()
    address = publish_small_game(tmp_path, served)
    page = operator.post(f"{PAGE}add/", {"address": address}, follow=True).content.decode()
    data_set = BattleScribeDataSet.objects.get()
    assert "Loaded Test Game revision 1: players can start rosters of it now." in page
    assert f"<code>{address}</code>" in page and str(tmp_path) not in page

    checked = operator.post(f"{PAGE}{data_set.pk}/check/", follow=True).content.decode()
    assert "Test Game revision 1 is up to date with" in checked

    publish_small_game(tmp_path, served, revision=2, points="60.0")
    checked = operator.post(f"{PAGE}{data_set.pk}/check/", follow=True).content.decode()
    assert "Test Game.gstz: revision 2 (loaded: 1)" in checked
    updated = operator.post(f"{PAGE}{data_set.pk}/update/", follow=True).content.decode()
    assert "Loaded Test Game revision 2 beside Test Game revision 1" in updated
    assert list(BattleScribeDataSet.objects.order_by("revision").values_list("revision", flat=True)) == [1, 2]


def test_an_address_that_serves_no_data_is_refused_with_its_reason_and_saves_nothing(operator, served, tmp_path):
    publish_small_game(tmp_path, served)
    (served.served / "Test Army.catz").unlink()
    answer = operator.post(f"{PAGE}add/", {"address": f"{served.url}/index.bsi"}, follow=True)
    page = answer.content.decode()
    assert 'data-state="refused"' in page and "Test Army.catz, listed by the index, could not be fetched" in page
    bad = operator.post(f"{PAGE}add/", {"address": "file:///etc/passwd"})
    assert bad.status_code == 400 and "Enter a valid URL." in bad.content.decode()
    assert BattleScribeDataSet.objects.count() == 0
