"""My rosters: the device's locker, searched; joining another device to it; its devices; removing, deleting
for good and downloading its rosters."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from lists.rosters import locker
from lists.rosters.locker_files import locker_zip
from lists.rosters.sharing import qr_svg
from lists.web.devices import Seen, device_name, device_secret, set_device_cookie, this_device
from lists.web.page_helpers import download


def _join_rate(group, request) -> str:
    return settings.JOIN_RATE


# Join links are secrets: each client address gets a small budget of tries, opening and joining alike.
limit_joins = ratelimit(key="ip", rate=_join_rate, method=ratelimit.ALL, group="join", block=True)


@require_GET
def my_rosters(request: HttpRequest) -> HttpResponse:
    """The rosters of this device's locker, newest change first; `?q=` keeps those whose name holds it."""
    seen = Seen(request)
    search = request.GET.get("q", "")[:100]
    kept = locker.kept_rosters(seen.opened, search) if seen.opened else []
    context = {"kept": kept, "search": search.strip(), "opened": seen.opened}
    if seen.opened:
        context["device_count"] = seen.opened.locker.devices.count()
    return seen.finish(render(request, "lists/my_rosters.html", context))


def _opened_or_404(request: HttpRequest) -> locker.Opened:
    opened = this_device(request)
    if opened is None:
        raise Http404
    return opened


@require_POST
def join_link(request: HttpRequest) -> HttpResponse:
    """A new join link for this device's locker, shown this once with its QR code; the old link stops working."""
    seen = Seen(request, create=True)
    url = request.build_absolute_uri(reverse("lists:join", args=[locker.new_join_secret(seen.opened)]))
    qr = qr_svg(url, "QR code of the join link")
    return seen.finish(render(request, "lists/locker_link.html", {"url": url, "qr": qr}))


@require_http_methods(["GET", "POST"])
@limit_joins
def join(request: HttpRequest, secret: str) -> HttpResponse:
    """A join link: GET asks to confirm, POST joins this device to the locker (its own rosters come along)."""
    target = locker.locker_to_join(secret)
    if target is None:
        raise Http404
    current = this_device(request)
    if request.method == "GET":
        context = {
            "already": current is not None and current.locker.pk == target.pk,
            "own_count": len(locker.kept_rosters(current)) if current else 0,
            "joined_count": target.entries.count(),
        }
        return render(request, "lists/locker_join.html", context)
    joined = locker.join(secret, current, device_secret(request), device_name(request))
    if joined is None:
        raise Http404
    response = redirect("lists:mine")
    set_device_cookie(response, joined[1])
    return response


@require_GET
def devices(request: HttpRequest) -> HttpResponse:
    """The devices joined to this device's locker, and the button that drops each."""
    opened = _opened_or_404(request)
    joined = list(opened.locker.devices.all())
    return render(request, "lists/locker_devices.html", {"devices": joined, "this": opened.device})


@require_POST
def drop_device(request: HttpRequest, device_id: int) -> HttpResponse:
    """Drop a device from the locker: its cookie reaches the locker no more."""
    opened = _opened_or_404(request)
    if not locker.drop_device(opened, device_id):
        raise Http404
    return redirect("lists:mine-devices" if device_id != opened.device.pk else "lists:mine")


@require_POST
def remove(request: HttpRequest, kind: str, share_id: str) -> HttpResponse:
    """Take a roster off "my rosters" on every joined device; its links keep working."""
    if locker.remove(_opened_or_404(request), kind, share_id) is None:
        raise Http404
    return redirect("lists:mine")


@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, kind: str, share_id: str) -> HttpResponse:
    """Delete a roster for good, after a confirmation page (GET); its share and edit links then say so."""
    opened = _opened_or_404(request)
    kept = locker.kept_one(opened, kind, share_id)
    if kept is None:
        raise Http404
    if request.method == "GET":
        return render(request, "lists/locker_delete.html", {"one": kept})
    locker.delete_for_good(opened, kind, share_id)
    return redirect("lists:mine")


@require_GET
def download_all(request: HttpRequest) -> HttpResponse:
    """Every roster of the locker in one zip, to keep a copy."""
    kept = locker.kept_rosters(_opened_or_404(request))
    return download(locker_zip(kept), "application/zip", "my-rosters.zip")
