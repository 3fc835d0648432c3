"""The editor page: what it shows for a roster (forces, units, forms, summary) and how an edit answers.

Every edit is a plain form POST that works without JavaScript (it redirects
back to the editor); with htmx the same POST answers with the roster
fragment, so points and findings update in place. Each form carries the
roster's version: an edit from a stale page is refused with the newer state,
never silently applied over someone else's change.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from django.core.cache import cache
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django_htmx.http import replace_url, reswap, retarget

from lists import models
from lists.cards import Layout, house_rule_rows, unit_blocks
from lists.gamedata.loading import (
    GameData,
    game_data,
    house_rule_info,
    one_state,
    roster_snapshot,
    roster_units,
)
from lists.gamedata.overlays import played_house_rules
from lists.gamedata.snapshot import HouseRuleChoice, RosterSnapshot, RuleInfo, UnitChoice
from lists.rosters.fingerprint import issue
from lists.rosters.sharing import roster_for_edit
from lists.rules.house_rules import applies
from lists.rules.pricing import (
    house_rule_lines,
    house_rule_points,
    option_cost,
    period_factor,
    unit_points,
    unit_service_period,
)
from lists.rules.transport import transport_candidates
from lists.rules.validation import NOTE_MAX_LENGTH
from lists.rules.verdict import Verdict, judge
from lists.web.forms import ForceForm, SettingsForm, UnitForm, is_single_option
from lists.web.page_helpers import limit_pages, whole_number
from lists.web.slot_lines import force_slot_lines
from lists.web.unit_picker import unit_picker


@require_GET
@limit_pages
def edit_roster(request: HttpRequest, secret: str) -> HttpResponse:
    """The editor; `?force=<id>` sets which force the unit picker adds to (and counts slots for), `?unit=<id>`
    opens a unit (in a large roster, the only way its form is built)."""
    roster = roster_for_edit(secret)
    picker_force, opened = whole_number(request.GET.get("force")), whole_number(request.GET.get("unit"))
    return render_editor(request, roster, secret, picker_force=picker_force, opened_id=opened)


# A roster of more units than this shows each unit folded, its form built only when it is opened (a link), so
# the page costs a fixed amount of SQL and template work per unit (a 400-unit roster's forms took seconds).
FULL_EDITOR_UNITS = 30


def render_editor(request, roster, secret, *, status=200, **extra) -> HttpResponse:
    """The whole editor (or, for htmx, the whole roster fragment)."""
    context = editor_context(roster, secret, **extra)
    if request.htmx:
        # htmx swaps only successful answers; the fragment itself shows the problem.
        response = render(request, "lists/editor.html#roster", context)
        return reswap(retarget(response, "#roster"), "outerHTML")
    return render(request, "lists/editor.html", context, status=status)


def army_rules(data: GameData, army_id: int) -> list[RuleInfo]:
    """The roster's army rules (its nation's and its theatre list's own), for the editor's rules panel."""
    army = data.armies.get(army_id)
    return [data.system.rules[key] for key in (army.rules if army else ()) if key in data.system.rules]


def army_rule_choices(data: GameData, army_id: int, snapshot: RosterSnapshot) -> list[dict]:
    """The sets of national rules the roster's player takes one of, each with its rules and whether it is played."""
    army = data.armies.get(army_id)
    rules = data.system.rules
    settings = data.system.config.get("settings", [])
    played = {snapshot.setting(s["key"]) for s in settings if s["kind"] == "rule_choice"}
    return [
        {
            "name": choice["name"],
            "rules": [rules[key] for key in choice["rules"] if key in rules],
            "played": choice["name"] in played,
        }
        for choice in (army.rule_choices if army else ())
    ]


