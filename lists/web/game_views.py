"""Pages: the games and armies loaded from the packs, and the games of loaded BattleScribe data sets."""

from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from lists import models
from lists.models import Army, GameSystem, SpecialRule, UnitModel, UnitType, Weapon, WeaponRule
from lists.rules.organisation import describe_limit
from lists.web.army_choices import army_groups
from lists.web.forms import StartForm


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return home_page(request)


def home_page(
    request: HttpRequest,
    *,
    start_form: StartForm | None = None,
    import_problems: list[str] | None = None,
    import_text: str = "",
    status: int = 200,
) -> HttpResponse:
    """The home page; a refused start or import comes back with its problems and what was typed."""
    systems = list(GameSystem.objects.all())
    for system in systems:
        # Counted as the game page counts them: a theatre list fields its nation's units too.
        system.counted_armies = _with_unit_counts(system)
    games = [system for system in systems if system.kind == "game"]
    data_sets = data_set_games()
    context = {
        "data_sets": data_sets,
        **start_choices(data_sets),
        "systems": systems,
        "games": games,
        "army_groups": army_groups(games),
        "periods": [(system, system.config.get("periods", [])) for system in games if system.config.get("periods")],
        "start_form": start_form or StartForm(),
        "import_problems": import_problems or [],
        "import_text": import_text,
    }
    return render(request, "lists/home.html", context, status=status)


@require_GET
def game(request: HttpRequest, system_key: str) -> HttpResponse:
    system = get_object_or_404(GameSystem, key=system_key)
    context = {
        "system": system,
        "armies": _with_unit_counts(system),
        "rules": system.specialrule_set.all(),
        "weapons": system.weapon_set.select_related("category").prefetch_related(
            Prefetch("rule_links", queryset=WeaponRule.objects.select_related("rule"))
        ),
        "qualities": system.troopquality_set.all(),
        "ranks": system.officerrank_set.all(),
        "charts": system.chart_set.all(),
        "references": system.reference_set.all(),
        "organisations": [
            (organisation, _slot_lines(system, organisation)) for organisation in system.organisation_set.all()
        ],
        "errata": system.errata.all(),
    }
    return render(request, "lists/game.html", context)


def _with_unit_counts(system: GameSystem) -> list[Army]:
    """The game's armies, each with the number of units it fields as its army page lists them: its own, those
    it borrows (a theatre list: its nation's, only those named where it names some) and the shared ones."""
    armies = list(system.army_set.prefetch_related("borrows_from"))
    keys: dict[int, set[str]] = {army.id: set() for army in armies}
    for army_id, key in UnitType.objects.filter(army__system=system).values_list("army_id", "key"):
        keys[army_id].add(key)
    shared = {key for army in armies if army.shared for key in keys[army.id]}
    for army in armies:
        borrowed = {key for other in army.borrows_from.all() for key in keys.get(other.id, ())}
        if army.borrow_units:
            borrowed &= set(army.borrow_units)
        army.unit_count = len(keys[army.id] | borrowed | (set() if army.shared else shared))
    return armies


def _slot_lines(system: GameSystem, organisation) -> list[dict]:
    """Each slot with its limits in words: "1", "0-3", "up to 3 per Platoon HQ"."""
    names = dict(system.unitcategory_set.values_list("key", "name"))
    lines = []
    for slot in organisation.slots:
        low, high = slot.get("min", 0), slot.get("max")
        low_text = describe_limit(low, names) if low else "0"
        high_text = "any number" if high is None else describe_limit(high, names)
        limits = low_text if low_text == high_text else f"{low_text} to {high_text}"
        lines.append({**slot, "limits": limits})
    return lines


