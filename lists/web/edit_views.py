"""The editor's changes: add, change, remove, duplicate and bring back units; add, change and remove forces; settings.

Each is a plain form POST (htmx swaps the answer in place) and each goes through
`lists.rosters.edits.edit`: the same checks as an import, one transaction, the
ids of the units it keeps kept. A stale page gets the conflict answer, a refused
change the import's message, never a 500.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from lists import models
from lists.gamedata.loading import game_data, one_state, roster_snapshot, roster_units
from lists.gamedata.overlays import played_house_rules, switch_overlays
from lists.roster_kinds import opened
from lists.roster_kinds.base import UNIT_CAP, Change, ChangeRefused, StaleChange
from lists.rosters.edits import Draft, EditRefused
from lists.rosters.files import MAX_UNITS, default_force_name, default_label
from lists.rosters.format import short_note
from lists.rosters.sharing import roster_for_edit
from lists.rules.defaults import options_at_start, quality_at_start
from lists.rules.validation import NOTE_MAX_LENGTH, one_line
from lists.web.editor_page import (
    after_edit,
    conflict_page,
    render_editor,
    settings_form_for,
    undo_key,
    unit_changed,
    unit_form_for,
)
from lists.web.forms import ForceForm
from lists.web.page_helpers import adds_limited, limit_edits, too_many_requests, whole_number

UNDO_SECONDS = 60 * 60
# A unit form's fields as the editor labels them.
FIELD_NAMES = {"label": "Name", "size": "Men", "officer_rank": "Rank", "hero_points": "Hero points"}


def _apply(
    request, roster, secret, change: Callable[[Draft], object], not_applied: dict | None = None
) -> tuple[Draft | None, HttpResponse | None]:
    """Make a change through the one write path: the saved draft, or the answer saying why nothing was saved.

    `not_applied` says what the change was, for the notice a stale page gets.
    """
    try:
        return opened(roster).apply(Change(on_draft=change), whole_number(request.POST.get("version"))), None
    except StaleChange:
        return None, conflict_page(request, roster, secret, not_applied)
    except ChangeRefused as refused:
        roster.refresh_from_db()
        return None, render_editor(request, roster, secret, errors=refused.problems, status=400)


def _saved(
    request, roster, secret, change: Callable[[Draft], object], anchor: str = "roster", what: str = "your change"
) -> HttpResponse:
    """Make a change and answer as the editor does: the edited roster, or why nothing was saved."""
    draft, refused = _apply(request, roster, secret, change, {"what": what})
    return refused or after_edit(request, roster, secret, anchor)


def _full(roster: models.Roster) -> str | None:
    if roster.units.count() >= MAX_UNITS:
        return UNIT_CAP
    return None


@require_POST
@limit_edits
def add_unit(request: HttpRequest, secret: str) -> HttpResponse:
    roster = roster_for_edit(secret)
    if adds_limited(request):
        return too_many_requests(request, None)
    data = game_data(roster.system)
    unit_id = whole_number(request.POST.get("unit_type"))
    if unit_id not in {unit for _, unit in data.available_units(roster.army_id)}:
        return render_editor(request, roster, secret, errors=["Pick a unit from the list to add."], status=400)
    if full := _full(roster):
        return render_editor(request, roster, secret, errors=[full], status=400)
    # The force the picker adds to; a form without one (an older page) adds to the first force.
    force_id = whole_number(request.POST.get("force")) if request.POST.get("force") else None
    unit_type = data.unit_types[unit_id]
    army_key = data.armies[roster.army_id].key
    quality = quality_at_start(data.system, unit_type, army_key)
    taken = options_at_start(unit_type, army_key, quality)  # what BattleScribe selects with it: armed, a variant
    entry = {"unit": unit_type.key, **({"quality": quality} if quality else {})}
    if taken:
        entry["options"] = [{"option": key, "count": count} for key, count in taken.items()]

    def add(draft: Draft) -> None:
        force = draft.force(force_id) if force_id is not None else draft.forces()[0]
        entry["label"] = default_label(unit_type.name, dict.fromkeys(draft.labels(), 0))
        force["units"].append(entry)

    draft, refused = _apply(request, roster, secret, add, {"what": f"adding {unit_type.name}"})
    if refused:
        return refused
    force = next(force for force in draft.forces() if entry in force["units"])
    added = draft.id_of(entry)
    return after_edit(request, roster, secret, f"unit-{added}", picker_force=draft.id_of(force), added_id=added)


@require_POST
@limit_edits
def update_unit(request: HttpRequest, secret: str, unit_id: int) -> HttpResponse:
    roster = roster_for_edit(secret)
    with one_state():
        units = list(roster_units(roster))
        snapshot = roster_snapshot(roster, units)
        forces = [(force.id, force.name) for force in roster.forces.all()]
    choice = next((c for row, c in zip(units, snapshot.units, strict=True) if row.id == unit_id), None)
    if choice is None:
        return _gone(request, roster, secret)
    labels = {row.id: c.label for row, c in zip(units, snapshot.units, strict=True)}
    priced = list(played_house_rules(roster.overlays.all()))
    form = unit_form_for(snapshot, units, priced, unit_id, choice, labels, forces, data=request.POST)
    if not form.is_valid():
        return unit_changed(request, roster, secret, unit_id, unit_forms={unit_id: form})
    values = form.cleaned_data
    rule_names = {rule.id: rule.name for rule in priced}
    moved = values["force"] is not None and values["force"] != next(r.force_id for r in units if r.id == unit_id)

    def change(draft: Draft) -> None:
        entry, force = draft.unit(unit_id)
        old = entry["label"]
        transport = draft.unit(values["transport"])[0]["label"] if values["transport"] else None
        for key in [key for key in entry if key not in {"unit", "note"}]:  # the note has a form of its own
            del entry[key]
        entry["label"] = values["label"]
        optional = {
            "quality": values["quality"],
            "size": values["size"],
            "officer_rank": values["officer_rank"],
            "options": [{"option": key, "count": count} for key, count in values["options"].items()],
            "transport": transport,
            "hero_points": values["hero_points"],
        }
        entry.update({key: value for key, value in optional.items() if value})
        rules = [e for e in draft.document.get("house_rules", []) if not (isinstance(e, dict) and e.get("unit") == old)]
        draft.document["house_rules"] = rules
        _rename(draft, old, values["label"])
        draft.buy_for(
            [{"house_rule": rule_names[r], "count": c} for r, c in values["house_rules"].items()], entry["label"]
        )
        if moved:
            force["units"].remove(entry)
            draft.force(values["force"])["units"].append(entry)

    draft, refused = _apply(request, roster, secret, change, _unit_change_in_words(form, choice.label))
    if refused:
        return refused
    if moved:  # a moved unit shows under another force: the whole roster changes
        return after_edit(request, roster, secret, f"unit-{unit_id}")
    return unit_changed(request, roster, secret, unit_id)


@require_POST
@limit_edits
def update_note(request: HttpRequest, secret: str, unit_id: int) -> HttpResponse:
    """The player's note on a unit (painting scheme, which models): one line, at most NOTE_MAX_LENGTH characters."""
    roster = roster_for_edit(secret)
    unit = roster.units.filter(id=unit_id).first()
    if unit is None:
        return _gone(request, roster, secret)
    try:
        note = short_note(one_line(request.POST.get("note", "")[: NOTE_MAX_LENGTH * 4]).strip())
    except ValueError as refused:
        problem = f"Note on {unit}: {refused} Nothing was saved."
        return render_editor(request, roster, secret, errors=[problem], status=400)

    def change(draft: Draft) -> None:
        entry, _ = draft.unit(unit_id)
        entry.pop("note", None)
        if note:
            entry["note"] = note

    _, refused = _apply(request, roster, secret, change, {"what": f"your note on {unit}", "values": [note]})
    return refused or unit_changed(request, roster, secret, unit_id)


