"""make bench: print the speed figures the design sets targets for (`bench.py cards`: the card figures only).

Runs against a throwaway SQLite database, so it never touches db.sqlite3.
Figures are medians of repeated runs on this machine, with the fastest and slowest
beside them; they are printed, not asserted (shared machines are noisy). A figure of
a cold process (loading every pack, the first PDF, cold game data) is timed in five
fresh processes: `bench.py --one FIGURE` prints one run's milliseconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="armybuilder-bench-"))
# A fresh process of `--one` (its own cache) may read the database its parent filled with the packs.
os.environ["DJANGO_SQLITE_PATH"] = os.environ.pop("ARMYBUILDER_BENCH_DATABASE", "") or str(TMP / "bench.sqlite3")
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"  # the test client's host
os.environ["ARMYBUILDER_CACHE_DIR"] = str(TMP / "cache")
os.environ["ARMYBUILDER_PDF_RATE"] = "100000/m"  # measure the server, not its rate limits
os.environ["ARMYBUILDER_PAGE_RATE"] = "100000/m"
os.environ["ARMYBUILDER_EDIT_RATE"] = "100000/m"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

import django  # noqa: E402

django.setup()

from bench_runs import FIVE, Ms, median_ms, runs_ms  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

# PDFs render in this process: the bench times rendering, not the queue (scripts/load.py runs a real worker).
settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


def checked_get(client, path: str):
    """GET a page, stopping the bench if it fails (the figures would be wrong)."""
    response = client.get(path)
    if response.status_code != 200:
        raise SystemExit(f"GET {path} answered {response.status_code}: the figures would be wrong")
    return response


def line(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<58} {value:>12}  {target}")


MIX = [
    "{unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, size: 8, options: [Light machine gun]}",
    "{unit: Medium Mortar Team, quality: Regular, options: [Spotter]}",
    "{unit: M4 Sherman 75MM, quality: Veteran}",
    "{unit: Second Lieutenant, quality: Regular}",
    "{unit: Sniper Team, quality: Veteran}",
]


def roster_file(count: int, name: str) -> bytes:
    """A Bolt Action roster of `count` units of five kinds."""
    units = "".join(f"  - {MIX[i % len(MIX)]}\n" for i in range(count))
    return f"game: bolt-action-2e\narmy: generic\nname: {name}\nunits:\n{units}".encode()


def fresh_processes_ms(figure: str) -> Ms:
    """Median (fastest-slowest) of `figure` timed once in each of five fresh processes (`bench.py --one`).

    Loading the packs gets an empty database of its own; the others read this process's, packs loaded.
    """
    env = dict(os.environ)
    if figure != "loadpacks":
        env["ARMYBUILDER_BENCH_DATABASE"] = os.environ["DJANGO_SQLITE_PATH"]
    command = [sys.executable, __file__, "--one", figure]
    runs = [subprocess.run(command, env=env, capture_output=True, text=True, check=True) for _ in range(FIVE)]
    return Ms([float(run.stdout.split()[-1]) for run in runs])


def one_figure(figure: str) -> float:
    """Milliseconds of one run of `figure` in this process, fresh: nothing loaded, nothing cached."""
    if figure == "loadpacks":
        from lists.gamedata.packs import load_all

        call_command("migrate", verbosity=0)
        start = time.perf_counter()
        load_all(settings.PACKS_DIR)
    elif figure == "first-pdf":
        from lists.cards import cards_pdf
        from lists.rosters.files import load_roster_file

        first = load_roster_file(roster_file(20, "cold"))
        snapshot = first.snapshot()
        start = time.perf_counter()
        cards_pdf(snapshot, first.data)
    elif figure == "game-data":
        from lists.gamedata import loading
        from lists.models import GameSystem

        system = GameSystem.objects.get(key="bolt-action-2e")
        start = time.perf_counter()
        loading.game_data(system)
    elif figure == "battlescribe-ids":
        from lists.rosters import battlescribe_ids

        start = time.perf_counter()
        battlescribe_ids.ids()
    else:
        raise SystemExit(f"no figure {figure!r}: loadpacks, first-pdf, game-data or battlescribe-ids")
    return (time.perf_counter() - start) * 1000


def main() -> None:
    call_command("migrate", verbosity=0)
    from lists.gamedata.loading import roster_snapshot
    from lists.gamedata.packs import load_all
    from lists.models import GameSystem, Roster
    from lists.rosters.files import load_roster_file, save_new_roster
    from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
    from lists.rules.verdict import judge

    print("Packs")
    line(
        "loadpacks, all packs, empty database (fresh processes)",
        f"{fresh_processes_ms('loadpacks'):.0f} ms",
        "(target 3000 ms)",
    )
    load_all(settings.PACKS_DIR)
    line("loadpacks again, nothing changed", f"{runs_ms(lambda: load_all(settings.PACKS_DIR)):.0f} ms")
    line("game systems loaded", str(GameSystem.objects.count()))

    print("Rule checks (points and every rule family, roster in memory)")
    thousand = (ROOT / "examples" / "bolt-action-2e.yaml").read_text()
    thousand += "  - {unit: Artillery Forward Observer, quality: Regular}\n  - {unit: Morris CS9 Armoured Car, quality: Regular}\n"
    resolved = load_roster_file(thousand.encode(), "bench.yaml")
    snapshot = resolved.snapshot()
    verdict = judge(snapshot)
    line(
        f"1000-point roster ({len(snapshot.units)} units, {verdict.points} pts)",
        f"{median_ms(lambda: judge(snapshot)):.3f} ms",
        "(target 5 ms median)",
    )
    for count in (50, 100, 200):
        units = "".join(
            "  - {unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, size: 8, options: [Light machine gun]}\n"
            for _ in range(count)
        )
        big = load_roster_file(f"game: bolt-action-2e\narmy: generic\nunits:\n{units}".encode(), "big.yaml").snapshot()
        line(
            f"{count}-unit roster",
            f"{median_ms(lambda big=big: judge(big), runs=50):.3f} ms",
            "(target 50 ms for 200)" if count == 200 else "",
        )

    print("Loading a saved roster for checking (SQL queries)")
    for count in (10, 200):
        units = "".join(
            "  - {unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, options: [Light machine gun]}\n"
            for _ in range(count)
        )
        saved = save_new_roster(
            load_roster_file(f"game: bolt-action-2e\narmy: generic\nunits:\n{units}".encode()),
            new_share_id(),
            hash_secret(new_edit_secret()),
        )
        roster = Roster.objects.select_related("system", "army").get(pk=saved.pk)
        roster_snapshot(roster)  # the game data cache is warm, as in a running server
        roster = Roster.objects.get(pk=saved.pk)
        with CaptureQueriesContext(connection) as queries:
            roster = Roster.objects.select_related("system", "army").get(pk=saved.pk)
            judge(roster_snapshot(roster))
        line(f"queries to load and check a {count}-unit roster", str(len(queries)), "(must not grow with size)")


def bench_pages_and_pdfs() -> None:
    from django.core.cache import cache
    from django.test import Client

    from lists.cards import Layout, cards_pdf
    from lists.models import Roster
    from lists.rosters.files import load_roster_file, save_new_roster
    from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id

    print("Unit-card PDFs (Bolt Action units; rules by name, their texts on the rules reference)")
    line(
        "20 units, cold (first PDF of a fresh process)", f"{fresh_processes_ms('first-pdf'):.0f} ms", "(target 1000 ms)"
    )
    for count in (5, 20, 100):
        resolved = load_roster_file(roster_file(count, f"warm {count}"))
        snapshot = resolved.snapshot()
        render = partial(cards_pdf, snapshot, resolved.data, Layout())
        figure = runs_ms(render, setup=cache.clear)
        line(f"{count} units", f"{figure:.0f} ms", "(linear in cards)")

    bench_card_counts()
    bench_card_cache()

    client = Client()
    get = partial(checked_get, client)

    saved = save_new_roster(load_roster_file(roster_file(20, "share")), new_share_id(), hash_secret(new_edit_secret()))
    share = f"/r/{saved.share_id}/"
    get(f"{share}cards.pdf")
    line("cached cards.pdf download, 20 units", f"{median_ms(lambda: get(f'{share}cards.pdf'), runs=50):.1f} ms")

    print("Share page (20-unit roster)")
    get(share)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        get(share)
    line("SQL queries, first view", str(len(queries)), "(target at most 10)")
    with CaptureQueriesContext(connection) as queries:
        get(share)
    line("SQL queries, repeated view", str(len(queries)))
    line(
        "server time, median, first view",
        f"{median_ms(lambda: get(share), runs=50, setup=cache.clear):.1f} ms",
        "(target 25 ms)",
    )
    line("server time, median, repeated views", f"{median_ms(lambda: get(share), runs=100):.1f} ms")
    big = save_new_roster(
        load_roster_file(roster_file(200, "big share")), new_share_id(), hash_secret(new_edit_secret())
    )
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        get(f"/r/{big.share_id}/")
    line("SQL queries, first view of a 200-unit roster", str(len(queries)), "(must not grow)")
    Roster.objects.all().delete()


def twenty_units(game_example: str, name: str) -> bytes:
    """A 20-unit roster of a game: the example's units repeated, without labels or transports."""
    import re

    text = (ROOT / "examples" / game_example).read_text()
    head, units = text.split("units:\n")
    entries = re.split(r"\n(?=  - )", units.strip("\n"))
    plain = [re.sub(r"\n\s+label: .*|, (label|transport): [^,}]*", "", entry) for entry in entries]
    body = "\n".join((plain * 20)[:20])
    head = re.sub(r"(?m)^name: .*$", f"name: {name}", head)
    return f"{head}units:\n{body}\n".replace("points_limit:", "# points_limit:").encode()


