"""Roster pages: start, import, edit (by secret link), share (read-only), export and copy.

Every edit is a plain form POST that works without JavaScript (it redirects
back to the editor); with htmx the same POST answers with the roster
fragment, so points and findings update in place. Each form carries the
roster's version: an edit from a stale page is refused with the newer state,
never silently applied over someone else's change.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.decorators import ratelimit

from lists import models
from lists.cards import Layout, cards_pdf, fingerprint, house_rule_rows, list_pdf, roster_text
from lists.loading import GameData, game_data, house_rule_info, priced_house_rules, roster_snapshot, roster_units
from lists.roster_files import (
    MAX_COUNT,
    RosterFileInvalid,
    dump_json,
    dump_yaml,
    export_roster,
    load_roster_file,
    read_roster_file,
    resolve,
    save_new_roster,
)
from lists.rules.house_rules import applies
from lists.rules.transport import transport_candidates
from lists.sharing import hash_secret, new_edit_secret, new_share_id, roster_for_edit, roster_for_share
from lists.snapshot import HouseRuleChoice, RosterSnapshot, UnitChoice
from lists.verdict import Verdict, judge


def _creation_rate(group, request) -> str:
    return settings.ROSTER_CREATE_RATE


def _pdf_rate(group, request) -> str:
    return settings.PDF_RATE


# Creating rosters and rendering PDFs cost the server most: each client address gets a budget.
limit_creation = ratelimit(key="ip", rate=_creation_rate, method="POST", group="create", block=True)
limit_pdfs = ratelimit(key="ip", rate=_pdf_rate, method="GET", group="pdf", block=True)


def too_many_requests(request: HttpRequest, exception) -> HttpResponse:
    response = render(
        request,
        "lists/problems.html",
        {
            "title": "Too many requests",
            "problems": ["You have made many rosters or PDFs in a short time. Please wait a minute and try again."],
        },
        status=429,
    )
    response["Retry-After"] = "60"
    return response


MY_ROSTERS_COOKIE = "my_rosters"
MY_ROSTERS_LIMIT = 50


# --- starting a roster -------------------------------------------------------


@require_POST
@limit_creation
def start_roster(request: HttpRequest) -> HttpResponse:
    """Start an empty roster for a game and army."""
    army = models.Army.objects.select_related("system").filter(pk=_int(request.POST.get("army"))).first()
    if army is None:
        return _bad_request(request, ["Pick a game and an army to start a roster."])
    name = (request.POST.get("name") or "").strip()[:120] or f"{army.name} roster"
    limit = _int(request.POST.get("points_limit"))
    data = game_data(army.system)
    organisations = data.organisations_for(army.id)
    secret = new_edit_secret()
    roster = models.Roster.objects.create(
        share_id=new_share_id(),
        edit_secret_hash=hash_secret(secret),
        system=army.system,
        army=army,
        organisation_id=organisations[0] if organisations else None,
        name=name,
        points_limit=limit if limit is not None and 0 <= limit <= 100_000 else None,
    )
    return _remember_and_open(request, roster, secret)


@require_POST
@limit_creation
def import_roster(request: HttpRequest) -> HttpResponse:
    """Create a roster from an uploaded or pasted YAML/JSON file; a bad file saves nothing."""
    upload = request.FILES.get("file")
    if upload is not None:
        raw, filename = upload.read(), upload.name or ""
    else:
        raw, filename = (request.POST.get("text") or "").encode(), ""
    try:
        resolved = load_roster_file(raw, filename)
    except RosterFileInvalid as invalid:
        return _bad_request(
            request, [str(problem) for problem in invalid.problems], title="The roster file was not imported"
        )
    secret = new_edit_secret()
    roster = save_new_roster(resolved, new_share_id(), hash_secret(secret))
    return _remember_and_open(request, roster, secret)


def _remember_and_open(request: HttpRequest, roster: models.Roster, secret: str) -> HttpResponse:
    response = redirect("lists:edit", secret=secret)
    mine = [entry for entry in _my_rosters(request) if entry != secret][: MY_ROSTERS_LIMIT - 1]
    response.set_signed_cookie(
        MY_ROSTERS_COOKIE,
        json.dumps([secret, *mine]),
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def _my_rosters(request: HttpRequest) -> list[str]:
    try:
        value = json.loads(request.get_signed_cookie(MY_ROSTERS_COOKIE, default="[]"))
    except (ValueError, TypeError):
        return []
    return [entry for entry in value if isinstance(entry, str)] if isinstance(value, list) else []


@require_GET
def my_rosters(request: HttpRequest) -> HttpResponse:
    """The rosters created on this device (their edit links are in a signed cookie)."""
    secrets_by_hash = {hash_secret(secret): secret for secret in _my_rosters(request)}
    rosters = models.Roster.objects.filter(edit_secret_hash__in=secrets_by_hash).select_related("system", "army")
    entries = [(roster, secrets_by_hash[roster.edit_secret_hash]) for roster in rosters]
    return render(request, "lists/my_rosters.html", {"entries": entries})


# --- the editor --------------------------------------------------------------


@require_GET
def edit_roster(request: HttpRequest, secret: str) -> HttpResponse:
    roster = roster_for_edit(secret)
    return _render_editor(request, roster, secret)


def _render_editor(request, roster, secret, *, errors=None, conflict=False, status=200) -> HttpResponse:
    context = editor_context(roster, secret)
    context.update(errors=errors or [], conflict=conflict)
    template = "lists/editor.html#roster" if request.htmx else "lists/editor.html"
    if request.htmx and status in {400, 409}:
        status = 200  # htmx swaps only successful answers; the fragment shows the problem
    return render(request, template, context, status=status)


def editor_context(roster: models.Roster, secret: str | None) -> dict:
    units = list(roster_units(roster))
    snapshot = roster_snapshot(roster, units)
    verdict = judge(snapshot)
    data = game_data(roster.system)
    priced = list(priced_house_rules()) if secret else []
    return {
        "roster": roster,
        "secret": secret,
        "snapshot": snapshot,
        "verdict": verdict,
        "rows": _unit_rows(snapshot, verdict, units, data, priced),
        "house_rule_rows": house_rule_rows(snapshot),
        "picker": _unit_picker(data, roster.army_id) if secret else [],
        "settings_fields": _settings_fields(snapshot, data),
        "house_rule_choices": _house_rule_counts(snapshot, priced, None),
        "share_url": reverse("lists:share", args=[roster.share_id]),
        "edit_url": reverse("lists:edit", args=[secret]) if secret else None,
        "rules": data.system.rules,
        "fingerprint": fingerprint(snapshot, data),
    }


def _unit_rows(
    snapshot: RosterSnapshot,
    verdict: Verdict,
    units: list[models.RosterUnit],
    data: GameData,
    priced: list[models.SpecialRule],
) -> list[dict]:
    rows = []
    for row, choice, points in zip(units, snapshot.units, verdict.unit_points, strict=True):
        unit_type = choice.unit_type
        ranks = [r for r in (unit_type.officer_rank, *unit_type.officer_ranks) if r]
        rows.append(
            {
                "id": row.id,
                "choice": choice,
                "points": points,
                "findings": verdict.unit_findings(choice.index),
                "qualities": [(key, data.system.qualities[key].name) for key in unit_type.quality_prices],
                "ranks": [(key, data.system.ranks[key].name) for key in ranks if key in data.system.ranks],
                "options": [
                    (option, choice.options.get(option.key, 0))
                    for option in unit_type.options.values()
                    if not option.armies or snapshot.army_key in option.armies or option.key in choice.options
                ],
                "carriers": _carriers(snapshot, choice, units),
                "transport_id": row.transport_id,
                "heroes": bool(data.system.config.get("hero_points")),
                "house_rules": _house_rule_counts(snapshot, priced, choice.index),
            }
        )
    return rows


def _carriers(snapshot: RosterSnapshot, choice: UnitChoice, units: list[models.RosterUnit]) -> list[tuple[int, str]]:
    """The carriers the transport rule allows, and the one chosen even where it does not (a finding says why)."""
    allowed = {carrier.index for carrier in transport_candidates(snapshot, choice)}
    if choice.transport is not None:
        allowed.add(choice.transport)
    return [(units[carrier.index].id, carrier.label) for carrier in snapshot.units if carrier.index in allowed]


def _unit_picker(data: GameData, army_id: int) -> list[tuple[str, list[tuple[int, str]]]]:
    """The army's units (and any it borrows) grouped by organisation category, for the add-unit list."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for source, unit_id in data.available_units(army_id):
        unit_type = data.unit_types[unit_id]
        suffix = f" ({source.name})" if source.id != army_id else ""
        groups.setdefault(unit_type.category_name, []).append((unit_id, f"{unit_type.name}{suffix}{_price(unit_type)}"))
    return list(groups.items())


