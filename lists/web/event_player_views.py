"""An event's players: its public page, submitting a list, and a player's own submission (replace, withdraw).

A player's list is theirs by a secret: a new submission gets one, shown once as
their submission link (/events/mine/<secret>/) and remembered by the browser
that submitted it (a cookie per event); only its SHA-256 is stored. Replacing
or withdrawing a list needs it; the organiser removes any list from their page.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.core import is_ratelimited

from lists import roster_kinds
from lists.event_models import Event, Submission
from lists.events import submitting
from lists.roster_kinds import RosterXml
from lists.rosters.sharing import hash_secret
from lists.web.event_forms import ListForm, SubmitForm, SubmitRosterForm
from lists.web.page_helpers import limit_creation, too_many_requests

REMEMBERED = 8  # submission secrets one browser keeps per event (a club secretary submitting for friends)
REMEMBER_FOR = timedelta(days=365)


def _private(response: HttpResponse) -> HttpResponse:
    """A page that depends on the player's cookie or shows their link: never stored, never indexed."""
    add_never_cache_headers(response)
    patch_vary_headers(response, ["Cookie"])
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _cookie(event: Event) -> str:
    return f"event-{event.public_id}"


def remembered(request: HttpRequest, event: Event) -> list[str]:
    """The submission secrets this browser keeps for the event."""
    value = request.COOKIES.get(_cookie(event), "")
    return [secret for secret in value.split(".") if 0 < len(secret) <= 100][:REMEMBERED]


