"""Organisers check a printed fingerprint."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET
from django_ratelimit.decorators import ratelimit

from lists import models
from lists.rosters.fingerprint import normalise


def _verify_rate(group, request) -> str:
    return settings.VERIFY_RATE


@require_GET
@ratelimit(key="ip", rate=_verify_rate, method="GET", group="verify", block=True)
def verify(request: HttpRequest, code: str = "") -> HttpResponse:
    """What a fingerprint stands for: the verdict, points and units it was issued for (never a link to a roster)."""
    typed = code or request.GET.get("fingerprint", "")
    printed = normalise(typed) if typed else None
    if printed and printed != code:
        return redirect("lists:verify", code=printed)
    record = models.IssuedFingerprint.objects.filter(fingerprint=printed).first() if printed else None
    response = render(
        request,
        "lists/verify.html",
        {"typed": typed, "record": record},
        status=404 if typed and record is None else 200,
    )
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
