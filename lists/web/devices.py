"""This device and its locker: the device cookie, the name read from its browser, and the rosters it keeps.

Every roster a device starts comes through `keep_on_device`. The cookie of edit links devices kept before
lockers (`my_rosters`) is read once more: its rosters go into the device's locker and the cookie is dropped.
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

from lists import models
from lists.rosters import locker
from lists.rosters.sharing import hash_secret

DEVICE_COOKIE = "device"
MY_ROSTERS_COOKIE = "my_rosters"  # the cookie of edit links before lockers, read once to bring them in
COOKIE_AGE = 60 * 60 * 24 * 400  # the longest a browser keeps a cookie
BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_name(request: HttpRequest) -> str:
    """A name a player knows their device by, from its user agent: "Chrome on Android"."""
    agent = request.headers.get("User-Agent", "")[:500]
    browser = next((name for mark, name in BROWSERS if mark in agent), "A browser")
    system = next((name for mark, name in SYSTEMS if re.search(re.escape(mark), agent)), "")
    return f"{browser} on {system}" if system else browser


def this_device(request: HttpRequest) -> locker.Opened | None:
    """The device the request's cookie opens (once per request), or None."""
    if not hasattr(request, "_locker_device"):
        secret = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=DEVICE_COOKIE)
        request._locker_device = locker.open_device(secret), secret
    return request._locker_device[0]


def device_secret(request: HttpRequest) -> str | None:
    return request._locker_device[1] if this_device(request) else None


def remembered_secrets(request: HttpRequest) -> list[str]:
    """The edit secrets of the cookie devices kept before lockers."""
    try:
        value = json.loads(request.get_signed_cookie(MY_ROSTERS_COOKIE, default="[]"))
    except (ValueError, TypeError, signing.BadSignature):
        return []
    return [entry for entry in value if isinstance(entry, str)] if isinstance(value, list) else []


class Seen:
    """The device of a request, made (and its old cookie's rosters brought in) as needed; `finish` sets its
    cookies on the response."""

    def __init__(self, request: HttpRequest, create: bool = False):
        self.request, self.new_secret = request, None
        self.opened = this_device(request)
        legacy = remembered_secrets(request)
        self.drop_legacy = MY_ROSTERS_COOKIE in request.COOKIES
        if self.opened is None and (create or legacy):
            self.opened, self.new_secret = locker.new_device(device_name(request))
            request._locker_device = self.opened, self.new_secret
        if legacy and self.opened is not None:
            _bring_in(self.opened, legacy)

    def finish(self, response: HttpResponse) -> HttpResponse:
        if self.new_secret:
            set_device_cookie(response, self.new_secret)
        if self.drop_legacy:
            response.delete_cookie(MY_ROSTERS_COOKIE, samesite="Lax")
        return response


def _bring_in(opened: locker.Opened, secrets: list[str]) -> None:
    by_hash = {hash_secret(secret): secret for secret in secrets[:200]}
    for roster in models.Roster.objects.filter(edit_secret_hash__in=by_hash):
        locker.keep(opened, roster, by_hash[roster.edit_secret_hash])
    for kept in models.BattleScribeRoster.objects.filter(edit_secret_hash__in=by_hash):
        locker.keep(opened, kept, by_hash[kept.edit_secret_hash])


def set_device_cookie(response: HttpResponse, secret: str) -> None:
    response.set_signed_cookie(
        DEVICE_COOKIE,
        secret,
        salt=DEVICE_COOKIE,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,  # the device's key travels over HTTPS only in production
    )


def keep_on_device(request: HttpRequest, response: HttpResponse, roster, secret: str) -> HttpResponse:
    """The one way a roster a device starts (new, imported, copied; of either kind) goes into its locker:
    the locker is made with the device's first roster."""
    seen = Seen(request, create=True)
    locker.keep(seen.opened, roster, secret)
    return seen.finish(response)