def bench_card_counts() -> None:
    from lists.cards import Layout, roster_cards
    from lists.rosters.files import load_roster_file

    print("Cards per unit (rules reference not counted; target at most 1.15 on poker cards)")
    rosters = [(path.stem, path.read_bytes()) for path in sorted((ROOT / "examples").glob("*.yaml"))]
    rosters += [
        (f"20 units, {path.stem}", twenty_units(path.name, "Twenty"))
        for path in sorted((ROOT / "examples").glob("*.yaml"))
        # rapid-fire-house-rules is the same game as action-all-fronts; a roster of several forces
        # (the two-platoon Normandy list) has its one-force example of the same army beside it.
        if path.stem != "rapid-fire-house-rules" and "\nforces:" not in path.read_text()
    ]
    for label, text in rosters:
        resolved = load_roster_file(text, "bench.yaml")
        snapshot = resolved.snapshot()
        figures = []
        for card in ("poker", "a6"):
            made = roster_cards(snapshot, resolved.data, Layout(card=card))
            unit_cards = sum(c.title != "Rules reference" for c in made)
            figures.append(f"{card} {unit_cards / len(snapshot.units):.2f} (+{len(made) - unit_cards} ref.)")
        line(f"{label} ({len(snapshot.units)} units)", "", "  ".join(figures))


