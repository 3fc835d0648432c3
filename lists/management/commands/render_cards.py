"""python manage.py render_cards PATH -o OUT.pdf: the unit-card PDF of a roster file."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from lists.cards import CARD_SIZES, PAPER_SIZES, Layout, cards_pdf
from lists.rosters.files import RosterFileInvalid, load_roster_file


class Command(BaseCommand):
    help = "Write the unit-card PDF of a roster file (YAML or JSON)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("-o", "--output", type=Path, required=True, help="the PDF to write")
        parser.add_argument(
            "--card", choices=sorted(CARD_SIZES), default="poker", help="card size (default poker, 63x88 mm)"
        )
        parser.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4", help="sheet size (default a4)")
        parser.add_argument("--merge", action="store_true", help="one card with a count for identical units")

    def handle(self, *args, path: Path, output: Path, card: str, paper: str, merge: bool, **options):
        try:
            resolved = load_roster_file(path.read_bytes(), path.name)
        except OSError as exc:
            self.stderr.write(f"{path}: cannot read the file: {exc.strerror}")
            sys.exit(2)
        except RosterFileInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(f"{path}: {problem}")
            sys.exit(2)
        pdf = cards_pdf(resolved.snapshot(), resolved.data, Layout(card=card, paper=paper, merge=merge))
        try:
            output.write_bytes(pdf)
        except OSError as exc:
            self.stderr.write(f"{output}: cannot write the PDF: {exc.strerror}")
            sys.exit(2)
        self.stdout.write(f"{output}: {len(pdf)} bytes, {len(resolved.units)} unit(s)")
