"""Event pages of a BattleScribe data set's lists: a frozen list as the organiser and opponents read it, and
its .ros as submitted. The table, exports and submitting are the event pages' own (event_views and
event_player_views), which call here for what only such a list has."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from lists.event_models import Event, Submission
from lists.events import battlescribe_submitting, submitting
from lists.roster_kinds.data_set_shape import roster_shape
from lists.rosters.format import RosterFileInvalid
from lists.web.page_helpers import download, download_name


def submission_page(request: HttpRequest, event: Event, submission: Submission, organiser_secret: str | None):
    """The frozen list read again against the event's data set, with the event's points limit, read-only."""
    try:
        found = battlescribe_submitting.check(event, submission)
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
    response = render(request, "lists/event_bs_submission.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def submission_ros(request: HttpRequest, secret: str, submission_id: int) -> HttpResponse:
    """For the organiser: a BattleScribe list's .ros exactly as it was submitted (for BattleScribe or New Recruit)."""
    event = submitting.event_for_organiser(secret)
    submission = get_object_or_404(Submission, event=event, id=submission_id, ros_xml__gt="")
    filename = download_name(event, f"-{slugify(submission.player)[:40] or 'player'}.ros")
    return download(submission.ros_xml.encode(), "application/xml; charset=utf-8", filename)