@contextmanager
def chromium_printer(html: str):
    """A function timing one print of `html` by Chromium (Debian's, through Playwright), or None without it."""
    import shutil

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        yield None
        return
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        yield None
        return
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page()

        def print_ms() -> float:
            start = time.perf_counter()
            page.set_content(html)
            page.pdf(prefer_css_page_size=True, print_background=True)
            return (time.perf_counter() - start) * 1000

        print_ms()  # warm up
        try:
            yield print_ms
        finally:
            browser.close()


# Twenty different units of the British army of Action All Fronts: no two cards alike but for their labels.
DIFFERENT_UNITS = [
    "Rifle Squad", "Company HQ", "Platoon HQ up to 1944", "Platoon HQ 1944+", "Heavy Mortar", "Heavy Machine Guns",
    "Anti-tank gun", "PIAT team", "Anti-tank gun section", "Bren Gun Platoon", "Bren Gun Carrier", "Mk VIC",
    "Crusader I", "Crusader III", "Matilda II", "Sherman Firefly", "Valentine III", "Churchill I", "Churchill IV",
    "Churchill VII",
]  # fmt: skip


def different_units() -> bytes:
    units = "".join(f"  - {{unit: {name}}}\n" for name in DIFFERENT_UNITS)
    return f"game: Action All Fronts\narmy: British and Commonwealth Army\nname: Different\nunits:\n{units}".encode()


