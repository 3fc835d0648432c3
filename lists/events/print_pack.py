"""An event's print pack and each player's cards, rendered in the background like every other PDF.

The tasks run on the site's task backend (lists.pdfs.tasks: Django's Tasks API) and
leave the PDF in the shared cache under its key; the views follow the jobs the
way the roster PDFs do. The pack is a cover page with the table of lists, then
each submission's organiser's list. Each list is a job of its own, queued behind
lighter work (`lists.pdfs.tasks.sized`), so players' PDFs go between them and no
job runs long; each is cached on its own, so a new submission (or "Try again")
renders only the lists not yet made. The job that makes the last list puts the
pack together (a cover and the cached lists, no render of them again).
"""

from __future__ import annotations

import hashlib
import io
import time
from dataclasses import replace
from types import SimpleNamespace

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import Http404
from django.template.loader import render_to_string
from django_tasks import TaskResultStatus, task
from django_tasks.exceptions import TaskResultDoesNotExist

from lists.cards import Layout, cards_pdf, list_context, pdf_key, render_pdf
from lists.cards.layout import CACHE_SECONDS
from lists.event_models import Event, Submission
from lists.events import data_set_lists, submitting
from lists.pdfs import tasks, wake
from lists.pdfs.tasks import PdfJob, RenderFailed, sized, time_limit


def pack_key(event: Event, submissions: list[Submission]) -> str:
    """The pack changes with the event's rules and with any submission (its content or its time)."""
    parts = [submitting.settings_digest(event), event.name, str(event.date)]
    parts += [f"{s.id}:{s.player}:{s.fingerprint}:{s.submitted_at.isoformat()}" for s in submissions]
    return f"pdf:event-pack:{event.public_id}:{hashlib.sha256('|'.join(parts).encode()).hexdigest()}"


def _prints(event: Event):
    """How the event's lists are printed: `PACK_PRINTS` below, or `data_set_lists`'s for a data set's."""
    return submitting.of_kind(event, PACK_PRINTS, data_set_lists)


def cards_key(event: Event, submission: Submission) -> str:
    return _prints(event).cards_key(event, submission)


def card_units(event: Event, submission: Submission) -> int:
    """How many units a submission's cards print (the size its render is queued by)."""
    return _prints(event).card_units(event, submission)


def submission_cards_pdf(event: Event, submission: Submission) -> bytes:
    """One submission's unit cards, as its game prints them."""
    return _prints(event).cards_pdf(event, submission)


def list_key(event: Event, submission: Submission) -> str:
    return f"pdf:event-list:{submitting.settings_digest(event)}:{submission.player}:{submission.fingerprint}"


def list_page(event: Event, submission: Submission) -> bytes:
    """One submission's organiser's list, under the event's rules, headed by the player's name."""
    key = list_key(event, submission)
    pdf = cache.get(key)
    if pdf is None:
        pdf = _prints(event).list_pdf(event, submission)
        cache.set(key, pdf, CACHE_SECONDS)
    return pdf


def _pack_cards_key(event: Event, submission: Submission) -> str:
    checked = submitting.check(event, submission)
    return pdf_key("cards", checked.snapshot, checked.data, Layout())


def _pack_cards_pdf(event: Event, submission: Submission) -> bytes:
    checked = submitting.check(event, submission)
    return cards_pdf(checked.snapshot, checked.data, Layout())


def _pack_list_pdf(event: Event, submission: Submission) -> bytes:
    checked = submitting.check(event, submission)
    context = list_context(checked.snapshot, checked.data, checked.verdict, submitting.pack_versions(event))
    context["roster"] = replace(checked.snapshot, name=f"{submission.player}: {checked.snapshot.name}")
    context["fingerprint"] = submission.fingerprint  # the list as submitted, as the player's own print shows
    return render_pdf(render_to_string("cards/list.html", context))


# Lists of our own games, printed; `data_set_lists` prints a data set's the same way.
PACK_PRINTS = SimpleNamespace(
    cards_key=_pack_cards_key,
    card_units=lambda event, submission: document_units(submission.document),
    cards_pdf=_pack_cards_pdf,
    list_pdf=_pack_list_pdf,
)


def lists_ready(event: Event, submissions: list[Submission]) -> list[Submission]:
    """The submissions whose organiser's list is cached."""
    keys = {list_key(event, submission): submission for submission in submissions}
    return [keys[key] for key in cache.get_many(list(keys))]


def pack_pdf(event: Event, submissions: list[Submission], rows: list[dict]) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    cover = render_pdf(render_to_string("lists/event_pack_cover.html", {"event": event, "rows": rows}))
    for pdf in [cover, *(list_page(event, submission) for submission in submissions)]:
        writer.append(io.BytesIO(pdf))
    _number_pages(writer, event)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _number_pages(writer, event: Event) -> None:
    """Each page of the pack numbered across the pack ("Spring Offensive: pack page 3 of 9", bottom left):
    each list, rendered on its own, numbers only its own pages ("page 1 of 1")."""
    from pypdf import PdfReader

    pages = ["wide" if float(page.mediabox.width) > float(page.mediabox.height) else "tall" for page in writer.pages]
    html = render_to_string("lists/event_pack_numbers.html", {"event": event, "pages": pages})
    numbers = PdfReader(io.BytesIO(render_pdf(html)))
    for page, number in zip(writer.pages, numbers.pages, strict=True):
        page.merge_page(number)


