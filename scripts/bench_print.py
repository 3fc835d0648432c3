"""Click to file, as a player sees it (`make bench`): Chromium clicks "Unit cards (PDF)" on a share page
served as `make serve` serves it (gunicorn and the PDF worker beside it, via scripts/with_worker.py, a
throwaway SQLite database, on a free loopback port) and the time runs until the browser has the download.

Each figure is the median of five clicks, with the fastest and the slowest beside it, and the load average.

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

from bench_server import environment, prepare, server, serving

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
    f"UNITS = {UNITS!r}\n"
    f"for share_id, count in {ROSTERS!r}.items():\n"
    "    units = ''.join(f'  - {UNITS[i % 5]}, label: {share_id[-1]} Unit {i + 1}}}\\n' for i in range(count))\n"
    "    text = f'game: bolt-action-2e\\narmy: generic\\nname: Bench {count}\\nunits:\\n{units}'\n"
    "    save_new_roster(load_roster_file(text.encode()), share_id, hash_secret(share_id + '-secret'))\n"
    "print(bell_folder())\n"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def click_to_file(page, base: str, share_id: str) -> tuple[float, int, bool]:
    """Open the share page, click "Unit cards (PDF)" and time until the download is the browser's; and whether
    the page left for the progress page on the way (said beside the figure)."""
    page.goto(f"{base}/r/{share_id}/")
    button = page.get_by_role("button", name="Unit cards (PDF)")
    with page.expect_download(timeout=120_000) as download_info:
        start = time.perf_counter()
        button.click()
    download = download_info.value
    seconds = time.perf_counter() - start
    pdf = Path(download.path()).read_bytes()
    if not pdf.startswith(b"%PDF"):
        raise SystemExit(f"{share_id}: the download is not a PDF")
    fell_back = page.url != f"{base}/r/{share_id}/"  # the script gave up holding: the progress page downloaded it
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


def main() -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serving("armybuilder-print-") as tmp:
        env = environment(tmp, port, "print-bench", ARMYBUILDER_PDF_RATE="1000/m", ARMYBUILDER_PAGE_RATE="1000/m")
        bells = Path(prepare(env, ROSTER_SCRIPT).splitlines()[-1])
        queue = "RQ in Redis" if env.get("REDIS_URL") else "the database queue"
        with server(env, base):
            worker_ready(env, bells)
            print(f"Click to file in Chromium (`make serve`: gunicorn, {queue}, the PDF worker beside it)")
            print(f"  median of {RUNS} clicks (fastest-slowest); load average {os.getloadavg()[0]:.1f} at the start")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_context(accept_downloads=True).new_page()
                for label, share_ids, target in (
                    ("cards PDF, 20 units, cold", [f"benchprint20units{r}" for r in range(RUNS)], "(target 1000 ms)"),
                    ("cards PDF, 20 units, cached", ["benchprint20units0"] * RUNS, "(target 300 ms)"),
                    ("cards PDF, 400 units, cold", [f"benchprint400units{r}" for r in range(RUNS)], "(target 6000 ms)"),
                ):
                    figure(label, [click_to_file(page, base, share_id) for share_id in share_ids], target)
                browser.close()
            print(f"  load average {os.getloadavg()[0]:.1f} at the end (2 cores shared: figures are noisy)")


if __name__ == "__main__":
    main()
