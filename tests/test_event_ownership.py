"""Events a player can trust: a list is its player's, a look-alike name takes nobody's place, the player is told
the verdict, a lock or deadline is read when the list is stored, every name is one clean line, and nothing is
deleted in one click."""

import re
import unicodedata
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lists.event_models import Event, Submission
from lists.events import submitting
from lists.rosters.files import RosterFileInvalid, load_roster_file
from lists.rosters.sharing import hash_secret
from tests.event_rosters import german
from tests.test_events import create_event, saved_roster, submit_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]
OWN_LINK = re.compile(r"http://testserver/events/mine/([A-Za-z0-9_-]+)/")


def _upload(text: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("list.yaml", text.encode(), content_type="application/yaml")


def own_link(response) -> str:
    """The player's submission link on the page they see on submitting."""
    return OWN_LINK.search(response.content.decode()).group(0)


# --- a list is its player's ---------------------------------------------------


def test_another_browser_cannot_replace_a_players_list_under_their_name(client):
    _, public = create_event(client)
    assert submit_file(client, public, "Anna", german("Anna's list")).status_code == 200

    response = submit_file(Client(), public, "Anna", german("Not Anna's list", panzer=True))

    html = response.content.decode()
    assert response.status_code == 400
    assert "already has a list under the name “Anna”" in html
    assert "pick another name" in html and "your own submission link" in html
    assert Submission.objects.get().roster_name == "Anna's list"


@pytest.mark.parametrize(
    "look_alike",
    [
        "Anna\u200b",  # a zero-width space added
        "\u0410nna",  # a Cyrillic А for the Latin A
        "ANNA",
        "\uff21nna",  # a full-width Ａ
        "A\u00adnna",  # a soft hyphen
    ],
)
def test_a_name_that_reads_the_same_as_a_taken_one_is_refused(client, look_alike):
    _, public = create_event(client)
    submit_file(client, public, "Anna", german("Anna's list"))

    response = submit_file(Client(), public, look_alike, german("Impostor"))

    assert response.status_code == 400
    assert "already has a list under the name" in response.content.decode()
    assert list(Submission.objects.values_list("roster_name", flat=True)) == ["Anna's list"]


def test_a_player_replaces_their_own_list_from_the_browser_they_submitted_from(client):
    _, public = create_event(client)
    submit_file(client, public, "Anna", german("First"))

    response = submit_file(client, public, "anna", german("Second"))

    assert response.status_code == 200 and "replaced the earlier one" in response.content.decode()
    assert list(Submission.objects.values_list("player", "roster_name")) == [("Anna", "Second")]


def test_the_submission_link_is_shown_once_and_only_its_hash_is_stored(client):
    _, public = create_event(client)
    response = submit_file(client, public, "Anna", german())
    link = own_link(response)
    secret = link.rstrip("/").split("/")[-1]

    submission = Submission.objects.get()
    assert submission.owner_secret_hash == hash_secret(secret) and secret not in str(submission.__dict__)
    cookie = response.cookies[f"event-{Event.objects.get().public_id}"]
    assert cookie.value == secret and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert "no-store" in response["Cache-Control"]
    page = client.get(public).content.decode()
    assert secret not in page and "From this browser you submitted" in page


def test_the_submission_link_never_reaches_a_log(client):
    from armybuilder.middleware import mask_edit_secrets

    _, public = create_event(client)
    link = own_link(submit_file(client, public, "Anna", german()))
    path = link.removeprefix("http://testserver")

    assert mask_edit_secrets(f"POST {path}withdraw/") == "POST /events/mine/[secret]/withdraw/"


def test_the_submission_link_opens_the_list_and_replaces_it_from_any_browser(client):
    _, public = create_event(client)
    link = own_link(submit_file(client, public, "Anna", german("First")))
    elsewhere = Client()

    opened = elsewhere.get(link)
    assert opened.status_code == 200 and "Anna's list" in opened.content.decode()
    assert "no-store" in opened["Cache-Control"]
    upload = {"file": _upload(german("From my phone"))}
    replaced = elsewhere.post(link, upload)

    assert replaced.status_code == 200 and "replaced the earlier one" in replaced.content.decode()
    assert Submission.objects.get().roster_name == "From my phone"
    assert Client().get("/events/mine/not-the-secret/").status_code == 404


def test_the_submission_link_pasted_in_the_editor_replaces_the_list(client):
    _, public = create_event(client)
    link = own_link(submit_file(client, public, "Anna", german("First")))
    roster, edit_secret = saved_roster(german("From the editor"))

    response = Client().post(reverse("lists:submit-to-event", args=[edit_secret]), {"event_link": link})

    assert response.status_code == 200 and "replaced the earlier one" in response.content.decode()
    assert list(Submission.objects.values_list("player", "roster_name")) == [("Anna", "From the editor")]


def test_a_player_withdraws_their_own_list_after_confirming(client):
    _, public = create_event(client)
    link = own_link(submit_file(client, public, "Anna", german()))

    asked = Client().get(f"{link}withdraw/")
    assert asked.status_code == 200 and "Withdraw Anna&#x27;s list?" in asked.content.decode()
    assert Client().post(f"{link}withdraw/").status_code == 200  # no confirmation: asked again
    assert Submission.objects.count() == 1

    done = Client().post(f"{link}withdraw/", {"confirm": "yes"})

    assert done.status_code == 200 and "Anna&#x27;s list is withdrawn." in done.content.decode()
    assert Submission.objects.count() == 0
    assert Client().get(link).status_code == 404


def test_a_list_stays_once_the_event_is_locked(client):
    organiser, public = create_event(client)
    link = own_link(submit_file(client, public, "Anna", german()))
    client.post(f"{organiser}lock/")

    response = Client().post(f"{link}withdraw/", {"confirm": "yes"})

    assert response.status_code == 409 and "Your list stays" in response.content.decode()
    assert Submission.objects.count() == 1


def test_the_organiser_removes_any_list_after_confirming(client):
    organiser, public = create_event(client)
    submit_file(Client(), public, "Anna", german())
    submission = Submission.objects.get()
    page = client.get(organiser).content.decode()
    assert f'href="{organiser}s/{submission.id}/remove/"' in page  # a link to a page that asks, not a delete button

    asked = client.get(f"{organiser}s/{submission.id}/remove/")
    assert asked.status_code == 200 and "Remove Anna&#x27;s list?" in asked.content.decode()
    assert Submission.objects.count() == 1
    done = client.post(f"{organiser}s/{submission.id}/remove/", {"confirm": "yes"})

    assert done.status_code == 302 and Submission.objects.count() == 0
    assert "The list is removed." in client.get(done.url).content.decode()


# --- the verdict, told on submitting ------------------------------------------


def test_the_player_is_told_the_verdict_each_finding_and_what_the_event_requires(client):
    _, public = create_event(client)

    response = submit_file(client, public, "Ben", german("Ben's panzers", panzer=True))

    html = response.content.decode()
    assert response.status_code == 200 and "Ben&#x27;s list is submitted." in html
    assert "631 / 500 pts" in html and '<span class="verdict illegal">Not legal</span>' in html
    assert "The roster costs 631 points, 131 over its limit of 500." in html and "(Rule: Points limit)" in html
    assert ">points.over_limit<" not in html and "<code>" not in html  # the finding's code is for programs
    assert "What Spring Offensive requires" in html
    assert "at most 500 points and 8 order dice" in html and "Armies: Armies of Germany" in html


def test_a_legal_list_is_told_it_is_legal(client):
    _, public = create_event(client)

    html = submit_file(client, public, "Anna", german()).content.decode()

    assert '<span class="verdict legal">Legal</span>' in html and "No findings" in html


# --- the lock and the deadline, read when the list is stored ------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"locked": True}, "is locked by its organiser"),
        ({"deadline": timezone.now() - timedelta(seconds=1)}, "has passed"),
    ],
)
def test_a_list_read_while_the_event_closed_is_refused(client, monkeypatch, change, message):
    _, public = create_event(client)
    read = submitting.fingerprint

    def closing_while_reading(*args, **kwargs):
        Event.objects.update(**change)  # the organiser locks (or the deadline passes) as the list is read
        return read(*args, **kwargs)

    monkeypatch.setattr(submitting, "fingerprint", closing_while_reading)
    response = submit_file(client, public, "Anna", german())

    assert response.status_code == 400 and message in response.content.decode()
    assert Submission.objects.count() == 0


