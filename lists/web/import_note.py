"""The page after importing a BattleScribe file or a pasted list whose own total differs from our points, or
whose lines were not all read."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lists import roster_kinds


def imported(request: HttpRequest, opened: HttpResponse, resolved) -> HttpResponse:
    """After a BattleScribe file or a pasted list is imported: where its own total differs from ours (with the
    units that differ), or where lines of the paste were not read (each with its line), a page saying so before
    the editor; else straight on to the editor (`opened`, which sets the cookie)."""
    unread = [line.finding()["message"] for line in resolved.unread]
    said = roster_kinds.import_report(resolved, bool(unread))
    if said is None or (said["report"] is None and not unread):
        return opened
    context = {**said, "unread": unread, "edit_url": opened["Location"]}
    page = render(request, "lists/battlescribe_imported.html", context)
    page.cookies = opened.cookies  # the edit link is remembered on this device, as after any import
    return page
