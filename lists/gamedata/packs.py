"""Reading, checking and loading game-system packs.

A pack is a folder under `settings.PACKS_DIR` holding YAML files; their
sections are merged. Loading runs in two stages: every pack is read and
checked (schema, then references) before anything touches the database,
then all of them are written in one transaction, matched by key so that a
changed pack updates rows in place.

Here: the two stages over every pack. Reading one pack is in `reading`,
checking its references in `references`, writing it in `writing`.
"""

from __future__ import annotations

from pathlib import Path

from django.db import transaction
from django.db.models import ProtectedError

from lists import models
from lists.gamedata.reading import Pack, PackError, PackInvalid, read_pack
from lists.gamedata.references import check_references
from lists.gamedata.statistics import refresh_statistics
from lists.gamedata.writing import LoadReport, write_pack


def discover(packs_dir: Path) -> list[Path]:
    return sorted(path for path in packs_dir.iterdir() if path.is_dir() and not path.name.startswith((".", "_")))


def read_all(packs_dir: Path) -> list[Pack]:
    """Read and check every pack; raise PackInvalid listing every problem found."""
    packs: list[Pack] = []
    errors: list[PackError] = []
    for folder in discover(packs_dir):
        try:
            packs.append(read_pack(folder))
        except PackInvalid as invalid:
            errors.extend(invalid.errors)
    system_keys: dict[str, str] = {}
    for pack in packs:
        assert pack.system is not None
        if pack.system.key in system_keys:
            errors.append(
                PackError(
                    pack.system_file,
                    "system.key",
                    f"the system key {pack.system.key!r} is also used by {system_keys[pack.system.key]}",
                )
            )
        system_keys[pack.system.key] = pack.system_file
    for pack in packs:
        errors.extend(check_references(pack, set(system_keys)))
    if errors:
        raise PackInvalid(errors)
    return packs


def load_all(packs_dir: Path, prune: bool = False) -> list[LoadReport]:
    """Check every pack, then write them all in one transaction.

    Games are written before the overlays that extend them. With `prune`, systems
    whose pack folder is gone are removed too. Game data that saved rosters still
    use cannot be removed: the whole load is refused, saying what is in use.
    """
    return write_all(read_all(packs_dir), packs_dir, prune)


def write_all(packs: list[Pack], packs_dir: Path, prune: bool = False) -> list[LoadReport]:
    """Write packs `read_all` checked, in one transaction (see `load_all`)."""
    packs = sorted(packs, key=lambda pack: pack.system.kind != "game")
    try:
        with transaction.atomic():
            reports = [write_pack(pack) for pack in packs]
            if prune:
                models.GameSystem.objects.exclude(key__in=[pack.system.key for pack in packs]).delete()
            refresh_statistics()  # the first game data built after the load is planned on the rows written
    except ProtectedError as protected:
        used = sorted({str(obj) for obj in protected.protected_objects})[:10]
        raise PackInvalid(
            [
                PackError(
                    str(packs_dir), "(rosters)", f"saved rosters still use {', '.join(used)}; keep them in the pack"
                )
            ]
        ) from None
    return reports
