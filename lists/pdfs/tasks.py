"""PDFs rendered in the background, so a large roster never holds a web worker.

A request for a PDF that is not cached enqueues `render_pdf` (Django's Tasks API
through the django-tasks backport: RQ in Redis when REDIS_URL is set, run by
`manage.py rqworker` with `PdfWorker`, which blocks on the queue; else the database backend, run by
`manage.py pdf_db_worker`, which is woken by `lists.pdfs.wake`) and answers at once; the page or
script that asked then follows the job, or waits for it (`lists.pdfs.waits`).
The worker renders through `lists.cards`, within a time limit and a cap on
cards, and leaves the PDF in the shared cache, where the next request finds it.
A job's subject is a stored roster of any kind, opened and rendered through the one roster
interface (`lists.roster_kinds`): the stored roster itself, never its export read back.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import Http404
from django_tasks import TaskResultStatus, task
from django_tasks.exceptions import TaskResultDoesNotExist
from rq import Worker

from lists import roster_kinds
from lists.cards import Layout, start_render_helpers, warm_up
from lists.gamedata.loading import warm_game_data
from lists.pdfs import wake
from lists.roster_kinds import RenderRefused

JOB_SECONDS = 60 * 60  # how long a job's id is kept to follow it
WORKER_GRACE_SECONDS = 15  # past the time limit by this much, a render's worker is taken to have died


class RenderFailed(Exception):
    """A render that could not be done; its message is shown to the visitor."""


@dataclass(frozen=True)
class PdfJob:
    """What a visitor waiting for a PDF is told."""

    state: str  # "queued", "rendering", "failed" or "done"
    seconds: int = 0  # since it was queued or started
    reason: str = ""
    done: int = 0  # of a PDF made of parts (an event's print pack): how many parts are ready...
    parts: int = 0  # ...of how many


# Work is queued by its size, so a small PDF never waits behind a big one: a roster of more than HEAVY_UNITS
# units, and each list of an event's print pack, go after every lighter job waiting (the database queue's worker
# takes the highest priority first; RQ's worker empties the "default" queue before it looks at "bulk").
HEAVY_UNITS = 60
HEAVY_PRIORITY = -10
BULK_QUEUE = "bulk"


def sized(task, heavy: bool):
    """`task` as it is queued for work of this weight (see HEAVY_UNITS), in whichever way its backend orders jobs."""
    if not heavy:
        return task
    backend = task.get_backend()
    if backend.supports_priority:
        task = task.using(priority=HEAVY_PRIORITY)
    if BULK_QUEUE in backend.queues:
        task = task.using(queue_name=BULK_QUEUE)
    return task


class PdfWorker(Worker):
    """RQ's worker, which forks a process for each render: the games' data is built and the renderer warmed
    (fonts, stylesheets, a sample render) once, before, and the render helpers for the other cores are started
    (again, if one was lost) before each job."""

    def work(self, *args, **kwargs):
        warm_game_data()
        warm_up()
        return super().work(*args, **kwargs)

    def execute_job(self, job, queue):
        start_render_helpers()
        return super().execute_job(job, queue)


@contextmanager
def time_limit(seconds: float):
    """Stop the work inside after `seconds` (the worker runs tasks on its main thread, where alarms work)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    reason = f"it took longer than {seconds:g} seconds, the limit for one PDF"
    fired = []

    def expired(signum, frame):
        fired.append(True)
        raise RenderFailed(reason)

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expired)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # an alarm set around this one (RQ's job timeout, the test suite's) keeps the time it had left
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 0.001))
    if fired:  # the alarm's exception is lost where Python ignores them (a gc callback): the work still ran over
        raise RenderFailed(reason)


# Whose PDF a job renders: the name of its roster's kind (`lists.roster_kinds`).
ROSTER = roster_kinds.PACKS
BATTLESCRIBE = roster_kinds.DATA_SET


