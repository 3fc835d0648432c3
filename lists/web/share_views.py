"""The read-only share page and what anyone with its link may take: files, text and a copy of their own."""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from lists import roster_kinds
from lists.rosters.files import RosterFileInvalid
from lists.rosters.sharing import hash_secret, new_edit_secret, roster_for_share
from lists.web.editor_page import editor_context
from lists.web.page_helpers import download, download_name, limit_creation, limit_pages, problems_page
from lists.web.start_views import remember_and_open


@require_GET
@limit_pages
def share_roster(request: HttpRequest, share_id: str) -> HttpResponse:
    roster = roster_for_share(share_id)
    # Share pages are read far more than rosters change: the roster's part of the page is
    # kept until its next edit (version) or pack change; the copy form's CSRF token is not in it.
    key = f"share:{roster.share_id}:{roster.version}:{roster.system.content_hash}"  # a row id can come back after a rollback; a share id cannot
    body = cache.get(key)
    if body is None:
        body = render_to_string("lists/share.html#body", editor_context(roster, None), request)
        cache.set(key, body, 60 * 60)
    response = render(request, "lists/share.html", {"roster": roster, "body": mark_safe(body)})  # noqa: S308 - rendered by our template
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
@limit_pages
def export(request: HttpRequest, share_id: str, fmt: str, kind: str = roster_kinds.PACKS) -> HttpResponse:
    """A roster of any kind as a file: `json`, `yaml`, `txt` (our plain list), `keyed-txt` (the same
    with every unit's key), `ros` or `rosz` (as BattleScribe and New Recruit read them)."""
    roster = roster_kinds.kind_named(kind).open_shared(share_id)
    try:
        written = roster.export(fmt)
    except roster_kinds.FileUnavailable as unavailable:
        raise Http404(str(unavailable)) from None
    return download(written.content, written.content_type, download_name(roster.row, written.suffix))


@require_POST
@limit_creation
def copy_roster(request: HttpRequest, share_id: str, kind: str = roster_kinds.PACKS) -> HttpResponse:
    """Copy a shared roster into a new one, with a new edit link of the visitor's own."""
    roster = roster_kinds.kind_named(kind).open_shared(share_id)
    secret = new_edit_secret()
    try:
        copy = roster.copy(hash_secret(secret))
    except RosterFileInvalid as invalid:
        # Saved before today's checks: say what no longer passes rather than fail.
        problems = [str(problem) for problem in invalid.problems]
        return problems_page(request, problems, title="This roster cannot be copied as it stands")
    return remember_and_open(request, copy, secret, roster.editor)