def _price(unit_type) -> str:
    if unit_type.points is not None:
        return f" – {unit_type.points} pts"
    if unit_type.quality_prices:
        low = min(price.points for price in unit_type.quality_prices.values())
        return f" – from {low} pts"
    return ""


def _settings_fields(snapshot: RosterSnapshot, data: GameData) -> list[dict]:
    fields = []
    for definition in data.system.config.get("settings", []):
        fields.append({**definition, "value": snapshot.setting(definition["key"])})
    return fields


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


def _house_rule_posts(post, priced: list[models.SpecialRule], errors: list[str]) -> dict[int, int]:
    """Counts of house rules posted as house_rule-<id> (a checkbox or a number), by rule id."""
    counts = {}
    for rule in priced:
        raw = post.get(f"house_rule-{rule.id}")
        count = 1 if raw == "on" else _int(raw) or 0
        if not 0 <= count <= MAX_COUNT:
            errors.append(f"{rule.name}: a number from 0 to {MAX_COUNT}.")
        elif count:
            counts[rule.id] = count
    return counts


def _priced_for(bought_for: str) -> list[models.SpecialRule]:
    """The priced house rules bought for a roster ("roster") or for a unit ("unit")."""
    return [rule for rule in priced_house_rules() if (rule.purchase or {}).get("bought_for", "roster") == bought_for]


