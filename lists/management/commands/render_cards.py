"""python manage.py render_cards PATH -o OUT.pdf: the unit-card PDF of a roster file of any loaded game.

Exit status 0 written, 2 the file could not be used (the reason on stderr), as validate_roster's.
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from lists.cards import CARD_SIZES, PAPER_SIZES, Layout, cards_pdf
from lists.cards.battlescribe_cards import battlescribe_cards_pdf
from lists.rosters.files import DataSetRoster, RosterFileInvalid, load_any_roster_file


class Command(BaseCommand):
    help = (
        "Write the unit-card PDF of a roster file (YAML, JSON, text, pasted BattleScribe text, .ros/.rosz) of our "
        "packs or of a loaded BattleScribe data set."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("-o", "--output", type=Path, required=True, help="the PDF to write")
        parser.add_argument(
            "--card",
            choices=sorted(CARD_SIZES),
            help="card size (default poker, 63x88 mm; for a data set's roster, the size its profiles suit)",
        )
        parser.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4", help="sheet size (default a4)")
        parser.add_argument("--merge", action="store_true", help="one card with a count for identical units")

    def handle(self, *args, path: Path, output: Path, card: str | None, paper: str, merge: bool, **options):
        try:
            resolved = load_any_roster_file(path.read_bytes(), path.name)
        except OSError as exc:
            self.stderr.write(f"{path}: cannot read the file: {exc.strerror}")
            sys.exit(2)
        except RosterFileInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(f"{path}: {problem}")
            sys.exit(2)
        if isinstance(resolved, DataSetRoster):  # a card a page, of the card's size (lists/cards/battlescribe_cards.py)
            pdf = battlescribe_cards_pdf(resolved, card=card, merge=merge)
            units = sum(len(force.selections) for force in resolved.roster.all_forces())
        else:
            pdf = cards_pdf(resolved.snapshot(), resolved.data, Layout(card=card or "poker", paper=paper, merge=merge))
            units = len(resolved.units)
        try:
            output.write_bytes(pdf)
        except OSError as exc:
            self.stderr.write(f"{output}: cannot write the PDF: {exc.strerror}")
            sys.exit(2)
        self.stdout.write(f"{output}: {len(pdf)} bytes, {units} unit(s)")
