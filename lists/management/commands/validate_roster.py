"""python manage.py validate_roster PATH [--json]: is this roster file legal?

Exit status: 0 legal, 1 not legal, 2 the file could not be used (reason on stderr).
A failure of the command itself also exits 2, never 1: 1 always means "not legal".
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from lists.rosters.battlescribe_reading import file_points_lines, file_points_report, with_file_points
from lists.rosters.files import DataSetRoster, RosterFileInvalid, dump_json, load_any_roster_file
from lists.rules.verdict import judge


def force_summary(roster, verdict) -> list[dict]:
    """Each force with its organisation, points and units (label and points), in roster order."""
    summary = []
    for force in roster.forces:
        units = [{"label": unit.label, "points": verdict.unit_points[unit.index]} for unit in roster.force_units(force)]
        summary.append(
            {
                "name": force.name,
                "organisation": force.organisation.name if force.organisation else None,
                "points": sum(unit["points"] for unit in units),
                "units": units,
            }
        )
    return summary


class Command(BaseCommand):
    help = "Check a roster file (YAML, JSON, text, pasted BattleScribe text, or a .ros/.rosz of any loaded game). Exit 0 legal, 1 not legal, 2 unusable file."
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--json", action="store_true", dest="as_json", help="print the verdict as JSON")

    def handle(self, *args, path: Path, as_json: bool = False, **options):
        try:
            raw = path.read_bytes()
        except OSError as exc:
            self.stderr.write(f"{path}: cannot read the file: {exc.strerror}")
            sys.exit(2)
        try:
            resolved = load_any_roster_file(raw, path.name)
            if isinstance(resolved, DataSetRoster):  # a roster of a loaded BattleScribe data set: the engine's verdict
                document = resolved.verdict()
                lines = resolved.text_lines(document)
            else:
                roster = resolved.snapshot()
                verdict = judge(roster)
                differs = file_points_report(resolved.file_points, roster, verdict.unit_points, verdict.points)
                document = with_file_points({**verdict.to_dict(), "forces": force_summary(roster, verdict)}, differs)
                unread = [line.finding() for line in resolved.unread]  # a pasted list's lines not read
                document["findings"] += unread
                lines = self._text(roster, verdict) + [f"  warning: {u['message']} ({u['code']})" for u in unread]
                lines += file_points_lines(differs)
        except RosterFileInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(f"{path}: {problem}")
            sys.exit(2)
        except Exception as exc:  # a crash must not read as "not legal" (exit 1)
            self.stderr.write(f"{path}: the file could not be checked ({type(exc).__name__}); please report this")
            sys.exit(2)
        if as_json:
            self.stdout.write(dump_json(document).rstrip("\n"))
        else:
            for line in lines:
                self.stdout.write(line)
        sys.exit(0 if document["valid"] else 1)

    def _text(self, roster, verdict) -> list[str]:
        limit = f" / {verdict.points_limit}" if verdict.points_limit is not None else ""
        state = "legal" if verdict.valid else "NOT legal"
        lines = [f"{roster.name} ({roster.system.name}, {roster.army_name}): {state}"]
        dice = f", {verdict.order_dice} order dice" if verdict.order_dice is not None else ""
        lines.append(f"{verdict.points}{limit} points{dice}")
        for force in force_summary(roster, verdict):
            organisation = f" ({force['organisation']})" if force["organisation"] else ""
            lines.append(f"{force['name']}{organisation}: {force['points']} points")
            lines += [f"  {unit['points']:>5}  {unit['label']}" for unit in force["units"]]
        for finding in verdict.findings:
            where = f"[{finding.unit}] " if finding.unit else ""
            lines.append(f"  {finding.severity}: {where}{finding.message} {finding.fix} ({finding.code})")
        return lines