def _save_house_rules(roster: models.Roster, unit: models.RosterUnit | None, counts: dict[int, int]) -> None:
    """Replace what the roster (unit None) or one unit has bought with `counts`."""
    roster.house_rules.filter(unit=unit).delete()
    models.RosterHouseRule.objects.bulk_create(
        models.RosterHouseRule(roster=roster, unit=unit, rule_id=rule_id, count=count)
        for rule_id, count in counts.items()
    )


def _claim_version(request: HttpRequest, roster: models.Roster) -> bool:
    """Bump the roster's version if the form was made from the current one."""
    version = _int(request.POST.get("version"))
    claimed = models.Roster.objects.filter(pk=roster.pk, version=version).update(version=F("version") + 1)
    if claimed:
        roster.version += 1
    return bool(claimed)


def _edited(request, roster, secret, errors=None) -> HttpResponse:
    if errors:
        return _render_editor(request, roster, secret, errors=errors, status=400)
    if request.htmx:
        return _render_editor(request, roster, secret)
    return redirect(f"{reverse('lists:edit', args=[secret])}#roster")


def _conflict(request, roster, secret) -> HttpResponse:
    roster.refresh_from_db()
    return _render_editor(request, roster, secret, conflict=True, status=409)


@require_POST
def add_unit(request: HttpRequest, secret: str) -> HttpResponse:
    roster = roster_for_edit(secret)
    data = game_data(roster.system)
    unit_id = _int(request.POST.get("unit_type"))
    allowed = {unit for _, unit in data.available_units(roster.army_id)}
    if unit_id not in allowed:
        return _render_editor(request, roster, secret, errors=["Pick a unit from the list to add."], status=400)
    with transaction.atomic():
        if not _claim_version(request, roster):
            return _conflict(request, roster, secret)
        unit_type = data.unit_types[unit_id]
        labels = set(roster.units.values_list("label", flat=True))
        label = unit_type.name
        number = 2
        while label in labels:
            label, number = f"{unit_type.name} {number}", number + 1
        quality = next(iter(unit_type.quality_prices), None)
        position = (roster.units.order_by("-position").values_list("position", flat=True).first() or 0) + 1
        models.RosterUnit.objects.create(
            roster=roster,
            unit_type_id=unit_id,
            position=position,
            label=label,
            quality_id=data.ids_by_key(data.quality_ids).get(quality),
        )
    return _edited(request, roster, secret)


