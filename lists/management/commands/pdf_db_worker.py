"""The database queue's worker, woken at once when a PDF is enqueued (`lists.pdfs.wake`) instead of
polling the queue on an interval; before the first job it builds every loaded game's data (our packs' and the
BattleScribe data sets'), warms the renderer (fonts, stylesheets, a sample render) and starts the render helpers."""

import logging

from django.db import connections
from django_tasks_db.management.commands import db_worker

from lists.cards import start_render_helpers
from lists.pdfs.tasks import warm_worker
from lists.pdfs.wake import Bell

IDLE_SECONDS = 3.0  # how often an idle worker looks at the queue unrung (jobs enqueued on another machine)
LOCKED_SECONDS = 0.05  # how soon it tries again when another process holds SQLite's write lock


class WokenWorker(db_worker.Worker):
    """django-tasks' worker, run pass by pass: each pass runs every job waiting (its batch mode), then the
    worker waits for a ring of its bell, or IDLE_SECONDS."""

    def run(self) -> None:
        warm_worker()  # every game's data, the renderer warm
        start_render_helpers()
        bell = Bell()
        try:
            while self.running:
                super().run()
                if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                    return
                bell.wait(IDLE_SECONDS)
        finally:
            bell.close()
            connections.close_all()  # a worker run in a thread (the tests) leaves no session open behind it


class Command(db_worker.Command):
    help = "Run the PDF worker of the database queue, woken at once by each render enqueued on this machine"

    def handle(self, *, verbosity, queue_name, backend_name, max_tasks, worker_id, **options) -> None:
        self.configure_logging(verbosity)
        logging.getLogger("django_tasks_db").setLevel(logging.WARNING)  # not a line for each pass
        worker = WokenWorker(
            queue_names=queue_name.split(","),
            interval=LOCKED_SECONDS,
            batch=True,
            backend_name=backend_name,
            startup_delay=False,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=[],
        )
        worker.configure_signals()
        worker.run()
