"""A server on the loopback address publishing BattleScribe data as the community does, for tests.

`publish(folder, served)` zips each `.gst`/`.cat` of a data folder into `.gstz`/`.catz` in `served`
and writes `index.bsi` (a zip of `index.xml`, a `<dataIndex>` listing each file's path, type, id,
name and revision) beside them. `DataServer` serves that folder on 127.0.0.1 (a port of its own),
plus a few answers no source should give: `/slow/...` waits before answering, `/huge` sends bytes
without end, `/page` an HTML page, `/loop` redirects to itself.
"""

from __future__ import annotations

import functools
import io
import threading
import time
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

SLOW_SECONDS = 3


def root_attributes(path: Path) -> dict[str, str]:
    """A data file's root element's attributes (id, name, revision), read from its first element alone."""
    with path.open("rb") as source:
        _, root = next(etree.iterparse(source, events=("start",)))
        return dict(root.attrib)


def zipped(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


def publish(folder: Path, served: Path) -> Path:
    """`folder`'s data zipped into `served` with its index.bsi (see the module); returns the index's path."""
    served.mkdir(parents=True, exist_ok=True)
    entries = []
    for path in sorted(folder.iterdir()):
        suffix = path.suffix.lower()
        if suffix not in (".gst", ".cat"):
            continue
        attributes = root_attributes(path)
        (served / f"{path.name}z").write_bytes(zipped(path.name, path.read_bytes()))
        entries.append(
            f"<dataIndexEntry filePath={quoteattr(path.name + 'z')} "
            f'dataType="{"gamesystem" if suffix == ".gst" else "catalogue"}" '
            f"dataId={quoteattr(attributes['id'])} dataName={quoteattr(attributes.get('name', ''))} "
            f'dataBattleScribeVersion="2.03" dataRevision="{attributes.get("revision", "1")}"/>'
        )
    index = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<dataIndex xmlns="http://www.battlescribe.net/schema/dataIndexSchema" battleScribeVersion="2.03" '
        f"name={quoteattr(folder.name)}><repositoryUrls/><dataIndexEntries>{''.join(entries)}"
        "</dataIndexEntries></dataIndex>"
    )
    (served / "index.bsi").write_bytes(zipped("index.xml", index.encode()))
    return served / "index.bsi"


class Handler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def do_GET(self):
        if self.path.startswith("/slow/"):
            time.sleep(SLOW_SECONDS)
            self.path = self.path[len("/slow") :]
        elif self.path == "/huge":
            return self.endless()
        elif self.path == "/page":
            return self.answer(b"<!doctype html><html><body>Not found, try our shop</body></html>", "text/html")
        elif self.path == "/loop":
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.end_headers()
            return None
        return super().do_GET()

    def answer(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def endless(self) -> None:
        self.send_response(200)
        self.end_headers()  # no Content-Length: only the bytes read can stop it
        chunk = b"PK" + b"\0" * 65_534
        try:
            for _ in range(10_000):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass


class DataServer:
    """`served` on http://127.0.0.1:PORT/ in a thread, until `close()`."""

    def __init__(self, served: Path) -> None:
        self.served = served
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(served)))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
