"""The home, game and army pages as a visitor sees them."""

import shutil
from pathlib import Path

import pytest
from django.urls import reverse

from lists.gamedata.packs import load_all

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "skirmish"


@pytest.fixture
def loaded(db, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "skirmish")
    load_all(tmp_path)


def test_home_lists_the_loaded_games_and_their_armies(client, loaded):
    response = client.get(reverse("lists:home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Skirmish Test Rules" in html
    assert "Blue Army" in html
    assert "3 units" in html
    assert 'src="/static/django_htmx/htmx-2.min.js"' in html


def test_home_says_how_to_load_packs_when_none_are_loaded(client, db):
    response = client.get(reverse("lists:home"))

    assert "python manage.py loadpacks" in response.content.decode()


def test_army_page_lists_units_with_points_composition_and_weapon_profiles(
    client, loaded, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        response = client.get(reverse("lists:army", args=["skirmish", "blue"]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Rifle Squad" in html
    assert "50 pts" in html
    assert "Regular 50 pts" in html and "Veteran 65 pts" in html
    assert '<td>4</td><th scope="row">Rifleman</th>' in html
    assert "Extra rifleman: +10 pts per man" in html
    # The light mortar's profile as the game prints it.
    assert (
        '<th scope="row">Light mortar</th><td></td><td>1</td><td>HE</td><td>Team, Indirect Fire, HE (1&quot;)</td>'
        in html
    )
    assert "Stubborn" in html


def test_game_page_shows_rules_qualities_ranks_and_errata(client, loaded):
    response = client.get(reverse("lists:game", args=["skirmish"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Needs two crew to fire at full effect." in html
    assert '<th scope="row">Veteran</th><td>10</td><td>5+</td>' in html
    assert '<th scope="row">Lieutenant</th><td>+1</td><td>1</td><td>6"</td>' in html
    assert "A doubled digit in the source" in html
    assert "<strong>Officer</strong>: 1" in html
    assert "<strong>Squads</strong>: 1 to 4" in html
    assert "<strong>Supports</strong>: 0 to 1 per Infantry squad" in html


@pytest.mark.parametrize("path", ["/games/nope/", "/games/skirmish/armies/nope/"])
def test_unknown_games_and_armies_are_not_found(client, loaded, path):
    assert client.get(path).status_code == 404


def test_pages_only_answer_get(client, loaded):
    assert client.post(reverse("lists:home")).status_code == 405
