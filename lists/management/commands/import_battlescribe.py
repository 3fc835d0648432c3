"""python manage.py import_battlescribe DIR --out FOLDER: convert BattleScribe's Bolt Action data into pack files."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from lists.battlescribe.reader import DataError
from lists.battlescribe.run import DEFAULT_OVERRIDES, DEFAULT_SUMMARIES, import_data


class Command(BaseCommand):
    help = "Convert the BattleScribe game-system file and catalogues of DIR into pack files (deterministic)."

    def add_arguments(self, parser):
        parser.add_argument("data_dir", type=Path, help="folder holding the .gst/.gstz and .cat/.catz files")
        parser.add_argument(
            "--out", type=Path, default=Path("lists/packs/bolt-action-2e/armies"), help="folder of the generated files"
        )
        parser.add_argument("--overrides", type=Path, default=DEFAULT_OVERRIDES, help="data corrections to apply")
        parser.add_argument(
            "--summaries", type=Path, default=DEFAULT_SUMMARIES, help="our summaries of the rules the base pack lacks"
        )

    def handle(self, *args, data_dir: Path, out: Path, overrides: Path, summaries: Path, **options):
        if not data_dir.is_dir():
            raise CommandError(f"{data_dir}: no such folder")
        try:
            _, text = import_data(data_dir, out, overrides, summaries)
        except DataError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(text)
