"""The roster editor: start, add and change units, live findings, stale pages, secrets."""

import re
import shutil
from pathlib import Path

import pytest

from lists.models import Army, Roster, RosterUnit, UnitType
from lists.packs import load_all
from lists.sharing import hash_secret

FIXTURE = Path(__file__).parent / "fixtures" / "packs" / "skirmish"


@pytest.fixture
def loaded(db, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "skirmish")
    load_all(tmp_path)


@pytest.fixture
def edit_url(client, loaded) -> str:
    """Start a roster as a player would and return its secret edit link."""
    army = Army.objects.get(key="blue")
    response = client.post("/rosters/new/", {"army": army.id, "name": "Test platoon", "points_limit": "120"})
    assert response.status_code == 302
    return response["Location"]


def version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


def add(client, edit_url: str, key: str, htmx: bool = False):
    page = client.get(edit_url).content.decode()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    unit_type = UnitType.objects.get(key=key)
    return client.post(f"{edit_url}units/", {"unit_type": unit_type.id, "version": version(page)}, **headers)


def test_starting_a_roster_gives_a_secret_edit_link_stored_only_as_a_hash(client, edit_url):
    secret = edit_url.strip("/").split("/")[-1]
    roster = Roster.objects.get()

    assert len(secret) >= 40
    assert roster.edit_secret_hash == hash_secret(secret)
    assert secret not in str(Roster.objects.values().get())
    assert len(roster.share_id) >= 16  # at least 96 bits in URL-safe base64


def test_the_editor_shows_the_empty_roster_and_its_missing_compulsory_choices(client, edit_url):
    html = client.get(edit_url).content.decode()

    assert "Test platoon" in html
    assert "0 / 120 pts" in html
    assert "Not legal" in html
    assert "needs at least 1 Officer" in html
    assert 'href="/games/skirmish/#org-platoon">Rule: Platoon</a>' in html


def test_adding_units_without_javascript_redirects_back_to_the_editor(client, edit_url):
    response = add(client, edit_url, "lieutenant")

    assert response.status_code == 302
    assert RosterUnit.objects.get().unit_type.key == "lieutenant"


def set_year(client, edit_url: str, year: int) -> None:
    """Set the roster's year through the settings form, as a player would."""
    page = client.get(edit_url).content.decode()
    roster = Roster.objects.get()
    fields = {"version": version(page), "name": roster.name, "points_limit": roster.points_limit, "year": year}
    if roster.organisation_id:
        fields["organisation"] = roster.organisation_id
    assert client.post(f"{edit_url}settings/", fields).status_code == 302


def test_a_roster_of_a_game_with_war_periods_asks_for_one(client, edit_url):
    html = client.get(edit_url).content.decode()
    assert "The roster has no year or war period" in html

    set_year(client, edit_url, 1944)
    html = client.get(edit_url).content.decode()
    assert "no year or war period" not in html


def test_a_finding_appears_and_disappears_as_the_roster_changes(client, edit_url):
    set_year(client, edit_url, 1944)  # the test game has war periods (else period.missing)
    add(client, edit_url, "lieutenant")
    response = add(client, edit_url, "rifle-squad", htmx=True)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="roster"')  # the fragment, not the page
    assert "100 / 120 pts" in html  # Regular lieutenant 50 + squad 50
    assert "Legal" in html and "Not legal" not in html

    add(client, edit_url, "rifle-squad")
    html = client.get(edit_url).content.decode()
    assert "150 / 120 pts" in html
    assert "30 over its limit of 120" in html
    assert "Remove units or options, or raise the points limit." in html

    squad = RosterUnit.objects.filter(unit_type__key="rifle-squad").last()
    client.post(f"{edit_url}units/{squad.id}/remove/", {"version": version(html)})
    html = client.get(edit_url).content.decode()
    assert "over its limit" not in html


