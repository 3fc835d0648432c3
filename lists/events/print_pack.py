"""An event's print pack and each player's cards, rendered in the background like every other PDF.

The task runs on the site's task backend (lists.pdfs.tasks: Django's Tasks API) and
leaves the PDF in the shared cache under its key; the views follow the job the
way the roster PDFs do. The pack is a cover page with the table of lists, then
each submission's organiser's list (cached one by one, so a new submission
renders one more list, not the whole pack).
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import replace

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django_tasks import task

from lists.cards import Layout, cards_pdf, list_context, pdf_key, render_pdf
from lists.cards.layout import CACHE_SECONDS
from lists.event_models import Event, Submission
from lists.events import submitting
from lists.pdfs import tasks
from lists.pdfs.tasks import PdfJob, RenderFailed, time_limit


def pack_key(event: Event, submissions: list[Submission]) -> str:
    """The pack changes with the event's rules and with any submission (its content or its time)."""
    parts = [submitting.settings_digest(event), event.name, str(event.date)]
    parts += [f"{s.id}:{s.player}:{s.fingerprint}:{s.submitted_at.isoformat()}" for s in submissions]
    return f"pdf:event-pack:{event.public_id}:{hashlib.sha256('|'.join(parts).encode()).hexdigest()}"


def cards_key(event: Event, submission: Submission) -> str:
    checked = submitting.check(event, submission)
    return pdf_key("cards", checked.snapshot, checked.data, Layout())


def list_page(event: Event, submission: Submission) -> bytes:
    """One submission's organiser's list, under the event's rules, headed by the player's name."""
    key = f"pdf:event-list:{submitting.settings_digest(event)}:{submission.player}:{submission.fingerprint}"
    pdf = cache.get(key)
    if pdf is None:
        checked = submitting.check(event, submission)
        context = list_context(checked.snapshot, checked.data, checked.verdict, submitting.pack_versions(event))
        context["roster"] = replace(checked.snapshot, name=f"{submission.player}: {checked.snapshot.name}")
        context["fingerprint"] = submission.fingerprint  # the list as submitted, as the player's own print shows
        pdf = render_pdf(render_to_string("cards/list.html", context))
        cache.set(key, pdf, CACHE_SECONDS)
    return pdf


def pack_pdf(event: Event, submissions: list[Submission], rows: list[dict]) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    cover = render_pdf(render_to_string("lists/event_pack_cover.html", {"event": event, "rows": rows}))
    for pdf in [cover, *(list_page(event, submission) for submission in submissions)]:
        writer.append(io.BytesIO(pdf))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@task()
def render_event_pdf(public_id: str, kind: str, submission_id: int) -> int:
    """Render an event's pack (kind "pack") or one submission's cards ("cards") into the cache."""
    event = Event.objects.select_related("system").filter(public_id=public_id).first()
    if event is None:
        raise RenderFailed("the event no longer exists")
    submissions = list(event.submissions.all())
    with time_limit(settings.PDF_RENDER_SECONDS):
        if kind == "pack":
            rows = [{"submission": s, **submitting.summary(event, s)} for s in submissions]
            pdf = pack_pdf(event, submissions, rows)
            key = pack_key(event, submissions)
        else:
            submission = next((s for s in submissions if s.id == submission_id), None)
            if submission is None:
                raise RenderFailed("the submission was removed")
            checked = submitting.check(event, submission)
            pdf = cards_pdf(checked.snapshot, checked.data, Layout())
            key = pdf_key("cards", checked.snapshot, checked.data, Layout())
    cache.set(key, pdf, CACHE_SECONDS)
    return len(pdf)


def start(key: str, public_id: str, kind: str, submission_id: int = 0) -> None:
    tasks.remember_job(key, render_event_pdf.enqueue(public_id, kind, submission_id))


def follow(key: str) -> PdfJob | None:
    """Where this PDF's render has got to: lists.pdfs.tasks.follow, for the event's task."""
    return tasks.follow(key, render_event_pdf)
