"""Files fetched from an address over HTTP(S), bounded: a deadline, a size cap and few redirects.

A data source is someone else's server: it may answer late, trickle bytes, send gigabytes or bounce the
request around. Each fetch has one deadline for the whole answer (not only per read), stops reading past
its byte cap whatever Content-Length claims, follows at most `MAX_REDIRECTS` redirects and only to
http(s), and turns every failure into `SourceRefused` with a message naming the address.
"""

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings

MAX_REDIRECTS = 5
CHUNK_BYTES = 64 * 1024
USER_AGENT = "armybuilder (BattleScribe data loader)"


class SourceRefused(ValueError):
    """A data source that could not be used; the message says which address and why, for the operator."""


def is_address(source: str) -> bool:
    """Whether `source` is a web address rather than a path on this machine."""
    return urlsplit(source).scheme.lower() in ("http", "https")


def fetch_timeout() -> float:
    """Seconds a single fetch may take from the request to its last byte."""
    return float(getattr(settings, "BATTLESCRIBE_FETCH_SECONDS", 30))


class BoundedRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a few redirects, and only to http(s) addresses."""

    max_redirections = MAX_REDIRECTS
    max_repeats = 2

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not is_address(newurl):
            raise SourceRefused(f"{req.full_url}: redirected to {newurl}, which is not an http(s) address")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_opener = urllib.request.build_opener(BoundedRedirects)


def fetch(url: str, max_bytes: int) -> bytes:
    """The body of a GET of `url`, at most `max_bytes` long, read within `fetch_timeout()` seconds."""
    if not is_address(url):
        raise SourceRefused(f"{url}: not an http(s) address")
    timeout = fetch_timeout()
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})  # noqa: S310 - http(s) only, checked above
    try:
        with _opener.open(request, timeout=timeout) as answer:
            return _read_bounded(url, answer, max_bytes, deadline, timeout)
    except urllib.error.HTTPError as error:
        reason = "too many redirects" if 300 <= error.code < 400 else f"the server answered {error.code} {error.reason}"
        raise SourceRefused(f"{url}: {reason}") from None
    except TimeoutError:
        raise SourceRefused(f"{url}: no answer within {timeout:g} s") from None
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            raise SourceRefused(f"{url}: no answer within {timeout:g} s") from None
        raise SourceRefused(f"{url}: could not be reached ({error.reason})") from None
    except (OSError, ValueError, http.client.HTTPException) as error:
        if isinstance(error, SourceRefused):
            raise
        raise SourceRefused(f"{url}: could not be read ({error})") from None


def _read_bounded(url: str, answer, max_bytes: int, deadline: float, timeout: float) -> bytes:
    claimed = answer.headers.get("Content-Length")
    if claimed and claimed.isdigit() and int(claimed) > max_bytes:
        raise SourceRefused(f"{url}: the server sends {int(claimed):,} bytes, more than the {max_bytes:,} allowed")
    chunks: list[bytes] = []
    received = 0
    while chunk := answer.read1(CHUNK_BYTES):  # one read from the socket: a trickle meets the deadline
        received += len(chunk)
        if received > max_bytes:
            raise SourceRefused(f"{url}: more than the {max_bytes:,} bytes allowed")
        if time.monotonic() > deadline:
            raise SourceRefused(f"{url}: the answer took longer than {timeout:g} s")
        chunks.append(chunk)
    return b"".join(chunks)
