"""Run the web server with the PDF worker beside it: one command starts both, and stopping either stops both.

    python scripts/with_worker.py COMMAND [ARG ...]

The worker is the one of the task queue the settings choose (lists/tasks.py): RQ's
`manage.py rqworker` when REDIS_URL is set, else `manage.py db_worker` (the
database queue). It runs at the lowest priority (Linux's idle scheduling class
and nice 19), so rendering PDFs never slows pages down. ARMYBUILDER_PDF_WORKERS (default 1) sets how many
render at once.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lowest_priority() -> None:
    """Run only on CPU time the web server leaves: a page request waking up takes the core from a render at once."""
    os.nice(19)
    if hasattr(os, "SCHED_IDLE"):  # Linux
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def start(command: list[str], priority=None) -> subprocess.Popen:
    # Each in its own process group, so stopping it stops anything it started (an autoreloader's child);
    # not its own session: Linux shares the CPU between sessions (autogroups) before it looks at priorities,
    # so a worker in a session of its own would still take half the CPU from the web workers.
    return subprocess.Popen(command, cwd=ROOT, process_group=0, preexec_fn=priority)  # noqa: PLW1509 - no threads here


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def worker_command() -> list[str]:
    """The PDF worker: RQ's when REDIS_URL is set (as armybuilder/settings.py then queues in Redis), else the database's."""
    if os.environ.get("REDIS_URL"):
        return [
            *(sys.executable, "manage.py", "rqworker", "default"),
            *("--job-class", "django_tasks_rq.Job", "--worker-class", "lists.tasks.PdfWorker"),
        ]
    return [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.5"]


def main(server_command: list[str]) -> int:
    if not server_command:
        print(__doc__, file=sys.stderr)
        return 2
    worker = worker_command()
    count = int(os.environ.get("ARMYBUILDER_PDF_WORKERS", "1"))
    workers = [start(worker, priority=lowest_priority) for _ in range(count)]
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
