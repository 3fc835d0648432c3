"""python manage.py load_battlescribe DIR: load a folder of BattleScribe data as a game system."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from lists.battlescribe.engine import bounds_text, report_lines
from lists.gamedata.battlescribe_data import DataFolderInvalid, load_data_set


class Command(BaseCommand):
    help = (
        "Check a folder of BattleScribe data (a .gst and its .cat files), then load it in one transaction as a data "
        "set pinned to its revision and digest. Idempotent; bad data loads nothing (exit status 1), naming each "
        f"file and id. The engine's bounds (docs/battlescribe.md): {bounds_text()}."
    )

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path, help="the folder holding the game system and its catalogues")

    def handle(self, *args, folder: Path, **options):
        started = time.perf_counter()
        try:
            loaded = load_data_set(folder, progress=self.progress)
        except DataFolderInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(invalid.problems)} problem(s) in {folder}; nothing was loaded.") from None
        data_set = loaded.data_set
        for line in report_lines(data_set.report):
            self.stdout.write(line)
        state = "loaded" if loaded.created else "already loaded, unchanged"
        self.stdout.write(
            f"{data_set} ({data_set.game_system_id}): {state} as data set {data_set.pk}, "
            f"in {time.perf_counter() - started:.2f} s"
        )

    def progress(self, message: str) -> None:
        self.stdout.write(f"  {message}")
        self.stdout.flush()
