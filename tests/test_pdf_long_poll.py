"""A PDF's request held until the render is done (issue 21): the answer comes as soon as the worker has
finished, the worker is woken by the request (not by its idle look at the queue), and a request past
the cap of held ones is answered at once, so the site keeps answering."""

import threading
import time
from pathlib import Path

import pytest
from django.test import override_settings

from lists.management.commands import pdf_db_worker
from lists.models import Roster
from lists.pdfs import waits
from lists.pdfs.wake import bell_folder

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "bolt-action-2e.yaml").read_text()
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
HOLD_SECONDS = 60  # long enough that an answer after a fixed wait could not pass for one at once
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_cache")]


@pytest.fixture(autouse=True)
def database_queue(settings, packs_in_database):
    """The real queue of `make serve` without Redis, with the packs; renders in the worker's own process (no helpers)."""
    settings.TASKS = DATABASE_QUEUE
    settings.PDF_RENDER_PROCESSES = 1


def share_path(client) -> str:
    client.post("/rosters/import/", {"text": EXAMPLE})
    return f"/r/{Roster.objects.get().share_id}/"


def a_woken_worker(monkeypatch) -> threading.Thread:
    """The PDF worker in a thread of its own, for one job; its idle look at the queue is too late to matter,
    so only the bell rung by the request can start the job in time."""
    monkeypatch.setattr(pdf_db_worker, "IDLE_SECONDS", 10 * HOLD_SECONDS)
    existing = set(bell_folder().glob("*.sock")) if bell_folder().is_dir() else set()
    worker = pdf_db_worker.WokenWorker(
        queue_names=["default"], interval=0.05, batch=True, backend_name="default", startup_delay=False,
        max_tasks=1, worker_id="test-woken-worker", excluded_queue_names=[],
    )  # fmt: skip
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    for _ in range(200):  # it listens once its socket is there
        if bell_folder().is_dir() and set(bell_folder().glob("*.sock")) - existing:
            return thread
        time.sleep(0.05)
    raise AssertionError("the worker never listened for its bell")


def test_a_held_request_gets_the_pdf_as_soon_as_the_woken_worker_has_made_it(client, monkeypatch):
    monkeypatch.setattr(waits, "HOLD_SECONDS", HOLD_SECONDS)
    share = share_path(client)
    worker = a_woken_worker(monkeypatch)

    asked = time.monotonic()
    answer = client.get(f"{share}cards.pdf?card=a6&hold=1")
    waited = time.monotonic() - asked

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF")
    assert 'filename="rangers-lead-the-way-cards-a6.pdf"' in answer["Content-Disposition"]
    assert waited < HOLD_SECONDS / 2  # answered when the render was done, not when the hold ran out
    worker.join(timeout=30)
    assert not worker.is_alive()  # it ran its one job


def test_a_request_past_the_cap_of_held_ones_is_answered_at_once_with_the_progress(client, monkeypatch, settings):
    monkeypatch.setattr(waits, "HOLD_SECONDS", HOLD_SECONDS)
    share = share_path(client)
    others = [waits._holding.acquire(blocking=False) for _ in range(settings.PDF_MAX_WAITS)]
    assert all(others)  # every place is taken by another held request
    try:
        asked = time.monotonic()
        answer = client.get(f"{share}cards.pdf?hold=1")  # no worker runs: held, it would wait the whole hold
        waited = time.monotonic() - asked
    finally:
        for _ in others:
            waits._holding.release()

    assert answer.status_code == 202
    assert "Waiting for the renderer" in answer.content.decode()
    assert waited < HOLD_SECONDS / 2
    # The progress page asks again after a pause rather than at once, while the server is this busy.
    assert 'hx-trigger="load delay:2s"' in answer.content.decode()
    assert 'content="3;url=' in answer.content.decode()


@override_settings(PDF_MAX_CARD_UNITS=3)
def test_a_held_request_whose_render_failed_says_why_at_once(client, monkeypatch):
    monkeypatch.setattr(waits, "HOLD_SECONDS", HOLD_SECONDS)
    share = share_path(client)
    worker = a_woken_worker(monkeypatch)

    asked = time.monotonic()
    answer = client.get(f"{share}cards.pdf?hold=1")
    waited = time.monotonic() - asked

    assert answer.status_code == 503
    assert "could not be made: the roster has 10 units; a cards PDF holds the cards of at most 3 units" in (
        answer.content.decode()
    )
    assert waited < HOLD_SECONDS / 2
    worker.join(timeout=30)
