"""What every roster page shares: request budgets, whole numbers from forms, problem pages, downloads and PDFs."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

from lists import models
from lists.rosters import numbers
from lists.rosters.files import MAX_FILE_BYTES


def _creation_rate(group, request) -> str:
    return settings.ROSTER_CREATE_RATE


# Creating rosters and rendering PDFs cost the server most: each client address gets a budget
# (PDF renders are counted where they start, so following one costs nothing).
limit_creation = ratelimit(key="ip", rate=_creation_rate, method="POST", group="create", block=True)


def _page_rate(group, request) -> str:
    return settings.PAGE_RATE


# The pages that cost most to build (a 400-unit roster's editor, the organiser's page of 256 lists, PDFs):
# each client address gets a budget of GETs, so a few clients asking over and over cannot hold every web thread.
limit_pages = ratelimit(key="ip", rate=_page_rate, method="GET", group="pages", block=True)


def _edit_rate(group, request) -> str:
    return settings.EDIT_RATE


# Every change to a roster of any kind is a POST that rewrites it: each client address gets a budget of them.
limit_edits = ratelimit(key="ip", rate=_edit_rate, method="POST", group="edits", block=True)


def adds_limited(request: HttpRequest) -> bool:
    """Units are added one POST at a time, to a roster of any kind: a client may add only so many a minute."""
    return is_ratelimited(request, group="edit-units", key="ip", rate=settings.UNIT_ADD_RATE, increment=True)


def too_many_requests(request: HttpRequest, exception) -> HttpResponse:
    response = render(
        request,
        "lists/problems.html",
        {
            "title": "Too many requests",
            "problems": [
                "You have sent many requests of this kind in a short time. Please wait a minute and try again."
            ],
        },
        status=429,
    )
    response["Retry-After"] = "60"
    return response


def whole_number(value) -> int | None:
    """A form field's whole number: ASCII digits only, short enough for any database column, else None."""
    return numbers.whole_number(value, signed=True)


def problems_page(request: HttpRequest, problems: list[str], title: str = "That did not work") -> HttpResponse:
    return render(request, "lists/problems.html", {"title": title, "problems": problems}, status=400)


def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    """Django's answer to a request it refuses before any view runs, such as a body over the size limit."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        problems = [
            f"What you sent is larger than {limit:,} KB, so it was not read. "
            f"A roster file may be at most {MAX_FILE_BYTES // 1024:,} KB: upload or paste a smaller file."
        ]
        return problems_page(request, problems, title="The roster file is too large")
    return problems_page(request, ["The request could not be read. Please go back and try again."])


def download_name(roster: models.Roster, suffix: str) -> str:
    """A download's file name, after the roster: `normandy-june-1944-list.pdf`."""
    return f"{slugify(roster.name, allow_unicode=True)[:80] or 'roster'}{suffix}"


def download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def pdf_or_job(request: HttpRequest, key: str, follow, start) -> tuple[bytes | None, object, HttpResponse | None]:
    """A PDF from the cache, else the job rendering it: started (`start()`) when none runs or the client retries
    a failed one, within the client's PDF budget. Returns the PDF, the job `follow(key)` reports, and the
    refusal to send instead when the budget is spent."""
    pdf = cache.get(key)
    job = None if pdf is not None else follow(key)
    if pdf is None and (job is None or job.state == "done" or (job.state == "failed" and request.GET.get("retry"))):
        if is_ratelimited(request, group="pdf", key="ip", rate=settings.PDF_RATE, increment=True):
            return None, None, too_many_requests(request, None)
        start()
        pdf = cache.get(key)  # a backend that runs tasks at once has finished already
        job = None if pdf is not None else follow(key)
    return pdf, job, None