def editor_context(
    roster: models.Roster,
    secret: str | None,
    *,
    unit_forms: dict[int, UnitForm] | None = None,
    settings_form: SettingsForm | None = None,
    errors: list[str] | None = None,
    conflict: bool = False,
    picker_force: int | None = None,
    added_id: int | None = None,
    not_applied: dict | None = None,
    opened_id: int | None = None,
    edited_id: int | None = None,
) -> dict:
    """Everything the editor and the share page show; `unit_forms` and `settings_form` carry refused input.

    `picker_force` is the id of the force the unit picker adds to (else the first force); `added_id` the
    unit just added (shown open and highlighted); `not_applied` what a refused stale edit would have changed.
    """
    with one_state():  # units and forces of the same moment, whatever is saved meanwhile
        units = list(roster_units(roster))
        snapshot = roster_snapshot(roster, units)
        force_rows = list(roster.forces.all())
    verdict = judge(snapshot)
    data = game_data(roster.system)
    priced = list(played_house_rules(roster.overlays.all())) if secret else []
    unit_forms = unit_forms or {}
    full = None  # every unit's form and look-up built
    if secret and len(units) > FULL_EDITOR_UNITS:  # only those of the units shown open (the share page is cached)
        full = {*unit_forms, opened_id, added_id, edited_id} - {None}
    rows = _unit_rows(snapshot, verdict, units, data, secret, unit_forms, priced, force_rows, full)
    labels = {row["id"]: row["choice"].label for row in rows}
    picked = next((f for f in force_rows if f.id == (picker_force or _last_added_to(units))), None)
    picked = picked or (force_rows[0] if force_rows else None)
    context = {
        "roster": roster,
        "secret": secret,
        "note_max_length": NOTE_MAX_LENGTH,
        "snapshot": snapshot,
        "verdict": verdict,
        "rows": rows,
        "summary": _summary(verdict, {row["choice"].index: row["id"] for row in rows}, labels),
        "when": roster_when(snapshot),
        "house_rule_lines": [
            (bought, points, snapshot.units[bought.unit].label if bought.unit is not None else "")
            for bought, points in house_rule_lines(snapshot)
        ],
        "house_rule_rows": house_rule_rows(snapshot),
        "share_url": reverse("lists:share", args=[roster.share_id]),
        "edit_url": reverse("lists:edit", args=[secret]) if secret else None,
        "rules": data.system.rules,
        "army_rules": army_rules(data, roster.army_id),
        "rule_choices": army_rule_choices(data, roster.army_id, snapshot),
        "fingerprint": issue(roster, snapshot, data, verdict),
        "errors": errors or [],
        "conflict": conflict,
        "not_applied": not_applied,
        "added_id": added_id,
        "army_title": data.army_title(roster.army_id),
        "forces": _force_sections(snapshot, force_rows, rows, data, roster.army_id, secret),
        "picker_force": picked,
    }
    if secret:
        picked_info = snapshot.forces[force_rows.index(picked)] if picked else None
        context["picker"] = partial(unit_picker, snapshot, data, roster.army_id, picked_info)
        context["settings_form"] = settings_form or settings_form_for(roster, data, snapshot, priced)
        context["force_form"] = ForceForm(data_for=data, army_id=roster.army_id, auto_id="new-force-%s")
        context["undo"] = cache.get(undo_key(roster))
    return context


def _last_added_to(units: list[models.RosterUnit]) -> int | None:
    """The force the player last added a unit to, where a page (reloaded, opened again) names none: the
    picker stays where the player was adding."""
    return max(units, key=lambda unit: unit.id).force_id if units else None


def roster_when(snapshot: RosterSnapshot) -> str:
    """The roster's year and period in words: "1942 (Middle war)"."""
    names = {period["key"]: period["name"] for period in snapshot.system.periods}
    period = names.get(snapshot.game_period or "", "")
    if snapshot.year is not None:
        return f"{snapshot.year} ({period})" if period else str(snapshot.year)
    return period


def _summary(verdict: Verdict, unit_ids: dict[int, int], labels: dict[int, str]) -> dict:
    """Counts of errors and warnings, and each finding with a link to its unit."""
    lines = []
    for finding in verdict.findings:
        unit_id = unit_ids.get(finding.unit_index)
        lines.append(
            {
                "finding": finding,
                "anchor": f"#unit-{unit_id}" if unit_id is not None else "#roster-findings",
                "where": labels[unit_id] if unit_id is not None else "Roster",
            }
        )
    errors = [line for line in lines if line["finding"].severity == "error"]
    return {"errors": errors, "warnings": [line for line in lines if line["finding"].severity != "error"]}


def _force_sections(
    snapshot: RosterSnapshot,
    force_rows: list[models.Force],
    rows: list[dict],
    data: GameData,
    army_id: int,
    secret: str | None,
) -> list[dict]:
    """Each force with its units, how full its slots are and (in the editor) its rename form."""
    sections = []
    for row, force in zip(force_rows, snapshot.forces, strict=True):
        section = {
            "id": row.id,
            "force": force,
            "rows": [unit for unit in rows if unit["choice"].force == force.index],
            "usage": force_slot_lines(snapshot, force),
        }
        if secret:
            section["form"] = ForceForm(
                initial={"name": force.name, "organisation": row.organisation_id},
                data_for=data,
                army_id=army_id,
                auto_id=f"force-{row.id}-%s",
            )
        sections.append(section)
    return sections


