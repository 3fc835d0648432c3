"""Long-polls for a PDF: a request held until its render is done, so the page learns of it at once.

A held request takes a web thread, so each web process holds at most `PDF_MAX_WAITS` at once; past
that a request is answered at once ("still working") and the page asks again a little later, so the
site keeps answering pages. While held, the request looks for the PDF in the shared cache every
CHECK_SECONDS (a cheap key lookup, so a finished render is seen within that) and asks the queue how
the job is doing every FOLLOW_SECONDS, to stop at once if it failed.
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

from lists.pdfs import tasks

HOLD_SECONDS = 20.0  # well under gunicorn's 30 s timeout and any proxy's
CHECK_SECONDS = 0.03
FOLLOW_SECONDS = 1.0

_holding = threading.BoundedSemaphore(settings.PDF_MAX_WAITS)


def hold(key: str, seconds: float = HOLD_SECONDS) -> str:
    """Wait for the PDF cached under `key`: "ready", "stopped" (its job failed or is gone), "timeout"
    (still rendering) or "busy" (this process holds as many requests as it may; answered at once)."""
    if not _holding.acquire(blocking=False):
        return "busy"
    try:
        return _wait(key, seconds)
    finally:
        _holding.release()


def _wait(key: str, seconds: float) -> str:
    start = followed = time.monotonic()
    while True:
        if cache.has_key(key):
            return "ready"
        now = time.monotonic()
        if now - followed >= FOLLOW_SECONDS:
            followed = now
            try:
                job = tasks.follow(key)
            except DatabaseError:  # the queue's table is busy (SQLite locked): look again next time
                job = tasks.PdfJob("rendering")
            if job is None or job.state in {"failed", "done"}:
                return "ready" if cache.has_key(key) else "stopped"
        if now - start >= seconds:
            return "timeout"
        time.sleep(CHECK_SECONDS)