def test_changing_a_units_quality_and_options_updates_its_points(client, edit_url):
    add(client, edit_url, "lieutenant")
    add(client, edit_url, "rifle-squad")
    squad = RosterUnit.objects.get(unit_type__key="rifle-squad")
    officer = RosterUnit.objects.get(unit_type__key="lieutenant")
    page = client.get(edit_url).content.decode()

    client.post(f"{edit_url}units/{officer.id}/", {"label": "Lt Grey", "quality": "veteran", "version": version(page)})
    page = client.get(edit_url).content.decode()
    response = client.post(
        f"{edit_url}units/{squad.id}/",
        {"label": "First Squad", "option-extra-man": "2", "version": version(page)},
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert "Lt Grey" in html and "65 pts" in html
    assert "First Squad" in html and "70 pts" in html
    assert "135 / 120 pts" in html


def test_an_edit_from_a_stale_page_is_refused_with_the_newer_state(client, edit_url):
    add(client, edit_url, "lieutenant")
    stale = client.get(edit_url).content.decode()
    officer = RosterUnit.objects.get()
    # Another tab renames the officer first.
    client.post(f"{edit_url}units/{officer.id}/", {"label": "From tab one", "version": version(stale)})

    response = client.post(f"{edit_url}units/{officer.id}/", {"label": "From tab two", "version": version(stale)})

    assert response.status_code == 409
    html = response.content.decode()
    assert "changed elsewhere" in html
    assert "From tab one" in html
    assert RosterUnit.objects.get().label == "From tab one"


def test_bad_unit_input_gets_a_message_and_changes_nothing(client, edit_url):
    add(client, edit_url, "rifle-squad")
    squad = RosterUnit.objects.get()
    page = client.get(edit_url).content.decode()

    response = client.post(
        f"{edit_url}units/{squad.id}/", {"size": "lots", "quality": "elite", "version": version(page)}
    )

    assert response.status_code == 400
    html = response.content.decode()
    assert "Size is a number of men from 1 to 100." in html
    assert "Pick one of the unit&#x27;s qualities." in html
    assert RosterUnit.objects.get().size is None


def test_adding_a_unit_from_another_army_is_refused(client, edit_url, loaded):
    page = client.get(edit_url).content.decode()

    response = client.post(f"{edit_url}units/", {"unit_type": "999999", "version": version(page)})

    assert response.status_code == 400
    assert not RosterUnit.objects.exists()


def test_a_wrong_edit_secret_is_not_found(client, edit_url):
    assert client.get("/e/not-the-secret/").status_code == 404
    assert client.post("/e/not-the-secret/units/", {"unit_type": "1", "version": "1"}).status_code == 404


def test_the_share_link_shows_the_roster_but_cannot_edit_it(client, edit_url):
    add(client, edit_url, "lieutenant")
    roster = Roster.objects.get()
    share = f"/r/{roster.share_id}/"

    response = client.get(share)

    html = response.content.decode()
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "Lieutenant" in html
    assert 'name="version"' not in html  # no edit forms
    assert edit_url not in html
    assert client.post(f"{share}units/", {"unit_type": "1"}).status_code == 404


def test_the_share_page_shows_each_edit_at_once(client, edit_url):
    add(client, edit_url, "lieutenant")
    roster = Roster.objects.get()
    share = f"/r/{roster.share_id}/"
    assert "Lieutenant" in client.get(share).content.decode()
    officer = RosterUnit.objects.get()
    page = client.get(edit_url).content.decode()

    client.post(f"{edit_url}units/{officer.id}/", {"label": "Captain Renamed", "version": version(page)})

    assert "Captain Renamed" in client.get(share).content.decode()


def test_my_rosters_lists_the_rosters_started_on_this_device(client, edit_url):
    html = client.get("/rosters/mine/").content.decode()

    assert "Test platoon" in html
    assert edit_url in html


def test_forms_are_refused_without_a_csrf_token(loaded):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    army = Army.objects.get(key="blue")

    assert strict.post("/rosters/new/", {"army": army.id}).status_code == 403
    assert not Roster.objects.exists()