def test_a_replacement_read_while_the_event_locked_is_refused(client, monkeypatch):
    _, public = create_event(client)
    submit_file(client, public, "Anna", german("First"))
    read = submitting.fingerprint

    def locking_while_reading(*args, **kwargs):
        Event.objects.update(locked=True)
        return read(*args, **kwargs)

    monkeypatch.setattr(submitting, "fingerprint", locking_while_reading)
    response = submit_file(client, public, "Anna", german("After the lock"))

    assert response.status_code == 400 and "is locked by its organiser" in response.content.decode()
    assert Submission.objects.get().roster_name == "First"


# --- one rule for every name ---------------------------------------------------


@pytest.mark.parametrize("name", ["Spring\u202eOffensive", "Spring\nOffensive", "Spring\u200fOffensive"])
def test_an_event_name_with_a_control_or_direction_character_is_refused(client, name):
    form = {"name": name, "date": "2027-01-01", "game": "bolt-action-2e", "points_limit": 500}
    response = client.post(reverse("lists:event-new"), {**form, "deadline": "2099-01-01T10:00"})

    assert response.status_code == 400 and "one line of text" in response.content.decode()
    assert Event.objects.count() == 0


def test_event_and_player_names_are_kept_as_they_read(client):
    create_event(client, name="Spring\u200b  Offensive")
    public = reverse("lists:event", args=[Event.objects.get().public_id])

    submit_file(client, public, unicodedata.normalize("NFD", "Zoë\u2060"), german())

    assert Event.objects.get().name == "Spring Offensive"
    assert Submission.objects.get().player == "Zoë"  # NFC, the word joiner gone
    response = submit_file(Client(), public, "Anna\u202e", german())
    assert response.status_code == 400 and "one line of text" in response.content.decode()


