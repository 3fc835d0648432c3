"""Event pages: run an event, submit a list, the organiser's table, its exports and its print pack; a list's
page as its kind shows it (a data set's list read again by the engine, and its .ros as submitted).

Every page works without JavaScript; every change is a POST form with CSRF.
The organiser's pages open by a secret link (stored as a hash), the public page
by the event's public id.
"""

from __future__ import annotations

import csv
import io
import re
from functools import partial

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from lists.cards import list_context
from lists.event_models import MAX_SUBMISSIONS, Event, Submission
from lists.events import data_set_lists, print_pack, submitting
from lists.roster_kinds.data_set_shape import roster_shape
from lists.rosters.format import RosterFileInvalid
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
from lists.web.event_forms import EventForm
from lists.web.page_helpers import download, download_name, limit_creation, limit_pages, pdf_or_job

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
    form = EventForm(request.POST) if request.method == "POST" else EventForm(initial=_initial(request))
    if request.htmx and request.method == "GET":  # the game changed: its armies
        return render(request, "lists/event_new.html#pack-fields", {"form": form})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        secret = new_edit_secret()
        Event.objects.create(
            public_id=new_share_id(),
            organiser_secret_hash=hash_secret(secret),
            name=data["name"].strip(),
            date=data["date"],
            system=data["system"],  # one of our games, or a loaded BattleScribe data set at its revision
            data_set=data["data_set"],
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


def _initial(request: HttpRequest) -> dict:
    """What the form was filled with when the organiser asked for another game's armies (`?game=`)."""
    initial = {name: request.GET[name] for name in EventForm.base_fields if request.GET.get(name)}
    initial["allowed_armies"] = request.GET.getlist("allowed_armies")
    return initial


# --- the published lists ------------------------------------------------------


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
        "columns": [
            (key, label, f"-{key}" if sort == key else key)
            for key, label in COLUMNS
            if key != "order_dice" or submitting.lists_of(event).order_dice  # a data set's game has none here
        ],
        "created": request.GET.get("created") == "1",
        "removed": request.GET.get("removed") == "1",
        "closed": submitting.closed_reason(event),
        "allowed": submitting.allowed_armies(event),
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


@require_http_methods(["GET", "POST"])
def remove_submission(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    """Remove a player's list: a page asks first (no one-click delete), its form confirms."""
    event = submitting.event_for_organiser(secret)
    submission = get_object_or_404(Submission, event=event, id=submission_id)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        submission.delete()
        return redirect(f"{reverse('lists:event-organiser', args=[secret])}?removed=1")
    context = {
        "title": f"Remove {submission.player}'s list?",
        "question": f"Remove {submission.player}'s list ({submission.roster_name}, {submission.army_name}) from "
        f"{event.name}? It cannot be brought back: the player would have to submit it again.",
        "action": reverse("lists:event-remove", args=[secret, submission.id]),
        "button": f"Remove {submission.player}'s list",
        "cancel": reverse("lists:event-organiser", args=[secret]),
        "event": event,
    }
    return _noindex(render(request, "lists/event_confirm.html", context))


def _submission_page(request, event: Event, submission: Submission, organiser_secret: str | None) -> HttpResponse:
    """The frozen list, read-only, judged under the event's rules, as the kind of list it is shows it."""
    show = submitting.of_kind(event, _pack_submission_page, _data_set_submission_page)
    return show(request, event, submission, organiser_secret)


def _pack_submission_page(request, event: Event, submission: Submission, organiser_secret: str | None):
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


def _data_set_submission_page(request, event: Event, submission: Submission, organiser_secret: str | None):
    """A data set's frozen list read again against the event's data set, with the event's points limit."""
    try:
        found = data_set_lists.check(event, submission)
    except RosterFileInvalid as invalid:
        problems = ["The list no longer reads against the event's data:", *(str(p) for p in invalid.problems[:5])]
        context = {"title": "This list cannot be shown", "problems": problems}
        return render(request, "lists/problems.html", context, status=409)
    context = {
        "event": event,
        "submission": submission,
        "secret": organiser_secret,
        "shape": roster_shape(found.roster, with_offers=False),
        "verdict": submitting.summary(event, submission),
    }
    return _noindex(render(request, "lists/event_bs_submission.html", context))


@require_GET
def submission_ros(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    """For the organiser: a BattleScribe list's .ros exactly as it was submitted (for BattleScribe or New Recruit)."""
    event = submitting.event_for_organiser(secret)
    submission = get_object_or_404(Submission, event=event, id=submission_id, ros_xml__gt="")
    filename = download_name(event, f"-{slugify(submission.player)[:40] or 'player'}.ros")
    return download(submission.ros_xml.encode(), "application/xml; charset=utf-8", filename)


@require_GET
def organiser_submission(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    submission = get_object_or_404(Submission, event=event, id=submission_id)
    return _submission_page(request, event, submission, organiser_secret=secret)


def export_rows(request: HttpRequest, event: Event) -> list[dict]:
    """The submissions as the JSON export lists them: nothing in them holds the organiser's secret."""
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
            # The list's public page, never the organiser's (its address is the organiser's secret, and an
            # export is passed around): it opens once the lists are published; `id` is its number.
            "id": row["submission"].id,
            "list_url": request.build_absolute_uri(
                reverse("lists:event-list", args=[event.public_id, row["submission"].id])
            ),
        }
        for row in rows_for(event, list(event.submissions.all()))
    ]


@require_GET
def submissions_json(request: HttpRequest, secret: str) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    head = {
        "name": event.name,
        "points_limit": event.points_limit,
        "deadline": event.deadline.isoformat(),
        "locked": event.locked,
        **submitting.lists_of(event).game_fields(event),  # its game (and a data set's revision)
    }
    response = JsonResponse({"event": head, "submissions": export_rows(request, event)})
    return _noindex(response)


@require_GET
def submissions_csv(request: HttpRequest, secret: str) -> HttpResponse:
    event = submitting.event_for_organiser(secret)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)  # a cell holding ; or a tab stays one cell in any locale
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
            "id",
            "list_url",
        ]
    )
    for row in export_rows(request, event):
        errors = sum(1 for f in row["findings"] if f["severity"] == "error")
        findings = "; ".join(f"{f['code']}: {f['message']}" for f in row["findings"])
        values = [row["player"], row["roster_name"], row["army"], row["points"], row["order_dice"], row["valid"]]
        values += [errors, len(row["findings"]) - errors, findings, row["fingerprint"], row["submitted_at"]]
        values += [row["id"], row["list_url"]]
        writer.writerow(_safe_cell(value) for value in values)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=download_name(event, "-submissions.csv")
    )
    return _noindex(response)


# A spreadsheet runs a cell starting with one of these as a formula (OWASP's list, "CSV injection").
# A separator before one starts a cell too where the spreadsheet splits on it (Excel in most of Europe
# splits on ";", and on tabs when pasted), so each is neutralised after any of them, spaces between.
FORMULA_START = re.compile(r"(?:^|(?<=[,;\t\r\n])) *(?=[=+\-@\t\r])")


def _safe_cell(value) -> str:
    """A CSV cell a spreadsheet shows as text, whichever delimiter it splits on: a single quote goes before
    every = + - @ tab or CR that would start a cell (`=1+1` is written `'=1+1`, `a;=1+1` `a;'=1+1`)."""
    text = "" if value is None else str(value)
    return FORMULA_START.sub(lambda start: start.group() + "'", text)


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

    def start() -> None:  # the list is read for its size only when a render is queued, not on every poll
        print_pack.start(key, event.public_id, "cards", submission.id, print_pack.card_units(event, submission))

    return _deliver(request, event, key, filename, start)
