"""Games of loaded BattleScribe data sets: their place on the home page and each game's own page."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from lists import models


def data_set_games() -> list[models.BattleScribeDataSet]:
    """Every loaded data set, newest revision first within a game, with its armies counted."""
    armies = Count("catalogues", filter=Q(catalogues__library=False, catalogues__is_game_system=False))
    return list(models.BattleScribeDataSet.objects.annotate(army_count=armies).order_by("name", "-revision", "-pk"))


def start_choices(data_sets: list[models.BattleScribeDataSet]) -> dict:
    """The start form's armies and forces, grouped by game (values `data set id:BattleScribe id`)."""
    armies, forces = [], []
    for data_set in data_sets:
        label = f"{data_set.name} (revision {data_set.revision})"
        books = data_set.catalogues.filter(library=False, is_game_system=False).order_by("name")
        armies.append((label, [(f"{data_set.pk}:{b.catalogue_id}", b.name) for b in books]))
        rows = data_set.battlescribeforce_set.filter(parent=None, hidden=False).order_by("name")
        unique = dict.fromkeys((row.bs_id, row.name) for row in rows)
        forces.append((label, [(f"{data_set.pk}:{bs_id}", name) for bs_id, name in unique]))
    return {"bs_army_groups": armies, "bs_force_groups": forces}


@require_GET
def data_set_game(request: HttpRequest, data_set_id: int) -> HttpResponse:
    """A loaded data set: where it came from, its forces, and its armies with the forces each may field."""
    data_set = get_object_or_404(models.BattleScribeDataSet, pk=data_set_id)
    entries = Count("battlescribeentry", filter=Q(battlescribeentry__hidden=False))
    books = list(
        data_set.catalogues.filter(library=False).annotate(entry_count=entries).order_by("-is_game_system", "name")
    )
    forces = (
        data_set.battlescribeforce_set.filter(hidden=False)
        .select_related("catalogue")
        .prefetch_related("children")
        .order_by("name")
    )
    own = {}
    for force in forces:
        own.setdefault(force.catalogue_id, {}).setdefault(force.bs_id, force)
    system = next((b for b in books if b.is_game_system), None)
    shared = list(own.get(system.pk, {}).values()) if system else []
    armies = [
        {"catalogue": book, "forces": [*shared, *own.get(book.pk, {}).values()], "entries": book.entry_count}
        for book in books
        if not book.is_game_system
    ]
    for army in armies:
        army["top_forces"] = [f for f in army["forces"] if f.parent_id is None]
    context = {
        "data_set": data_set,
        "armies": armies,
        "costs": data_set.battlescribecosttype_set.all(),
        "other_revisions": models.BattleScribeDataSet.objects.filter(game_system_id=data_set.game_system_id)
        .exclude(pk=data_set.pk)
        .order_by("-revision"),
        **start_choices([data_set]),
    }
    return render(request, "lists/battlescribe_game.html", context)
