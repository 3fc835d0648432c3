"""Events of a loaded BattleScribe data set, through the pages an organiser and players use (Django's test client).

The event names the game and the revision of its data; every list submitted (a .ros/.rosz, the share link of
a roster kept here, or from the roster's editor) is checked against both. Rosters are built from the home
page with the editor's own buttons (tests/test_battlescribe_games.py), from the real data in ../shared
(Konflikt '47 from BSData, and the Bolt Action 3rd edition Soviet set as "another game"); skipped where
absent. Entry names and figures are the data's.
"""

from __future__ import annotations

import io
from datetime import timedelta
from io import StringIO

import lxml.html
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from lists.event_models import Event, Submission
from lists.models import BattleScribeDataSet, BattleScribeRoster
from tests.test_battlescribe_games import SHARED, data_set_of, html, start, text

KONFLIKT = "bsdata/konflikt47"
SOVIET = "community-data/ba3-soviet-union"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture(scope="module")
def data_sets(django_db_setup, django_db_blocker):
    """The two data folders these tests play, loaded once for the module (where ../shared has them)."""
    with django_db_blocker.unblock():
        for folder in (KONFLIKT, SOVIET):
            if (SHARED / folder).is_dir():
                call_command("load_battlescribe", str(SHARED / folder), stdout=StringIO())
    yield
    with django_db_blocker.unblock():
        Event.objects.all().delete()
        BattleScribeRoster.objects.all().delete()
        BattleScribeDataSet.objects.all().delete()


