"""Starting a roster: a new one or an imported file, kept in the device's locker."""

from __future__ import annotations

from urllib.parse import parse_qsl

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST

from lists import models, roster_kinds
from lists.gamedata.loading import (
    game_data,
)
from lists.rosters.files import (
    RosterFileInvalid,
    default_force_name,
    load_any_roster_file,
)
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
from lists.web.devices import keep_on_device
from lists.web.forms import StartForm
from lists.web.game_views import home_page
from lists.web.import_note import imported
from lists.web.page_helpers import limit_creation


@require_POST
@limit_creation
def start_roster(request: HttpRequest) -> HttpResponse:
    """Start an empty roster for a game and army (and its year or period, where the game has them)."""
    form = StartForm(request.POST)
    if not form.is_valid():
        return home_page(request, start_form=form, status=400)
    army = form.cleaned_data["army"]
    data = game_data(army.system)
    organisations = data.organisations_for(army.id)
    secret = new_edit_secret()
    with transaction.atomic():
        roster = models.Roster.objects.create(
            share_id=new_share_id(),
            edit_secret_hash=hash_secret(secret),
            system=army.system,
            army=army,
            name=form.cleaned_data["name"].strip() or f"{army.name} roster",
            points_limit=form.cleaned_data["points_limit"],
            year=form.cleaned_data["year"],
            period=form.cleaned_data["period"] or "",
        )
        models.Force.objects.create(
            roster=roster, name=default_force_name(0), organisation_id=organisations[0] if organisations else None
        )
    return remember_and_open(request, roster, secret)


@require_POST
@limit_creation
def import_roster(request: HttpRequest) -> HttpResponse:
    """Create a roster from an uploaded or pasted file; a bad file saves nothing. A .ros/.rosz of a loaded
    BattleScribe data set becomes a roster of that data set, opened in its editor."""
    upload = request.FILES.get("file")
    text = request.POST.get("text") or ""
    if upload is not None:
        raw, filename = upload.read(), upload.name or ""
    else:
        raw, filename = _pasted_bytes(request, text), ""
    secret = new_edit_secret()
    try:
        resolved = load_any_roster_file(raw, filename)
        kept = roster_kinds.keep_imported(resolved, hash_secret(secret))  # a roster of its kind, within the unit cap
    except RosterFileInvalid as invalid:
        # The pasted text comes back with the problems, so the player can fix it in place.
        problems = [str(problem) for problem in invalid.problems]
        return home_page(request, import_problems=problems, import_text=text, status=400)
    return imported(request, remember_and_open(request, kept.row, secret, kept.editor), resolved)


def _pasted_bytes(request: HttpRequest, text: str) -> bytes:
    """Pasted text as the bytes sent, so text that is not UTF-8 is refused as the same file uploaded is.

    Django reads a form with bad bytes replaced (U+FFFD, or the whole body as Latin-1); a plain form's
    body is read again here, as sent.
    """
    if request.content_type == "application/x-www-form-urlencoded":
        for name, value in parse_qsl(request.body.decode("latin-1"), keep_blank_values=True, encoding="latin-1"):
            if name == "text":
                return value.encode("latin-1")
    return text.encode()


def remember_and_open(request: HttpRequest, roster, secret: str, editor: str = "edit") -> HttpResponse:
    """The roster's editor (`editor`: the URL name), the roster kept in this device's locker."""
    response = redirect(f"lists:{editor}", secret=secret)
    add_never_cache_headers(response)  # it carries a new edit secret: no browser or proxy may keep it
    return keep_on_device(request, response, roster, secret)
