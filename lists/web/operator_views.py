"""The operator's page: the loaded games with their revision and source; add a game by its address, check
its source for a newer revision, and update it, each in one step. Staff only (Django's admin login).

Adding and updating are queued for the background worker (`lists.pdfs.game_loads`: fetching and checking
every file takes seconds, a minute for the largest games) and the page answers at once; it lists the latest
loads and, while one is unfinished, follows them (htmx reloads that part every two seconds; without
scripts, a link reloads the page). Checking reads the source's index only, in the request.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.validators import URLValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from lists import models
from lists.gamedata.data_sources import SourceRefused, check_source
from lists.pdfs.game_loads import latest_loads, queue_load


class AddGameForm(forms.Form):
    address = forms.URLField(
        max_length=1000,
        assume_scheme="https",
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="A repository's index.bsi or .catpkg.json, the gallery's JSON index, a .bsr, .zip or .gstz.",
    )
    game = forms.CharField(
        max_length=200, required=False, help_text="From a gallery's index: the repository's name, as it lists it."
    )


def _games() -> list[models.BattleScribeDataSet]:
    return list(models.BattleScribeDataSet.objects.order_by("name", "-revision", "-pk"))


def _page(request: HttpRequest, form: AddGameForm | None = None, status: int = 200) -> HttpResponse:
    loads = latest_loads()
    context = {
        "data_sets": _games(),
        "form": form or AddGameForm(),
        "loads": loads,
        "following": any(not load.finished for load in loads),
    }
    template = "lists/operator_games.html" + ("#loads" if request.htmx else "")
    return render(request, template, context, status=status)


@require_GET
@never_cache
@staff_member_required
def games(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
@staff_member_required
def add(request: HttpRequest) -> HttpResponse:
    form = AddGameForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    queue_load(form.cleaned_data["address"], form.cleaned_data["game"])
    return redirect("lists:operator-games")


@require_POST
@staff_member_required
def check(request: HttpRequest, data_set_id: int) -> HttpResponse:
    data_set = get_object_or_404(models.BattleScribeDataSet, pk=data_set_id)
    try:
        found = check_source(data_set)
    except SourceRefused as refused:
        messages.error(request, f"Could not check {data_set}: {refused}")
        return redirect("lists:operator-games")
    if found.has_newer:
        messages.warning(request, f"{data_set.source_url} has newer data than {data_set}: {'; '.join(found.newer)}.")
    else:
        messages.info(request, f"{data_set} is up to date with {data_set.source_url}.")
    return redirect("lists:operator-games")


@require_POST
@staff_member_required
def update(request: HttpRequest, data_set_id: int) -> HttpResponse:
    data_set = get_object_or_404(models.BattleScribeDataSet, pk=data_set_id)
    if not data_set.source_url:
        messages.error(request, f"{data_set} was loaded from a folder on the server: load it again there.")
    else:
        queue_load(data_set.source_url, update_of=data_set.pk)
    return redirect("lists:operator-games")
