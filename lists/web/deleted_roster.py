"""A deleted roster's links: every page its share id or edit secret opened says it was deleted (410)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from lists.rosters.sharing import RosterDeleted


class RosterDeletedMiddleware:
    """Answers 410, naming the roster, wherever a view met a deleted roster's share id or edit secret."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, RosterDeleted):
            return None
        response = render(request, "lists/roster_deleted.html", {"name": exception.name}, status=410)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response
