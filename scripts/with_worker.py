"""Run the web server with the PDF worker beside it: one command starts both, and stopping it stops both.

A worker that dies (killed, out of memory) is started again, with a growing delay if it keeps failing; the
server keeps serving meanwhile, and a render its worker dropped is shown failed, ready to try again.

    python scripts/with_worker.py COMMAND [ARG ...]

The worker is the one of the task queue the settings choose (lists/pdfs/tasks.py): RQ's
`manage.py rqworker` when REDIS_URL is set, else `manage.py pdf_db_worker` (the
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
            *(sys.executable, "manage.py", "rqworker", "default", "bulk"),  # "default" first: lighter PDFs
            *("--job-class", "django_tasks_rq.Job", "--worker-class", "lists.pdfs.tasks.PdfWorker"),
        ]
    return [sys.executable, "manage.py", "pdf_db_worker"]  # woken at once by each render enqueued (lists/pdfs/wake.py)


def main(server_command: list[str]) -> int:
    if not server_command:
        print(__doc__, file=sys.stderr)
        return 2
    count = int(os.environ.get("ARMYBUILDER_PDF_WORKERS", "1"))
    workers = [Supervised(worker_command()) for _ in range(count)]
    server = start(server_command)
    stopping = []
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda signum, frame: stopping.append(signum))
    try:
        while not stopping and server.poll() is None:
            for worker in workers:
                worker.keep_running()
            time.sleep(0.2)
    finally:
        for process in (server, *(worker.process for worker in workers)):
            stop(process)
    return 0 if stopping else server.poll()


class Supervised:
    """A PDF worker started again whenever it stops: the site keeps serving while it is down (PDFs wait)."""

    def __init__(self, command: list[str]):
        self.command = command
        self.delay = 0.0
        self.process = start(command, priority=lowest_priority)
        self.started = self.next_start = time.monotonic()

    def keep_running(self) -> None:
        if self.process.poll() is None:
            if time.monotonic() - self.started > 60:  # it has run a while: a later failure starts at once again
                self.delay = 0.0
            return
        now = time.monotonic()
        if self.next_start <= self.started:  # it has just been found stopped
            self.delay = min(30.0, self.delay * 2 or 1.0)  # a worker failing at once is retried ever more slowly
            self.next_start = now + self.delay
            print(
                f"the PDF worker stopped ({self.process.returncode}); starting it again in {self.delay:g} s",
                file=sys.stderr,
            )
        if now >= self.next_start:
            self.process = start(self.command, priority=lowest_priority)
            self.started = now


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
