"""Run the web server with the PDF worker beside it: one command starts both, and stopping either stops both.

    python scripts/with_worker.py COMMAND [ARG ...]

The worker is `manage.py db_worker` (the database task queue of lists/tasks.py),
niced so that rendering PDFs never slows pages down. ARMYBUILDER_PDF_WORKERS
(default 1) sets how many render at once.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start(command: list[str]) -> subprocess.Popen:
    # Each in its own process group, so stopping it stops anything it started (an autoreloader's child).
    return subprocess.Popen(command, cwd=ROOT, start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main(server_command: list[str]) -> int:
    if not server_command:
        print(__doc__, file=sys.stderr)
        return 2
    worker = [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.5"]
    workers = [start(["nice", "-n", "19", *worker]) for _ in range(int(os.environ.get("ARMYBUILDER_PDF_WORKERS", "1")))]
    server = start(server_command)
    stopping = []
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda signum, frame: stopping.append(signum))
    try:
        while not stopping and server.poll() is None and all(w.poll() is None for w in workers):
            time.sleep(0.2)
    finally:
        ended = server.poll()
        for process in (server, *workers):
            stop(process)
    if stopping:
        return 0
    if ended is None:
        print("the PDF worker stopped; the server was stopped with it", file=sys.stderr)
        return 1
    return ended


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
