"""Tournament events over HTTP: running one, submitting lists, the organiser's table and its exports."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from lists.event_models import Event, Submission
from lists.rosters.files import load_roster_file, save_new_roster
from lists.rosters.sharing import hash_secret, new_share_id
from tests.event_rosters import GERMAN_POINTS, british, german

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def create_event(client, **changes):
    """Run an event through the form; returns (organiser's path, public path)."""
    form = {
        "name": "Spring Offensive",
        "date": "2027-04-10",
        "game": "bolt-action-2e",
        "points_limit": 500,
        "max_order_dice": 8,
        "allowed_armies": ["germany"],
        "deadline": (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
        **changes,
    }
    response = client.post(reverse("lists:event-new"), form)
    assert response.status_code == 302, response.content.decode()
    organiser = response.url.split("?")[0]
    event = Event.objects.get()
    return organiser, reverse("lists:event", args=[event.public_id])


def saved_roster(text: str):
    secret = f"secret-{new_share_id()}"
    roster = save_new_roster(load_roster_file(text.encode()), new_share_id(), hash_secret(secret))
    return roster, secret


def submit_link(client, public, player, roster):
    return client.post(f"{public}submit/", {"player": player, "share_link": f"http://testserver/r/{roster.share_id}/"})


def submit_file(client, public, player, text):
    upload = SimpleUploadedFile("list.yaml", text.encode(), content_type="application/yaml")
    return client.post(f"{public}submit/", {"player": player, "file": upload})


def three_players(client):
    organiser, public = create_event(client)
    legal, _ = saved_roster(german("Legal list"))
    assert submit_link(client, public, "Anna", legal).status_code == 200
    assert submit_file(client, public, "Ben", german("Too big", panzer=True)).status_code == 200
    assert submit_file(client, public, "Cleo", british()).status_code == 200
    return organiser, public, legal


def by_player(client, organiser):
    data = client.get(f"{organiser}submissions.json").json()
    return data, {row["player"]: row for row in data["submissions"]}


def test_creating_an_event_gives_a_secret_organiser_link_stored_only_as_a_hash(client):
    response = client.get(reverse("lists:home"))
    assert reverse("lists:event-new") in response.content.decode()
    organiser, public = create_event(client)
    secret = organiser.rstrip("/").split("/")[-1]
    event = Event.objects.get()
    assert event.organiser_secret_hash == hash_secret(secret) and secret not in str(event.__dict__)
    page = client.get(f"{organiser}?created=1").content.decode()
    assert "Your event is ready" in page and public in page
    assert client.get(public).status_code == 200
    assert client.get("/events/o/not-the-secret/").status_code == 404


def test_a_bad_event_form_says_what_to_fix(client):
    response = client.post(reverse("lists:event-new"), {"name": "", "points_limit": "lots"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "This field is required" in html and "Enter a whole number" in html
    assert Event.objects.count() == 0


def test_the_table_shows_each_verdict_with_its_findings(client):
    organiser, public, _ = three_players(client)
    data, rows = by_player(client, organiser)
    assert data["event"] == {
        "name": "Spring Offensive",
        "game": "bolt-action-2e",
        "points_limit": 500,
        "deadline": data["event"]["deadline"],
        "locked": False,
    }
    assert rows["Anna"]["valid"] is True and rows["Anna"]["points"] == GERMAN_POINTS
    assert rows["Anna"]["order_dice"] == 5 and rows["Anna"]["findings"] == []
    assert rows["Ben"]["valid"] is False and rows["Ben"]["points"] == 631
    assert [f["code"] for f in rows["Ben"]["findings"]] == ["points.over_limit"]
    assert rows["Cleo"]["valid"] is False
    assert [f["code"] for f in rows["Cleo"]["findings"]] == ["event.army_not_allowed"]
    assert "Armies of Germany" in rows["Cleo"]["findings"][0]["message"]
    assert set(rows["Anna"]) == {
        "player", "roster_name", "army", "points", "order_dice", "valid", "findings", "fingerprint", "submitted_at",
        "id", "list_url",
    }  # fmt: skip
    client.post(f"{organiser}publish/")
    assert rows["Ben"]["list_url"] == f"http://testserver{public}lists/{rows['Ben']['id']}/"
    assert client.get(rows["Ben"]["list_url"]).status_code == 200
    html = client.get(organiser).content.decode()
    assert html.count("Not legal</span>") == 2 and "(Rule: Armies allowed at the event)" in html
    assert "<code>event.army_not_allowed</code>" not in html and "<code>points." not in html


def test_no_export_holds_the_organiser_s_secret_link(client):
    organiser, _, _ = three_players(client)
    secret = organiser.rstrip("/").split("/")[-1]
    for export in ("submissions.json", "submissions.csv"):
        response = client.get(f"{organiser}{export}")
        assert response.status_code == 200
        assert secret not in response.content.decode() and "/events/o/" not in response.content.decode(), export


# Player names are one line with no tab (the names rule), so a formula hides only behind a delimiter or spaces.
FORMULA_PLAYERS = ['=HYPERLINK("http://x.example")', "Anna;=1+1", "Ben, +2", "Cleo;-3", "@SUM(A1)", "Dan;  =4"]


def test_no_csv_cell_is_a_formula_whatever_delimiter_the_spreadsheet_splits_on(client):
    organiser, public = create_event(client)
    for player in FORMULA_PLAYERS:
        assert submit_file(client, public, player, german()).status_code == 200
    text = client.get(f"{organiser}submissions.csv").content.decode()

    rows = list(csv.DictReader(io.StringIO(text)))
    assert sorted(row["player"] for row in rows) == sorted(
        ['\'=HYPERLINK("http://x.example")', "Anna;'=1+1", "Ben, '+2", "Cleo;'-3", "'@SUM(A1)", "Dan; '=4"]
    )
    for delimiter in (",", ";", "\t"):  # as a spreadsheet that splits on it, even inside quotes, would see it
        for line in text.splitlines():
            for cell in line.split(delimiter):
                assert not cell.lstrip('" ').startswith(("=", "+", "-", "@", "\t", "\r")), (delimiter, line)


def test_order_dice_cap_applies_to_every_list(client):
    organiser, public = create_event(client, max_order_dice=4)
    assert submit_file(client, public, "Anna", german()).status_code == 200
    _, rows = by_player(client, organiser)
    assert [f["code"] for f in rows["Anna"]["findings"]] == ["order_dice.over_limit"]


def test_sorting_and_the_not_legal_filter_work_from_the_query_string(client):
    organiser, _, _ = three_players(client)
    html = client.get(f"{organiser}?sort=-points").content.decode()
    assert html.index("Ben</a>") < html.index("Anna</a>") < html.index("Cleo</a>")
    html = client.get(f"{organiser}?sort=player&show=not-legal").content.decode()
    assert "Ben</a>" in html and "Cleo</a>" in html and "Anna</a>" not in html


def test_csv_has_a_row_per_submission(client):
    organiser, _, _ = three_players(client)
    response = client.get(f"{organiser}submissions.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["player"], r["points"], r["valid"], r["errors"]) for r in rows] == [
        ("Anna", "396", "True", "0"),
        ("Ben", "631", "False", "1"),
        ("Cleo", "250", "False", "1"),
    ]


def test_a_submission_is_frozen_and_a_resubmission_replaces_it(client):
    organiser, public = create_event(client)
    roster, secret = saved_roster(german("Frozen"))
    submit_link(client, public, "Anna", roster)
    first = Submission.objects.get()
    # The player edits the roster afterwards: the submission stays as it was.
    roster.units.last().delete()
    _, rows = by_player(client, organiser)
    assert rows["Anna"]["points"] == GERMAN_POINTS
    # Submitting again from the editor replaces it; the organiser sees both times.
    response = client.post(
        reverse("lists:submit-to-event", args=[secret]), {"event_link": f"http://testserver{public}", "player": "Anna"}
    )
    assert response.status_code == 200 and "replaced the earlier one" in response.content.decode()
    again = Submission.objects.get()
    assert again.first_submitted_at == first.first_submitted_at and again.submitted_at > first.submitted_at
    _, rows = by_player(client, organiser)
    assert rows["Anna"]["points"] == GERMAN_POINTS - 50
    assert "first " in client.get(organiser).content.decode()


def test_locking_and_the_deadline_refuse_submissions_with_a_message(client):
    organiser, public = create_event(client)
    assert client.post(f"{organiser}lock/").status_code == 302
    response = submit_file(client, public, "Dan", german())
    assert response.status_code == 400 and "is locked by its organiser" in response.content.decode()
    client.post(f"{organiser}reopen/")
    assert submit_file(client, public, "Dan", german()).status_code == 200
    Event.objects.update(deadline=timezone.now() - timedelta(minutes=1))
    response = submit_file(client, public, "Eve", german())
    assert response.status_code == 400 and "deadline" in response.content.decode()
    assert list(Submission.objects.values_list("player", flat=True)) == ["Dan"]


def test_bad_submissions_are_refused_and_nothing_is_saved(client):
    _, public = create_event(client)
    for form in (
        {"player": "Anna", "share_link": "http://testserver/r/nope/"},
        {"player": "Anna", "share_link": "not a link at all"},
        {"player": "", "share_link": ""},
        {"player": "Anna", "file": SimpleUploadedFile("x.yaml", b"army: [", content_type="text/yaml")},
    ):
        response = client.post(f"{public}submit/", form)
        assert response.status_code == 400
        assert "not submitted" in response.content.decode() or "required" in response.content.decode()
    assert Submission.objects.count() == 0


def test_removing_a_submission_and_publishing_the_lists(client):
    organiser, public, _ = three_players(client)
    cleo = Submission.objects.get(player="Cleo")
    listed = reverse("lists:event-list", args=[Event.objects.get().public_id, cleo.id])
    assert client.get(listed).status_code == 404
    html = client.get(public).content.decode()
    assert "Cleo" in html and "Tommies" not in html
    client.post(f"{organiser}publish/")
    assert "Tommies" in client.get(public).content.decode()
    assert "event.army_not_allowed" in client.get(listed).content.decode()
    # Removing asks first: the list stays until the organiser confirms.
    asked = client.post(f"{organiser}s/{cleo.id}/remove/")
    assert asked.status_code == 200 and "Remove Cleo&#x27;s list?" in asked.content.decode()
    assert Submission.objects.filter(player="Cleo").exists()
    client.post(f"{organiser}s/{cleo.id}/remove/", {"confirm": "yes"})
    assert not Submission.objects.filter(player="Cleo").exists()
    assert client.get(f"{organiser}nonsense/").status_code == 405
    assert client.post(f"{organiser}nonsense/").status_code == 404


def test_the_print_pack_holds_a_cover_and_every_list(client):
    from pypdf import PdfReader

    organiser, _, _ = three_players(client)
    response = client.get(f"{organiser}pack.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    text = [page.extract_text() for page in reader.pages]
    assert "Spring Offensive" in text[0] and "3 lists" in text[0]
    for player, roster in (("Anna", "Legal list"), ("Ben", "Too big"), ("Cleo", "Tommies")):
        assert any(f"{player}: {roster}" in page for page in text[1:])
    pages = len(reader.pages)
    numbers = [re.search(r"Spring Offensive: pack page (\d+) of (\d+)", page) for page in text]
    # Numbered across the pack, not each list "page 1 of 1"; the list's own text is still under the number.
    assert [(int(n.group(1)), int(n.group(2))) for n in numbers] == [(i, pages) for i in range(1, pages + 1)]
    ben = next(page for page in text[1:] if "Ben: Too big" in page)
    assert "(Rule: Points limit)" in ben and "points.over_limit" not in ben  # the rule's name, not the code
    cards = client.get(f"{organiser}s/{Submission.objects.get(player='Anna').id}/cards.pdf")
    assert cards.status_code == 200 and cards.content.startswith(b"%PDF")


def aaf_event(client, **changes):
    return create_event(
        client, game="action-all-fronts", allowed_armies=[], max_order_dice="", points_limit=2000, **changes
    )


def test_house_rules_are_a_finding_where_the_event_allows_none(client, settings):
    text = (settings.BASE_DIR / "examples" / "rapid-fire-house-rules.yaml").read_text()
    organiser, public = aaf_event(client)
    assert submit_file(client, public, "Anna", text).status_code == 200
    _, rows = by_player(client, organiser)
    assert "event.house_rules_not_allowed" in [f["code"] for f in rows["Anna"]["findings"]]
    Event.objects.update(house_rules_allowed=True)
    _, rows = by_player(client, organiser)
    assert "event.house_rules_not_allowed" not in [f["code"] for f in rows["Anna"]["findings"]]


def test_the_events_year_replaces_the_rosters_own(client, settings):
    text = (settings.BASE_DIR / "examples" / "action-all-fronts.yaml").read_text()
    organiser, public = aaf_event(client, year=1944)
    submit_file(client, public, "Anna", text)
    _, rows = by_player(client, organiser)
    in_1944 = rows["Anna"]
    Event.objects.update(year=1940)
    _, rows = by_player(client, organiser)
    assert (rows["Anna"]["points"], rows["Anna"]["findings"]) != (in_1944["points"], in_1944["findings"])


def test_a_game_without_order_dice_takes_no_cap(client):
    form = {"name": "x", "date": "2027-01-01", "game": "action-all-fronts", "points_limit": 500, "max_order_dice": 8}
    response = client.post(reverse("lists:event-new"), {**form, "deadline": "2099-01-01T10:00"})
    assert response.status_code == 400 and "has no order dice" in response.content.decode()


def test_an_event_holds_at_most_256_lists(client):
    _, public = create_event(client)
    event = Event.objects.get()
    now = timezone.now()
    Submission.objects.bulk_create(
        Submission(event=event, player=f"P{n}", player_key=f"P{n}", document={}, fingerprint="", roster_name="r", army_name="a",
                   first_submitted_at=now, submitted_at=now)
        for n in range(256)
    )  # fmt: skip
    response = submit_file(client, public, "One too many", german())
    assert response.status_code == 400 and "holds its most lists (256)" in response.content.decode()


def test_armies_allowed_must_be_the_games_own(client):
    form = {"name": "x", "date": "2027-01-01", "game": "action-all-fronts", "points_limit": 500}
    response = client.post(
        reverse("lists:event-new"), {**form, "allowed_armies": ["germany"], "deadline": "2099-01-01T10:00"}
    )
    assert response.status_code == 400 and "Not armies of Action All Fronts: germany." in response.content.decode()
    assert Event.objects.count() == 0


def test_organiser_pages_are_never_stored_and_their_secret_never_logged(client):
    from armybuilder.middleware import mask_edit_secrets

    organiser, public = create_event(client)
    for path in (organiser, f"{organiser}submissions.json"):
        response = client.get(path)
        assert "no-store" in response["Cache-Control"] and response["X-Robots-Tag"] == "noindex, nofollow"
    assert mask_edit_secrets(f"GET {organiser}submissions.csv") == "GET /events/o/[secret]/submissions.csv"
    assert mask_edit_secrets(f"GET {public}") == f"GET {public}"  # the public page is no secret


def test_a_script_may_name_the_game_and_armies_as_they_are_printed(client):
    create_event(client, game="Bolt Action (2nd edition)", allowed_armies=["Armies of Germany", "great-britain"])
    assert Event.objects.get().allowed_armies == ["germany", "great-britain"]


def test_the_events_period_is_offered_and_replaces_the_rosters_own(client, settings):
    assert '<option value="early">Early war (Action All Fronts)</option>' in client.get("/events/new/").content.decode()
    text = (
        (settings.BASE_DIR / "examples" / "action-all-fronts.yaml")
        .read_text()
        .replace("year: 1944", "period: Late war")
    )
    organiser, public = aaf_event(client, period="late")
    submit_file(client, public, "Anna", text)
    _, rows = by_player(client, organiser)
    late = rows["Anna"]
    Event.objects.update(period="early")
    _, rows = by_player(client, organiser)
    assert (rows["Anna"]["points"], rows["Anna"]["findings"]) != (late["points"], late["findings"])
