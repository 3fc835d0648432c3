"""Roster pages: start, import, edit (by secret link), share (read-only), export and copy.

Every edit is a plain form POST that works without JavaScript (it redirects
back to the editor); with htmx the same POST answers with the roster
fragment, so points and findings update in place. Each form carries the
roster's version: an edit from a stale page is refused with the newer state,
never silently applied over someone else's change.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from functools import partial
from urllib.parse import parse_qsl

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

from lists import models, tasks
from lists.battlescribe.import_note import imported
from lists.cards import Layout, house_rule_rows, pdf_key, roster_text, unit_blocks
from lists.fingerprint import issue, normalise
from lists.forms import ForceForm, SettingsForm, StartForm, UnitForm, is_single_option
from lists.loading import (
    GameData,
    game_data,
    house_rule_info,
    one_state,
    priced_house_rules,
    roster_snapshot,
    roster_units,
)
from lists.pricing import (
    house_rule_lines,
    house_rule_points,
    option_cost,
    period_factor,
    unit_points,
    unit_service_period,
)
from lists.roster_files import (
    MAX_DIGITS,
    MAX_FILE_BYTES,
    RosterFileInvalid,
    default_force_name,
    dump_json,
    dump_yaml,
    export_roster,
    load_roster_file,
    read_roster_file,
    resolve,
    save_new_roster,
)
from lists.rules.house_rules import applies
from lists.rules.organisation import category_counts, limit_value, slot_taken
from lists.rules.period import period_findings
from lists.rules.transport import transport_candidates
from lists.sharing import hash_secret, new_edit_secret, new_share_id, roster_for_edit, roster_for_share
from lists.snapshot import ForceInfo, HouseRuleChoice, RosterSnapshot, UnitChoice
from lists.validation import open_qualities
from lists.verdict import Verdict, judge
from lists.views import home_page


def _creation_rate(group, request) -> str:
    return settings.ROSTER_CREATE_RATE


# Creating rosters and rendering PDFs cost the server most: each client address gets a budget
# (PDF renders are counted where they start, so following one costs nothing).
limit_creation = ratelimit(key="ip", rate=_creation_rate, method="POST", group="create", block=True)


def too_many_requests(request: HttpRequest, exception) -> HttpResponse:
    response = render(
        request,
        "lists/problems.html",
        {
            "title": "Too many requests",
            "problems": [
                "You have sent many requests of this kind in a short time. Please wait a minute and try again."
            ],
        },
        status=429,
    )
    response["Retry-After"] = "60"
    return response


WHOLE_NUMBER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
MY_ROSTERS_COOKIE = "my_rosters"
MY_ROSTERS_LIMIT = 50


# --- starting a roster -------------------------------------------------------


@require_POST
@limit_creation
def start_roster(request: HttpRequest) -> HttpResponse:
    """Start an empty roster for a game and army (and its year or period, where the game has them)."""
    form = StartForm(request.POST)
    if not form.is_valid():
        return home_page(request, start_form=form, status=400)
    army = form.cleaned_data["army"]
    data = game_data(army.system)
    organisations = data.organisations_for(army.id)
    secret = new_edit_secret()
    with transaction.atomic():
        roster = models.Roster.objects.create(
            share_id=new_share_id(),
            edit_secret_hash=hash_secret(secret),
            system=army.system,
            army=army,
            name=form.cleaned_data["name"].strip() or f"{army.name} roster",
            points_limit=form.cleaned_data["points_limit"],
            year=form.cleaned_data["year"],
            period=form.cleaned_data["period"] or "",
        )
        models.Force.objects.create(
            roster=roster, name=default_force_name(0), organisation_id=organisations[0] if organisations else None
        )
    return _remember_and_open(request, roster, secret)


@require_POST
@limit_creation
def import_roster(request: HttpRequest) -> HttpResponse:
    """Create a roster from an uploaded or pasted YAML/JSON file; a bad file saves nothing."""
    upload = request.FILES.get("file")
    text = request.POST.get("text") or ""
    if upload is not None:
        raw, filename = upload.read(), upload.name or ""
    else:
        raw, filename = _pasted_bytes(request, text), ""
    try:
        resolved = load_roster_file(raw, filename)
    except RosterFileInvalid as invalid:
        # The pasted text comes back with the problems, so the player can fix it in place.
        problems = [str(problem) for problem in invalid.problems]
        return home_page(request, import_problems=problems, import_text=text, status=400)
    secret = new_edit_secret()
    roster = save_new_roster(resolved, new_share_id(), hash_secret(secret))
    return imported(request, _remember_and_open(request, roster, secret), resolved)


def _pasted_bytes(request: HttpRequest, text: str) -> bytes:
    """Pasted text as the bytes sent, so text that is not UTF-8 is refused as the same file uploaded is.

    Django reads a form with bad bytes replaced (U+FFFD, or the whole body as Latin-1); a plain form's
    body is read again here, as sent.
    """
    if request.content_type == "application/x-www-form-urlencoded":
        for name, value in parse_qsl(request.body.decode("latin-1"), keep_blank_values=True, encoding="latin-1"):
            if name == "text":
                return value.encode("latin-1")
    return text.encode()


def _remember_and_open(request: HttpRequest, roster: models.Roster, secret: str) -> HttpResponse:
    response = redirect("lists:edit", secret=secret)
    add_never_cache_headers(response)  # it carries a new edit secret: no browser or proxy may keep it
    mine = [entry for entry in remembered_secrets(request) if entry != secret][: MY_ROSTERS_LIMIT - 1]
    response.set_signed_cookie(
        MY_ROSTERS_COOKIE,
        json.dumps([secret, *mine]),
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,  # edit links travel over HTTPS only in production
    )
    return response


def remembered_secrets(request: HttpRequest) -> list[str]:
    try:
        value = json.loads(request.get_signed_cookie(MY_ROSTERS_COOKIE, default="[]"))
    except (ValueError, TypeError):
        return []
    return [entry for entry in value if isinstance(entry, str)] if isinstance(value, list) else []


@require_GET
def my_rosters(request: HttpRequest) -> HttpResponse:
    """The rosters created on this device (their edit links are in a signed cookie)."""
    secrets_by_hash = {hash_secret(secret): secret for secret in remembered_secrets(request)}
    rosters = models.Roster.objects.filter(edit_secret_hash__in=secrets_by_hash).select_related("system", "army")
    entries = [(roster, secrets_by_hash[roster.edit_secret_hash]) for roster in rosters]
    return render(request, "lists/my_rosters.html", {"entries": entries})


# --- the editor --------------------------------------------------------------


@require_GET
def edit_roster(request: HttpRequest, secret: str) -> HttpResponse:
    """The editor; `?force=<id>` sets which force the unit picker adds to (and counts slots for)."""
    roster = roster_for_edit(secret)
    return _render_editor(request, roster, secret, picker_force=_int(request.GET.get("force")))


def _render_editor(request, roster, secret, *, status=200, **extra) -> HttpResponse:
    """The whole editor (or, for htmx, the whole roster fragment)."""
    context = editor_context(roster, secret, **extra)
    if request.htmx:
        # htmx swaps only successful answers; the fragment itself shows the problem.
        response = render(request, "lists/editor.html#roster", context)
        return reswap(retarget(response, "#roster"), "outerHTML")
    return render(request, "lists/editor.html", context, status=status)


def editor_context(
    roster: models.Roster,
    secret: str | None,
    *,
    unit_forms: dict[int, UnitForm] | None = None,
    settings_form: SettingsForm | None = None,
    errors: list[str] | None = None,
    conflict: bool = False,
    picker_force: int | None = None,
) -> dict:
    """Everything the editor and the share page show; `unit_forms` and `settings_form` carry refused input.

    `picker_force` is the id of the force the unit picker adds to (else the first force).
    """
    with one_state():  # units and forces of the same moment, whatever is saved meanwhile
        units = list(roster_units(roster))
        snapshot = roster_snapshot(roster, units)
        force_rows = list(roster.forces.all())
    verdict = judge(snapshot)
    data = game_data(roster.system)
    priced = list(priced_house_rules()) if secret else []
    rows = _unit_rows(snapshot, verdict, units, data, secret, unit_forms or {}, priced, force_rows)
    labels = {row["id"]: row["choice"].label for row in rows}
    picked = next((f for f in force_rows if f.id == picker_force), force_rows[0] if force_rows else None)
    context = {
        "roster": roster,
        "secret": secret,
        "snapshot": snapshot,
        "verdict": verdict,
        "rows": rows,
        "summary": _summary(verdict, {row["choice"].index: row["id"] for row in rows}, labels),
        "when": _when(snapshot),
        "house_rule_lines": [
            (bought, points, snapshot.units[bought.unit].label if bought.unit is not None else "")
            for bought, points in house_rule_lines(snapshot)
        ],
        "house_rule_rows": house_rule_rows(snapshot),
        "share_url": reverse("lists:share", args=[roster.share_id]),
        "edit_url": reverse("lists:edit", args=[secret]) if secret else None,
        "rules": data.system.rules,
        "fingerprint": issue(roster, snapshot, data, verdict),
        "errors": errors or [],
        "conflict": conflict,
        "forces": _force_sections(snapshot, force_rows, rows, data, roster.army_id, secret),
        "picker_force": picked,
    }
    if secret:
        picked_info = snapshot.forces[force_rows.index(picked)] if picked else None
        context["picker"] = partial(_unit_picker, snapshot, data, roster.army_id, picked_info)
        context["settings_form"] = settings_form or _settings_form(roster, data, snapshot, priced)
        context["force_form"] = ForceForm(data_for=data, army_id=roster.army_id, auto_id="new-force-%s")
        context["undo"] = cache.get(_undo_key(roster))
    return context


def _when(snapshot: RosterSnapshot) -> str:
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
            "usage": _force_usage(snapshot, force),
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


def _force_usage(snapshot: RosterSnapshot, force: ForceInfo) -> list[tuple[str, str]]:
    """Each slot of the force's organisation with how full it is: ("Infantry squads", "2/4")."""
    if force.organisation is None:
        return []
    units = snapshot.force_units(force)
    counts = category_counts(units)
    # A slot with no maximum is shown once the force has units in it.
    return [
        (slot.name, _usage_text(snapshot, slot, units, counts))
        for slot in force.organisation.slots
        if slot.max is not None or slot_taken(snapshot, slot, units)
    ]


