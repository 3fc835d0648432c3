"""The print pack through the real database queue: a waiting page first, then the PDF from the worker."""

import io
import time

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings
from pypdf import PdfReader

from tests.test_events import three_players

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("real_packs", "worker_signals", "empty_cache")
@override_settings(TASKS=DATABASE_QUEUE)
def test_the_print_pack_waits_for_the_worker_then_downloads(client):
    organiser, _, _ = three_players(client)

    waiting = client.get(f"{organiser}pack.pdf")
    assert waiting.status_code == 202
    assert "0 of 3 lists ready" in waiting.content.decode()
    assert client.get(f"{organiser}pack.pdf").status_code == 202  # followed, not queued twice

    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    served = client.get(f"{organiser}pack.pdf")
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(served.content)).pages) == 4  # the cover and three lists


@pytest.fixture
def packs_again(packs_in_database):
    """The packs, put back: the test before, in a transaction of its own, emptied the tables at its end."""


def run_jobs(count: int) -> None:
    """The database queue's worker, taking `count` jobs in the order it chooses."""
    call_command("db_worker", "--batch", "--max-tasks", str(count), "--no-startup-delay", "--no-reload", verbosity=0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("packs_again", "worker_signals", "empty_cache")
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_players_pdf_asked_for_after_the_pack_is_served_before_the_packs_lists(client):
    organiser, _, legal = three_players(client)
    assert client.get(f"{organiser}pack.pdf").status_code == 202  # three lists queued
    share = f"/r/{legal.share_id}/"
    assert client.get(f"{share}list.pdf").status_code == 202  # a player asks for their own list afterwards

    run_jobs(1)

    assert client.get(f"{share}list.pdf").status_code == 200  # the player's PDF went first...
    waiting = client.get(f"{organiser}pack.pdf")
    assert waiting.status_code == 202 and "0 of 3 lists ready" in waiting.content.decode()  # ...the pack's wait


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("packs_again", "worker_signals", "empty_cache")
@override_settings(TASKS=DATABASE_QUEUE)
def test_the_pack_page_counts_the_lists_ready_and_trying_again_renders_only_the_lists_not_yet_made(client, monkeypatch):
    from lists.events import print_pack

    organiser, _, _ = three_players(client)
    assert "0 of 3 lists ready" in client.get(f"{organiser}pack.pdf").content.decode()
    run_jobs(1)
    assert "1 of 3 lists ready" in client.get(f"{organiser}pack.pdf").content.decode()
    original = print_pack.list_page

    def over_time(event, submission):
        time.sleep(30)  # the render runs over its limit here, before anything of it is kept
        return original(event, submission)

    # The other two stop at the time limit. (An alarm of a millisecond fired wherever the work stood, sometimes
    # after a list was kept, so the count the page shows below varied.)
    with override_settings(PDF_RENDER_SECONDS=0.5), pytest.MonkeyPatch.context() as slowed:
        slowed.setattr(print_pack, "list_page", over_time)
        run_jobs(2)
    failed = client.get(f"{organiser}pack.pdf").content.decode()
    assert "could not be made" in failed and "1 of 3 lists are ready and kept" in failed
    rendered = []

    def spy(event, submission):
        if cache.get(print_pack.list_key(event, submission)) is None:  # rendered, not read from the cache
            rendered.append(submission.player)
        return original(event, submission)

    monkeypatch.setattr(print_pack, "list_page", spy)

    assert client.get(f"{organiser}pack.pdf?retry=1").status_code == 202
    assert "1 of 3 lists ready" in client.get(f"{organiser}pack.pdf").content.decode()
    run_jobs(2)

    served = client.get(f"{organiser}pack.pdf")
    assert served.status_code == 200 and len(PdfReader(io.BytesIO(served.content)).pages) == 4
    assert sorted(rendered) == ["Ben", "Cleo"]  # the two lists that failed were made again, the third was kept