def _assemble(event: Event, submissions: list[Submission]) -> bytes:
    rows = [{"submission": s, **submitting.summary(event, s)} for s in submissions]
    pdf = pack_pdf(event, submissions, rows)
    cache.set(pack_key(event, submissions), pdf, CACHE_SECONDS)
    return pdf


@task()
def render_event_pdf(public_id: str, kind: str, submission_id: int) -> int:
    """Render one submission's organiser's list for the pack (kind "list"; the pack itself once every list is
    ready), the whole pack from the lists ("pack") or one submission's cards ("cards") into the cache."""
    event = Event.objects.select_related("system", "data_set").filter(public_id=public_id).first()
    if event is None:
        raise RenderFailed("the event no longer exists")
    submissions = list(event.submissions.all())
    with time_limit(settings.PDF_RENDER_SECONDS):
        if kind == "pack":
            return len(_assemble(event, submissions))
        submission = next((s for s in submissions if s.id == submission_id), None)
        if submission is None:
            raise RenderFailed("the submission was removed")
        if kind == "list":
            pdf = list_page(event, submission)
            if len(lists_ready(event, submissions)) == len(submissions):  # the last list: the pack is ready
                _assemble(event, submissions)
            return len(pdf)
        pdf = submission_cards_pdf(event, submission)
        cache.set(cards_key(event, submission), pdf, CACHE_SECONDS)
    return len(pdf)


def document_units(document: dict) -> int:
    """How many units a submitted roster file's mapping holds (its own, and its forces')."""
    forces = document.get("forces") or []
    return len(document.get("units") or []) + sum(
        len(force.get("units") or []) for force in forces if isinstance(force, dict)
    )


def start(key: str, public_id: str, kind: str, submission_id: int = 0, units: int = 0) -> None:
    """Enqueue the render of a player's cards (kind "cards", of `units` units)."""
    renderer = sized(render_event_pdf, heavy=units > tasks.HEAVY_UNITS)
    tasks.remember_job(key, renderer.enqueue(public_id, kind, submission_id))
    transaction.on_commit(wake.ring)


def start_pack(key: str, event: Event, submissions: list[Submission]) -> None:
    """Enqueue a job for each list of the pack not yet made (or, if all are, one that puts the pack together)."""
    ready = {submission.id for submission in lists_ready(event, submissions)}
    missing = [submission for submission in submissions if submission.id not in ready]
    renderer = sized(render_event_pdf, heavy=True)
    jobs = [renderer.enqueue(event.public_id, "list", submission.id) for submission in missing]
    if not missing:
        jobs = [render_event_pdf.enqueue(event.public_id, "pack", 0)]
    entry = {"ids": [job.id for job in jobs], "queued": time.time()}
    failed = [job for job in jobs if job.status == TaskResultStatus.FAILED]  # a backend running tasks at once
    if failed:
        entry["reason"] = tasks._reason(failed[0])
    cache.set(f"job:{key}", entry, tasks.JOB_SECONDS)
    transaction.on_commit(wake.ring)


def follow(key: str) -> PdfJob | None:
    """Where this PDF's render has got to: lists.pdfs.tasks.follow, for the event's task."""
    return tasks.follow(key, render_event_pdf)


def follow_pack(key: str, event: Event, submissions: list[Submission]) -> PdfJob | None:
    """Where the pack's jobs have got to, with how many of its lists are ready; None if none is under way."""
    entry = cache.get(f"job:{key}")
    if entry is None or "ids" not in entry:
        return None
    done, parts = len(lists_ready(event, submissions)), len(submissions)
    if "reason" in entry:
        return PdfJob("failed", reason=entry["reason"], done=done, parts=parts)
    states = []
    for job_id in entry["ids"]:
        try:
            states.append(render_event_pdf.get_result(job_id))
        except (TaskResultDoesNotExist, Http404):  # pruned: start what is missing again
            return None
    failed = [result for result in states if result.status == TaskResultStatus.FAILED]
    if failed:
        return PdfJob("failed", reason=tasks._reason(failed[0]), done=done, parts=parts)
    if all(result.status == TaskResultStatus.SUCCESSFUL for result in states):
        return PdfJob("done", done=done, parts=parts)
    running = [time.time() - r.started_at.timestamp() for r in states if r.started_at is not None and not r.is_finished]
    if any(seconds > settings.PDF_RENDER_SECONDS + tasks.WORKER_GRACE_SECONDS for seconds in running):
        reason = "the renderer stopped before it finished (it has been restarted)"
        return PdfJob("failed", reason=reason, done=done, parts=parts)
    if running or done:
        return PdfJob("rendering", int(max(running, default=0)), done=done, parts=parts)
    return PdfJob("queued", int(time.time() - entry["queued"]), done=done, parts=parts)
