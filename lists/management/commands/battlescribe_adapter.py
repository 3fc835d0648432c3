"""python manage.py battlescribe_adapter: the BattleScribe engine behind the conformance suite's protocol.

Reads one JSON command a line on stdin and answers each with one JSON line on stdout, for as
many specs as the runner sends (setup ... teardown, again and again) until stdin closes.
Nothing but protocol lines goes to stdout; diagnostics go to stderr.
"""

import sys

from django.core.management.base import BaseCommand

from lists.battlescribe.engine import serve


class Command(BaseCommand):
    help = "Run the BattleScribe engine's conformance-protocol adapter on stdin/stdout."

    def handle(self, *args, **options) -> None:
        serve(sys.stdin, sys.stdout)
