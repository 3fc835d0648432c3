"""Click to file, as a player sees it (`make bench`): Chromium clicks "Unit cards (PDF)" on a share page
served as `make serve` serves it (gunicorn and the PDF worker beside it, via scripts/with_worker.py, a
throwaway SQLite database, on a free loopback port) and the time runs until the browser has the download.

    python scripts/bench_print.py          # the database queue
    REDIS_URL=redis://127.0.0.1:6379/0 python scripts/bench_print.py   # RQ in Redis (a running Redis)
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
UNITS = [  # Bolt Action units of five kinds; each unit is labelled, so every card is a card of its own
    "{unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, size: 8, options: [Light machine gun]",
    "{unit: Medium Mortar Team, quality: Regular, options: [Spotter]",
    "{unit: M4 Sherman 75MM, quality: Veteran",
    "{unit: Second Lieutenant, quality: Regular",
    "{unit: Sniper Team, quality: Veteran",
]
ROSTERS = {"benchprint20units": 20, "benchprint400units": 400}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(tmp: Path, port: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_DEBUG"}}
    env.update(
        DJANGO_SETTINGS_MODULE="armybuilder.settings",
        DJANGO_SECRET_KEY="print-bench-only-" + "k" * 50,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SQLITE_PATH=str(tmp / "bench.sqlite3"),
        ARMYBUILDER_CACHE_DIR=str(tmp / "cache"),
        ARMYBUILDER_BIND=f"127.0.0.1:{port}",
        ARMYBUILDER_PDF_RATE="1000/m",
    )
    return env


def prepare(env: dict) -> None:
    """The packs and a 20-unit and a 400-unit roster, each unit labelled (so no two cards are alike)."""
    for command in (["migrate", "-v0"], ["collectstatic", "--no-input", "-v0"], ["loadpacks"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    script = (
        "import django; django.setup()\n"
        "from lists.roster_files import load_roster_file, save_new_roster\n"
        "from lists.sharing import hash_secret\n"
        f"UNITS = {UNITS!r}\n"
        f"for share_id, count in {ROSTERS!r}.items():\n"
        "    units = ''.join(f'  - {UNITS[i % 5]}, label: Unit {i + 1}}}\\n' for i in range(count))\n"
        "    text = f'game: bolt-action-2e\\narmy: generic\\nname: Bench {count}\\nunits:\\n{units}'\n"
        "    save_new_roster(load_roster_file(text.encode()), share_id, hash_secret(share_id + '-secret'))\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, capture_output=True)


def wait_until_up(base: str, server: subprocess.Popen) -> None:
    for _ in range(150):
        if server.poll() is not None:
            raise SystemExit("the server stopped: " + server.stderr.read().decode()[-500:])
        try:
            urllib.request.urlopen(f"{base}/", timeout=1)  # noqa: S310 - loopback only
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


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

    tmp = Path(tempfile.mkdtemp(prefix="armybuilder-print-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = environment(tmp, port)
    prepare(env)
    gunicorn = [str(Path(sys.executable).parent / "gunicorn"), "-c", "armybuilder/gunicorn.py", "armybuilder.wsgi"]
    server = subprocess.Popen(
        [sys.executable, "scripts/with_worker.py", *gunicorn],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    queue = "RQ in Redis" if env.get("REDIS_URL") else "the database queue"
    try:
        wait_until_up(base, server)
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
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
