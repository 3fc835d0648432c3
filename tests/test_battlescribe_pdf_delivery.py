"""A stored BattleScribe roster's cards and organiser's list go through the PDFs' background queue, as our own
rosters' do: the request answers with the waiting page, the worker renders, the file downloads under the roster's
name, a second request for the same version comes from the cache, and an edit renders anew.

The roster is built by the engine from the real Flames of War data in ../shared (skipped where absent), with the
entries tests/test_battlescribe_data_rosters.py uses; the queue is the database backend and its real worker, as
in tests/test_pdf_delivery.py.
"""

from __future__ import annotations

import io
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings
from pypdf import PdfReader

from lists.cards import Layout, battlescribe_cards
from lists.models import BattleScribeDataSet, BattleScribeRoster
from lists.pdfs import tasks
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
from tests.test_battlescribe_data_rosters import SHARED, built

FLAMES_OF_WAR = SHARED / "bsdata" / "flamesofwar"
ARMY, FORCE = "Late-War - Bulge: American", "Standard"
UNITS = ["M4 Sherman (Late) Tank Company", "M18 Tank Destroyer Company"]
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture(scope="module")
def flames_of_war(django_db_setup, django_db_blocker):
    """The Flames of War data set, loaded once for the module."""
    if not FLAMES_OF_WAR.is_dir():
        pytest.skip(f"no data at {FLAMES_OF_WAR}")
    with django_db_blocker.unblock():
        call_command("load_battlescribe", str(FLAMES_OF_WAR), stdout=StringIO())
    yield
    with django_db_blocker.unblock():
        BattleScribeRoster.objects.all().delete()
        BattleScribeDataSet.objects.all().delete()


def stored_roster(name: str = "Bulge breakout") -> tuple[BattleScribeRoster, str]:
    """A roster of two companies as a player builds it, stored as the editor stores it; with its edit secret."""
    data_set = BattleScribeDataSet.objects.get(source_folder__endswith=FLAMES_OF_WAR.name)
    roster = built(data_set, ARMY, FORCE, UNITS)
    roster.name = name
    secret = new_edit_secret()
    return editing.keep_new(data_set, roster, new_share_id(), hash_secret(secret)), secret


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def run_worker() -> None:
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)


def jobs() -> int:
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.count()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("flames_of_war", "worker_signals")
@override_settings(TASKS=DATABASE_QUEUE)
def test_cards_and_list_are_queued_rendered_by_the_worker_then_served_from_the_cache_until_an_edit(client):
    kept, secret = stored_roster()
    share = f"/bs/r/{kept.share_id}/"

    waiting = client.get(f"{share}cards.pdf")
    listing = client.get(f"{share}list.pdf")

    assert waiting.status_code == listing.status_code == 202  # the waiting page, nothing rendered in the request
    html = waiting.content.decode()
    assert "Preparing the unit cards" in html
    assert "Waiting for the renderer: the unit cards of Bulge breakout (2 units)" in html
    assert f'hx-get="{share}cards.pdf?wait=1&amp;hold=1" hx-trigger="load"' in html
    assert f'<a href="{share}">Back to the roster</a>' in html
    assert "Waiting for the renderer: the organiser&#x27;s list of Bulge breakout" in listing.content.decode()
    assert jobs() == 2

    run_worker()

    ready = client.get(f"{share}cards.pdf?wait=1")
    assert ready.status_code == 200
    assert f'<meta http-equiv="refresh" content="0;url={share}cards.pdf">' in ready.content.decode()
    cards = client.get(f"{share}cards.pdf")
    assert cards.status_code == 200 and cards["Content-Type"] == "application/pdf"
    assert cards["Content-Disposition"] == 'attachment; filename="bulge-breakout-cards.pdf"'
    text = pdf_text(cards.content)
    assert "Bulge breakout" in text and "M18 Tank Destroyer Company" in text
    organisers = client.get(f"{share}list.pdf")
    assert organisers["Content-Disposition"] == 'attachment; filename="bulge-breakout-list.pdf"'
    assert "checked by the BattleScribe engine" in pdf_text(organisers.content)

    again = client.get(f"{share}cards.pdf")  # the same version: from the cache, no job
    assert again.status_code == 200 and again.content == cards.content and jobs() == 2

    renamed = client.post(
        f"/bs/e/{secret}/change/",
        {"action": "settings", "name": "Bulge counter-attack", "points_limit": "100", "version": kept.version},
    )
    assert renamed.status_code == 302
    waiting = client.get(f"{share}cards.pdf")
    assert waiting.status_code == 202 and jobs() == 3
    assert "the unit cards of Bulge counter-attack (2 units)" in waiting.content.decode()

    run_worker()

    fresh = client.get(f"{share}cards.pdf")
    assert fresh["Content-Disposition"] == 'attachment; filename="bulge-counter-attack-cards.pdf"'
    text = pdf_text(fresh.content)
    assert "Bulge counter-attack" in text and "Bulge breakout" not in text


@pytest.mark.django_db
@pytest.mark.usefixtures("flames_of_war")
@override_settings(TASKS=DATABASE_QUEUE, PDF_RATE="1/m")
def test_battlescribe_pdfs_spend_the_same_budget_as_every_pdf(client):
    kept, _ = stored_roster()
    share = f"/bs/r/{kept.share_id}/"

    assert client.get(f"{share}cards.pdf").status_code == 202
    assert client.get(f"{share}cards.pdf?wait=1").status_code == 202  # following a render costs nothing
    refused = client.get(f"{share}list.pdf")

    assert refused.status_code == 429
    assert "Please wait a minute and try again." in refused.content.decode()
    assert jobs() == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("flames_of_war")
@override_settings(PDF_MAX_CARD_UNITS=1)
def test_a_battlescribe_roster_over_the_cap_on_cards_is_refused_with_the_cap(client):
    kept, _ = stored_roster()
    share = f"/bs/r/{kept.share_id}/"

    refused = client.get(f"{share}cards.pdf")

    assert refused.status_code == 503
    html = refused.content.decode()
    # Two companies, each an HQ and two platoons with a card of their own.
    assert "the roster has 6 units; a cards PDF holds the cards of at most 1 units" in html
    assert f'href="{share}cards.pdf?retry=1"' in html
    assert client.get(f"{share}list.pdf").status_code == 200  # the organiser's list has no such cap


@pytest.mark.django_db
@pytest.mark.usefixtures("flames_of_war")
def test_a_render_asked_for_before_an_edit_says_so_and_caches_nothing():
    kept, _ = stored_roster()
    key = battlescribe_cards.battlescribe_pdf_key("cards", kept)

    tasks.start(key, kept.share_id, "cards", Layout(), 2, subject=tasks.BATTLESCRIBE, version=kept.version - 1)

    job = tasks.follow(key)
    assert job.state == "failed"
    assert job.reason == "the roster was changed after this PDF was asked for; try again to print it as it now is"
    assert cache.get(key) is None


def test_the_unit_count_read_from_the_stored_xml_is_the_count_of_cards(flames_of_war, db):
    kept, _ = stored_roster()
    found = editing.open_roster(kept)

    assert editing.unit_count(kept) == sum(len(force.selections) for force in found.all_forces()) == len(UNITS)
