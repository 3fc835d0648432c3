"""Keeping edit secrets private, and knowing who the client is behind a proxy.

An edit link (/e/<secret>/) is the only key to a roster: pages that show one
are never stored by a browser or proxy, never indexed, and the secret never
reaches a log (Django's, through `MaskEditSecrets`; gunicorn's, through the
logger class in armybuilder/gunicorn.py).
"""

from __future__ import annotations

import ipaddress
import logging
import re
from urllib.parse import unquote

from django.conf import settings
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

# The editor and its forms (e/...), the pages that start a roster or list this device's rosters,
# an event organiser's pages (events/o/...) and a player's own submission (events/mine/...), whose address is
# the organiser's or the player's secret.
PRIVATE_ROUTES = ("e/", "rosters/", "events/o/", "events/mine/")
EDIT_SECRET = re.compile(r"/(e|events/o|events/mine)/[^/?#\s\"']+")


def mask_edit_secrets(text: str) -> str:
    """The text with every edit, organiser's or player's secret (/e/<secret>/, /events/o/<secret>/,
    /events/mine/<secret>/) replaced by a placeholder.

    A path percent-encoded (`/%65/<secret>/`, `/e%2F<secret>/`) opens the editor too: such text is
    decoded first (as often as it was encoded), so the secret is found however it was written.
    """
    for _ in range(5):
        if "%" not in text:
            break
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    return EDIT_SECRET.sub(lambda match: f"/{match.group(1)}/[secret]", text)


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