def _remember(response: HttpResponse, request: HttpRequest, event: Event, secret: str, keep: bool = True) -> None:
    secrets = [secret] if keep else []
    secrets += [other for other in remembered(request, event) if other != secret]
    response.set_cookie(
        _cookie(event),
        ".".join(secrets[:REMEMBERED]),
        max_age=int(REMEMBER_FOR.total_seconds()),
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def _context(request: HttpRequest, event: Event, form: SubmitForm | None = None, new_secret: str = "", **extra) -> dict:
    submissions = list(event.submissions.all())
    owned = {hash_secret(secret) for secret in [new_secret, *remembered(request, event)] if secret}
    return {
        "event": event,
        "submissions": submissions,
        "mine": [s for s in submissions if s.owner_secret_hash and s.owner_secret_hash in owned],
        "form": form or SubmitForm(),
        "closed": submitting.closed_reason(event),
        "allowed": submitting.allowed_armies(event),
        **extra,
    }


def _verdict_context(request: HttpRequest, submitted: submitting.Submitted) -> dict:
    """What the player is told on submitting: the list's verdict under the event's rules, and their link once."""
    submission = submitted.submission
    link = ""
    if submitted.secret:
        link = request.build_absolute_uri(reverse("lists:event-mine", args=[submitted.secret]))
    done = f"{submission.player}'s list {'replaced the earlier one' if submitted.replaced else 'is submitted'}."
    return {"done": done, "verdict": submitting.summary(submission.event, submission), "link": link}


@require_GET
def public_event(request: HttpRequest, public_id: str) -> HttpResponse:
    event = submitting.event_for_public(public_id)
    return _private(render(request, "lists/event_public.html", _context(request, event)))


def _document(event: Event, form: ListForm) -> dict | RosterXml:
    """The list the form brings, as the event takes it (our roster's mapping, or a BattleScribe roster)."""
    if form.cleaned_data["file"] is not None:
        upload = form.cleaned_data["file"]
        return submitting.listing_from_file(event, upload.read(), upload.name or "")
    return submitting.listing_from_share_link(event, form.cleaned_data["share_link"])


def _submitted(request: HttpRequest, submitted: submitting.Submitted) -> HttpResponse:
    event = submitted.submission.event
    context = _context(request, event, new_secret=submitted.secret, **_verdict_context(request, submitted))
    response = render(request, "lists/event_public.html", context)
    if submitted.secret:
        _remember(response, request, event, submitted.secret)
    return _private(response)


@require_POST
def submit(request: HttpRequest, public_id: str) -> HttpResponse:
    """A player's list from a share link or a roster file; a refusal keeps what they typed and says why."""
    event = submitting.event_for_public(public_id)
    if is_ratelimited(request, group="create", key="ip", rate=settings.ROSTER_CREATE_RATE, increment=True):
        return too_many_requests(request, None)
    form = SubmitForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            player, secrets = form.cleaned_data["player"], remembered(request, event)
            return _submitted(request, submitting.submit(event, player, _document(event, form), secrets))
        except submitting.SubmissionRefused as refused:
            form.add_error(None, str(refused))
        event = submitting.event_for_public(public_id)  # as it is now: it may have locked meanwhile
    return _private(render(request, "lists/event_public.html", _context(request, event, form), status=400))


@require_POST
def submit_roster(request: HttpRequest, secret: str, kind: str = roster_kinds.PACKS) -> HttpResponse:
    """From a roster's editor (of any kind): submit the roster as it stands now to the event whose link (or the
    player's own submission link) is pasted."""
    roster = roster_kinds.kind_named(kind).open_for_edit(secret)
    return _submit_from_editor(request, roster.listing)


def _submit_from_editor(request: HttpRequest, listing) -> HttpResponse:
    if is_ratelimited(request, group="create", key="ip", rate=settings.ROSTER_CREATE_RATE, increment=True):
        return too_many_requests(request, None)
    form = SubmitRosterForm(request.POST)
    problems, event, player, secrets = [], None, "", []
    if form.is_valid():
        link = form.cleaned_data["event_link"]
        own = submitting.own_secret_from_link(link)
        if own is not None:
            found = Submission.objects.select_related("event__system", "event__data_set").filter(
                owner_secret_hash=hash_secret(own)
            )
            owned = found.first()
            event, player, secrets = (owned.event, owned.player, [own]) if owned else (None, "", [])
        else:
            public_id = submitting.public_id_from_link(link)
            event = Event.objects.select_related("system", "data_set").filter(public_id=public_id or "").first()
            player = form.cleaned_data["player"]
            secrets = remembered(request, event) if event else []
        if event is None:
            problems.append("No event has that link: paste the address of the event's page (…/events/…/).")
        elif not player:
            problems.append("Give the name you play under.")
    else:
        problems += [error for errors in form.errors.values() for error in errors]
    if not problems:
        try:
            return _submitted(request, submitting.submit(event, player, listing(), secrets))
        except submitting.SubmissionRefused as refused:
            problems.append(str(refused))
    context = {"title": "The list was not submitted", "problems": problems}
    return render(request, "lists/problems.html", context, status=400)


# --- a player's own submission ------------------------------------------------


@require_http_methods(["GET", "POST"])
@limit_creation
def own_submission(request: HttpRequest, secret: str) -> HttpResponse:
    """The player's list by their submission link: its verdict, and a form to replace it."""
    submission = submitting.submission_for_owner(secret)
    event = submission.event
    form, status, done = ListForm(), 200, ""
    if request.method == "POST":
        form = ListForm(request.POST, request.FILES)
        status = 400
        if form.is_valid():
            try:
                submitted = submitting.submit(event, submission.player, _document(event, form), [secret])
                submission, form, status = submitted.submission, ListForm(), 200
                done = f"{submission.player}'s list replaced the earlier one."
            except submitting.SubmissionRefused as refused:
                form.add_error(None, str(refused))
        event = Event.objects.select_related("system", "data_set").get(id=event.id)
    context = {
        "event": event,
        "submission": submission,
        "form": form,
        "done": done,
        "verdict": submitting.summary(event, submission),
        "closed": submitting.closed_reason(event),
        "allowed": submitting.allowed_armies(event),
        "secret": secret,
    }
    response = render(request, "lists/event_mine.html", context, status=status)
    _remember(response, request, event, secret)  # the browser the link is opened in may replace the list too
    return _private(response)


@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, secret: str) -> HttpResponse:
    """The player withdraws their list: a page asks first (no one-click delete), its form confirms."""
    submission = submitting.submission_for_owner(secret)
    event = submission.event
    context = {
        "title": f"Withdraw {submission.player}'s list?",
        "question": f"Withdraw {submission.player}'s list ({submission.roster_name}) from {event.name}? "
        "The organiser no longer sees it; you can submit again while the event takes lists.",
        "action": reverse("lists:event-withdraw", args=[secret]),
        "button": "Withdraw my list",
        "cancel": reverse("lists:event-mine", args=[secret]),
        "event": event,
    }
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            submitting.withdraw(secret)
        except submitting.SubmissionRefused as refused:
            context["problem"] = f"Your list stays: {refused}"
            return _private(render(request, "lists/event_confirm.html", context, status=409))
        done = f"{submission.player}'s list is withdrawn."
        response = render(request, "lists/event_public.html", _context(request, event, withdrawn=done))
        _remember(response, request, event, secret, keep=False)
        return _private(response)
    return _private(render(request, "lists/event_confirm.html", context))
