"""Keeping edit secrets private, and knowing who the client is behind a proxy.

An edit link (/e/<secret>/) is the only key to a roster: pages that show one
are never stored by a browser or proxy, never indexed, and the secret never
reaches a log (Django's, through `MaskEditSecrets`; gunicorn's, through the
logger class in armybuilder/gunicorn.py, which also escapes control characters).
"""

from __future__ import annotations

import ipaddress
import logging
import re

from django.conf import settings
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from lists.battlescribe.engine.limits import DataLimitExceeded

# The editor and its forms (e/...), the pages that start a roster, list this device's rosters or join them (rosters/...),
# an event organiser's pages (events/o/...) and a player's own submission (events/mine/...), whose address is
# the organiser's or the player's secret.
PRIVATE_ROUTES = ("e/", "rosters/", "events/o/", "events/mine/")
EDIT_SECRET = re.compile(r"/(e|events/o|events/mine|rosters/join)/[^/?#\s\"']+")


PERCENT_ESCAPES = 5  # a path encoded more often than this is not one any browser sends
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# What a log line may not hold as it is: control characters (a newline forges a line, ESC drives a
# terminal), other unprintable ones (bidi overrides, line separators), and the quote and backslash
# that delimit and escape fields. Everything printable is written as it came.
UNSAFE_IN_LOG = re.compile(r"[^ !#-\[\]-~]")


def _decoded_with_spans(text: str) -> list[tuple[str, int, int]]:
    """The text percent-decoded (as often as it was encoded), each character with the span of `text` it came from."""
    chars = [(char, index, index + 1) for index, char in enumerate(text)]
    for _ in range(PERCENT_ESCAPES):
        decoded, index = [], 0
        while index < len(chars):
            digits = chars[index + 1 : index + 3]
            if chars[index][0] == "%" and len(digits) == 2 and all(char in HEX_DIGITS for char, _, _ in digits):
                code = int(digits[0][0] + digits[1][0], 16)
                decoded.append((chr(code), chars[index][1], digits[1][2]))
                index += 3
            else:
                decoded.append(chars[index])
                index += 1
        if len(decoded) == len(chars):
            break
        chars = decoded
    return chars


def mask_edit_secrets(text: str) -> str:
    """The text with every edit, organiser's or player's secret (/e/<secret>/, /events/o/<secret>/,
    /events/mine/<secret>/, a join link /rosters/join/<secret>/) replaced by a placeholder, and everything else as it was given.

    A path percent-encoded (`/%65/<secret>/`, `/e%2F<secret>/`) opens the editor too: the secret is
    looked for in the text decoded (as often as it was encoded), and the encoded span holding it is
    replaced; nothing decoded is ever written, so `%0a` stays `%0a` and forges no log line.
    """
    if "%" not in text:
        return EDIT_SECRET.sub(lambda match: f"/{match.group(1)}/[secret]", text)
    chars = _decoded_with_spans(text)
    decoded = "".join(char for char, _, _ in chars)
    pieces, done = [], 0
    for match in EDIT_SECRET.finditer(decoded):
        start, end = chars[match.start()][1], chars[match.end() - 1][2]
        pieces += [text[done:start], f"/{match.group(1)}/[secret]"]
        done = end
    return "".join([*pieces, text[done:]])


def _log_character(match: re.Match) -> str:
    char = match.group()
    if ord(char) > 0x7F and char.isprintable():  # letters of any script are written as they are
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def log_safe(text: str) -> str:
    """Text for one field of a log line: secrets masked, and every character that could forge a line, drive a
    terminal or break the field (a control character, a quote, a backslash) written as an escape
    (`\\x0a`, `\\x1b`, `\\x22`), as nginx does."""
    return UNSAFE_IN_LOG.sub(_log_character, mask_edit_secrets(text))


class MaskEditSecrets(logging.Filter):
    """A logging filter: records keep their meaning, minus any edit secret."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_edit_secrets(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class PrivacyHeadersMiddleware:
    """A Permissions-Policy on every answer; no-store and noindex on pages that carry an edit link."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.route.startswith(PRIVATE_ROUTES):
            add_never_cache_headers(response)
            response["X-Robots-Tag"] = "noindex, nofollow"
        return response


class RefuseNulCharactersMiddleware:
    """A form value holding a NUL character is refused with a 400, whichever page it was sent to.

    No text the app keeps may hold one (PostgreSQL cannot store it); files are
    checked by the roster-file reader, which names the line.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        values = [*request.GET.lists(), *(request.POST.lists() if request.method == "POST" else [])]
        if any("\x00" in name or any("\x00" in value for value in given) for name, given in values):
            problems = ["A field held a NUL character (an invisible control character): remove it and try again."]
            context = {"title": "That did not work", "problems": problems}
            return render(request, "lists/problems.html", context, status=400)
        return self.get_response(request)


class DataLimitMiddleware:
    """A page that meets loaded game data beyond the engine's bounds (`DataLimitExceeded`: a cycle of links,
    a minimum of a million) says so, naming the entry, instead of failing with a 500.

    `load_battlescribe` refuses such data; this answers for a data set loaded before it did.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DataLimitExceeded):
            return None
        problems = [f"This game's data asks for more than the engine evaluates: {exception}."]
        context = {"title": "This game's data cannot be used", "problems": problems}
        return render(request, "lists/problems.html", context, status=422)


def client_address(request) -> str:
    """The client's address: from the configured proxy header when there is one, else REMOTE_ADDR.

    With X-Forwarded-For the last address is taken: the one your proxy added
    (any before it came from the client and can be forged).
    """
    remote = request.META.get("REMOTE_ADDR", "")
    header = settings.TRUSTED_PROXY_HEADER
    if not header:
        return remote
    value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
    candidate = value.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