def test_a_unit_label_that_reads_the_same_as_another_is_refused():
    text = german().replace("grenadier-squad, quality", "grenadier-squad, label: 1st Squad, quality")
    text = text.replace("grenadier-squad-2, quality", "grenadier-squad-2, label: 1st \u0405quad, quality")  # Cyrillic Ѕ

    with pytest.raises(RosterFileInvalid, match="reads the same as '1st Squad'"):
        load_roster_file(text.encode())


# --- armies allowed --------------------------------------------------------------


def armies_offered(html: str) -> list[str]:
    select = html[html.index('name="allowed_armies"') : html.index("</select>", html.index('name="allowed_armies"'))]
    return re.findall(r"<option [^>]*>([^<]*)</option>", select)


def test_armies_allowed_are_the_events_games_own_each_named_once(client):
    html = client.get("/events/new/?game=bolt-action-2e").content.decode()
    offered = armies_offered(html)

    assert len(offered) == len(set(offered)) > 200
    assert "1944: Normandy (Armies of Germany)" in offered and "1944: Normandy (Armies of Great Britain)" in offered
    assert not any("Action All Fronts" in label for label in offered)
    assert '<optgroup label="Bolt Action (2nd edition): Armies of Germany">' in html
    assert 'id="allowed-armies-filter"' in html


def test_picking_another_game_offers_its_armies(client):
    bolt_action = set(armies_offered(client.get("/events/new/?game=bolt-action-2e").content.decode()))

    partial = client.get("/events/new/?game=action-all-fronts", headers={"HX-Request": "true"}).content.decode()

    assert "<html" not in partial and 'id="armies-field"' in partial
    assert armies_offered(partial) and not set(armies_offered(partial)) & bolt_action
