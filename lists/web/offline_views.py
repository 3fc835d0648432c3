"""Working offline: the web app manifest, the service worker and the pages it keeps.

The service worker (static/js/service-worker.js) is served from the site root so
it may look after every page. It is sent with a version: a digest of the static
files, the PDF templates and its own source, so a deploy that changes any of
them installs a new worker, which replaces what the device kept.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET
from django_htmx.jinja import htmx_script

from lists.cards.renderer import PDF_TEMPLATES, templates_digest
from lists.roster_kinds import opened
from lists.rosters import locker
from lists.web.devices import Seen

SERVICE_WORKER = "js/service-worker.js"
# The static files every kept page uses, fetched when the worker installs.
PAGE_STATIC_FILES = ("css/site.css", "js/offline.js", "js/copy.js", "icons/icon-192.png", "icons/icon-512.png")
THEME_COLOUR = "#3b5d2a"  # the site's accent green (static/css/site.css)
# Every kind of roster's share page, kept by the worker with the files beside it: ours, and BattleScribe rosters'.
SHARE_PAGES = ("lists:share", "lists:bs-share")


@cache
def static_files_digest() -> str:
    """Changes whenever any static file the app serves does (its name or its content)."""
    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in sorted(finder.list([]), key=lambda found: found[0]):
            digest.update(path.encode() + b"\0")
            with storage.open(path) as file:
                digest.update(hashlib.sha256(file.read()).digest())
    return digest.hexdigest()


@cache
def _worker_source() -> str:
    with open(finders.find(SERVICE_WORKER), encoding="utf-8") as file:
        return file.read()


def offline_version() -> str:
    """The version of what a device keeps: a new one replaces every kept copy."""
    parts = [static_files_digest(), *(templates_digest(kind) for kind in sorted(PDF_TEMPLATES)), _worker_source()]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def share_roots() -> list[str]:
    """The folders share pages live under (`/r/`, `/bs/r/`): one share id deeper is a roster's page."""
    return [reverse(name, args=["-"]).removesuffix("-/") for name in SHARE_PAGES]


def _static_urls() -> list[str]:
    htmx = re.findall(r'src="([^"]+)"', str(htmx_script()))
    return [static(name) for name in PAGE_STATIC_FILES] + htmx


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, with this deploy's version and the files it fetches on install."""
    config = {
        "version": offline_version(),
        "offlinePage": reverse("lists:offline"),
        "myRosters": reverse("lists:mine"),
        "myRostersKept": reverse("lists:mine-kept"),
        "home": reverse("lists:home"),
        "shareRoots": share_roots(),
        # The folder static files are served from: the storage's base URL, not static(""), which a
        # manifest storage (production's) refuses, as "" names no file.
        "staticPrefix": staticfiles_storage.base_url,
        "staticFiles": _static_urls(),
    }
    source = f"const CONFIG = {json.dumps(config)};\n{_worker_source()}"
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker on every visit; no cache may hold an old one back.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone needs to install the site as an app."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for size in (192, 512)
        for purpose in ("any", "maskable")
    ]
    document = {
        "name": "Army builder",
        "short_name": "Army builder",
        "description": "WWII army lists, their unit cards and the organiser's list, at the table even without a signal.",
        "id": reverse("lists:mine"),
        "start_url": reverse("lists:mine"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(document, json_dumps_params={"indent": 1})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What a device shows, without a connection, for a page it has not kept."""
    return render(request, "lists/offline.html")


@require_GET
def my_rosters_kept(request: HttpRequest) -> HttpResponse:
    """The "my rosters" page as a device keeps it for offline use: share links only, never an edit link,
    nor the locker's or the device's secret."""
    seen = Seen(request)
    kept = locker.kept_rosters(seen.opened) if seen.opened else []
    context = {"rosters": [opened(one.roster) for one in kept]}  # each kind says its link and its game
    return seen.finish(render(request, "lists/my_rosters_kept.html", context))