def _unit_rows(
    snapshot: RosterSnapshot,
    verdict: Verdict,
    units: list[models.RosterUnit],
    data: GameData,
    secret: str | None,
    unit_forms: dict[int, UnitForm],
    priced: list[models.SpecialRule],
    force_rows: list[models.Force],
    full: set[int] | None = None,
) -> list[dict]:
    """Each unit's row; its form, options and look-up only for the units in `full` (None: every unit)."""
    rows = []
    forces = [(force.id, force.name) for force in force_rows]
    popular = option_popularity(units) if secret else {}
    labels = {row.id: choice.label for row, choice in zip(units, snapshot.units, strict=True)}
    for row, choice, points in zip(units, snapshot.units, verdict.unit_points, strict=True):
        findings = verdict.unit_findings(choice.index)
        entry = {
            "id": row.id,
            "choice": choice,
            "points": points,
            "findings": findings,
            "error_count": sum(1 for finding in findings if finding.severity == "error"),
            "warning_count": sum(1 for finding in findings if finding.severity != "error"),
            "quality_name": snapshot.system.qualities[choice.quality].name if choice.quality else "",
            "open": row.id in unit_forms,  # a refused edit stays open on its flagged field
            "description": _description(choice),
            "period_note": _period_note(snapshot, choice),
            # Built only when the template shows it (templates call callables): a unit edit renders one unit.
            "lookup": partial(unit_blocks, snapshot, data, choice, Layout()),
            "folded": full is not None and row.id not in full,  # shown with a link that opens it
        }
        if full is not None and row.id in full:
            entry["open"] = True
        if secret and not entry["folded"]:
            form = unit_forms.get(row.id) or unit_form_for(
                snapshot,
                units,
                priced,
                row.id,
                choice,
                labels,
                forces,
                initial=UnitForm.initial_for(choice, row.transport_id, row.force_id),
            )
            entry["form"] = form
            entry["choices"] = [
                {
                    "field": field,
                    "items": [
                        (o.key, o.name, _cost_text(o, _choice_cost(snapshot, choice, members, o.key))) for o in members
                    ],
                }
                for field, members in form.choice_fields()
            ]
            entry["options"] = [
                (
                    field,
                    _cost_text(choice.unit_type.options[key], option_cost(snapshot, choice, key), field.field.disabled),
                )
                for key, field in most_used_first(form.option_fields(), popular)
            ] + [
                (field, _house_rule_cost_text(snapshot, rule, choice.index)) for rule, field in form.house_rule_fields()
            ]
        rows.append(entry)
    return rows


def option_popularity(units: list[models.RosterUnit]) -> dict[str, int]:
    """How many saved units of these units' types took each option, by option key (one query)."""
    taken = (
        models.RosterUnitOption.objects.filter(roster_unit__unit_type_id__in={unit.unit_type_id for unit in units})
        .values("option__key")
        .annotate(times=Count("id"))
    )
    return {row["option__key"]: row["times"] for row in taken}


def most_used_first(fields: list[tuple[str, object]], popular: dict[str, int]) -> list[tuple[str, object]]:
    """The options players take most come first; the pack's order otherwise (a stable sort)."""
    return sorted(fields, key=lambda item: -popular.get(item[0], 0))


def _choice_cost(snapshot: RosterSnapshot, unit: UnitChoice, members, key: str) -> int:
    """What choosing one of a one-of group adds to the unit against choosing none of it."""
    keys = {member.key for member in members}
    without = replace(unit, options={k: count for k, count in unit.options.items() if k not in keys})
    return unit_points(snapshot, replace(without, options={**without.options, key: 1})) - unit_points(snapshot, without)


def _cost_text(option, cost: int, compulsory: bool = False) -> str:
    """An option's price for this unit: "+20 pts", "+5 pts each", "+36 pts, 20%", "compulsory, +0 pts"."""
    if compulsory:
        return f"(compulsory, {cost:+d} pts)"
    if option.percent:
        return f"({cost:+d} pts, {option.percent:+d}%)"
    each = "" if is_single_option(option) else " each"
    return f"({cost:+d} pts{each})"


def _house_rule_cost_text(snapshot: RosterSnapshot, rule: models.SpecialRule, unit: int) -> str:
    """A house rule's price for this unit, from its overlay: "(+20 pts, Rapid Fire)"."""
    cost = house_rule_points(snapshot, HouseRuleChoice(house_rule_info(rule), 1, unit))
    return f"({cost:+d} pts, {rule.system.short_name})"


def unit_form_for(snapshot, units, priced, unit_id, choice, labels, forces, **kwargs) -> UnitForm:
    return UnitForm(
        system=snapshot.system,
        army_key=snapshot.army_key,
        unit=choice,
        unit_id=unit_id,
        taken_labels={label: "another unit" for other, label in labels.items() if other != unit_id},
        carriers=_carriers(snapshot, choice, units),
        house_rules=_house_rule_counts(snapshot, priced, choice.index),
        forces=forces,
        **kwargs,
    )


def _carriers(snapshot: RosterSnapshot, choice: UnitChoice, units: list[models.RosterUnit]) -> list[tuple[int, str]]:
    """The carriers the transport rule allows, and the one chosen even where it does not (a finding says why)."""
    allowed = {carrier.index for carrier in transport_candidates(snapshot, choice)}
    if choice.transport is not None:
        allowed.add(choice.transport)
    return [(units[carrier.index].id, carrier.label) for carrier in snapshot.units if carrier.index in allowed]