@require_POST
def update_unit(request: HttpRequest, secret: str, unit_id: int) -> HttpResponse:
    roster = roster_for_edit(secret)
    unit = get_object_or_404(models.RosterUnit, pk=unit_id, roster=roster)
    data = game_data(roster.system)
    unit_type = data.unit_types[unit.unit_type_id]
    errors: list[str] = []
    post = request.POST
    label = (post.get("label") or "").strip()[:120] or unit_type.name
    if models.RosterUnit.objects.filter(roster=roster, label=label).exclude(pk=unit.pk).exists():
        errors.append(f"Another unit is already called {label!r}.")
    quality_key = post.get("quality") or None
    if quality_key is not None and quality_key not in unit_type.quality_prices:
        errors.append("Pick one of the unit's qualities.")
    size = _int(post.get("size"))
    if post.get("size") and (size is None or not 1 <= size <= 100):
        errors.append("Size is a number of men from 1 to 100.")
    rank_key = post.get("officer_rank") or None
    allowed_ranks = {r for r in (unit_type.officer_rank, *unit_type.officer_ranks) if r}
    if rank_key is not None and rank_key not in allowed_ranks:
        errors.append("Pick one of the ranks listed.")
    hero_points = _int(post.get("hero_points")) or 0
    if not 0 <= hero_points <= 50:
        errors.append("Hero points are a number from 0 to 50.")
    options: dict[int, int] = {}
    for key, option in unit_type.options.items():
        raw = post.get(f"option-{key}")
        count = 1 if raw == "on" else _int(raw) or 0
        if not 0 <= count <= 100:
            errors.append(f"{option.name}: a number from 0 to 100.")
        elif count:
            options[data.option_ids[(unit.unit_type_id, key)]] = count
    transport_id = _int(post.get("transport"))
    if (
        transport_id is not None
        and not models.RosterUnit.objects.filter(pk=transport_id, roster=roster).exclude(pk=unit.pk).exists()
    ):
        errors.append("Pick a transport from this roster.")
    house_rules = _house_rule_posts(post, _priced_for("unit"), errors)
    if errors:
        return _edited(request, roster, secret, errors)
    with transaction.atomic():
        if not _claim_version(request, roster):
            return _conflict(request, roster, secret)
        unit.label = label
        unit.quality_id = data.ids_by_key(data.quality_ids).get(quality_key)
        unit.size = size
        unit.officer_rank_id = data.ids_by_key(data.rank_ids).get(rank_key)
        unit.hero_points = hero_points
        unit.transport_id = transport_id
        unit.save()
        unit.chosen_options.all().delete()
        models.RosterUnitOption.objects.bulk_create(
            models.RosterUnitOption(roster_unit=unit, option_id=option_id, count=count)
            for option_id, count in options.items()
        )
        _save_house_rules(roster, unit, house_rules)
    return _edited(request, roster, secret)


@require_POST
def remove_unit(request: HttpRequest, secret: str, unit_id: int) -> HttpResponse:
    roster = roster_for_edit(secret)
    unit = get_object_or_404(models.RosterUnit, pk=unit_id, roster=roster)
    with transaction.atomic():
        if not _claim_version(request, roster):
            return _conflict(request, roster, secret)
        unit.delete()
    return _edited(request, roster, secret)