def _unit_change_in_words(form, label: str) -> dict:
    """What a unit edit changes against the saved unit, field by field: ["Light machine gun: ticked", "Men: 10"]."""
    values = []
    for name in form.changed_data:
        field, value = form.fields[name], form.cleaned_data.get(name)
        if name == "size":
            value = form.data.get(name)  # the men shown, counting those options add (cleaned: its own men)
        if isinstance(value, bool):
            shown = "ticked" if value else "not ticked"
        else:
            choices = dict(getattr(field, "choices", None) or getattr(field.widget, "choices", None) or [])
            shown = str(choices.get(value, choices.get(str(value), value)) if value not in (None, "") else "(blank)")
        values.append(f"{FIELD_NAMES.get(name) or field.label or name}: {shown}")
    return {"what": f"your change to {label}", "values": values}


def _rename(draft: Draft, old: str, new: str) -> None:
    """Point what named a unit by its old label (passengers' transport, house rules) at its new one."""
    if old == new:
        return
    for entry in draft.units():
        if entry.get("transport") == old:
            entry["transport"] = new
    for bought in draft.bought_for(old):
        bought["unit"] = new


def _gone(request, roster, secret) -> HttpResponse:
    """A unit or force the roster no longer has: the newer roster for a stale page, else Not Found."""
    if whole_number(request.POST.get("version")) != roster.version:
        return conflict_page(request, roster, secret, {"what": "your change to a unit removed elsewhere"})
    raise Http404("No such unit in this roster.")


