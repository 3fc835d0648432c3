"""Pages of rosters of loaded BattleScribe data sets: start, the editor, share, files, copy and PDFs.

Every change is one engine action on the kept roster (lists/rosters/battlescribe_data_editing.py); the
editor answers an htmx request with the roster's part of the page and any other with a redirect back,
so the page works without JavaScript.
"""

from __future__ import annotations

import time
from functools import partial

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from lists import models
from lists.cards import Layout, battlescribe_cards
from lists.pdfs import tasks
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters import battlescribe_revisions as revisions
from lists.rosters.battlescribe_data_editing import EditRefused
from lists.rosters.battlescribe_writing import roster_rosz
from lists.rosters.files import battlescribe_text, data_set_roster_document, dump_json, dump_yaml
from lists.rosters.sharing import (
    data_set_roster_for_edit,
    data_set_roster_for_share,
    hash_secret,
    new_edit_secret,
    new_share_id,
)
from lists.web.battlescribe_roster_shape import roster_shape
from lists.web.battlescribe_views import TEXT_NAMES
from lists.web.page_helpers import download, download_name, limit_creation, limit_pages, problems_page, whole_number
from lists.web.print_views import deliver
from lists.web.start_views import remember_and_open

ROSTER_EDITOR = "bs-edit"


def pair(value: str) -> tuple[int | None, str]:
    """A form value `data set id:BattleScribe id`, as the start form's choices are written."""
    head, _, tail = (value or "").partition(":")
    return whole_number(head), tail


@require_POST
@limit_creation
def start(request: HttpRequest) -> HttpResponse:
    """A new roster of a data set: an army (catalogue) and its first force."""
    set_id, catalogue_id = pair(request.POST.get("catalogue", ""))
    force_set_id, force_entry_id = pair(request.POST.get("force", ""))
    data_set = models.BattleScribeDataSet.objects.filter(pk=set_id).first()
    problems = []
    if data_set is None:
        problems.append("Choose an army of a game loaded here.")
    elif force_set_id != set_id:
        problems.append(f"Choose a force of {data_set.name}: the force chosen is another game's.")
    limit_text = (request.POST.get("points_limit") or "").strip()
    limit = whole_number(limit_text)
    if limit_text and limit is None:
        problems.append(f"The points limit is a whole number (or blank for none); {limit_text[:20]!r} is not.")
    if not problems:
        try:
            roster = editing.new_roster(data_set, catalogue_id, force_entry_id, request.POST.get("name", ""), limit)
        except EditRefused as refused:
            problems.append(str(refused))
    if problems:
        return problems_page(request, problems, title="The roster was not started")
    secret = new_edit_secret()
    kept = editing.keep_new(data_set, roster, new_share_id(), hash_secret(secret))
    return remember_and_open(request, kept, secret, ROSTER_EDITOR)


@require_GET
@limit_pages
def edit(request: HttpRequest, secret: str) -> HttpResponse:
    kept = data_set_roster_for_edit(secret)
    return render(request, "lists/battlescribe_editor.html", editor_context(request, kept, secret))


def editor_context(request: HttpRequest, kept: models.BattleScribeRoster, secret: str, **extra) -> dict:
    roster = extra.pop("roster", None) or editing.open_roster(kept)
    data_set = kept.data_set
    catalogues = data_set.catalogues.filter(library=False, is_game_system=False)
    return {
        "kept": kept,
        "secret": secret,
        "shape": roster_shape(roster),
        "data_set": data_set,
        "catalogues": catalogues,
        "force_entries": top_forces(data_set),
        "share_url": reverse("lists:bs-share", args=[kept.share_id]),
        "change_url": reverse("lists:bs-change", args=[secret]),
        "edit_url": reverse("lists:bs-edit", args=[secret]),
        "newer": revision_changes(kept, roster),
        "move_url": reverse("lists:bs-move", args=[secret]),
        "custom_name_max": editing.MAX_CUSTOM_NAME,
        "custom_notes_max": editing.MAX_CUSTOM_NOTES,
        **extra,
    }


def top_forces(data_set: models.BattleScribeDataSet) -> list[tuple[str, str]]:
    """The data set's top-level forces (id, name), each once though several catalogues define it."""
    rows = data_set.battlescribeforce_set.filter(parent=None, hidden=False).order_by("name")
    return list(dict.fromkeys((row.bs_id, row.name) for row in rows))


def revision_changes(kept: models.BattleScribeRoster, roster=None) -> revisions.RevisionChanges | None:
    """What the newest revision of the roster's game would change in it, when one newer than its own is loaded."""
    newer = revisions.newer_data_set(kept.data_set)
    return revisions.compare(kept, newer, roster) if newer is not None else None


@require_POST
def move(request: HttpRequest, secret: str) -> HttpResponse:
    """Re-pin the roster to the newer revision the page showed; refused, saying why, if it would lose entries."""
    kept = data_set_roster_for_edit(secret)
    newer = revisions.newer_data_set(kept.data_set)
    if newer is None or newer.pk != whole_number(request.POST.get("data_set")):
        return problems_page(
            request,
            ["The newer data this page offered is not the newest loaded now: open the roster again to see it."],
            title="The roster was not moved",
        )
    try:
        moved = revisions.move(kept, newer, whole_number(request.POST.get("version")))
    except revisions.MoveRefused as refused:
        return problems_page(request, [str(refused)], title="The roster was not moved")
    if not moved:
        return problems_page(
            request,
            ["This roster was changed elsewhere since you opened the page: open it again to see the changes."],
            title="The roster was not moved",
        )
    return redirect("lists:bs-edit", secret=secret)


