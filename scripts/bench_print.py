"""Click to file, as a player sees it (`make bench`): Chromium clicks "Unit cards (PDF)" on a share page
served as `make serve` serves it (gunicorn and the PDF worker beside it, via scripts/with_worker.py, a
throwaway SQLite database, on a free loopback port) and the time runs until the browser has the download.

    python scripts/bench_print.py          # the database queue
    REDIS_URL=redis://127.0.0.1:6379/0 python scripts/bench_print.py   # RQ in Redis (a running Redis)
"""

from __future__ import annotations

import shutil
import socket
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
ROSTERS = {"benchprint20units": 20, "benchprint400units": 400}
# The rosters, each unit labelled (so no two cards are alike).
ROSTER_SCRIPT = (
    "from lists.rosters.files import load_roster_file, save_new_roster\n"
    "from lists.rosters.sharing import hash_secret\n"
    f"UNITS = {UNITS!r}\n"
    f"for share_id, count in {ROSTERS!r}.items():\n"
    "    units = ''.join(f'  - {UNITS[i % 5]}, label: Unit {i + 1}}}\\n' for i in range(count))\n"
    "    text = f'game: bolt-action-2e\\narmy: generic\\nname: Bench {count}\\nunits:\\n{units}'\n"
    "    save_new_roster(load_roster_file(text.encode()), share_id, hash_secret(share_id + '-secret'))\n"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def click_to_file(page, base: str, share_id: str) -> tuple[float, int]:
    """Open the share page, click "Unit cards (PDF)" and time until the download is the browser's."""
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
    if page.url != f"{base}/r/{share_id}/":
        raise SystemExit(f"{share_id}: the page left for {page.url} on the way to the file")
    return seconds, len(pdf)


def main() -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serving("armybuilder-print-") as tmp:
        env = environment(tmp, port, "print-bench", ARMYBUILDER_PDF_RATE="1000/m")
        prepare(env, ROSTER_SCRIPT)
        queue = "RQ in Redis" if env.get("REDIS_URL") else "the database queue"
        with server(env, base):
            time.sleep(2)  # the worker loads its fonts and starts its render helpers
            print(f"Click to file in Chromium (`make serve`: gunicorn, {queue}, the PDF worker beside it)")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_context(accept_downloads=True).new_page()
                for label, share_id, target in (
                    ("cards PDF, 20 units, cold", "benchprint20units", "(target 1000 ms)"),
                    ("cards PDF, 20 units, cached", "benchprint20units", "(target 300 ms)"),
                    ("cards PDF, 400 units, cold", "benchprint400units", "(target 6000 ms)"),
                ):
                    seconds, size = click_to_file(page, base, share_id)
                    print(f"  {label:<40} {seconds * 1000:>8.0f} ms  {size // 1024:>5} KB  {target}")
                browser.close()


if __name__ == "__main__":
    main()