@require_POST
@limit_edits
def remove_unit(request: HttpRequest, secret: str, unit_id: int) -> HttpResponse:
    """Remove a unit; it can be brought back (with Undo) until the next removal."""
    roster = roster_for_edit(secret)
    undo = {}

    def remove(draft: Draft) -> None:
        entry, force = draft.unit(unit_id)
        label = entry["label"]
        undo.update(
            unit=dict(entry),
            force=draft.forces().index(force),
            position=force["units"].index(entry),
            passengers=[other["label"] for other in draft.units() if other.get("transport") == label],
            label=label,
            house_rules=[{k: v for k, v in e.items() if k != "unit"} for e in draft.bought_for(label)],
        )
        force["units"].remove(entry)
        for other in draft.units():
            if other.get("transport") == label:
                del other["transport"]
        draft.document["house_rules"] = [
            e for e in draft.document.get("house_rules", []) if e not in draft.bought_for(label)
        ]

    draft, refused = _apply(request, roster, secret, remove, {"what": "removing a unit"})
    if refused:
        return refused
    cache.set(undo_key(roster), undo, UNDO_SECONDS)
    if request.htmx:
        return unit_changed(request, roster, secret, unit_id)
    return redirect(f"{reverse('lists:edit', args=[secret])}#undo")


@require_POST
@limit_edits
def undo_remove(request: HttpRequest, secret: str) -> HttpResponse:
    """Bring back the unit removed last, where it was, with the units it carried back aboard."""
    roster = roster_for_edit(secret)
    undo = cache.get(undo_key(roster))
    if undo is None:
        return render_editor(request, roster, secret, errors=["There is no removal to undo."], status=400)

    def put_back(draft: Draft) -> None:
        taken = draft.labels()
        entry = dict(undo["unit"])
        entry["label"] = default_label(entry["label"], dict.fromkeys(taken, 0))
        if entry.get("transport") not in taken:
            entry.pop("transport", None)
        for other in draft.units():
            if other["label"] in undo["passengers"] and "transport" not in other:
                other["transport"] = entry["label"]
        # Back into its force (the last one, if its force has gone since).
        units = draft.forces()[min(undo.get("force", 0), len(draft.forces()) - 1)]["units"]
        units.insert(min(undo["position"], len(units)), entry)
        draft.buy_for(undo["house_rules"], entry["label"])

    draft, refused = _apply(request, roster, secret, put_back)
    if refused:
        return refused
    cache.delete(undo_key(roster))
    return after_edit(request, roster, secret)


@require_POST
@limit_edits
def duplicate_unit(request: HttpRequest, secret: str, unit_id: int) -> HttpResponse:
    """Add a copy of a unit (same choices, a label of its own) just after it."""
    roster = roster_for_edit(secret)
    if adds_limited(request):
        return too_many_requests(request, None)

    made = {}

    def copy(draft: Draft) -> None:
        entry, force = draft.unit(unit_id)
        copied = {**entry, "label": default_label(entry["label"], dict.fromkeys(draft.labels(), 0))}
        force["units"].insert(force["units"].index(entry) + 1, copied)
        draft.buy_for(draft.bought_for(entry["label"]), copied["label"])
        made.update(copy=copied, force=force)

    draft, refused = _apply(request, roster, secret, copy, {"what": "duplicating a unit"})
    if refused:
        return refused
    # The copy is shown as an added unit; the picker keeps adding to the force it is in.
    copy_id, force_id = draft.id_of(made["copy"]), draft.id_of(made["force"])
    return after_edit(request, roster, secret, f"unit-{copy_id}", picker_force=force_id, added_id=copy_id)


