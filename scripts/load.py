"""The bounded load test of `make bench`: wrk against 2 gunicorn workers on loopback.

It serves the app as production does (`make serve`'s command: DEBUG off,
WhiteNoise, SQLite in WAL mode, the PDF worker beside gunicorn) from a
throwaway database holding the packs, 20-unit and 400-unit rosters. It times
cards PDFs from request to download (five rosters' first, one roster's again),
hits the share page and the editor's live-validation endpoint for a fixed time
each, then the share page again while a 400-unit cards PDF renders in the
background, five times (five rosters). Each PDF figure is the median of five
runs with the fastest and slowest beside it; the share page's under a render,
the medians of its five wrk runs. Every request goes to 127.0.0.1; the run
stops by itself.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import statistics
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

from bench_runs import FIVE, Ms
from bench_server import environment, prepare, server, serving

PORT = int(os.environ.get("ARMYBUILDER_LOAD_PORT", "8765"))
SECONDS = int(os.environ.get("ARMYBUILDER_LOAD_SECONDS", "10"))
BASE = f"http://127.0.0.1:{PORT}"

LUA_REPORT = """
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
                 + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %.1f %.2f %.2f %d %d\\n", summary.requests / (summary.duration / 1e6),
           latency:percentile(50) / 1000, latency:percentile(95) / 1000, errors, summary.requests))
end
"""

LUA_EDIT = """
local version = "{version}"
request = function()
  local body = "version=" .. version .. "&label=First+squad&quality=regular"
  return wrk.format("POST", "{path}", {{
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["HX-Request"] = "true",
    ["X-CSRFToken"] = "{token}",
    ["Cookie"] = "csrftoken={token}",
    ["Referer"] = "{base}/",
  }}, body)
end
response = function(status, headers, body)
  -- Keep the newest version, as the page would: stale edits get the conflict answer.
  local found = string.match(body, 'name="version" value="(%d+)"')
  if found then version = found end
