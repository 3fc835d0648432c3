"""The page after importing a BattleScribe file whose own total differs from our points."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lists.rosters.battlescribe_reading import file_points_report
from lists.rules.verdict import judge


def imported(request: HttpRequest, opened: HttpResponse, resolved) -> HttpResponse:
    """After a BattleScribe file is imported: where its own total differs from ours, a page saying so (with the
    units that differ) before the editor; else straight on to the editor (`opened`, which sets the cookie)."""
    if getattr(resolved, "file_points", None) is None:  # only files priced by a pack carry their own points
        return opened
    snapshot = resolved.snapshot()
    verdict = judge(snapshot)
    report = file_points_report(resolved.file_points, snapshot, verdict.unit_points, verdict.points)
    if report is None:
        return opened
    context = {"name": snapshot.name, "report": report, "points": verdict.points, "edit_url": opened["Location"]}
    page = render(request, "lists/battlescribe_imported.html", context)
    page.cookies = opened.cookies  # the edit link is remembered on this device, as after any import
    return page