# --- forces ------------------------------------------------------------------


@require_POST
@limit_edits
def add_force(request: HttpRequest, secret: str) -> HttpResponse:
    """Add a force (a platoon) with the organisation chosen, after the others."""
    roster = roster_for_edit(secret)
    form = ForceForm(request.POST, data_for=game_data(roster.system), army_id=roster.army_id)
    if not form.is_valid():
        return render_editor(request, roster, secret, errors=_form_errors(form), status=400)

    def add(draft: Draft) -> None:
        taken = {force["name"] for force in draft.forces()}
        name = form.cleaned_data["name"].strip() or default_force_name(len(draft.forces()), taken)
        draft.forces().append({"name": name, **_organisation_entry(roster, form), "units": []})

    draft, refused = _apply(request, roster, secret, add, {"what": "adding a force"})
    # The picker turns to the new force: the next units added go into it.
    return refused or after_edit(request, roster, secret, "picker", picker_force=draft.id_of(draft.forces()[-1]))


@require_POST
@limit_edits
def update_force(request: HttpRequest, secret: str, force_id: int) -> HttpResponse:
    """Rename a force, or change the organisation it follows."""
    roster = roster_for_edit(secret)
    form = ForceForm(request.POST, data_for=game_data(roster.system), army_id=roster.army_id)
    if not form.is_valid():
        return render_editor(request, roster, secret, errors=_form_errors(form), status=400)

    def rename(draft: Draft) -> None:
        force = draft.force(force_id)
        force["name"] = form.cleaned_data["name"].strip() or force["name"]
        force.pop("organisation", None)
        force.update(_organisation_entry(roster, form))

    return _saved(request, roster, secret, rename, f"force-{force_id}", what="renaming a force")


@require_POST
@limit_edits
def remove_force(request: HttpRequest, secret: str, force_id: int) -> HttpResponse:
    """Remove a force that has no units (a roster keeps at least one force)."""
    roster = roster_for_edit(secret)

    def remove(draft: Draft) -> None:
        force = draft.force(force_id)
        if force["units"]:
            raise EditRefused("Move or remove the force's units before removing the force.")
        draft.forces().remove(force)

    return _saved(request, roster, secret, remove, what="removing a force")


def _organisation_entry(roster: models.Roster, form: ForceForm) -> dict:
    """A roster file's `organisation:` for the organisation a force form chose (none chosen: the default)."""
    chosen = form.cleaned_data["organisation"]
    return {"organisation": game_data(roster.system).organisations[chosen].key} if chosen else {}


def _form_errors(form) -> list[str]:
    """A refused form's problems as lines: "Organisation: Select a valid choice."."""
    return [
        f"{form.fields[name].label}: {' '.join(errors)}" if name in form.fields else " ".join(errors)
        for name, errors in form.errors.items()
    ]


@require_POST
@limit_edits
def update_settings(request: HttpRequest, secret: str) -> HttpResponse:
    roster = roster_for_edit(secret)
    data = game_data(roster.system)
    priced = list(played_house_rules(roster.overlays.all()))
    form = settings_form_for(roster, data, roster_snapshot(roster), priced, request.POST)
    if not form.is_valid():
        return render_editor(request, roster, secret, settings_form=form, status=400)
    values = form.cleaned_data
    rule_names = {rule.id: rule.name for rule in priced}

    def change(draft: Draft) -> None:
        document = draft.document
        document["name"] = values["name"].strip() or document["name"]
        for key in ("points_limit", "year", "period"):
            document.pop(key, None)
            if values[key] not in (None, ""):
                document[key] = values[key]
        document["settings"] = values["settings"]
        for_units = [e for e in document.get("house_rules", []) if isinstance(e, dict) and e.get("unit") is not None]
        bought = [{"house_rule": rule_names[rule], "count": count} for rule, count in values["house_rules"].items()]
        document["house_rules"] = bought + for_units
        kept_on = switch_overlays(document, values["overlays"])
        if kept_on:
            raise EditRefused(kept_on)

    return _saved(request, roster, secret, change, "settings", what="your change to the roster settings")