def create_event(client, data_set: BattleScribeDataSet, points: int = 1000, **extra):
    """Run an event for the data set, picked from the form's own game choices; returns (organiser, public) paths."""
    page = html(client.get("/events/new/"))
    label = f"{data_set.name} revision {data_set.revision}"
    options = {text(o): o.get("value") for o in page.xpath("//select[@name='game']/optgroup/option")}
    assert label in options, list(options)
    form = {
        "name": "Winter Offensive",
        "date": "2027-01-16",
        "game": options[label],
        "points_limit": points,
        "deadline": (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
        **extra,
    }
    response = client.post("/events/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get()
    return response.url.split("?")[0], f"/events/{event.public_id}/"


def finnish_list(client, steps=("Officer", "Rifle Squad", "Rifle Squad"), limit: int = 1000) -> BattleScribeRoster:
    """A Konflikt '47 Finnish platoon built in the editor (Officer and two Rifle Squads make it legal)."""
    player = start(client, data_set_of(KONFLIKT), "Finland", "Reinforced Platoon", limit)
    for name in steps:
        player.add(name)
    return BattleScribeRoster.objects.order_by("-pk").first()


def share_link(kept: BattleScribeRoster) -> str:
    return f"http://testserver/bs/r/{kept.share_id}/"


def problems(response) -> list[str]:
    page = html_any(response)
    return [text(li) for li in page.xpath("//*[@id='submit-problems']//li")]


def html_any(response) -> lxml.html.HtmlElement:
    """A page of any status (a refusal is a 400 with the form and why)."""
    return lxml.html.fromstring(response.content.decode())


def table_rows(client, organiser: str) -> dict[str, dict]:
    """The organiser's table as it reads: per player, each cell's text by its column label."""
    page = html(client.get(organiser))
    rows = {}
    for row in page.xpath("//table[@class='submissions']/tbody/tr"):
        player = text(row.xpath("th/a")[0])
        cells = {cell.get("data-label"): text(cell) for cell in row.xpath("td")}
        cells["roster"] = text(row.xpath("th//small[@class='roster-name']")[0])
        rows[player] = cells
    return rows


def test_an_event_of_a_data_set_takes_a_legal_list_by_link_or_file_and_shows_its_points(client, data_sets):
    konflikt = data_set_of(KONFLIKT)
    organiser, public = create_event(client, konflikt)
    rules = text(html(client.get(public)).xpath("//*[@id='event-game']")[0])
    assert rules.startswith(f"{konflikt.name}, lists checked against revision {konflikt.revision} of its data")
    kept = finnish_list(client)
    assert kept.error_count == 0 and kept.points > 0

    by_link = client.post(f"{public}submit/", {"player": "Aino", "share_link": share_link(kept)})
    verdict = text(html(by_link).xpath("//*[@id='verdict']")[0])
    assert verdict.startswith(f"{kept.points:g} / 1000 pts · Legal")
    ros = client.get(f"/bs/r/{kept.share_id}/roster.ros").content
    by_file = client.post(f"{public}submit/", {"player": "Eero", "file": SimpleUploadedFile("platoon.ros", ros)})
    assert by_file.status_code == 200
    rosz = client.get(f"/bs/r/{kept.share_id}/roster.rosz").content
    zipped = client.post(f"{public}submit/", {"player": "Helmi", "file": SimpleUploadedFile("platoon.rosz", rosz)})
    assert zipped.status_code == 200

    rows = table_rows(client, organiser)
    assert rows["Aino"]["roster"] == "Finland test" and rows["Aino"]["Army"] == "Finland"
    aino = (rows["Aino"]["Points"], rows["Aino"]["Verdict"], rows["Aino"]["Errors"])
    assert aino == (f"{kept.points:g}", "Legal", "0")
    for other in ("Eero", "Helmi"):
        assert (rows[other]["Points"], rows[other]["Verdict"]) == (f"{kept.points:g}", "Legal")
    first, second, third = Submission.objects.order_by("pk")
    assert first.fingerprint == second.fingerprint == third.fingerprint  # the same list by link, .ros or .rosz
    assert first.ros_xml.startswith("<?xml") and 'gameSystemRevision="3"' in first.ros_xml

    client.post(f"{organiser}publish/")
    listed = html(client.get(public)).xpath("//ul[@class='players']//a")[0]
    shown = html(client.get(listed.get("href")))
    totals = text(shown.xpath("//*[@id='bs-totals']")[0])
    assert totals.startswith(f"{kept.points:g} / 1000 ") and totals.endswith("Legal under Winter Offensive's rules")
    assert "Rifle Squad" in text(shown) and first.fingerprint in text(shown)


def test_a_roster_of_another_game_is_refused_saying_which_game_the_event_is_for(client, data_sets):
    konflikt, soviet = data_set_of(KONFLIKT), data_set_of(SOVIET)
    _, public = create_event(client, konflikt)
    player = start(client, soviet, "Armies of the soviet union", "Rifle Platoon", 1000)
    player.add("Platoon Commander")
    other = BattleScribeRoster.objects.get()

    response = client.post(f"{public}submit/", {"player": "Ivan", "share_link": share_link(other)})

    assert response.status_code == 400
    said = problems(response)
    assert said == [
        f"This roster is of {soviet.name}; Winter Offensive is played with {konflikt.name} revision "
        f"{konflikt.revision}: submit a roster of {konflikt.name} built with revision {konflikt.revision}: a .ros or "
        ".rosz file (as BattleScribe, New Recruit or this site's editor saves it), or the share link of your "
        "roster here (…/bs/r/…/)."
    ]
    yaml = SimpleUploadedFile("list.yaml", b"name: Not a BattleScribe roster\n")
    assert (
        f"Winter Offensive is played with {konflikt.name}"
        in problems(client.post(f"{public}submit/", {"player": "Ivan", "file": yaml}))[0]
    )
    assert not Submission.objects.exists()


def load_next_revision(tmp_path) -> BattleScribeDataSet:
    """The Konflikt '47 folder again with its game system's revision raised by one (the data otherwise the same)."""
    newer = tmp_path / "konflikt47"
    newer.mkdir()
    for source in (SHARED / KONFLIKT).iterdir():
        content = source.read_bytes()
        if source.suffix == ".gst":
            content = content.replace(b'revision="3"', b'revision="4"', 1)
        (newer / source.name).write_bytes(content)
    call_command("load_battlescribe", str(newer), stdout=StringIO())
    return BattleScribeDataSet.objects.get(source_folder=str(newer))


def test_a_roster_of_another_revision_is_refused_until_it_is_moved_to_the_events(client, data_sets, tmp_path):
    kept = finnish_list(client)
    newer = load_next_revision(tmp_path)
    _, public = create_event(client, newer)

    refused = client.post(f"{public}submit/", {"player": "Aino", "share_link": share_link(kept)})
    assert refused.status_code == 400
    assert problems(refused) == [
        f"Winter Offensive checks lists against {newer.name} revision 4; this roster was built with revision 3. "
        "It is not priced again by the event's data without you seeing it: move your roster to revision 4 in "
        "the editor (its page offers the move), then submit again."
    ]
    assert not Submission.objects.exists()

    editor = html(client.get(f"/bs/e/{edit_secret_of(client, kept)}/"))
    move = editor.xpath("//form[@id='move-form']")[0]
    fields = {field.get("name"): field.get("value") for field in move.xpath(".//input[@name]")}
    assert client.post(move.get("action"), fields).status_code == 302
    accepted = client.post(f"{public}submit/", {"player": "Aino", "share_link": share_link(kept)})
    assert text(html(accepted).xpath("//*[@id='verdict']")[0]).startswith(f"{kept.points:g} / 1000 pts · Legal")


def edit_secret_of(client, kept: BattleScribeRoster) -> str:
    """The roster's edit secret, as the browser that started it remembers it (its "my rosters" page)."""
    mine = html(client.get("/rosters/mine/"))
    links = [a.get("href") for a in mine.xpath("//a[starts-with(@href, '/bs/e/')]")]
    assert links, text(mine)
    return links[0].split("/")[3]


def test_a_list_not_legal_is_taken_and_flagged_with_its_findings(client, data_sets):
    konflikt = data_set_of(KONFLIKT)
    organiser, public = create_event(client, konflikt, points=120)
    no_officer = finnish_list(client, steps=("Rifle Squad",))
    response = client.post(f"{public}submit/", {"player": "Aino", "share_link": share_link(no_officer)})
    findings = [text(li) for li in html(response).xpath("//*[@id='verdict-findings']/li")]
    assert "must have 1 more selections of Headquarters (minimum 1)" in " ".join(findings)
    too_big = finnish_list(Client(), limit=5000)
    assert too_big.points > 120
    client.post(f"{public}submit/", {"player": "Eero", "share_link": share_link(too_big)})

    rows = table_rows(client, organiser)
    assert rows["Aino"]["Verdict"].startswith("Not legal") and rows["Aino"]["Errors"] != "0"
    assert "must have 1 more selections of Headquarters (minimum 1)" in rows["Aino"]["Verdict"]
    assert rows["Eero"]["Verdict"].startswith("Not legal") and "battlescribe.cost_limit" not in rows["Eero"]["Verdict"]
    assert f"over the points limit by {too_big.points - 120:g}" in rows["Eero"]["Verdict"]
    assert rows["Eero"]["Points"] == f"{too_big.points:g}"
    page = html(client.get(f"{organiser}?show=not-legal"))
    assert len(page.xpath("//table[@class='submissions']/tbody/tr")) == 2


def test_a_data_set_event_refuses_our_packs_settings_and_hides_them(client, data_sets):
    konflikt = data_set_of(KONFLIKT)
    game = f"data-set-{konflikt.pk}"
    form = html(client.get(f"/events/new/?game={game}"))
    assert not form.xpath("//*[@name='max_order_dice' or @name='period' or @name='house_rules_allowed']")
    assert "checked against revision" in text(form.xpath("//*[@id='data-set-rules']")[0])
    deadline = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    sent = {"name": "Dice", "date": "2027-01-16", "game": game, "points_limit": 1000, "deadline": deadline}
    response = client.post("/events/new/", {**sent, "max_order_dice": 8, "house_rules_allowed": "on"})
    assert response.status_code == 400
    page = text(html_any(response))
    assert f"An event of {konflikt.name} takes no order-dice cap" in page
    assert f"An event of {konflikt.name} takes no house rules" in page
    assert not Event.objects.exists()


def test_every_organiser_page_of_a_data_set_event_answers_and_the_editor_submits_to_it(client, data_sets):
    konflikt = data_set_of(KONFLIKT)
    organiser, public = create_event(client, konflikt)
    kept = finnish_list(client)
    edit_page = html(client.get(f"/bs/e/{edit_secret_of(client, kept)}/"))
    form = edit_page.xpath("//*[@id='submit-to-event']//form")[0]
    response = client.post(form.get("action"), {"event_link": f"http://testserver{public}", "player": "Aino"})
    assert text(html(response).xpath("//*[@id='verdict']")[0]).startswith(f"{kept.points:g} / 1000 pts · Legal")
    submission = Submission.objects.get()

    exported = client.get(f"{organiser}submissions.json").json()
    assert exported["event"]["data_set"] == {"name": konflikt.name, "revision": konflikt.revision}
    assert [(row["player"], row["points"], row["valid"]) for row in exported["submissions"]] == [
        ("Aino", kept.points, True)
    ]
    assert "Aino" in client.get(f"{organiser}submissions.csv").content.decode()
    ros = client.get(f"{organiser}s/{submission.id}/roster.ros")
    assert ros.status_code == 200 and ros.content.decode() == submission.ros_xml
    assert client.get(f"{organiser}s/{submission.id}/").status_code == 200
    pack = client.get(f"{organiser}pack.pdf")  # rendered at once by the suite's task backend
    assert pack.status_code == 200 and pack["Content-Type"] == "application/pdf", pack.content[:300]
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pack.content)).pages]
    assert f"{konflikt.name} revision {konflikt.revision}" in pages[0] and "Aino" in pages[0] and "Legal" in pages[0]
    listed = " ".join(pages[1:])
    assert f"Aino: {kept.name}" in listed and submission.fingerprint in listed and "Officer" in listed
    cards = client.get(f"{organiser}s/{submission.id}/cards.pdf")
    assert cards.status_code == 200 and cards["Content-Type"] == "application/pdf"
    card_text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(cards.content)).pages)
    assert "Officer" in card_text and "Rifle Squad" in card_text
    own = Client().get(html(response).xpath("//*[@id='submission-link']")[0].text)
    assert own.status_code == 200 and f"{kept.points:g} / 1000 pts" in own.content.decode()


@pytest.mark.usefixtures("real_packs")
def test_an_event_of_our_own_game_refuses_a_data_sets_roster_saying_so(client, data_sets):
    konflikt = data_set_of(KONFLIKT)
    deadline = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    sent = {"name": "Spring", "date": "2027-04-10", "game": "bolt-action-2e", "points_limit": 500, "deadline": deadline}
    assert client.post("/events/new/", sent).status_code == 302
    public = f"/events/{Event.objects.get().public_id}/"
    kept = finnish_list(client)
    ros = SimpleUploadedFile("platoon.ros", client.get(f"/bs/r/{kept.share_id}/roster.ros").content)

    by_file = problems(client.post(f"{public}submit/", {"player": "Aino", "file": ros}))
    by_link = problems(client.post(f"{public}submit/", {"player": "Aino", "share_link": share_link(kept)}))

    assert by_file == [
        f"This roster is of {konflikt.name}; Spring is played with Bolt Action (2nd edition): submit a roster of it."
    ]
    assert by_link == [
        f"That share link is of a {konflikt.name} roster; Spring is played with Bolt Action (2nd edition): "
        "submit a roster of it."
    ]
    assert not Submission.objects.exists()
