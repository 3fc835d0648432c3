"""Click to file, as a player sees it (`make bench`): Chromium clicks "Unit cards (PDF)" on a share page
served as `make serve` serves it (gunicorn and the PDF worker beside it, via scripts/with_worker.py, a
throwaway SQLite database, on a free loopback port) and the time runs until the browser has the download.

Each figure is the median of five clicks, with the fastest and the slowest beside it, and the load average.
Beside the cold clicks, Chromium prints the same cards (their HTML, as the renderer gets it) in the same run,
click and print taking turns, and the ratio of each click to its print is given: the machine's speed drifts,
the ratio much less. With ../shared beside the repository, a Flames of War roster of 20 units (its data loaded
as `load_battlescribe` loads it) is clicked too: the cards of any loaded game.

    python scripts/bench_print.py          # the database queue
    REDIS_URL=redis://127.0.0.1:6379/0 python scripts/bench_print.py   # RQ in Redis (a running Redis)
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import time
from pathlib import Path

from bench_server import ROOT, environment, prepare, server, serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
UNITS = [  # Bolt Action units of five kinds; each unit is labelled, so every card is a card of its own
    "{unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, size: 8, options: [Light machine gun]",
    "{unit: Medium Mortar Team, quality: Regular, options: [Spotter]",
    "{unit: M4 Sherman 75MM, quality: Veteran",
    "{unit: Second Lieutenant, quality: Regular",
    "{unit: Sniper Team, quality: Veteran",
]
RUNS = 5  # each figure: the median of five clicks, with the fastest and slowest beside it
# Rosters, each unit labelled (so no two cards are alike, and no roster shares a card with another): one of
# 20 units for each cold click (cards never rendered before, in a worker that has rendered others), and one of
# 400 units for each of its cold clicks.
ROSTERS = {f"benchprint20units{run}": 20 for run in range(RUNS)} | {
    f"benchprint400units{run}": 400 for run in range(RUNS)
}
ROSTER_SCRIPT = (
    "from lists.rosters.files import load_roster_file, save_new_roster\n"
    "from lists.rosters.sharing import hash_secret\n"
    "from lists.pdfs.wake import bell_folder\n"
    "print(bell_folder())\n"
    f"UNITS = {UNITS!r}\n"
    f"for share_id, count in {ROSTERS!r}.items():\n"
    "    units = ''.join(f'  - {UNITS[i % 5]}, label: {share_id[-1]} Unit {i + 1}}}\\n' for i in range(count))\n"
    "    text = f'game: bolt-action-2e\\narmy: generic\\nname: Bench {count}\\nunits:\\n{units}'\n"
    "    save_new_roster(load_roster_file(text.encode()), share_id, hash_secret(share_id + '-secret'))\n"
    "from lists.cards import Layout, cards_html, roster_cards\n"
    "from lists.gamedata.loading import game_data, roster_snapshot\n"
    "from lists.rosters.sharing import roster_for_share\n"
    f"for run in range({RUNS}):\n"
    "    roster = roster_for_share(f'benchprint20units{run}')\n"
    "    made = roster_cards(roster_snapshot(roster), game_data(roster.system), Layout())\n"
    f"    Path(f'{{TMP}}/benchprint20units{{run}}.html').write_text(cards_html(made, Layout(), Layout().card_mm[1]))\n"
)
# A Flames of War roster of 20 units (the first 20 entries a Bulge: American force offers), one per cold click, its
# units named for their roster: cards are kept one by one, and no cold click finds one printed before.
DATA_SET = (ROOT / ".." / "shared" / "bsdata" / "flamesofwar").resolve()
DATA_SET_SCRIPT = (
    "from django.core.management import call_command\n"
    "from lists.battlescribe.engine import Roster\n"
    "from lists.cards.battlescribe_cards import cards_html\n"
    "from lists.gamedata.battlescribe_cache import battlescribe_game_data\n"
    "from lists.models import BattleScribeDataSet\n"
    "from lists.rosters import battlescribe_data_editing as editing\n"
    "from lists.rosters.battlescribe_card_content import roster_cards\n"
    "from lists.rosters.battlescribe_data_rosters import read_data_set_roster\n"
    f"call_command('load_battlescribe', {str(DATA_SET)!r})\n"
    "data_set = BattleScribeDataSet.objects.get()\n"
    "data = battlescribe_game_data(data_set)\n"
    "book = next(c for c in data.catalogues if c.name == 'Late-War - Bulge: American')\n"
    "entry = next(f for f in [*data.game_system.force_entries, *book.force_entries] if f.name == 'Standard')\n"
    f"for run in range({RUNS}):\n"
    "    roster = Roster(data, f'Bench {run}')\n"
    "    force = roster.add_force(entry.id, book.id)\n"
    "    offered = [o for o in force.options if not roster.view_option(o, force).hidden]\n"
    "    for number in range(20):\n"
    "        roster.select(force, offered[number % len(offered)])\n"
    "    for selection in [s for top in force.selections for s in top.walk()]:  # no card is one printed before\n"
    "        selection.custom_name = f'{selection.name} ({run})'\n"
    "    roster.refresh()\n"
    "    kept = editing.keep_new(data_set, roster, f'benchdataset{run}', hash_secret(f'benchdataset{run}-secret'))\n"
    "    found = read_data_set_roster(editing.export_xml(kept).encode(), data_set)\n"
    f"    Path(f'{{TMP}}/benchdataset{{run}}.html').write_text(cards_html(found, roster_cards(found.roster)))\n"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


OUR_BUTTON = ("button", "Unit cards (PDF)")  # the share page's form of our rosters
DATA_SET_LINK = ("link", "unit cards (PDF)")  # a loaded data set's roster's share page


def click_to_file(page, base: str, share_path: str, control: tuple[str, str]) -> tuple[float, int, bool]:
    """Open the share page, click its unit cards control and time until the download is the browser's; and
    whether the page left for the progress page on the way (said beside the figure)."""
    page.goto(f"{base}{share_path}")
    button = page.get_by_role(control[0], name=control[1])
    with page.expect_download(timeout=120_000) as download_info:
        start = time.perf_counter()
        button.click()
    download = download_info.value
    seconds = time.perf_counter() - start
    pdf = Path(download.path()).read_bytes()
    if not pdf.startswith(b"%PDF"):
        raise SystemExit(f"{share_path}: the download is not a PDF")
    fell_back = page.url != f"{base}{share_path}"  # the script gave up holding: the progress page downloaded it
    return seconds, len(pdf), fell_back


def worker_ready(env: dict, bells: Path) -> None:
    """Wait until the PDF worker has warmed up and listens (the database queue's worker opens its bell then)."""
    if env.get("REDIS_URL"):
        time.sleep(15)  # RQ's worker warms up before it takes a job: give it the time
        return
    for _ in range(600):
        if any(bells.glob("*.sock")):
            return
        time.sleep(0.1)
    raise SystemExit("the PDF worker did not start")


def figure(label: str, clicks: list[tuple[float, int, bool]], target: str) -> None:
    ms = sorted(seconds * 1000 for seconds, _, _ in clicks)
    spread = f"({ms[0]:.0f}-{ms[-1]:.0f})"
    size = max(size for _, size, _ in clicks) // 1024
    fell_back = sum(fell for _, _, fell in clicks)
    note = f"  {fell_back} of {len(clicks)} by the progress page" if fell_back else ""
    print(f"  {label:<34} {statistics.median(ms):>6.0f} ms {spread:<13} {size:>5} KB  {target}{note}")


def chromium_print_seconds(page, html: Path) -> float:
    """Chromium printing the cards' HTML (as the renderer gets it) to a PDF: the browser's own print."""
    start = time.perf_counter()
    page.set_content(html.read_text())
    page.pdf(prefer_css_page_size=True, print_background=True)
    return time.perf_counter() - start


def beside_the_browser(label: str, page, printer, base: str, rosters: list[tuple[str, str, Path]], target: str):
    """Cold clicks, each followed by Chromium printing the same cards; the clicks, the prints and their ratios."""
    clicks, prints = [], []
    for share_path, button, html in rosters:
        clicks.append(click_to_file(page, base, share_path, button))
        prints.append(chromium_print_seconds(printer, html))
    figure(label, clicks, target)
    ms = sorted(seconds * 1000 for seconds in prints)
    print(f"  {'  Chromium printing the same cards':<34} {statistics.median(ms):>6.0f} ms ({ms[0]:.0f}-{ms[-1]:.0f})")
    ratios = sorted(click[0] / printed for click, printed in zip(clicks, prints, strict=True))
    print(
        f"  {'  click to file / Chromium':<34} {statistics.median(ratios):>6.1f} x  ({ratios[0]:.1f}-{ratios[-1]:.1f})"
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serving("armybuilder-print-") as tmp:
        env = environment(tmp, port, "print-bench", ARMYBUILDER_PDF_RATE="1000/m", ARMYBUILDER_PAGE_RATE="1000/m")
        script = f"from pathlib import Path\nTMP = {str(tmp)!r}\n" + ROSTER_SCRIPT
        data_set = DATA_SET.is_dir()
        bells = Path(prepare(env, script + (DATA_SET_SCRIPT if data_set else "")).splitlines()[0])
        queue = "RQ in Redis" if env.get("REDIS_URL") else "the database queue"
        with server(env, base):
            worker_ready(env, bells)
            print(f"Click to file in Chromium (`make serve`: gunicorn, {queue}, the PDF worker beside it)")
            print(f"  median of {RUNS} clicks (fastest-slowest); load average {os.getloadavg()[0]:.1f} at the start")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(accept_downloads=True)
                page, printer = context.new_page(), browser.new_page()
                chromium_print_seconds(printer, tmp / "benchprint20units0.html")  # the printer warmed up
                ours = [
                    (f"/r/benchprint20units{r}/", OUR_BUTTON, tmp / f"benchprint20units{r}.html") for r in range(RUNS)
                ]
                beside_the_browser("cards PDF, 20 units, cold", page, printer, base, ours, "(target 1000 ms, 5x)")
                cached = [click_to_file(page, base, "/r/benchprint20units0/", OUR_BUTTON) for _ in range(RUNS)]
                figure("cards PDF, 20 units, cached", cached, "(target 300 ms)")
                big = [click_to_file(page, base, f"/r/benchprint400units{r}/", OUR_BUTTON) for r in range(RUNS)]
                figure("cards PDF, 400 units, cold", big, "(target 6000 ms)")
                if data_set:
                    theirs = [
                        (f"/bs/r/benchdataset{r}/", DATA_SET_LINK, tmp / f"benchdataset{r}.html") for r in range(RUNS)
                    ]
                    beside_the_browser(
                        "Flames of War cards, 20 units, cold", page, printer, base, theirs, "(target 1000 ms)"
                    )
                browser.close()
            print(f"  load average {os.getloadavg()[0]:.1f} at the end (2 cores shared: figures are noisy)")


if __name__ == "__main__":
    main()
