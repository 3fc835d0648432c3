"""python manage.py battlescribe_cards ROSTER [--list] [-o OUT.pdf]: unit cards (or the organiser's list) of a
BattleScribe roster (.ros/.rosz) of a loaded data set, printed from the data's profiles.

The roster is read against the data set loaded for its game system (its own revision if loaded, else the newest:
`load_battlescribe DIR` loads one). Exit status 0 written, 2 the file could not be used (reason on stderr).
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from lists.cards.battlescribe_cards import battlescribe_cards_pdf, battlescribe_list_pdf
from lists.rosters.battlescribe_data_rosters import read_data_set_roster
from lists.rosters.format import RosterFileInvalid


class Command(BaseCommand):
    help = "Print the unit cards (or, with --list, the organiser's list) of a BattleScribe roster of a loaded data set."
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--list", action="store_true", dest="organiser_list", help="the organiser's list")
        parser.add_argument("-o", "--output", type=Path, help="where to write the PDF (default: beside the roster)")

    def handle(self, *args, path: Path, organiser_list: bool = False, output: Path | None = None, **options):
        try:
            found = read_data_set_roster(path.read_bytes())
        except OSError as exc:
            self.stderr.write(f"{path}: cannot read the file: {exc.strerror}")
            sys.exit(2)
        except RosterFileInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(f"{path}: {problem.message}")
            sys.exit(2)
        pdf = battlescribe_list_pdf(found) if organiser_list else battlescribe_cards_pdf(found)
        output = output or path.with_name(f"{path.stem}-{'list' if organiser_list else 'cards'}.pdf")
        output.write_bytes(pdf)
        self.stdout.write(f"{output}: {len(pdf)} bytes, {found.roster.name} ({found.data_set})")
