"""The share page's BattleScribe downloads: `roster.ros` and `roster.rosz` of a Bolt Action theatre-list roster,
and its text as BattleScribe exports it (`roster-battlescribe.txt`, `.md`), the form players paste."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from lists.gamedata.loading import roster_snapshot
from lists.rosters.battlescribe_writing import export, exportable, roster_rosz
from lists.rosters.files import battlescribe_text
from lists.rosters.sharing import roster_for_share
from lists.web.page_helpers import download, download_name

TEXT_NAMES = {"plain": "-battlescribe.txt", "markdown": "-battlescribe.md"}  # a download's name, by text form


@require_GET
def export_battlescribe(request: HttpRequest, share_id: str, zipped: bool, text_form: str = "") -> HttpResponse:
    roster = roster_for_share(share_id)
    snapshot = roster_snapshot(roster)
    if not exportable(snapshot):
        raise Http404("This roster's army has no BattleScribe ids (only Bolt Action theatre lists have).")
    xml = export(snapshot)
    if text_form:  # the text BattleScribe exports, as players paste it ("plain" or "markdown")
        body = battlescribe_text(xml, markdown=text_form == "markdown")
        return download(body, "text/plain; charset=utf-8", download_name(roster, TEXT_NAMES[text_form]))
    if zipped:
        return download(roster_rosz(xml), "application/zip", download_name(roster, ".rosz"))
    return download(xml, "application/xml; charset=utf-8", download_name(roster, ".ros"))
