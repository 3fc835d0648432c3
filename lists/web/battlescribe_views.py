"""The share page's BattleScribe downloads: `roster.ros` and `roster.rosz` of a Bolt Action theatre-list roster."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from lists.gamedata.loading import roster_snapshot
from lists.rosters.battlescribe_writing import export, exportable, roster_rosz
from lists.rosters.sharing import roster_for_share
from lists.web.page_helpers import download, download_name


@require_GET
def export_battlescribe(request: HttpRequest, share_id: str, zipped: bool) -> HttpResponse:
    roster = roster_for_share(share_id)
    snapshot = roster_snapshot(roster)
    if not exportable(snapshot):
        raise Http404("This roster's army has no BattleScribe ids (only Bolt Action theatre lists have).")
    xml = export(snapshot)
    if zipped:
        return download(roster_rosz(xml), "application/zip", download_name(roster, ".rosz"))
    return download(xml, "application/xml; charset=utf-8", download_name(roster, ".ros"))