@require_POST
def update_settings(request: HttpRequest, secret: str) -> HttpResponse:
    roster = roster_for_edit(secret)
    data = game_data(roster.system)
    post = request.POST
    errors: list[str] = []
    name = (post.get("name") or "").strip()[:120] or roster.name
    limit = _int(post.get("points_limit"))
    if post.get("points_limit") and (limit is None or not 0 <= limit <= 100_000):
        errors.append("The points limit is a number from 0 to 100,000.")
    year = _int(post.get("year"))
    if post.get("year") and (year is None or not 1900 <= year <= 1960):
        errors.append("The year is a year of the war, such as 1944.")
    period = post.get("period") or ""
    if period and period not in {p["key"] for p in data.system.periods}:
        errors.append("Pick one of the periods listed.")
    organisation_id = _int(post.get("organisation"))
    if organisation_id is not None and organisation_id not in data.organisations_for(roster.army_id):
        errors.append("Pick one of the organisations listed.")
    settings = {}
    for definition in data.system.config.get("settings", []):
        key = definition["key"]
        raw = post.get(f"setting-{key}")
        if definition["kind"] == "bool":
            settings[key] = raw == "on"
        elif definition["kind"] == "int":
            value = _int(raw)
            if raw and (value is None or value < 0):
                errors.append(f"{definition['name']}: a whole number.")
            settings[key] = value
        elif raw:
            if raw not in definition.get("choices", []):
                errors.append(f"{definition['name']}: pick one of the choices.")
            settings[key] = raw
    house_rules = _house_rule_posts(post, _priced_for("roster"), errors)
    if errors:
        return _edited(request, roster, secret, errors)
    with transaction.atomic():
        if not _claim_version(request, roster):
            return _conflict(request, roster, secret)
        roster.name = name
        roster.points_limit = limit
        roster.year = year
        roster.period = period
        roster.organisation_id = organisation_id if organisation_id is not None else roster.organisation_id
        roster.settings = settings
        roster.save()
        _save_house_rules(roster, None, house_rules)
    return _edited(request, roster, secret)


# --- sharing -----------------------------------------------------------------


@require_GET
def share_roster(request: HttpRequest, share_id: str) -> HttpResponse:
    roster = roster_for_share(share_id)
    # Share pages are read far more than rosters change: the roster's part of the page is
    # kept until its next edit (version) or pack change; the copy form's CSRF token is not in it.
    key = f"share:{roster.pk}:{roster.version}:{roster.system.content_hash}"
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
    resolved = resolve(read_roster_file(dump_json(document).encode(), "roster.json"))
    secret = new_edit_secret()
    copy = save_new_roster(resolved, new_share_id(), hash_secret(secret))
    return _remember_and_open(request, copy, secret)


# --- printing ----------------------------------------------------------------


def _printable(share_id: str):
    roster = roster_for_share(share_id)
    snapshot = roster_snapshot(roster)
    return roster, snapshot, game_data(roster.system)


def pack_versions(roster: models.Roster) -> list[tuple[str, str]]:
    """The packs a roster's verdict depends on: its game and any house-rule overlays it uses."""
    versions = {roster.system.key: roster.system.version}
    for bought in roster.house_rules.select_related("rule__system"):
        versions[bought.rule.system.key] = bought.rule.system.version
    return sorted(versions.items())


def download_name(roster: models.Roster, suffix: str) -> str:
    """A download's file name, after the roster: `normandy-june-1944-cards.pdf`."""
    return f"{slugify(roster.name, allow_unicode=True)[:80] or 'roster'}{suffix}"


def _download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
@limit_pdfs
def cards(request: HttpRequest, share_id: str) -> HttpResponse:
    roster, snapshot, data = _printable(share_id)
    try:
        layout = Layout(
            card=request.GET.get("card", "poker"),
            paper=request.GET.get("paper", "a4"),
            merge=request.GET.get("merge") in {"1", "on", "true"},
        )
    except ValueError as problem:
        return _bad_request(request, [str(problem)], title="Those card settings are not available")
    return _download(cards_pdf(snapshot, data, layout), "application/pdf", download_name(roster, "-cards.pdf"))


@require_GET
@limit_pdfs
def army_list(request: HttpRequest, share_id: str) -> HttpResponse:
    roster, snapshot, data = _printable(share_id)
    pdf = list_pdf(snapshot, data, judge(snapshot), pack_versions(roster))
    return _download(pdf, "application/pdf", download_name(roster, "-list.pdf"))


@require_GET
def text(request: HttpRequest, share_id: str) -> HttpResponse:
    roster, snapshot, data = _printable(share_id)
    body = roster_text(snapshot, data, judge(snapshot))
    return _download(body, "text/plain; charset=utf-8", download_name(roster, ".txt"))


# --- helpers -----------------------------------------------------------------


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _bad_request(request: HttpRequest, problems: list[str], title: str = "That did not work") -> HttpResponse:
    return render(request, "lists/problems.html", {"title": title, "problems": problems}, status=400)
