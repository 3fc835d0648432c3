"""Event pages: run an event, submit a list, the organiser's table, its exports and its print pack.

Every page works without JavaScript; every change is a POST form with CSRF.
The organiser's pages open by a secret link (stored as a hash), the public page
by the event's public id.
"""

from __future__ import annotations

import csv
import io
from functools import partial

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.core import is_ratelimited

from lists.cards import list_context
from lists.event_models import MAX_SUBMISSIONS, Event, Submission
from lists.events import print_pack, submitting
from lists.gamedata.loading import game_data
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id, roster_for_edit
from lists.web.event_forms import EventForm, SubmitForm, SubmitRosterForm
from lists.web.page_helpers import download_name, limit_creation, limit_pages, pdf_or_job, too_many_requests

SORTS = {
    "player": lambda row: row["submission"].player.casefold(),
    "army": lambda row: row["army"].casefold(),
    "points": lambda row: row["points"] if row["points"] is not None else -1,
    "order_dice": lambda row: row["order_dice"] if row["order_dice"] is not None else -1,
    "verdict": lambda row: row["valid"],
    "errors": lambda row: row["errors"],
    "warnings": lambda row: row["warnings"],
    "submitted": lambda row: row["submission"].submitted_at,
}
COLUMNS = [
    ("player", "Player"),
    ("army", "Army"),
    ("points", "Points"),
    ("order_dice", "Order dice"),
    ("verdict", "Verdict"),
    ("errors", "Errors"),
    ("warnings", "Warnings"),
]


def _noindex(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


# --- running an event ---------------------------------------------------------


@require_http_methods(["GET", "POST"])
@limit_creation
def new_event(request: HttpRequest) -> HttpResponse:
    """The form to run an event; creating it opens the organiser's page by its secret link."""
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        secret = new_edit_secret()
        Event.objects.create(
            public_id=new_share_id(),
            organiser_secret_hash=hash_secret(secret),
            name=data["name"].strip(),
            date=data["date"],
            system=data["game"],
            points_limit=data["points_limit"],
            max_order_dice=data["max_order_dice"],
            allowed_armies=data["allowed_armies"],
            year=data["year"],
            period=data["period"] or "",
            house_rules_allowed=data["house_rules_allowed"],
            deadline=data["deadline"],
        )
        return redirect(f"{reverse('lists:event-organiser', args=[secret])}?created=1")
    status = 400 if request.method == "POST" else 200
    return render(request, "lists/event_new.html", {"form": form}, status=status)


# --- the public page and submitting ------------------------------------------


def _public_context(event: Event, form: SubmitForm | None = None, **extra) -> dict:
    submissions = list(event.submissions.all())
    data = game_data(event.system)
    return {
        "event": event,
        "submissions": submissions,
        "form": form or SubmitForm(),
        "closed": submitting.closed_reason(event),
        "allowed": submitting.allowed_army_names(event, data),
        **extra,
    }


@require_GET
def public_event(request: HttpRequest, public_id: str) -> HttpResponse:
    event = submitting.event_for_public(public_id)
    return _noindex(render(request, "lists/event_public.html", _public_context(event)))


@require_POST
def submit(request: HttpRequest, public_id: str) -> HttpResponse:
    """A player's list from a share link or a roster file; a refusal keeps what they typed."""
    event = submitting.event_for_public(public_id)
    if is_ratelimited(request, group="create", key="ip", rate=settings.ROSTER_CREATE_RATE, increment=True):
        return too_many_requests(request, None)
    form = SubmitForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "lists/event_public.html", _public_context(event, form), status=400)
    try:
        if form.cleaned_data["file"] is not None:
            upload = form.cleaned_data["file"]
            document = submitting.document_from_file(upload.read(), upload.name or "")
        else:
            document = submitting.document_from_share_link(form.cleaned_data["share_link"])
        submission, replaced = submitting.submit(event, form.cleaned_data["player"].strip(), document)
    except submitting.SubmissionRefused as refused:
        form.add_error(None, str(refused))
        return render(request, "lists/event_public.html", _public_context(event, form), status=400)
    done = f"{submission.player}'s list {'replaced the earlier one' if replaced else 'is submitted'}."
    return render(request, "lists/event_public.html", _public_context(event, done=done))


