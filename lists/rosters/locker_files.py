"""Every roster of a locker in one zip: YAML for our packs' rosters, `.ros` for loaded BattleScribe data's."""

from __future__ import annotations

import io
import zipfile

from django.utils.text import slugify

from lists.gamedata.loading import roster_snapshot
from lists.rosters import battlescribe_data_editing
from lists.rosters.locker import OURS, Kept
from lists.rosters.writing import dump_yaml, export_roster


def file_name(name: str, suffix: str, taken: set[str]) -> str:
    """A file name after the roster's name, safe in any archive tool, and unlike every name in `taken`."""
    stem = slugify(name, allow_unicode=True)[:80] or "roster"
    candidate, number = f"{stem}{suffix}", 2
    while candidate in taken:
        candidate, number = f"{stem}-{number}{suffix}", number + 1
    taken.add(candidate)
    return candidate


def locker_zip(kept: list[Kept]) -> bytes:
    """A zip holding a file of every roster in `kept`."""
    buffer, taken = io.BytesIO(), set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for one in kept:
            if one.kind == OURS:
                content = dump_yaml(export_roster(roster_snapshot(one.roster)))
                archive.writestr(file_name(one.roster.name, ".yaml", taken), content)
            else:
                content = battlescribe_data_editing.export_xml(one.roster)
                archive.writestr(file_name(one.roster.name, ".ros", taken), content)
    return buffer.getvalue()
