"""The print pack through the real database queue: a waiting page first, then the PDF from the worker."""

import io

import pytest
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
    assert "Waiting for the renderer" in waiting.content.decode()
    assert client.get(f"{organiser}pack.pdf").status_code == 202  # followed, not queued twice

    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    served = client.get(f"{organiser}pack.pdf")
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(served.content)).pages) == 4  # the cover and three lists
