"""The read-only share page and what anyone with its link may take: files, text and a copy of their own."""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from lists.cards import roster_text
from lists.gamedata.loading import (
    roster_snapshot,
)
from lists.rosters.files import (
    RosterFileInvalid,
    dump_json,
    dump_yaml,
    export_roster,
    read_roster_file,
    resolve,
    save_new_roster,
)
from lists.rosters.fingerprint import issue
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id, roster_for_share
from lists.rules.verdict import judge
from lists.web.editor_page import editor_context
from lists.web.page_helpers import download, download_name, limit_creation, limit_pages, printable, problems_page
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
def export(request: HttpRequest, share_id: str, fmt: str) -> HttpResponse:
    roster = roster_for_share(share_id)
    document = export_roster(roster_snapshot(roster))
    if fmt == "json":
        return download(dump_json(document), "application/json; charset=utf-8", download_name(roster, ".json"))
    return download(dump_yaml(document), "application/yaml; charset=utf-8", download_name(roster, ".yaml"))


@require_POST
@limit_creation
def copy_roster(request: HttpRequest, share_id: str) -> HttpResponse:
    """Copy a shared roster into a new one, with a new edit link of the visitor's own."""
    roster = roster_for_share(share_id)
    document = export_roster(roster_snapshot(roster))
    document["name"] = f"Copy of {roster.name}"[:120]
    try:
        resolved = resolve(read_roster_file(dump_json(document).encode(), "roster.json"))
    except RosterFileInvalid as invalid:
        # Saved before today's checks: say what no longer passes rather than fail.
        problems = [str(problem) for problem in invalid.problems]
        return problems_page(request, problems, title="This roster cannot be copied as it stands")
    secret = new_edit_secret()
    copy = save_new_roster(resolved, new_share_id(), hash_secret(secret))
    return remember_and_open(request, copy, secret)


@require_GET
def text(request: HttpRequest, share_id: str, keyed: bool = False) -> HttpResponse:
    """roster.txt, the plain list players paste; roster-keyed.txt, the same with every unit's key."""
    roster, snapshot, data = printable(share_id)
    verdict = judge(snapshot)
    issue(roster, snapshot, data, verdict)  # the text carries the fingerprint: /verify/ must know it
    body = roster_text(snapshot, data, verdict, keyed=keyed)
    return download(body, "text/plain; charset=utf-8", download_name(roster, "-keyed.txt" if keyed else ".txt"))
