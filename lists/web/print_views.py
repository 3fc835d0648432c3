"""The PDFs: served from the cache, else rendered by the task worker while the page waits for the job.

The views serve a roster of any kind (`lists.roster_kinds`, named by the URL conf); `deliver` is every PDF's way
out, an event's print pack's too."""

from __future__ import annotations

from functools import partial

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from lists import roster_kinds
from lists.cards import Layout
from lists.pdfs import tasks, waits
from lists.web.page_helpers import download, download_name, limit_pages, pdf_or_job, problems_page


@require_GET
@limit_pages
def cards(request: HttpRequest, share_id: str, kind: str = roster_kinds.PACKS) -> HttpResponse:
    """The unit cards PDF: served from the cache, else rendered in the background while a page waits."""
    roster = roster_kinds.kind_named(kind).open_shared(share_id)
    try:
        layout = Layout(
            card=request.GET.get("card", "poker"),
            paper=request.GET.get("paper", "a4"),
            merge=request.GET.get("merge") in {"1", "on", "true"},
            link=request.build_absolute_uri(roster.share_url()),  # the first card carries it as a QR code
        )
    except ValueError as problem:
        return problems_page(request, [str(problem)], title="Those card settings are not available")
    return _deliver(request, roster, "cards", layout)


@require_GET
@limit_pages
def army_list(request: HttpRequest, share_id: str, kind: str = roster_kinds.PACKS) -> HttpResponse:
    """The organiser's list PDF, delivered like the cards; `?notes=1` prints the units' notes on it."""
    roster = roster_kinds.kind_named(kind).open_shared(share_id)
    link = request.build_absolute_uri(roster.share_url())  # printed as a QR code
    return _deliver(request, roster, "list", Layout(notes=request.GET.get("notes") == "1", link=link))


PDF_NAMES = {"cards": "the unit cards", "list": "the organiser's list"}


def _deliver(request, roster: roster_kinds.OpenRoster, what: str, layout: Layout) -> HttpResponse:
    """A roster's PDF of any kind, cached under the key its kind gives it, rendered by the PDF task."""
    key = roster.pdf_key(what, layout)
    units = roster.unit_count()
    start = partial(tasks.start, key, roster.share_id, what, layout, units, subject=roster.kind, version=roster.version)
    suffix = roster.pdf_suffix(what, layout)
    return deliver(request, roster.row, what, key, start, units, roster.share_url(), suffix)


def deliver(request, roster, kind: str, key: str, start, units: int, share_url: str, suffix: str) -> HttpResponse:
    """The PDF cached under `key` if it is ready; else `start()` its render (within the client's budget) and show
    its progress. `roster` (ours or a stored BattleScribe one) names the file, ending in `suffix`; `share_url` is its page.

    `?wait=1` asks for the progress page (htmx follows it, browsers without
    JavaScript refresh it); when the PDF is ready it opens a page that fetches it.
    `?hold=1` holds the request until the PDF is ready (`lists.pdfs.waits`): the
    download script's long-poll, and the progress page's. `?retry=1` starts a failed render again.
    """
    what = PDF_NAMES[kind]
    filename = download_name(roster, suffix)
    query = request.GET.copy()
    for name in ("wait", "retry", "hold"):
        query.pop(name, None)
    pdf_url = f"{request.path}?{query.urlencode()}" if query else request.path
    pdf, job, refusal = pdf_or_job(request, key, tasks.follow, start)
    if refusal is not None:
        return refusal
    busy = False
    if pdf is None and request.GET.get("hold") == "1" and (job is None or job.state != "failed"):
        busy = waits.hold(key) == "busy"
        pdf = cache.get(key)
        job = None if pdf is not None else tasks.follow(key)
    if pdf is not None and request.GET.get("wait") != "1":
        return download(pdf, "application/pdf", filename)
    context = {
        "roster": roster,
        "what": what,
        "filename": filename,
        "job": job or tasks.PdfJob("queued"),
        "ready": pdf is not None,
        "busy": busy,  # over the cap of held requests: ask again after a pause, not at once
        "units": units,
        "share_url": share_url,
        "pdf_url": pdf_url,
        "wait_url": f"{pdf_url}{'&' if query else '?'}wait=1",
        "hold_url": f"{pdf_url}{'&' if query else '?'}wait=1&hold=1",
        "retry_url": f"{pdf_url}{'&' if query else '?'}retry=1",
    }
    return _progress(request, context)


def _progress(request, context: dict) -> HttpResponse:
    """The progress page (or, to htmx, its status fragment) of a PDF being rendered, ready or failed."""
    if request.htmx:
        if context["ready"]:  # open the "ready" page, which fetches the file (and stops the polling)
            response = HttpResponse(status=204)
            response["HX-Redirect"] = context["wait_url"]
            return response
        return render(request, "lists/pdf_status.html#status", context)
    status = 200 if context["ready"] else 503 if context["job"].state == "failed" else 202
    response = render(request, "lists/pdf_status.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    if status == 503:
        response["Retry-After"] = "60"
    return response