@require_POST
def change(request: HttpRequest, secret: str) -> HttpResponse:
    """One change to the roster; refused changes come back with why, and nothing is saved."""
    started = time.perf_counter()
    kept = data_set_roster_for_edit(secret)
    version = whole_number(request.POST.get("version"))
    # A field sent twice keeps its last value: a button's action after the form's own, a ticked box after its 0.
    fields = {key: request.POST.getlist(key)[-1] for key in request.POST if key != "csrfmiddlewaretoken"}
    roster = editing.open_roster(kept, to_change=True)
    problem = conflict = None
    try:
        with transaction.atomic():
            editing.apply(roster, fields.get("action", ""), fields)
            if not editing.save(kept, roster, version):
                conflict = True
    except EditRefused as refused:
        problem = str(refused)
    if problem or conflict:
        kept.refresh_from_db()
        roster = editing.open_roster(kept)
    if not request.htmx:
        if problem:
            return problems_page(request, [problem], title="That change was not made")
        return redirect("lists:bs-edit", secret=secret)
    context = editor_context(request, kept, secret, roster=roster, problem=problem, conflict=conflict)
    response = render(request, "lists/battlescribe_editor.html#roster", context, status=200)
    response["Server-Timing"] = f"edit;dur={(time.perf_counter() - started) * 1000:.1f}"
    return response


@require_GET
@limit_pages
def share(request: HttpRequest, share_id: str) -> HttpResponse:
    kept = data_set_roster_for_share(share_id)
    roster = editing.open_roster(kept)
    context = {
        "kept": kept,
        "shape": roster_shape(roster, with_offers=False),
        "data_set": kept.data_set,
        "newer": revision_changes(kept, roster),
    }
    response = render(request, "lists/battlescribe_share.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def export(request: HttpRequest, share_id: str, zipped: bool, text_form: str = "") -> HttpResponse:
    """The roster as BattleScribe and New Recruit read it (`.ros`, or zipped `.rosz`), or as the text they export
    (`text_form` "plain" or "markdown"), the form players paste."""
    kept = data_set_roster_for_share(share_id)
    xml = editing.export_xml(kept).encode()
    if text_form:
        body = battlescribe_text(xml, markdown=text_form == "markdown")
        return download(body, "text/plain; charset=utf-8", download_name(kept, TEXT_NAMES[text_form]))
    if zipped:
        return download(roster_rosz(xml), "application/zip", download_name(kept, ".rosz"))
    return download(xml, "application/xml; charset=utf-8", download_name(kept, ".ros"))


@require_GET
def export_document(request: HttpRequest, share_id: str, fmt: str) -> HttpResponse:
    """The roster as JSON or YAML: the API's content with the entry ids it is imported back by."""
    kept = data_set_roster_for_share(share_id)
    document = data_set_roster_document(editing.open_roster(kept), kept.data_set)
    if fmt == "json":
        return download(dump_json(document), "application/json; charset=utf-8", download_name(kept, ".json"))
    return download(dump_yaml(document), "application/yaml; charset=utf-8", download_name(kept, ".yaml"))


@require_GET
def text(request: HttpRequest, share_id: str) -> HttpResponse:
    """The roster as plain text: forces, selections with their points, and the verdict."""
    kept = data_set_roster_for_share(share_id)
    shape = roster_shape(editing.open_roster(kept), with_offers=False)
    body = render(request, "lists/battlescribe_roster.txt", {"kept": kept, "shape": shape}).content
    return download(body, "text/plain; charset=utf-8", download_name(kept, ".txt"))


@require_POST
@limit_creation
def copy(request: HttpRequest, share_id: str) -> HttpResponse:
    """A copy of a shared roster with a new edit link of the visitor's own, on the same data revision."""
    kept = data_set_roster_for_share(share_id)
    roster = editing.open_roster(kept)
    roster.name = f"Copy of {kept.name}"[: editing.MAX_NAME]
    secret = new_edit_secret()
    copied = editing.keep_new(kept.data_set, roster, new_share_id(), hash_secret(secret))
    return remember_and_open(request, copied, secret, ROSTER_EDITOR)


@require_GET
@limit_pages
def printout(request: HttpRequest, share_id: str, what: str) -> HttpResponse:
    """The roster's unit cards (`cards`) or organiser's list (`list`) as a PDF, from the data's profiles: served
    from the cache (one per roster version), else rendered in the background while the PDFs' waiting page
    follows it, as every roster's PDF is (a big roster takes many seconds to print)."""
    kept = data_set_roster_for_share(share_id)
    # The organiser's list carries the share link as a QR code.
    link = request.build_absolute_uri(reverse("lists:bs-share", args=[kept.share_id])) if what == "list" else ""
    key = battlescribe_cards.battlescribe_pdf_key(what, kept, link)
    units = editing.unit_count(kept)
    layout = Layout(link=link)
    start = partial(
        tasks.start, key, kept.share_id, what, layout, units, subject=tasks.BATTLESCRIBE, version=kept.version
    )
    return deliver(
        request, kept, what, key, start, units, reverse("lists:bs-share", args=[kept.share_id]), f"-{what}.pdf"
    )
