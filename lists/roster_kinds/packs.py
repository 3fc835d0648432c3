"""Rosters of our packs through the one roster interface: `lists.rules` judges them, `lists.cards` prints them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.urls import reverse

from lists import models
from lists.cards import Layout, cards_pdf, list_pdf, pdf_key, roster_text
from lists.gamedata.loading import game_data, roster_snapshot
from lists.roster_kinds.base import (
    BATTLESCRIBE_FORMATS,
    Change,
    ChangeRefused,
    FileUnavailable,
    RosterFile,
    StaleChange,
    StoredRoster,
    battlescribe_file,
)
from lists.rosters import battlescribe_writing
from lists.rosters.battlescribe_reading import file_points_report
from lists.rosters.edits import Draft, EditRefused, StaleEdit, edit
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
from lists.rosters.sharing import new_share_id, roster_for_edit, roster_for_share
from lists.rules.verdict import judge

NAME = "packs"
MAX_NAME = 120


@dataclass
class PackRoster(StoredRoster):
    """A roster of our packs (`models.Roster`), read into its snapshot once it is asked for."""

    row: models.Roster
    kind: str = NAME
    editor: str = "edit"

    @cached_property
    def snapshot(self):
        return roster_snapshot(self.row)

    @cached_property
    def data(self):
        return game_data(self.row.system)

    @cached_property
    def judged(self):
        return judge(self.snapshot)

    def share_url(self) -> str:
        return reverse("lists:share", args=[self.share_id])

    def game_line(self) -> str:
        return f"{self.row.system.short_name}, {self.row.army.name}"

    def unit_count(self) -> int:
        return len(self.snapshot.units)

    def card_count(self) -> int:
        return self.unit_count()

    def verdict(self) -> dict:
        return self.judged.to_dict()

    def fingerprint(self) -> str:
        return issue(self.row, self.snapshot, self.data, self.judged)

    def export(self, fmt: str) -> RosterFile:
        if fmt == "json":
            return RosterFile(dump_json(export_roster(self.snapshot)), "application/json; charset=utf-8", ".json")
        if fmt == "yaml":
            return RosterFile(dump_yaml(export_roster(self.snapshot)), "application/yaml; charset=utf-8", ".yaml")
        if fmt in {"txt", "keyed-txt"}:
            self.fingerprint()  # the text carries the fingerprint: /verify/ must know it
            keyed = fmt == "keyed-txt"
            body = roster_text(self.snapshot, self.data, self.judged, keyed=keyed)
            return RosterFile(body.encode(), "text/plain; charset=utf-8", "-keyed.txt" if keyed else ".txt")
        if fmt in BATTLESCRIBE_FORMATS and battlescribe_writing.exportable(self.snapshot):
            return battlescribe_file(fmt, battlescribe_writing.export(self.snapshot))
        if fmt in BATTLESCRIBE_FORMATS:
            raise FileUnavailable("This roster's army has no BattleScribe ids (only Bolt Action theatre lists have).")
        raise FileUnavailable(f"No roster file of format {fmt[:20]!r}.")

    def apply(self, change: Change, version: int | None) -> Draft:
        """Through the one write path (`rosters.edits.edit`): the import's checks, the unit cap among them."""
        try:
            return edit(self.row, version, change.on_draft)
        except StaleEdit:
            raise StaleChange from None
        except EditRefused as refused:
            raise ChangeRefused([str(refused)]) from None
        except RosterFileInvalid as invalid:
            raise ChangeRefused([str(problem) for problem in invalid.problems]) from None
        finally:
            self.__dict__.pop("snapshot", None)  # what was read before the change is not the roster now
            self.__dict__.pop("judged", None)

    def listing(self) -> dict:
        return export_roster(self.snapshot)

    def copy(self, secret_hash: str) -> models.Roster:
        document = export_roster(self.snapshot)
        document["name"] = f"Copy of {self.row.name}"[:MAX_NAME]
        resolved = resolve(read_roster_file(dump_json(document).encode(), "roster.json"))
        return save_new_roster(resolved, new_share_id(), secret_hash)

    def pdf_key(self, what: str, layout: Layout) -> str:
        return pdf_key(what, self.snapshot, self.data, layout)

    def pdf_suffix(self, what: str, layout: Layout) -> str:
        # Cards name their size, so poker and A6 downloads of a roster never take each other's name.
        return layout.file_suffix if what == "cards" else "-list.pdf"

    def render_pdf(self, what: str, layout: Layout, version: int) -> bytes:
        """Cached by `lists.cards` under `pdf_key` (the roster's content names it, so any version is printed)."""
        if what == "cards":
            return cards_pdf(self.snapshot, self.data, layout)
        self.fingerprint()  # the list prints it: /verify/ must know it
        versions = pack_versions(self.row)
        return list_pdf(self.snapshot, self.data, self.judged, versions, notes=layout.notes, link=layout.link)


def pack_versions(roster: models.Roster) -> list[tuple[str, str]]:
    """The packs a roster's verdict depends on: its game and any house-rule overlays it uses."""
    versions = {roster.system.key: roster.system.version}
    for bought in roster.house_rules.select_related("rule__system"):
        versions[bought.rule.system.key] = bought.rule.system.version
    return sorted(versions.items())


class PackRosters:
    """The kind of our packs' rosters."""

    name = NAME

    def open_shared(self, share_id: str) -> PackRoster:
        return PackRoster(roster_for_share(share_id))

    def open_for_edit(self, secret: str) -> PackRoster:
        return PackRoster(roster_for_edit(secret))


def import_report(resolved, unread: bool) -> dict | None:
    """What the page after an import says of a file read against its pack: its own total beside ours, with the
    units that differ (None when the file names no total and every line was read)."""
    if resolved.file_points is None and not unread:
        return None
    snapshot = resolved.snapshot()
    verdict = judge(snapshot)
    report = file_points_report(resolved.file_points, snapshot, verdict.unit_points, verdict.points)
    return {"name": snapshot.name, "points": verdict.points, "report": report}


def keep_imported(resolved, secret_hash: str) -> PackRoster:
    """A roster read from a file (resolved against its pack), stored."""
    return PackRoster(save_new_roster(resolved, new_share_id(), secret_hash))
