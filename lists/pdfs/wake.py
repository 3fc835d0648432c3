"""A bell between the web processes and the database queue's PDF workers on this machine.

The database queue has no way to tell a worker that a job arrived, and polling it often would
take SQLite's write lock many times a second. So each worker listens on a Unix datagram socket
of its own, in a folder named after the database (every process of one site finds the same
folder), and the web process rings every socket there right after it enqueues a render: the
worker looks at the queue at once, and otherwise only every few seconds (for jobs enqueued
elsewhere). With Redis the queue needs none of this: RQ's worker blocks on the queue itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import socket
import tempfile
from pathlib import Path

from django.conf import settings


def bell_folder() -> Path:
    """The folder of this site's worker sockets: one per database, short enough for a socket's path."""
    database = settings.DATABASES["default"]
    name = f"{database['ENGINE']}|{database.get('HOST', '')}|{database.get('PORT', '')}|{database['NAME']}"
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"armybuilder-{os.getuid()}-{digest}"


def ring() -> None:
    """Wake every PDF worker of this site on this machine; a worker that is not listening misses nothing
    (it looks at the queue on its own every few seconds)."""
    folder = bell_folder()
    if not folder.is_dir():
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for path in folder.glob("*.sock"):
            try:
                sender.sendto(b"1", str(path))
            except ConnectionRefusedError:  # its worker has gone: nobody will listen there again
                path.unlink(missing_ok=True)
            except OSError:  # its queue of rings is full, so it will look at the queue anyway
                pass


class Bell:
    """A worker's socket: `wait` returns as soon as a web process rings, or after `seconds`."""

    def __init__(self):
        folder = bell_folder()
        folder.mkdir(mode=0o700, exist_ok=True)
        self.path = folder / f"{os.getpid()}.sock"
        self.path.unlink(missing_ok=True)
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(self.path))
        self.socket.setblocking(False)

    def wait(self, seconds: float) -> None:
        select.select([self.socket], [], [], seconds)
        with contextlib.suppress(BlockingIOError):
            while True:  # several rings are one wake-up
                self.socket.recv(16)

    def close(self) -> None:
        self.socket.close()
        self.path.unlink(missing_ok=True)