@require_POST
def submit_roster(request: HttpRequest, secret: str) -> HttpResponse:
    """From a roster's editor: submit the roster as it stands now to the event whose link is pasted."""
    roster = roster_for_edit(secret)
    if is_ratelimited(request, group="create", key="ip", rate=settings.ROSTER_CREATE_RATE, increment=True):
        return too_many_requests(request, None)
    form = SubmitRosterForm(request.POST)
    problems = []
    event = None
    if form.is_valid():
        public_id = submitting.public_id_from_link(form.cleaned_data["event_link"])
        event = Event.objects.select_related("system").filter(public_id=public_id or "").first()
        if event is None:
            problems.append("No event has that link: paste the address of the event's page (…/events/…/).")
    else:
        problems += [error for errors in form.errors.values() for error in errors]
    if event is not None:
        try:
            submission, replaced = submitting.submit(
                event, form.cleaned_data["player"].strip(), submitting.document_from_roster(roster)
            )
        except submitting.SubmissionRefused as refused:
            problems.append(str(refused))
    if problems:
        context = {"title": "The list was not submitted", "problems": problems}
        return render(request, "lists/problems.html", context, status=400)
    done = f"{submission.player}'s list {'replaced the earlier one' if replaced else 'is submitted'}."
    return render(request, "lists/event_public.html", _public_context(event, done=done))


@require_GET
def public_submission(request: HttpRequest, public_id: str, submission_id: int) -> HttpResponse:
    """A submitted list, for opponents, once the organiser publishes the lists."""
    event = submitting.event_for_public(public_id)
    submission = get_object_or_404(Submission, event=event, id=submission_id)
    if not event.lists_published:
        context = {
            "title": "The lists are not published yet",
            "problems": ["The organiser has not published the lists."],
        }
        return render(request, "lists/problems.html", context, status=404)
    return _submission_page(request, event, submission, organiser_secret=None)


# --- the organiser's pages ----------------------------------------------------


def rows_for(event: Event, submissions: list[Submission]) -> list[dict]:
    rows = []
    for submission in submissions:
        found = submitting.summary(event, submission)
        errors = sum(1 for f in found["findings"] if f["severity"] == "error")
        rows.append({"submission": submission, **found, "errors": errors, "warnings": len(found["findings"]) - errors})
    return rows


@require_GET
@limit_pages
def organiser(request: HttpRequest, secret: str) -> HttpResponse:
    """Every submission with its verdict; `?sort=<column>` (`-` first: descending) and `?show=not-legal`."""
    event = submitting.event_for_organiser(secret)
    rows = rows_for(event, list(event.submissions.all()))
    sort = request.GET.get("sort", "submitted")
    descending = sort.startswith("-")
    rows.sort(key=SORTS.get(sort.lstrip("-"), SORTS["submitted"]), reverse=descending)
    not_legal = request.GET.get("show") == "not-legal"
    shown = [row for row in rows if not row["valid"]] if not_legal else rows
    context = {
        "event": event,
        "secret": secret,
        "rows": shown,
        "count": len(rows),
        "not_legal_count": sum(1 for row in rows if not row["valid"]),
        "not_legal": not_legal,
        "sort": sort,
        "columns": [(key, label, f"-{key}" if sort == key else key) for key, label in COLUMNS],
        "created": request.GET.get("created") == "1",
        "closed": submitting.closed_reason(event),
        "allowed": submitting.allowed_army_names(event, game_data(event.system)),
        "max_submissions": MAX_SUBMISSIONS,
        "public_url": request.build_absolute_uri(reverse("lists:event", args=[event.public_id])),
        "organiser_url": request.build_absolute_uri(reverse("lists:event-organiser", args=[secret])),
    }
    return _noindex(render(request, "lists/event_organiser.html", context))


@require_POST
def organiser_action(request: HttpRequest, secret: str, action: str) -> HttpResponse:
    """Lock, reopen, publish or withdraw the lists."""
    event = submitting.event_for_organiser(secret)
    changes = {"lock": {"locked": True}, "reopen": {"locked": False}}
    changes |= {"publish": {"lists_published": True}, "unpublish": {"lists_published": False}}
    if action not in changes:
        raise Http404
    Event.objects.filter(id=event.id).update(**changes[action])
    return redirect("lists:event-organiser", secret=secret)


