"""The operator's page: the loaded games with their revision and source; add a game by its address, check
its source for a newer revision, and update it, each in one step. Staff only (Django's admin login).

Loading runs in the request, synchronously: it fetches and checks every file before it writes (seconds,
up to a minute for the largest games), and the page answers once it is done, saying what was loaded.
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
from lists.gamedata.battlescribe_data import DataFolderInvalid, LoadedDataSet
from lists.gamedata.data_sources import SourceRefused, check_source, load_source

MAX_PROBLEMS_SHOWN = 20


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
    context = {"data_sets": _games(), "form": form or AddGameForm()}
    return render(request, "lists/operator_games.html", context, status=status)


@require_GET
@never_cache
@staff_member_required
def games(request: HttpRequest) -> HttpResponse:
    return _page(request)


def _load(address: str, game: str = "") -> tuple[LoadedDataSet | None, list[str]]:
    """The data set loaded from `address`, or nothing and why (each problem, as the command prints them)."""
    try:
        return load_source(address, game), []
    except SourceRefused as refused:
        return None, [f"{refused}; nothing was loaded."]
    except DataFolderInvalid as invalid:
        shown = invalid.problems[:MAX_PROBLEMS_SHOWN]
        more = len(invalid.problems) - len(shown)
        return None, [*shown, *([f"and {more} more; nothing was loaded."] if more else ["Nothing was loaded."])]


def _say_loaded(request: HttpRequest, loaded: LoadedDataSet, before: models.BattleScribeDataSet | None) -> None:
    data_set = loaded.data_set
    if not loaded.created:
        messages.info(request, f"{data_set} is already loaded, unchanged.")
    elif before is not None:
        messages.success(request, f"Loaded {data_set} beside {before}; its rosters stay on theirs until moved.")
    else:
        messages.success(request, f"Loaded {data_set}: players can start rosters of it now.")


@require_POST
@staff_member_required
def add(request: HttpRequest) -> HttpResponse:
    form = AddGameForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    loaded, problems = _load(form.cleaned_data["address"], form.cleaned_data["game"])
    if loaded is None:
        for problem in problems:
            form.add_error("address", problem)
        return _page(request, form, status=400)
    _say_loaded(request, loaded, None)
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
        return redirect("lists:operator-games")
    loaded, problems = _load(data_set.source_url)
    if loaded is None:
        messages.error(request, f"Could not update {data_set}: {' '.join(problems)}")
    else:
        _say_loaded(request, loaded, data_set)
    return redirect("lists:operator-games")
