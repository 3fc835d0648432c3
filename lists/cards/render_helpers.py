"""Render helpers: long-lived forked copies of a worker process that lay out card batches on the other cores.

A copy forked for one render pays for its start and for copying every page of
memory it writes to; a helper pays once and then stays warm (fonts, stylesheets,
text caches). Helpers are forked from the process that first needs them, or, in
the RQ worker, before it forks a process per job, so every job's process uses
the same ones. A helper that is interrupted (the render's time limit) or lost is
stopped, and new ones are forked on the next render.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import Connection

_lock = threading.Lock()  # one render at a time uses the helpers; another renders without them
_helpers: list[Helper] = []
_state = ""  # what the helpers were forked with (see `start`)
_job_ids = itertools.count()


class HelperFailed(RuntimeError):
    """A helper raised while rendering: its message says what went wrong."""


def _serve(conn: Connection) -> None:
    """A helper's loop: run each call it is sent and answer with its result, until the sender is gone."""
    while True:
        try:
            job_id, func, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = (job_id, True, func(*args))
        except Exception as error:  # noqa: BLE001 - reported to the caller, which raises it
            answer = (job_id, False, f"{type(error).__name__}: {error}")
        conn.send(answer)


class Helper:
    def __init__(self):
        self.conn, child_end = multiprocessing.Pipe()
        self.parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the helper: stopped by the signals that stop its worker, never returns
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                for other in [self, *_helpers]:  # the others' ends stay with the worker, so they see it go
                    other.conn.close()
                _serve(child_end)
            finally:
                os._exit(0)
        child_end.close()

    def alive(self) -> bool:
        """Whether the helper runs (asked by a process forked per job too, which is not its parent)."""
        try:
            if os.getpid() == self.parent:
                return os.waitpid(self.pid, os.WNOHANG) == (0, 0)
            os.kill(self.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            return False
        return True

    def send(self, func, args) -> int:
        job_id = next(_job_ids)
        self.conn.send((job_id, func, args))
        return job_id

    def receive(self, job_id: int):
        while True:  # answers to an earlier job, whose process was stopped, are passed over
            answered, ok, value = self.conn.recv()
            if answered == job_id:
                if not ok:
                    raise HelperFailed(value)
                return value

    def kill(self) -> None:
        """Stop the helper's work at once: its feeder, waiting on the pipe, then sees it close."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def stop(self) -> None:
        self.kill()
        self.conn.close()
        if os.getpid() == self.parent:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)


def start(count: int, state: str = "") -> list[Helper]:
    """At least `count` helpers, forked now unless they run (the RQ worker starts them before each job's process).

    `state` names what the helpers must render with (the templates' digest): helpers forked with another
    are replaced, so they never render in a look this process no longer has.
    """
    global _helpers, _state
    if len(_helpers) < count or state != _state or not all(helper.alive() for helper in _helpers):
        stop()
        _helpers, _state = [Helper() for _ in range(count)], state
    return _helpers


def stop() -> None:
    global _helpers
    for helper in _helpers:
        helper.stop()
    _helpers = []


def map_shared(func, calls: list[tuple], helpers_wanted: int, state: str = "") -> list:
    """`func(*args)` for each of `calls`, results in their order, shared out between this process and up to
    `helpers_wanted` helpers: whichever is free takes the next call, so a core that runs slower (other work
    on the machine) takes fewer. Without helpers to spare (another thread is rendering) all run here; a call
    whose helper is lost runs here too, and new helpers are forked for the next render. `state`: see `start`.
    """
    if len(calls) == 1 or helpers_wanted < 1 or not _lock.acquire(blocking=False):
        return [func(*args) for args in calls]
    try:
        return _share(func, calls, start(helpers_wanted, state)[:helpers_wanted])
    finally:
        _lock.release()


def _share(func, calls: list[tuple], helpers: list[Helper]) -> list:
    results: list = [None] * len(calls)
    queue = list(range(len(calls)))
    queue_lock = threading.Lock()
    left_here: list[int] = []  # calls a lost helper took: this process runs them
    failures: list[str] = []

    def take() -> int | None:
        with queue_lock:
            return queue.pop(0) if queue and not failures else None

    def feed(helper: Helper) -> None:
        while (index := take()) is not None:
            try:
                results[index] = helper.receive(helper.send(func, calls[index]))
            except HelperFailed as failed:
                failures.append(str(failed))
            except (EOFError, OSError):  # killed, or stopped: what it held is done here
                left_here.append(index)
                return

    feeders = [threading.Thread(target=feed, args=(helper,), daemon=True) for helper in helpers]
    try:
        for feeder in feeders:
            feeder.start()
        while (index := take()) is not None:
            results[index] = func(*calls[index])
        for feeder in feeders:
            feeder.join()
        if failures:
            raise HelperFailed(failures[0])
        for index in left_here:
            results[index] = func(*calls[index])
    except BaseException:  # the time limit, or a failed render: the helpers' work is stopped at once
        for helper in helpers:
            helper.kill()
        for feeder in feeders:
            feeder.join(timeout=5)
        stop()
        raise
    if left_here:
        stop()
    return results