@task()
def render_pdf(
    share_id: str,
    kind: str,
    card: str,
    paper: str,
    merge: bool,
    subject: str = ROSTER,
    version: int = 0,
    notes: bool = False,
    link: str = "",
) -> int:
    """Render the cards or organiser's list of the roster `share_id` names (of the kind `subject`, asked for at
    its `version`) into the cache; returns the PDF's size in bytes. `notes`: the units' notes on the list;
    `link`: the share link the list and the first card print as a QR code."""
    try:
        roster = roster_kinds.kind_named(subject).open_shared(share_id)
    except (Http404, KeyError):
        raise RenderFailed("the roster no longer exists") from None
    if kind == "cards":
        _check_card_cap(roster.card_count())
    layout = Layout(card=card, paper=paper, merge=merge, notes=notes, link=link)
    try:
        with time_limit(settings.PDF_RENDER_SECONDS):
            pdf = roster.render_pdf(kind, layout, version)
    except RenderRefused as refused:
        raise RenderFailed(str(refused)) from None
    return len(pdf)


def _check_card_cap(units: int) -> None:
    if units > settings.PDF_MAX_CARD_UNITS:
        raise RenderFailed(
            f"the roster has {units} units; a cards PDF holds the cards of at most {settings.PDF_MAX_CARD_UNITS} units"
        )


def start(
    key: str, share_id: str, kind: str, layout: Layout, units: int = 0, subject: str = ROSTER, version: int = 0
) -> None:
    """Enqueue a render of this PDF (of a roster of `units` units; `subject` and `version` as `render_pdf` takes
    them), remember its job under the PDF's key, and wake the worker."""
    renderer = sized(render_pdf, heavy=units > HEAVY_UNITS)
    remember_job(
        key,
        renderer.enqueue(
            share_id,
            kind,
            layout.card,
            layout.paper,
            layout.merge,
            subject=subject,
            version=version,
            notes=layout.notes,
            link=layout.link,
        ),
    )
    transaction.on_commit(wake.ring)  # once the job is in the queue the worker reads


def remember_job(key: str, result) -> None:
    """Remember an enqueued render's job under its PDF's key, for follow()."""
    entry = {"id": result.id, "queued": time.time()}
    if result.status == TaskResultStatus.FAILED:  # a backend that runs tasks at once has finished already
        entry["reason"] = _reason(result)
    cache.set(f"job:{key}", entry, JOB_SECONDS)


def follow(key: str, renderer=None) -> PdfJob | None:
    """Where the render of this PDF (by `renderer`, the roster PDFs' task by default) has got to, or None if
    none is under way (or its record is gone)."""
    renderer = renderer or render_pdf
    entry = cache.get(f"job:{key}")
    if entry is None:
        return None
    if "reason" in entry:
        return PdfJob("failed", reason=entry["reason"])
    if not renderer.get_backend().supports_get_result:
        return None
    try:
        result = renderer.get_result(entry["id"])
    except (TaskResultDoesNotExist, Http404):  # pruned: start it again
        return None
    now = time.time()
    if result.status == TaskResultStatus.FAILED:
        return PdfJob("failed", reason=_reason(result))
    if result.status == TaskResultStatus.SUCCESSFUL:
        return PdfJob("done")
    if result.started_at is not None:
        seconds = int(now - result.started_at.timestamp())
        if seconds > settings.PDF_RENDER_SECONDS + WORKER_GRACE_SECONDS:  # its worker died: no render runs this long
            return PdfJob("failed", seconds, "the renderer stopped before it finished (it has been restarted)")
        return PdfJob("rendering", seconds)
    return PdfJob("queued", int(now - entry["queued"]))


def _reason(result) -> str:
    """Why a render failed, in words for the visitor: our own reasons as written, others by their kind."""
    error = result.errors[-1] if result.errors else None
    if error is not None and error.exception_class_path == f"{__name__}.RenderFailed":
        return error.traceback.strip().splitlines()[-1].split(": ", 1)[-1]
    return "the renderer stopped with an unexpected error"