def bench_card_cache() -> None:
    """Cold, one-edit and cached cards PDFs of a 20-unit Action All Fronts roster, beside Chromium.

    This machine's speed drifts by up to 2x from minute to minute (shared cores), so the cold
    renders and Chromium's prints take turns, and the ratio compares runs made side by side.
    """
    from django.core.cache import cache

    from lists import cards
    from lists.cards import Layout, cards_pdf
    from lists.rosters.files import load_roster_file

    layout = Layout()
    cards.warm_up()

    def timed(func, run: int) -> float:
        start = time.perf_counter()
        func(run)
        return (time.perf_counter() - start) * 1000

    def edited(resolved, number: int):
        """The roster with one unit relabelled: a card no render has made yet."""
        snapshot = resolved.snapshot()
        snapshot.units[number % len(snapshot.units)].label = f"Edited {number}"
        return snapshot

    def side_by_side(roster: bytes, label: str, in_one_process: bool, target: str) -> None:
        resolved = load_roster_file(roster, "bench.yaml")
        data = resolved.data
        cards_pdf(resolved.snapshot(), data, layout)  # a warm process, as in a running server

        def cold(run: int) -> None:
            cache.clear()
            cards_pdf(edited(resolved, 100 + run), data, layout)

        def one_process(run: int) -> None:
            # Set directly: override_settings' signal handlers cost this bench about 100 ms a run.
            processes, settings.PDF_RENDER_PROCESSES = settings.PDF_RENDER_PROCESSES, 1
            try:
                cold(run)
            finally:
                settings.PDF_RENDER_PROCESSES = processes

        made = cards.roster_cards(resolved.snapshot(), data, layout)
        html = cards.cards_html(made, layout, page_mm=layout.card_mm[1])
        runs = 15
        cold_ms, one_process_ms, weasy_ms, chromium_ms = [], [], [], []
        with chromium_printer(html) as chromium:
            for run in range(runs):
                cold_ms.append(timed(cold, run))
                if in_one_process:
                    one_process_ms.append(timed(one_process, run + runs))
                    weasy_ms.append(timed(lambda run: cards.render_pdf(html, cards=True), run))
                if chromium:
                    chromium_ms.append(chromium())
        print(f"Cards PDF of a 20-unit Action All Fronts roster: {label} ({runs} runs each)")
        line(
            f"cold: no card cached ({len(made)} cards, {settings.PDF_RENDER_PROCESSES} render processes)",
            f"{Ms(cold_ms):.0f} ms",
            f"({target})",
        )
        if in_one_process:
            line("cold, rendered in one process", f"{Ms(one_process_ms):.0f} ms")
            line("WeasyPrint printing the finished cards' HTML", f"{Ms(weasy_ms):.0f} ms")
        if not chromium_ms:
            line("Chromium printing the same HTML", "no Chromium", "(install chromium and playwright)")
            return
        line(f"Chromium printing the same HTML (its processes, {os.cpu_count()} cores)", f"{Ms(chromium_ms):.0f} ms")
        ratios = [c / p for c, p in zip(cold_ms, chromium_ms, strict=True)]
        line("cold cards PDF / Chromium (side-by-side runs)", f"{Ms(ratios):.1f}x", f"({target})")
        if in_one_process:
            line(
                "WeasyPrint / Chromium, same HTML",
                f"{Ms([w / p for w, p in zip(weasy_ms, chromium_ms, strict=True)]):.1f}x",
            )

    repeated = twenty_units("action-all-fronts.yaml", "Twenty")
    # The roster the cold-render target is measured on; the second shows the same without cards alike.
    side_by_side(repeated, "the example's 12 units repeated (units alike share their cards' bodies)", True, "target 3x")
    side_by_side(different_units(), "20 different units (no two cards alike)", False, "for comparison, no target")

    resolved = load_roster_file(repeated, "bench.yaml")
    data = resolved.data
    snapshot = resolved.snapshot()
    cards_pdf(snapshot, data, layout)
    one_edit_ms = Ms([timed(lambda run: cards_pdf(edited(resolved, run), data, layout), run) for run in range(9)])
    cached_ms = median_ms(lambda: cards_pdf(snapshot, data, layout), runs=20)
    groups = cards.card_groups(snapshot, data, layout)
    assemble_ms = median_ms(lambda: cards.assemble(*cards.card_pages(groups, layout, data), layout), runs=10)
    print("Cards PDF of the first roster, warm")
    line("one unit edited since the last PDF", f"{one_edit_ms:.0f} ms", "(target 250 ms)")
    line("the same roster again (whole PDF cached)", f"{cached_ms:.1f} ms")
    line("sheets assembled from cached cards (no rendering)", f"{assemble_ms:.0f} ms")


