"""python manage.py loadpacks: check every pack, then load them all at once."""

import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from lists.gamedata.packs import PackInvalid, load_all


class Command(BaseCommand):
    help = "Validate every game-system pack, then load them all in one transaction (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--packs-dir", type=Path, default=None, help="folder of pack folders (default: settings.PACKS_DIR)"
        )
        parser.add_argument("--prune", action="store_true", help="also remove systems whose pack folder is gone")

    def handle(self, *args, packs_dir: Path | None = None, prune: bool = False, **options):
        folder = packs_dir or settings.PACKS_DIR
        if not folder.is_dir():
            raise CommandError(f"{folder}: no such folder of packs")
        started = time.perf_counter()
        try:
            reports = load_all(folder, prune=prune)
        except PackInvalid as invalid:
            for error in invalid.errors:
                self.stderr.write(str(error))
            raise CommandError(f"{len(invalid.errors)} problem(s) found; nothing was loaded.") from None
        for report in reports:
            state = "loaded" if report.changed else "unchanged"
            counts = ", ".join(f"{count} {section.replace('_', ' ')}" for section, count in report.counts.items())
            self.stdout.write(f"{report.system} {report.version}: {state} ({counts})")
        self.stdout.write(f"{len(reports)} pack(s) checked in {time.perf_counter() - started:.2f} s")
