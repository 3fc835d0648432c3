"""python manage.py load_battlescribe SOURCE: load BattleScribe data as a game system, from a folder or an address."""

import time

from django.core.management.base import BaseCommand, CommandError

from lists import models
from lists.battlescribe.engine import (
    bounds_text,
    report_lines,
)
from lists.gamedata.battlescribe_data import DataFolderInvalid
from lists.gamedata.data_sources import SourceRefused, check_source, load_source


class Command(BaseCommand):
    help = (
        "Fetch and check BattleScribe data (a folder of a .gst and its .cat files; or by path or http(s) address a "
        "repository's index.bsi or .catpkg.json, the BSData gallery's JSON index with --game, a .bsr or .zip "
        "release, a .gstz), then load it in one transaction as a data set pinned to its revision and digest, "
        "remembering the address. Idempotent; a newer revision is kept beside the old. Bad data, or a source "
        "that answers late, wrongly or hugely, loads nothing (exit status 1), naming each file and id. The "
        f"engine's bounds (docs/battlescribe.md): {bounds_text()}."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", help="a folder or file here, or the http(s) address of an index or release")
        parser.add_argument("--game", default="", help="the repository to take from a gallery's index, by name")
        parser.add_argument(
            "--check", action="store_true", help="only say whether the address holds newer files than loaded"
        )

    def handle(self, *args, source: str, game: str, check: bool, **options):
        started = time.perf_counter()
        try:
            if check:
                return self.report_newer(source)
            loaded = load_source(source, game, progress=self.progress)
        except DataFolderInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(invalid.problems)} problem(s) in {source}; nothing was loaded.") from None
        except SourceRefused as refused:
            raise CommandError(f"{refused}; nothing was loaded.") from None
        data_set = loaded.data_set
        for line in report_lines(data_set.report):
            self.stdout.write(line)
        state = "loaded" if loaded.created else "already loaded, unchanged"
        self.stdout.write(
            f"{data_set} ({data_set.game_system_id}): {state} as data set {data_set.pk}, "
            f"in {time.perf_counter() - started:.2f} s"
        )

    def report_newer(self, source: str) -> None:
        data_set = models.BattleScribeDataSet.objects.filter(source_url=source).order_by("-revision", "-pk").first()
        if data_set is None:
            raise CommandError(f"no data set was loaded from {source}")
        found = check_source(data_set)
        for line in found.newer:
            self.stdout.write(f"  {line}")
        verdict = "newer files than" if found.has_newer else "nothing newer than"
        self.stdout.write(f"{source} holds {verdict} {data_set}")

    def progress(self, message: str) -> None:
        self.stdout.write(f"  {message}")
        self.stdout.flush()