def _description(unit: UnitChoice) -> str:
    """The unit's type, category and men, each said once: "Rifle Squad · Infantry squad · 10 men"."""
    unit_type = unit.unit_type
    parts = [
        unit_type.name if unit_type.name != unit.label else "",
        unit_type.category_name if unit_type.category_name not in {unit_type.name, unit.label} else "",
        f"{unit.men} {'man' if unit.men == 1 else 'men'}" if unit.men else "",
    ]
    return " · ".join(part for part in parts if part)


def _period_note(snapshot: RosterSnapshot, unit: UnitChoice) -> str:
    """A period cost change in words: "Early war vehicles in 1942: ×2"."""
    factor = period_factor(snapshot, unit)
    if factor is None or factor == 1:
        return ""
    names = {period["key"]: period["name"] for period in snapshot.system.periods}
    service = names.get(unit_service_period(snapshot, unit) or "", "")
    return f"{service} {unit.unit_type.category_name} in {roster_when(snapshot)}: ×{factor:g}".strip()


def settings_form_for(roster, data: GameData, snapshot: RosterSnapshot, priced, post=None) -> SettingsForm:
    initial = {
        "name": roster.name,
        "points_limit": roster.points_limit,
        "year": roster.year,
        "period": roster.period,
        **{f"setting-{key}": value for key, value in roster.settings.items()},
        "overlays": list(roster.overlays.values_list("id", flat=True)),
    }
    for definition in data.system.config.get("settings", []):
        initial.setdefault(f"setting-{definition['key']}", definition.get("default"))
    house_rules = _house_rule_counts(snapshot, priced, None)
    army = data.armies.get(roster.army_id)
    choices = tuple(choice["name"] for choice in (army.rule_choices if army else ()))
    return SettingsForm(post, initial=initial, data_for=data, house_rules=house_rules, rule_choices=choices)


def _house_rule_counts(
    snapshot: RosterSnapshot, priced: list[models.SpecialRule], unit: int | None
) -> list[tuple[models.SpecialRule, int]]:
    """The house rules the editor offers for the roster (unit None) or for one unit, with how many are bought.

    A unit is offered only those that apply to it (APDS for a 6pdr), and any already bought for it.
    """
    bought = {(b.rule.key, b.unit): b.count for b in snapshot.house_rules}
    offers = []
    for rule in priced:
        info = house_rule_info(rule)
        if (info.bought_for == "unit") != (unit is not None):
            continue
        count = bought.get((info.key, unit), 0)
        if unit is None or count or applies(snapshot, HouseRuleChoice(info, 1, unit)):
            offers.append((rule, count))
    return offers


def after_edit(
    request: HttpRequest,
    roster: models.Roster,
    secret: str,
    anchor: str = "roster",
    picker_force: int | None = None,
    added_id: int | None = None,
) -> HttpResponse:
    """Without JavaScript, back to the editor at the place edited; with htmx, the new roster.

    The unit picker keeps adding to `picker_force` where one is given; `added_id` is the unit just added.
    """
    query = f"?force={picker_force}" if picker_force else ""
    if request.htmx:
        page = render_editor(request, roster, secret, picker_force=picker_force, added_id=added_id)
        # The address names the force too, so a reload keeps adding where the player was.
        return replace_url(page, f"{reverse('lists:edit', args=[secret])}{query}") if query else page
    return redirect(f"{reverse('lists:edit', args=[secret])}{query}#{anchor}")


def unit_changed(request, roster, secret, unit_id: int, **extra) -> HttpResponse:
    """For htmx, only what a unit edit changes: that unit, the summary and the other units' status.

    The rest of the page (and so the scroll position and the focused field) stays as it was.
    """
    if not request.htmx:
        if extra.get("unit_forms"):
            return render_editor(request, roster, secret, status=400, **extra)
        return redirect(f"{reverse('lists:edit', args=[secret])}#unit-{unit_id}")
    context = editor_context(roster, secret, edited_id=unit_id, **extra)
    context["edited_id"] = unit_id
    context["edited"] = next((row for row in context["rows"] if row["id"] == unit_id), None)
    if context["edited"]:
        context["edited"]["open"] = True  # it was open to be edited
    return render(request, "lists/editor.html#unit-changed", context)


def conflict_page(request, roster, secret, not_applied: dict | None = None) -> HttpResponse:
    """The newest roster with a notice saying the edit was not saved, and what it would have changed."""
    roster.refresh_from_db()
    return render_editor(request, roster, secret, conflict=True, status=409, not_applied=not_applied)


def undo_key(roster: models.Roster) -> str:
    return f"undo:{roster.pk}"
