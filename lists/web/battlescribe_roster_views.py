"""Pages of rosters of loaded BattleScribe data sets: start, the editor and share page (their files, copy and
PDFs are every roster's, in share_views and print_views).

Every change is one engine action on the kept roster (lists/rosters/battlescribe_data_editing.py); the
editor answers an htmx request with the roster's part of the page and any other with a redirect back,
so the page works without JavaScript.
"""

from __future__ import annotations

import time

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from lists import models
from lists.roster_kinds import data_sets, opened
from lists.roster_kinds.base import Change, ChangeRefused, StaleChange
from lists.roster_kinds.data_set_shape import roster_shape, selection_info
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters import battlescribe_revisions as revisions
from lists.rosters.battlescribe_card_content import entry_profiles_and_rules
from lists.rosters.battlescribe_data_editing import EditRefused
from lists.rosters.battlescribe_offers import offered_option
from lists.rosters.sharing import (
    data_set_roster_for_edit,
    data_set_roster_for_share,
    hash_secret,
    new_edit_secret,
    new_share_id,
)
from lists.web.page_helpers import (
    adds_limited,
    limit_creation,
    limit_edits,
    limit_pages,
    problems_page,
    too_many_requests,
    whole_number,
)
from lists.web.start_views import remember_and_open

ROSTER_EDITOR = "bs-edit"


@require_POST
@limit_creation
def start(request: HttpRequest) -> HttpResponse:
    """A new roster of a data set: an army (catalogue) and its first force."""
    fields = [request.POST.get(key, "") for key in ("catalogue", "force", "name", "points_limit")]
    try:
        data_set, roster = data_sets.start(*fields)
    except ChangeRefused as refused:
        return problems_page(request, refused.problems, title="The roster was not started")
    secret = new_edit_secret()
    kept = editing.keep_new(data_set, roster, new_share_id(), hash_secret(secret))
    return remember_and_open(request, kept, secret, ROSTER_EDITOR)


@require_GET
@limit_pages
def edit(request: HttpRequest, secret: str) -> HttpResponse:
    kept = data_set_roster_for_edit(secret)
    return render(request, "lists/battlescribe_editor.html", editor_context(request, kept, secret))


@require_GET
@limit_pages
def info(request: HttpRequest, secret: str) -> HttpResponse:
    """The profiles and rules of one selection (`selection`), or of an entry a force (`force`) or a selection
    (`under`) offers (`entry`), as the editor folds them: htmx fetches them when one is unfolded; without
    JavaScript, a page of their own."""
    kept = data_set_roster_for_edit(secret)
    roster = editing.open_roster(kept)
    try:
        if request.GET.get("selection"):
            shape = selection_info(roster, editing.find_selection(roster, request.GET["selection"]))
            name, tables, references = shape.name, shape.tables, shape.references
        else:
            if request.GET.get("under"):
                parent = editing.find_selection(roster, request.GET["under"])
            else:
                parent = editing.find_force(roster, request.GET.get("force", ""))
            option = offered_option(roster, parent, request.GET.get("entry", ""))
            if option is None:
                raise EditRefused(f"{parent.name} offers no such entry now: open the roster again to see its offers.")
            name = roster.view_option(option, parent).name
            tables, references = entry_profiles_and_rules(roster, option, parent)
    except EditRefused as refused:
        return problems_page(request, [str(refused)], title="Nothing to show")
    context = {
        "kept": kept,
        "data_set": kept.data_set,
        "name": name,
        "tables": tables,
        "references": references,
        "edit_url": reverse("lists:bs-edit", args=[secret]),
    }
    template = "lists/battlescribe_info.html" + ("#info" if request.htmx else "")
    response = render(request, template, context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


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
        "info_url": reverse("lists:bs-info", args=[secret]),
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


# The changes that add units, counted against the client's budget of adds as our rosters' adds are.
ADDING = {"add", "add-force", "count", "duplicate"}


@require_POST
@limit_edits
def change(request: HttpRequest, secret: str) -> HttpResponse:
    """One change to the roster; refused changes come back with why, and nothing is saved."""
    started = time.perf_counter()
    kept = data_set_roster_for_edit(secret)
    if request.POST.get("action") in ADDING and adds_limited(request):
        return too_many_requests(request, None)
    version = whole_number(request.POST.get("version"))
    # A field sent twice keeps its last value: a button's action after the form's own, a ticked box after its 0.
    fields = {key: request.POST.getlist(key)[-1] for key in request.POST if key != "csrfmiddlewaretoken"}
    problem = conflict = None
    try:
        roster = opened(kept).apply(Change(fields.get("action", ""), fields), version)
    except ChangeRefused as refused:
        problem = str(refused)
    except StaleChange:
        conflict = True
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
