"""PDFs rendered in the background: the waiting page, its polling, failures that say why, retries,
and the real path through the database queue and its worker (issue 12, items 1 and 3)."""

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from pypdf import PdfReader

from lists import cards
from lists.models import Roster

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "bolt-action-2e.yaml").read_text()
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
pytestmark = pytest.mark.usefixtures("empty_cache")


def share_path(client) -> str:
    client.post("/rosters/import/", {"text": EXAMPLE})
    return f"/r/{Roster.objects.get().share_id}/"


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("real_packs", "worker_signals")
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_pdf_is_queued_rendered_by_the_database_worker_then_served(client):
    share = share_path(client)

    waiting = client.get(f"{share}list.pdf")

    assert waiting.status_code == 202
    html = waiting.content.decode()
    assert "Preparing the organiser&#x27;s list" in html
    assert "Waiting for the renderer" in html
    assert f'hx-get="{share}list.pdf?wait=1&amp;hold=1" hx-trigger="load"' in html  # htmx waits for it at once...
    assert f'<noscript><meta http-equiv="refresh" content="0;url={share}list.pdf?wait=1&amp;hold=1"></noscript>' in html
    poll = client.get(f"{share}list.pdf?wait=1", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and 'id="pdf-status"' in poll.content.decode()
    assert "<html" not in poll.content.decode()  # ...and gets the fragment only

    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    done = client.get(f"{share}list.pdf?wait=1", headers={"HX-Request": "true"})
    assert done.status_code == 204 and done["HX-Redirect"] == f"{share}list.pdf?wait=1"
    ready = client.get(f"{share}list.pdf?wait=1")
    assert ready.status_code == 200
    assert f'<meta http-equiv="refresh" content="0;url={share}list.pdf">' in ready.content.decode()
    served = client.get(f"{share}list.pdf")
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    assert "Rangers lead the way" in pdf_text(served.content)


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_the_cards_pdf_is_served_at_once_when_rendered_inside_the_request(client):
    """The suite's immediate backend renders during the request: the first answer is the file."""
    share = share_path(client)

    response = client.get(f"{share}cards.pdf?card=a6")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "Lt. Harris" in pdf_text(response.content)


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_a_render_over_the_time_limit_says_why_and_can_be_retried(client):
    share = share_path(client)

    with override_settings(PDF_RENDER_SECONDS=0.001):
        failed = client.get(f"{share}cards.pdf?paper=letter")

    assert failed.status_code == 503
    html = failed.content.decode()
    assert (
        "The unit cards of Rangers lead the way could not be made: it took longer than 0.001 seconds, "
        "the limit for one PDF." in html
    )
    assert f'href="{share}cards.pdf?paper=letter&amp;retry=1"' in html
    assert 'http-equiv="refresh"' not in html  # a failed render is not polled
    # Following the failed job does not start it again...
    assert client.get(f"{share}cards.pdf?paper=letter").status_code == 503
    # ..."Try again" does.
    retried = client.get(f"{share}cards.pdf?paper=letter&retry=1")
    assert retried.status_code == 200 and retried["Content-Type"] == "application/pdf"


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
@override_settings(PDF_MAX_CARD_UNITS=5)
def test_a_roster_over_the_cap_on_cards_is_refused_with_the_cap(client):
    share = share_path(client)  # the example has 10 units

    response = client.get(f"{share}cards.pdf")

    assert response.status_code == 503
    assert "the roster has 10 units; a cards PDF holds the cards of at most 5 units" in response.content.decode()
    assert client.get(f"{share}list.pdf").status_code == 200  # the organiser's list has no such cap


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
@pytest.mark.parametrize(("kind", "template"), [("cards", "cards.html"), ("list", "list.html")])
def test_a_deploy_that_changes_the_pdf_templates_never_serves_a_pdf_made_before_it(client, tmp_path, kind, template):
    """Cached PDFs are keyed by their templates' digest too, so new templates mean a new PDF at once."""
    from django.conf import settings

    share = share_path(client)
    before = client.get(f"{share}{kind}.pdf")
    (tmp_path / "cards").mkdir()
    source = (ROOT / "templates" / "cards" / template).read_text()
    (tmp_path / "cards" / template).write_text(
        source.replace("</h1>", " New look</h1>").replace("<footer>", "<footer>New look ")
    )
    templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]

    with override_settings(TEMPLATES=templates):
        cards.templates_digest.cache_clear()  # what restarting the processes on a deploy does
        after = client.get(f"{share}{kind}.pdf")
    cards.templates_digest.cache_clear()

    assert before.status_code == after.status_code == 200
    assert "New look" not in pdf_text(before.content)
    assert "New look" in pdf_text(after.content)


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_an_edit_while_waiting_is_rendered_as_it_now_is(client):
    """The cache key is the roster's full content digest: a changed roster never gets the old file."""
    share = share_path(client)
    first = client.get(f"{share}list.pdf")
    Roster.objects.update(name="Renamed after printing")

    second = client.get(f"{share}list.pdf")

    assert "Rangers lead the way" in pdf_text(first.content)
    assert "Renamed after printing" in pdf_text(second.content)


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
@override_settings(TASKS=DATABASE_QUEUE)
def test_the_waiting_page_shows_when_the_render_started(client):
    from datetime import timedelta

    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    share = share_path(client)
    client.get(f"{share}cards.pdf")
    DBTaskResult.objects.update(status="RUNNING", started_at=timezone.now() - timedelta(seconds=12))

    page = client.get(f"{share}cards.pdf?wait=1")

    assert page.status_code == 202
    assert re.search(
        r"Rendering the unit cards of Rangers lead the way \(10 units\): started 1[23] s ago", page.content.decode()
    )