def bench_battlescribe_armies() -> None:
    """The Bolt Action armies converted from BattleScribe: ~2,900 units in one game system."""
    from django.test import Client

    from lists.models import GameSystem, Roster, UnitType
    from lists.rosters.files import load_roster_file, save_new_roster
    from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
    from lists.rules.verdict import judge

    print("Bolt Action armies from BattleScribe")
    system = GameSystem.objects.get(key="bolt-action-2e")
    line("units in the Bolt Action game", str(UnitType.objects.filter(system=system).count()))
    line("game data of Bolt Action, cold (fresh processes)", f"{fresh_processes_ms('game-data'):.0f} ms")
    resolved = load_roster_file((ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_bytes())
    snapshot = resolved.snapshot()
    line(
        f"1944: Normandy roster ({len(snapshot.units)} units), points and rule checks",
        f"{median_ms(lambda: judge(snapshot)):.3f} ms",
        "(target 5 ms median)",
    )
    from lists.rosters import battlescribe_writing

    line("BattleScribe ids of the armies, cold (fresh processes)", f"{fresh_processes_ms('battlescribe-ids'):.0f} ms")
    ros = battlescribe_writing.export(snapshot)
    line(
        "Normandy roster written as roster.ros, median",
        f"{median_ms(lambda: battlescribe_writing.export(snapshot)):.2f} ms",
    )
    line(
        "Normandy roster.ros read and checked, median",
        f"{median_ms(lambda: judge(load_roster_file(ros, 'r.ros').snapshot()), runs=50):.1f} ms",
    )
    client = Client()
    get = partial(checked_get, client)

    secret = new_edit_secret()
    saved = save_new_roster(resolved, new_share_id(), hash_secret(secret))
    for label, path in [
        ("editor with the unit picker (142 units), median", f"/e/{secret}/"),
        ("API: the armies of Bolt Action (268), median", "/api/games/bolt-action-2e/armies/"),
        ("API: Armies of Germany (its units), median", "/api/games/bolt-action-2e/armies/germany/"),
        ("API: one converted unit, median", "/api/games/bolt-action-2e/units/germany-panzer-iv-ausf-g-h-j/"),
        ("army page: Armies of Germany, median", "/games/bolt-action-2e/armies/germany/"),
    ]:
        get(path)
        line(label, f"{median_ms(lambda path=path: get(path), runs=20):.1f} ms")
    Roster.objects.filter(pk=saved.pk).delete()


def bench_events(count: int = 256) -> None:
    """An event's organiser's page, JSON and print pack with `count` submissions (three kinds of list)."""
    from datetime import date, timedelta

    from django.core.cache import cache
    from django.test import Client
    from django.utils import timezone

    from lists.event_models import Event, Submission
    from lists.events import submitting
    from lists.models import GameSystem
    from lists.rosters.files import export_roster, load_roster_file
    from lists.rosters.sharing import hash_secret, new_share_id
    from tests.event_rosters import british, german

    system = GameSystem.objects.get(key="bolt-action-2e")
    event = Event.objects.create(
        public_id=new_share_id(), organiser_secret_hash=hash_secret("bench-organiser"), name="Bench event",
        date=date(2027, 4, 10), system=system, points_limit=500, max_order_dice=8, allowed_armies=["germany"],
        deadline=timezone.now() + timedelta(days=1),
    )  # fmt: skip
    kinds = [partial(german), partial(german, panzer=True), partial(british)]
    secrets = []  # each player's submission secret: replacing a list needs it
    for n in range(count):
        text = kinds[n % 3](name=f"List {n}")
        document = export_roster(load_roster_file(text.encode()).snapshot())
        secrets.append(submitting.submit(event, f"Player {n}", document).secret)
    client, organiser = Client(), "/events/o/bench-organiser/"
    print(f"Tournament event ({count} submissions: legal, over the points, another nation)")

    def page(path: str = organiser):
        return checked_get(client, path)

    line("organiser's page, cache cold (verdicts stored at submission)", f"{runs_ms(page, setup=cache.clear):.0f} ms")

    def unjudged() -> None:  # as before the verdicts were stored: every list judged on the GET
        cache.clear()
        Submission.objects.filter(event=event).update(verdict=None, verdict_digest="")

    line("organiser's page, every list judged (stored verdicts dropped)", f"{runs_ms(page, setup=unjudged):.0f} ms")
    line("organiser's page, warm", f"{median_ms(page, runs=10):.0f} ms")
    line("submissions.json (warm)", f"{median_ms(lambda: page(organiser + 'submissions.json'), runs=10):.0f} ms")
    sizes = []
    pack = runs_ms(lambda: sizes.append(len(page(organiser + "pack.pdf").content)), setup=cache.clear)
    line(f"print pack PDF, {count} lists rendered (cold)", f"{pack:.0f} ms", f"{max(sizes) // 1024} KB")
    names = iter(range(FIVE))

    def resubmit() -> None:
        replaced = export_roster(load_roster_file(german(name=f"Replaced {next(names)}").encode()).snapshot())
        submitting.submit(event, "Player 0", replaced, [secrets[0]])

    again = runs_ms(lambda: page(organiser + "pack.pdf"), setup=resubmit)
    line("print pack PDF after one resubmission (one list rendered)", f"{again:.0f} ms")
    event.delete()


def bench_roster_text() -> None:
    from lists.cards import roster_text
    from lists.rosters.files import load_roster_file
    from lists.rules.verdict import judge

    print("roster.txt read back (pasted text to a checked roster)")
    for count in (20, 400):
        units = "".join(
            f"  - {{unit: Regular Infantry Section (Mid-/ Late-War), label: Section {n}, quality: Regular, size: 8,"
            " options: [Light machine gun]}\n"
            for n in range(count)
        )
        resolved = load_roster_file(f"game: bolt-action-2e\narmy: generic\nunits:\n{units}".encode(), "b.yaml")
        snapshot = resolved.snapshot()
        text = roster_text(snapshot, resolved.data, judge(snapshot)).encode()
        line(
            f"{count}-unit roster.txt ({len(text) // 1024} KiB) imported",
            f"{median_ms(lambda text=text: load_roster_file(text), runs=10):.1f} ms",
            "(target 500 ms for 400)" if count == 400 else "",
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:  # one run of a cold figure, in this fresh process: scripts/bench.py --one loadpacks
        try:
            print(f"{one_figure(sys.argv[2]):.1f}")
        finally:
            import shutil

            shutil.rmtree(TMP, ignore_errors=True)
    elif sys.argv[1:] == ["text"]:  # only the text roster figures: scripts/bench.py text
        from lists.gamedata.packs import load_all

        call_command("migrate", verbosity=0)
        load_all(settings.PACKS_DIR)
        bench_roster_text()
    elif sys.argv[1:] == ["events"]:  # only the event figures: scripts/bench.py events
        from lists.gamedata.packs import load_all

        call_command("migrate", verbosity=0)
        load_all(settings.PACKS_DIR)
        bench_events()
    elif sys.argv[1:] == ["cards"]:  # only the card figures: scripts/bench.py cards
        from lists.gamedata.packs import load_all

        call_command("migrate", verbosity=0)
        load_all(settings.PACKS_DIR)
        bench_card_counts()
        bench_card_cache()
    else:
        main()
        bench_roster_text()
        bench_battlescribe_armies()
        bench_pages_and_pdfs()
        bench_events()