end
"""


# Five 400-unit and five 20-unit rosters for the PDFs (all units of one alike, of a size of their roster's,
# so no roster shares a card with another), and the 20-unit roster of the share page and the editor: prints its
# first unit id (the live-validation target).
ROSTER_SCRIPT = (
    "from lists.rosters.files import load_roster_file, save_new_roster\n"
    "from lists.rosters.sharing import hash_secret\n"
    "def roster(count, size=''):\n"
    "    size = f', size: {size}' if size else ''\n"
    "    units = ''.join(f'  - {{unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, options: [Light machine gun]{size}}}\\n' for _ in range(count))\n"
    "    return load_roster_file(f'game: bolt-action-2e\\narmy: generic\\nname: Load {count}\\nunits:\\n{units}'.encode())\n"
    f"for run in range({FIVE}):\n"
    "    save_new_roster(roster(400, 6 + run), f'loadtest400units{run}', hash_secret(f'load-test-400-secret{run}'))\n"
    "    save_new_roster(roster(20, 6 + run), f'loadtest20units{run}', hash_secret(f'load-test-20-secret{run}'))\n"
    "small = save_new_roster(roster(20), 'loadtestshareid01', hash_secret('load-test-edit-secret'))\n"
    "print(small.units.first().id)\n"
)


def fetch_pdf(path: str, limit: float = 600) -> tuple[float, int]:
    """Ask for a PDF as the download script does, held until the file comes; (seconds, bytes)."""
    start = time.perf_counter()
    url = f"{BASE}{path}?hold=1"
    while time.perf_counter() - start < limit:
        with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 - loopback only
            body = answer.read()
            if answer.headers.get_content_type() == "application/pdf":
                return time.perf_counter() - start, len(body)
            if "could not be made" in body.decode():
                raise SystemExit(f"{path}: the render failed")
    raise SystemExit(f"{path}: no PDF after {limit:.0f} s")


def render_state(path: str) -> str:
    """What the waiting page says about a PDF: queued, rendering or ready."""
    with urllib.request.urlopen(f"{BASE}{path}?wait=1", timeout=30) as answer:  # noqa: S310 - loopback only
        html = answer.read().decode()
    return "ready" if "is downloading" in html else "rendering" if "Rendering" in html else "queued"


def csrf_and_version(edit_path: str) -> tuple[str, str]:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    html = opener.open(f"{BASE}{edit_path}", timeout=5).read().decode()  # noqa: S310 - loopback only
    token = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    return token, re.search(r'name="version" value="(\d+)"', html).group(1)


def wrk(path: str, lua: str, tmp: Path, connections: int) -> dict:
    script = tmp / f"script-{abs(hash(lua))}.lua"
    script.write_text(lua + LUA_REPORT)
    command = ["wrk", "-t2", f"-c{connections}", f"-d{SECONDS}s", "--timeout", "5s", "-s", str(script), f"{BASE}{path}"]
    output = subprocess.run(command, capture_output=True, text=True, check=True, timeout=SECONDS + 30).stdout
    rps, p50, p95, errors, requests = re.search(r"RESULT (\S+) (\S+) (\S+) (\d+) (\d+)", output).groups()
    return {"rps": float(rps), "p50": float(p50), "p95": float(p95), "errors": int(errors), "requests": int(requests)}


def line(label: str, result: dict, target: str = "") -> None:
    print(
        f"  {label:<34} {result['rps']:>8.0f} req/s  p50 {result['p50']:6.1f} ms  p95 {result['p95']:6.1f} ms  "
        f"errors {result['errors']}/{result['requests']}  {target}"
    )


def main() -> None:
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: make bench installs it (Debian package wrk)")
    with serving("armybuilder-load-") as tmp:
        env = environment(
            tmp,
            PORT,
            "load-test",
            ARMYBUILDER_WORKERS="2",
            ARMYBUILDER_PAGE_RATE="1000000/m",
            ARMYBUILDER_EDIT_RATE="1000000/m",
        )
        unit_id = prepare(env, ROSTER_SCRIPT)
        with server(env, BASE):
            measure(tmp, unit_id)


def pdf_ms(paths: list[str]) -> Ms:
    """Request to download of each PDF: their median (fastest-slowest) in ms."""
    return Ms([fetch_pdf(path)[0] * 1000 for path in paths])


def measure(tmp: Path, unit_id: str) -> None:
    print("Production server (gunicorn, fonts built before the workers fork; the PDF worker beside it)")
    print(f"  PDFs: median of {FIVE} (fastest-slowest)")
    for label, paths in (
        (
            "first cards.pdf of a 20-unit roster (queued, rendered, served)",
            [f"/r/loadtest20units{run}/cards.pdf" for run in range(FIVE)],
        ),
        ("the same again (cached)", ["/r/loadtest20units0/cards.pdf"] * FIVE),
    ):
        print(f"  {label:<58} {f'{pdf_ms(paths):.0f} ms':>20}")
    print(f"Load test: 2 gunicorn workers on 127.0.0.1:{PORT}, wrk 2 threads, {SECONDS} s per endpoint")
    share = wrk("/r/loadtestshareid01/", "", tmp, connections=16)
    line("share page (20 units)", share, "(target 300 req/s, no errors)")
    edit_path = "/e/load-test-edit-secret/"
    token, version = csrf_and_version(edit_path)
    path = f"{edit_path}units/{unit_id}/"
    edit = wrk(path, LUA_EDIT.format(version=version, path=path, token=token, base=BASE), tmp, connections=4)
    line("live validation (htmx edit)", edit)
    runs, states, totals, sizes = [], [], [], []
    for run in range(FIVE):
        big = f"/r/loadtest400units{run}/cards.pdf"
        started = time.perf_counter()
        urllib.request.urlopen(f"{BASE}{big}", timeout=30).read()  # noqa: S310 - loopback only: starts the render
        time.sleep(1)  # let the worker pick it up
        runs.append(wrk("/r/loadtestshareid01/", "", tmp, connections=16))
        states.append(render_state(big))
        sizes.append(fetch_pdf(big)[1])
        totals.append((time.perf_counter() - started) * 1000)
    during = {key: statistics.median(run[key] for run in runs) for key in ("rps", "p50", "p95")}
    during |= {key: sum(run[key] for run in runs) for key in ("errors", "requests")}
    p95 = f"p95 {min(run['p95'] for run in runs):.1f}-{max(run['p95'] for run in runs):.1f} ms"
    still = ", ".join(f"{states.count(state)} {state}" for state in sorted(set(states)))
    line(
        "share page while 400-unit PDF renders",
        during,
        f"(target p95 < 200 ms; medians of {FIVE} runs, {p95}; PDF at the end: {still})",
    )
    label = "400-unit cards.pdf, request to download"
    print(f"  {label:<58} {f'{Ms(totals):.0f} ms':>20}  ({max(sizes) // 1024} KB)")


if __name__ == "__main__":
    main()