@require_GET
def army(request: HttpRequest, system_key: str, army_key: str) -> HttpResponse:
    army = get_object_or_404(
        Army.objects.select_related("system").prefetch_related("rules", "borrows_from"),
        system__key=system_key,
        key=army_key,
    )
    weapon_rules = Prefetch("rule_links", queryset=WeaponRule.objects.select_related("rule"))
    units = (
        UnitType.objects.filter(_fielded_by(army))
        .select_related("category", "officer_rank")
        .prefetch_related(
            "rules",
            "options",
            "quality_costs__quality",
            Prefetch(
                "models",
                queryset=UnitModel.objects.prefetch_related(
                    Prefetch("weapons", queryset=Weapon.objects.select_related("system").prefetch_related(weapon_rules))
                ),
            ),
        )
    )
    units = sorted(units, key=lambda unit: (unit.category.position, unit.army_id != army.id, unit.position))
    for unit in units:
        unit.prices = _prices_in(unit, army.key)
    # A unit the list fields at none of its qualities is not in the list.
    units = [unit for unit in units if unit.prices or not unit.quality_costs.all()]
    carried = {weapon.pk: weapon for unit in units for model in unit.models.all() for weapon in model.weapons.all()}
    weapons = sorted(carried.values(), key=lambda weapon: weapon.position)
    context = {
        "system": army.system,
        "army": army,
        "units": units,
        "weapons": weapons,
        "rule_choices": rule_choices(army),
    }
    return render(request, "lists/army.html", context)


def rule_choices(army: Army) -> list[dict]:
    """The sets of national rules the army's player takes one of, with their rules (one query)."""
    keys = {key for choice in army.rule_choices for key in choice["rules"]}
    rules = {rule.key: rule for rule in SpecialRule.objects.filter(system=army.system, key__in=keys)} if keys else {}
    return [{"name": c["name"], "rules": [rules[k] for k in c["rules"] if k in rules]} for c in army.rule_choices]


def _fielded_by(army: Army) -> Q:
    """The units an army fields, as GameData.available_units has them: its own, those it borrows (a theatre
    list: its nation's, only those named where it names some) and those of armies shared with every army."""
    borrowed = Q(army__in=army.borrows_from.all())
    if army.borrow_units:
        borrowed &= Q(key__in=army.borrow_units)
    return Q(army=army) | borrowed | Q(army__system=army.system_id, army__shared=True)


def _prices_in(unit: UnitType, army_key: str) -> list[dict]:
    """Each quality the army list fields the unit at, with its price there (a theatre's own, where it sets one)."""
    return [
        {
            "quality": cost.quality.name,
            "points": cost.army_points.get(army_key, cost.points),
            "usual": cost.points if army_key in cost.army_points else None,
            "per_extra_model": cost.per_extra_model,
        }
        for cost in unit.quality_costs.all()
        if not cost.armies or army_key in cost.armies
    ]


# --- games of loaded BattleScribe data sets: their place on the home page and each one's page ----------


def data_set_games() -> list[models.BattleScribeDataSet]:
    """Every loaded data set, newest revision first within a game, with its armies counted."""
    armies = Count("catalogues", filter=Q(catalogues__library=False, catalogues__is_game_system=False))
    return list(models.BattleScribeDataSet.objects.annotate(army_count=armies).order_by("name", "-revision", "-pk"))


def start_choices(data_sets: list[models.BattleScribeDataSet]) -> dict:
    """The start form's armies, grouped by game, and each army's own forces (values `data set id:BattleScribe
    id`): an army (catalogue) may field the game system's top-level forces and its own, so each army's forces
    are a group of their own, in the armies' order, the first army's first (the form's default is a force of
    the default army, and the page's script keeps only the chosen army's group)."""
    armies, forces = [], []
    for data_set in data_sets:
        label = f"{data_set.name} (revision {data_set.revision})"
        books = list(data_set.catalogues.filter(library=False).order_by("name"))
        rows = data_set.battlescribeforce_set.filter(parent=None, hidden=False).order_by("name")
        own: dict[int, dict[str, str]] = {}
        for row in rows:
            own.setdefault(row.catalogue_id, {}).setdefault(row.bs_id, row.name)
        shared = [own.get(book.pk, {}) for book in books if book.is_game_system]
        armies_here = [book for book in books if not book.is_game_system]
        armies.append((label, [(f"{data_set.pk}:{b.catalogue_id}", b.name) for b in armies_here]))
        for book in armies_here:
            fielded = dict(item for found in (*shared, own.get(book.pk, {})) for item in found.items())
            choices = [(f"{data_set.pk}:{bs_id}", name) for bs_id, name in sorted(fielded.items(), key=lambda i: i[1])]
            if choices:
                group = book.name if len(data_sets) == 1 else f"{book.name} ({label})"
                forces.append((group, f"{data_set.pk}:{book.catalogue_id}", choices))
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