def _unit_rows(
    snapshot: RosterSnapshot,
    verdict: Verdict,
    units: list[models.RosterUnit],
    data: GameData,
    secret: str | None,
    unit_forms: dict[int, UnitForm],
    priced: list[models.SpecialRule],
    force_rows: list[models.Force],
) -> list[dict]:
    rows = []
    forces = [(force.id, force.name) for force in force_rows]
    labels = {row.id: choice.label for row, choice in zip(units, snapshot.units, strict=True)}
    for row, choice, points in zip(units, snapshot.units, verdict.unit_points, strict=True):
        entry = {
            "id": row.id,
            "choice": choice,
            "points": points,
            "findings": verdict.unit_findings(choice.index),
            "description": _description(choice),
            "period_note": _period_note(snapshot, choice),
            # Built only when the template shows it (templates call callables): a unit edit renders one unit.
            "lookup": partial(unit_blocks, snapshot, data, choice, Layout()),
        }
        if secret:
            form = unit_forms.get(row.id) or _unit_form(
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
            entry["options"] = [
                (field, _cost_text(choice.unit_type.options[key], option_cost(snapshot, choice, key)))
                for key, field in form.option_fields()
            ] + [
                (field, _house_rule_cost_text(snapshot, rule, choice.index)) for rule, field in form.house_rule_fields()
            ]
        rows.append(entry)
    return rows


def _cost_text(option, cost: int) -> str:
    """An option's price for this unit: "+20 pts", "+5 pts each", "+36 pts, 20%"."""
    if option.percent:
        return f"({cost:+d} pts, {option.percent:+d}%)"
    each = "" if is_single_option(option) else " each"
    return f"({cost:+d} pts{each})"


def _house_rule_cost_text(snapshot: RosterSnapshot, rule: models.SpecialRule, unit: int) -> str:
    """A house rule's price for this unit, from its overlay: "(+20 pts, Rapid Fire)"."""
    cost = house_rule_points(snapshot, HouseRuleChoice(house_rule_info(rule), 1, unit))
    return f"({cost:+d} pts, {rule.system.short_name})"


def _unit_form(snapshot, units, priced, unit_id, choice, labels, forces, **kwargs) -> UnitForm:
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
    return f"{service} {unit.unit_type.category_name} in {_when(snapshot)}: ×{factor:g}".strip()


def _unit_picker(snapshot: RosterSnapshot, data: GameData, army_id: int, force: ForceInfo | None) -> list[dict]:
    """The units the force may take (those of a category its organisation has a slot for), grouped by
    slot in the organisation's order, each at its cheapest quality, with slot usage and service dates."""
    groups: dict[str, dict] = {}
    force_units = snapshot.force_units(force) if force else []
    counts = category_counts(force_units)
    organisation = force.organisation if force else None
    slot_order = [c for slot in organisation.slots for c in slot.categories] if organisation else []
    for source, unit_id in data.available_units(army_id):
        unit_type = data.unit_types[unit_id]
        if organisation is not None and unit_type.category not in slot_order:
            continue
        quality, points = _cheapest(snapshot, unit_type)
        group = groups.setdefault(
            unit_type.category,
            {
                "name": unit_type.category_name,
                "usage": _slot_usage(snapshot, force, force_units, unit_type.category, counts),
                "units": [],
            },
        )
        candidate = UnitChoice(index=len(snapshot.units), label=unit_type.name, unit_type=unit_type, quality=quality)
        group["units"].append(
            {
                "id": unit_id,
                "name": unit_type.name,
                "source": source.name if source.id != army_id else "",
                "points": points,
                "quality": snapshot.system.qualities[quality].name if quality else "",
                "out_of_period": bool(period_findings(replace(snapshot, units=[candidate]))),
                "dates": _service_dates(snapshot, unit_type),
            }
        )
    order = {category: slot_order.index(category) for category in groups if category in slot_order}
    return [groups[key] for key in sorted(groups, key=lambda key: order.get(key, len(order)))]


def _cheapest(snapshot: RosterSnapshot, unit_type) -> tuple[str | None, int]:
    """The quality the unit costs least at in the roster's army list, and that price."""
    priced = []
    for quality in open_qualities(unit_type, snapshot.army_key) or [None]:
        candidate = UnitChoice(index=len(snapshot.units), label=unit_type.name, unit_type=unit_type, quality=quality)
        priced.append((unit_points(replace(snapshot, units=[candidate]), candidate), quality))
    points, quality = min(priced, key=lambda item: item[0])
    return quality, points


def _slot_usage(snapshot, force: ForceInfo | None, units: list[UnitChoice], category: str, counts) -> str:
    """How full the force's first slot taking this category is: "1/1", "2/4", or "2" where it has no maximum."""
    organisation = force.organisation if force else None
    slot = next((s for s in organisation.slots if category in s.categories), None) if organisation else None
    if slot is None:
        return ""
    return _usage_text(snapshot, slot, units, counts)


def _usage_text(snapshot: RosterSnapshot, slot, units: list[UnitChoice], counts: dict[str, int]) -> str:
    """A slot's choices taken by the units, out of its maximum where it has one."""
    taken = slot_taken(snapshot, slot, units)
    maximum = limit_value(slot.max, counts)
    return f"{taken:g}" if maximum is None else f"{taken:g}/{math.floor(maximum + 1e-9)}"


def _service_dates(snapshot: RosterSnapshot, unit_type) -> str:
    names = {period["key"]: period["name"] for period in snapshot.system.periods}
    if unit_type.service_start or unit_type.service_end:
        start, end = unit_type.service_start or "", unit_type.service_end or ""
        return f"{start}–{end}" if end else f"from {start}"
    return names.get(unit_type.service_period, unit_type.service_period)


def _settings_form(roster, data: GameData, snapshot: RosterSnapshot, priced, post=None) -> SettingsForm:
    initial = {
        "name": roster.name,
        "points_limit": roster.points_limit,
        "year": roster.year,
        "period": roster.period,
        **{f"setting-{key}": value for key, value in roster.settings.items()},
    }
    for definition in data.system.config.get("settings", []):
        initial.setdefault(f"setting-{definition['key']}", definition.get("default"))
    house_rules = _house_rule_counts(snapshot, priced, None)
    return SettingsForm(post, initial=initial, data_for=data, house_rules=house_rules)


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


def _save_house_rules(roster: models.Roster, unit: models.RosterUnit | None, counts: dict[int, int]) -> None:
    """Replace what the roster (unit None) or one unit has bought with `counts`."""
    roster.house_rules.filter(unit=unit).delete()
    models.RosterHouseRule.objects.bulk_create(
        models.RosterHouseRule(roster=roster, unit=unit, rule_id=rule_id, count=count)
        for rule_id, count in counts.items()
    )


def _after_edit(
    request: HttpRequest, roster: models.Roster, secret: str, anchor: str = "roster", picker_force: int | None = None
) -> HttpResponse:
    """Without JavaScript, back to the editor at the place edited; with htmx, the new roster.

    The unit picker keeps adding to `picker_force` where one is given.
    """
    if request.htmx:
        return _render_editor(request, roster, secret, picker_force=picker_force)
    query = f"?force={picker_force}" if picker_force else ""
    return redirect(f"{reverse('lists:edit', args=[secret])}{query}#{anchor}")


def _unit_changed(request, roster, secret, unit_id: int, **extra) -> HttpResponse:
    """For htmx, only what a unit edit changes: that unit, the summary and the other units' status.

    The rest of the page (and so the scroll position and the focused field) stays as it was.
    """
    if not request.htmx:
        if extra.get("unit_forms"):
            return _render_editor(request, roster, secret, status=400, **extra)
        return redirect(f"{reverse('lists:edit', args=[secret])}#unit-{unit_id}")
    context = editor_context(roster, secret, **extra)
    context["edited_id"] = unit_id
    context["edited"] = next((row for row in context["rows"] if row["id"] == unit_id), None)
    return render(request, "lists/editor.html#unit-changed", context)


def _conflict(request, roster, secret) -> HttpResponse:
    roster.refresh_from_db()
    return _render_editor(request, roster, secret, conflict=True, status=409)


def _undo_key(roster: models.Roster) -> str:
    return f"undo:{roster.pk}"


# --- sharing -----------------------------------------------------------------


@require_GET
def share_roster(request: HttpRequest, share_id: str) -> HttpResponse:
    roster = roster_for_share(share_id)
    # Share pages are read far more than rosters change: the roster's part of the page is
    # kept until its next edit (version) or pack change; the copy form's CSRF token is not in it.
    key = f"share:{roster.share_id}:{roster.version}:{roster.system.content_hash}"  # a row id can come back after a rollback; a share id cannot
    body = cache.get(key)
    if body is None:
        body = render_to_string("lists/share.html#body", editor_context(roster, None), request)
        cache.set(key, body, 60 * 60)
    response = render(request, "lists/share.html", {"roster": roster, "body": mark_safe(body)})  # noqa: S308 - rendered by our template
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def export(request: HttpRequest, share_id: str, fmt: str) -> HttpResponse:
    roster = roster_for_share(share_id)
    document = export_roster(roster_snapshot(roster))
    if fmt == "json":
        return _download(dump_json(document), "application/json; charset=utf-8", download_name(roster, ".json"))
    return _download(dump_yaml(document), "application/yaml; charset=utf-8", download_name(roster, ".yaml"))


@require_POST
@limit_creation
def copy_roster(request: HttpRequest, share_id: str) -> HttpResponse:
    """Copy a shared roster into a new one, with a new edit link of the visitor's own."""
    roster = roster_for_share(share_id)
    document = export_roster(roster_snapshot(roster))
    document["name"] = f"Copy of {roster.name}"[:120]
    try:
        resolved = resolve(read_roster_file(dump_json(document).encode(), "roster.json"))
    except RosterFileInvalid as invalid:
        # Saved before today's checks: say what no longer passes rather than fail.
        problems = [str(problem) for problem in invalid.problems]
        return _bad_request(request, problems, title="This roster cannot be copied as it stands")
    secret = new_edit_secret()
    copy = save_new_roster(resolved, new_share_id(), hash_secret(secret))
    return _remember_and_open(request, copy, secret)


# --- printing ----------------------------------------------------------------


def _printable(share_id: str):
    roster = roster_for_share(share_id)
    snapshot = roster_snapshot(roster)
    return roster, snapshot, game_data(roster.system)


def download_name(roster: models.Roster, suffix: str) -> str:
    """A download's file name, after the roster: `normandy-june-1944-cards.pdf`."""
    return f"{slugify(roster.name, allow_unicode=True)[:80] or 'roster'}{suffix}"


def _download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def cards(request: HttpRequest, share_id: str) -> HttpResponse:
    """The unit cards PDF: served from the cache, else rendered in the background while a page waits."""
    roster, snapshot, data = _printable(share_id)
    try:
        layout = Layout(
            card=request.GET.get("card", "poker"),
            paper=request.GET.get("paper", "a4"),
            merge=request.GET.get("merge") in {"1", "on", "true"},
        )
    except ValueError as problem:
        return _bad_request(request, [str(problem)], title="Those card settings are not available")
    return _deliver(request, roster, snapshot, data, "cards", layout)


@require_GET
def army_list(request: HttpRequest, share_id: str) -> HttpResponse:
    """The organiser's list PDF, delivered like the cards."""
    roster, snapshot, data = _printable(share_id)
    return _deliver(request, roster, snapshot, data, "list", Layout())


PDF_NAMES = {"cards": ("-cards.pdf", "the unit cards"), "list": ("-list.pdf", "the organiser's list")}


def _deliver(request, roster, snapshot, data, kind: str, layout: Layout) -> HttpResponse:
    """The PDF if it is ready; else start its render (within the client's budget) and show its progress.

    `?wait=1` asks for the progress page (htmx polls it, browsers without
    JavaScript refresh it); when the PDF is ready it opens a page that fetches it.
    `?retry=1` starts a failed render again.
    """
    suffix, what = PDF_NAMES[kind]
    filename = download_name(roster, suffix)
    key = pdf_key(kind, snapshot, data, layout)
    waiting = request.GET.get("wait") == "1"
    query = request.GET.copy()
    for name in ("wait", "retry"):
        query.pop(name, None)
    pdf_url = f"{request.path}?{query.urlencode()}" if query else request.path
    wait_url = f"{pdf_url}{'&' if query else '?'}wait=1"
    pdf = cache.get(key)
    job = None if pdf is not None else tasks.follow(key)
    if pdf is None and (job is None or job.state == "done" or (job.state == "failed" and request.GET.get("retry"))):
        if is_ratelimited(request, group="pdf", key="ip", rate=settings.PDF_RATE, increment=True):
            return too_many_requests(request, None)
        tasks.start(key, roster.share_id, kind, layout)
        pdf = cache.get(key)  # a backend that runs tasks at once has finished already
        job = None if pdf is not None else tasks.follow(key)
    if pdf is not None and not waiting:
        return _download(pdf, "application/pdf", filename)
    context = {
        "roster": roster,
        "what": what,
        "filename": filename,
        "job": job or tasks.PdfJob("queued"),
        "ready": pdf is not None,
        "units": len(snapshot.units),
        "pdf_url": pdf_url,
        "wait_url": wait_url,
        "retry_url": f"{pdf_url}{'&' if query else '?'}retry=1",
    }
    if request.htmx:
        if pdf is not None:  # open the "ready" page, which fetches the file (and stops the polling)
            response = HttpResponse(status=204)
            response["HX-Redirect"] = wait_url
            return response
        return render(request, "lists/pdf_status.html#status", context)
    status = 200 if pdf is not None else 503 if context["job"].state == "failed" else 202
    response = render(request, "lists/pdf_status.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    if status == 503:
        response["Retry-After"] = "60"
    return response


@require_GET
def text(request: HttpRequest, share_id: str) -> HttpResponse:
    roster, snapshot, data = _printable(share_id)
    verdict = judge(snapshot)
    issue(roster, snapshot, data, verdict)  # the text carries the fingerprint: /verify/ must know it
    return _download(roster_text(snapshot, data, verdict), "text/plain; charset=utf-8", download_name(roster, ".txt"))


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


# --- helpers -----------------------------------------------------------------


def _int(value) -> int | None:
    """A form field's whole number: ASCII digits only, short enough for any database column, else None."""
    text = str(value).strip() if value is not None else ""
    return int(text) if WHOLE_NUMBER.fullmatch(text) else None


def _bad_request(request: HttpRequest, problems: list[str], title: str = "That did not work") -> HttpResponse:
    return render(request, "lists/problems.html", {"title": title, "problems": problems}, status=400)


def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    """Django's answer to a request it refuses before any view runs, such as a body over the size limit."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        problems = [
            f"What you sent is larger than {limit:,} KB, so it was not read. "
            f"A roster file may be at most {MAX_FILE_BYTES // 1024:,} KB: upload or paste a smaller file."
        ]
        return _bad_request(request, problems, title="The roster file is too large")
    return _bad_request(request, ["The request could not be read. Please go back and try again."])