@require_POST
def remove_submission(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    Submission.objects.filter(event=event, id=submission_id).delete()
    return redirect("lists:event-organiser", secret=secret)


def _submission_page(request, event: Event, submission: Submission, organiser_secret: str | None) -> HttpResponse:
    """The frozen list, read-only, judged under the event's rules."""
    try:
        checked = submitting.check(event, submission)
    except Exception:  # noqa: BLE001 - the game's data changed under the frozen list: say so, never 500
        context = {
            "title": "This list cannot be shown",
            "problems": ["The list no longer reads against the game's data."],
        }
        return render(request, "lists/problems.html", context, status=409)
    context = list_context(checked.snapshot, checked.data, checked.verdict, submitting.pack_versions(event))
    context |= {
        "event": event,
        "submission": submission,
        "secret": organiser_secret,
        "fingerprint": submission.fingerprint,
    }
    return _noindex(render(request, "lists/event_submission.html", context))


@require_GET
def organiser_submission(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    submission = get_object_or_404(Submission, event=event, id=submission_id)
    return _submission_page(request, event, submission, organiser_secret=secret)


def export_rows(request: HttpRequest, secret: str, event: Event) -> list[dict]:
    """The submissions as the JSON export lists them."""
    return [
        {
            "player": row["submission"].player,
            "roster_name": row["submission"].roster_name,
            "army": row["army"],
            "points": row["points"],
            "order_dice": row["order_dice"],
            "valid": row["valid"],
            "findings": [{key: f[key] for key in ("code", "severity", "message")} for f in row["findings"]],
            "fingerprint": row["submission"].fingerprint,
            "submitted_at": row["submission"].submitted_at.isoformat(),
            "url": request.build_absolute_uri(reverse("lists:event-submission", args=[secret, row["submission"].id])),
        }
        for row in rows_for(event, list(event.submissions.all()))
    ]


@require_GET
def submissions_json(request: HttpRequest, secret: str) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    head = {
        "name": event.name,
        "game": event.system.key,
        "points_limit": event.points_limit,
        "deadline": event.deadline.isoformat(),
        "locked": event.locked,
    }
    response = JsonResponse({"event": head, "submissions": export_rows(request, secret, event)})
    return _noindex(response)


@require_GET
def submissions_csv(request: HttpRequest, secret: str) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "player",
            "roster_name",
            "army",
            "points",
            "order_dice",
            "valid",
            "errors",
            "warnings",
            "findings",
            "fingerprint",
            "submitted_at",
            "url",
        ]
    )
    for row in export_rows(request, secret, event):
        errors = sum(1 for f in row["findings"] if f["severity"] == "error")
        findings = "; ".join(f"{f['code']}: {f['message']}" for f in row["findings"])
        values = [row["player"], row["roster_name"], row["army"], row["points"], row["order_dice"], row["valid"]]
        values += [errors, len(row["findings"]) - errors, findings, row["fingerprint"], row["submitted_at"], row["url"]]
        writer.writerow(_safe_cell(value) for value in values)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=download_name(event, "-submissions.csv")
    )
    return _noindex(response)


def _safe_cell(value) -> str:
    """A CSV cell a spreadsheet shows as text: a player's name starting with = + - @ is not run as a formula."""
    text = "" if value is None else str(value)
    return f"'{text}" if text[:1] in {"=", "+", "-", "@", "\t", "\r"} else text


# --- the print pack and each player's cards -----------------------------------


def _deliver(request: HttpRequest, event: Event, key: str, filename: str, start, follow=print_pack.follow):
    """The PDF if it is cached; else start its render (within the client's budget) and show a waiting page."""
    pdf, job, refusal = pdf_or_job(request, key, follow, start)
    if refusal is not None:
        return refusal
    if pdf is not None:
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
        return _noindex(response)
    job = job or print_pack.PdfJob("queued")
    status = 503 if job.state == "failed" else 202
    context = {"event": event, "job": job, "filename": filename, "retry_url": f"{request.path}?retry=1"}
    return _noindex(render(request, "lists/event_pdf_status.html", context, status=status))


@require_GET
@limit_pages
def pack(request: HttpRequest, secret: str) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    submissions = list(event.submissions.all())
    key = print_pack.pack_key(event, submissions)
    start = partial(print_pack.start_pack, key, event, submissions)
    follow = partial(print_pack.follow_pack, event=event, submissions=submissions)
    return _deliver(request, event, key, download_name(event, "-print-pack.pdf"), start, follow)


@require_GET
@limit_pages
def submission_cards(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    submission = get_object_or_404(Submission, event=event, id=submission_id)
    try:
        key = print_pack.cards_key(event, submission)
    except Exception:  # noqa: BLE001 - a list the game's data no longer reads: say so, never 500
        context = {
            "title": "These cards cannot be made",
            "problems": ["The list no longer reads against the game's data."],
        }
        return render(request, "lists/problems.html", context, status=409)
    filename = download_name(event, f"-{slugify(submission.player)[:40] or 'player'}-cards.pdf")
    units = print_pack.document_units(submission.document)
    return _deliver(
        request, event, key, filename, partial(print_pack.start, key, event.public_id, "cards", submission.id, units)
    )
