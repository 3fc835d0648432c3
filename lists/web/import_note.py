"""The page after importing a BattleScribe file or a pasted list whose own total differs from our points, or
whose lines were not all read."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lists.rosters.battlescribe_reading import file_points_report
from lists.rosters.files import DataSetRoster
from lists.rules.verdict import judge


def imported(request: HttpRequest, opened: HttpResponse, resolved) -> HttpResponse:
    """After a BattleScribe file or a pasted list is imported: where its own total differs from ours (with the
    units that differ), or where lines of the paste were not read (each with its line), a page saying so before
    the editor; else straight on to the editor (`opened`, which sets the cookie)."""
    unread = [line.finding()["message"] for line in resolved.unread]
    if isinstance(resolved, DataSetRoster):  # a data set's file goes straight on, as before; a paste's unread lines not
        if not unread:
            return opened
        document = resolved.verdict()
        name, points = resolved.roster.name, document["points"]
        report = {"total": document["file_points"], "units": []} if "file_points" in document else None
    elif resolved.file_points is not None or unread:
        snapshot = resolved.snapshot()
        verdict = judge(snapshot)
        name, points = snapshot.name, verdict.points
        report = file_points_report(resolved.file_points, snapshot, verdict.unit_points, verdict.points)
    else:
        return opened
    if report is None and not unread:
        return opened
    context = {"name": name, "report": report, "points": points, "unread": unread, "edit_url": opened["Location"]}
    page = render(request, "lists/battlescribe_imported.html", context)
    page.cookies = opened.cookies  # the edit link is remembered on this device, as after any import
    return page
