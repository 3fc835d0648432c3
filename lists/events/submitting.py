"""Tournament events: submitting a frozen list, and checking it under the event's own rules.

A submission keeps the roster file's mapping (export_roster) as it was when the
player submitted it. It is checked as a roster file is (load_roster_file, then
judge), with the event's points limit, order-dice cap, year and period put in
place of the roster's own, plus the event's findings: an army it does not allow,
house rules where it allows none. Each check is cached by the list's content and
the event's settings, so the organiser's table of 256 lists is read, not re-judged.
An event of a loaded BattleScribe data set takes that game's rosters instead, read
and judged by the engine (data_set_lists); storing, replacing, withdrawing
and the table's figures are the same for both.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from types import SimpleNamespace

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from lists import models
from lists.event_models import MAX_SUBMISSIONS, Event, Submission
from lists.events import data_set_lists as battlescribe
from lists.events.refusals import SubmissionRefused
from lists.gamedata.loading import GameData, game_data, roster_snapshot
from lists.gamedata.snapshot import RosterSnapshot
from lists.rosters.files import RosterFileInvalid, dump_json, export_roster, load_roster_file
from lists.rosters.fingerprint import fingerprint
from lists.rosters.sharing import hash_secret, new_edit_secret, roster_for_share
from lists.rules.finding import Finding, error
from lists.rules.order_dice import SETTING as ORDER_DICE_SETTING
from lists.rules.validation import name_key
from lists.rules.verdict import Verdict, judge

CHECK_SECONDS = 24 * 60 * 60
# A share link as pasted: a whole address or a path ending in /r/<share id>/, or the bare id.
SHARE_LINK = re.compile(r"(?:^|/)r/([A-Za-z0-9_-]{1,32})/?(?:[?#].*)?$|^([A-Za-z0-9_-]{8,32})$")
OWN_LINK = re.compile(r"(?:^|/)events/mine/([A-Za-z0-9_-]{20,100})/?(?:[?#].*)?$")
EVENT_LINK = re.compile(r"(?:^|/)events/([A-Za-z0-9_-]{1,32})/?(?:[?#].*)?$|^([A-Za-z0-9_-]{8,32})$")

__all__ = ["SubmissionRefused"]  # raised for every kind of event; views catch it from here


@dataclass(frozen=True)
class CheckedList:
    """A submission as the event judges it."""

    snapshot: RosterSnapshot
    data: GameData
    verdict: Verdict
    army_id: int


# --- finding events and their submissions ------------------------------------


def event_for_organiser(secret: str) -> Event:
    """The event this organiser's secret opens; 404 for any wrong secret, so guesses learn nothing."""
    if len(secret) > 100:
        raise Http404
    event = Event.objects.select_related("system", "data_set").filter(organiser_secret_hash=hash_secret(secret)).first()
    if event is None:
        raise Http404
    return event


def event_for_public(public_id: str) -> Event:
    if len(public_id) > 32:
        raise Http404
    event = Event.objects.select_related("system", "data_set").filter(public_id=public_id).first()
    if event is None:
        raise Http404
    return event


def share_id_from_link(text: str) -> str | None:
    """The share id in a pasted share link (`https://…/r/<id>/`, `/r/<id>/` or the id alone), or None."""
    match = SHARE_LINK.search(text.strip())
    return (match.group(1) or match.group(2)) if match else None


def own_secret_from_link(text: str) -> str | None:
    """The player's secret in a pasted submission link (`https://…/events/mine/<secret>/`), or None."""
    match = OWN_LINK.search(text.strip())
    return match.group(1) if match else None


def public_id_from_link(text: str) -> str | None:
    """The public id in a pasted event link (`https://…/events/<id>/` or the id alone), or None."""
    match = EVENT_LINK.search(text.strip())
    return (match.group(1) or match.group(2)) if match else None


# --- submitting ---------------------------------------------------------------


def closed_reason(event: Event, now: datetime | None = None) -> str:
    """Why the event takes no submissions now, or "" while it is open."""
    if event.locked:
        return f"{event.name} is locked by its organiser: it takes no more lists. Ask the organiser to reopen it."
    if (now or timezone.now()) > event.deadline:
        when = timezone.localtime(event.deadline).strftime("%d %b %Y %H:%M")
        return f"The deadline for {event.name} ({when}) has passed: it takes no more lists. Ask the organiser."
    return ""


def document_from_roster(roster: models.Roster) -> dict:
    """A saved roster as it stands now, frozen into a roster file's mapping."""
    return export_roster(roster_snapshot(roster))


def of_kind(event: Event, packs, data_sets):
    """What serves an event's lists, by the kind of roster it takes: `packs` at an event of one of our games,
    `data_sets` at one of a loaded BattleScribe data set. The one place events tell the kinds apart."""
    return data_sets if event.data_set_id else packs


def lists_of(event: Event):
    """How the event takes, reads and judges its lists (this module's `PACK_LISTS`, or `data_set_lists`)."""
    return of_kind(event, PACK_LISTS, battlescribe)


def listing_from_share_link(event: Event, text: str) -> dict | battlescribe.RosterXml:
    """What a pasted share link holds, as the event takes it: our roster's mapping, or a BattleScribe roster."""
    return lists_of(event).from_share_id(event, share_id_from_link(text))


def listing_from_file(event: Event, raw: bytes, filename: str) -> dict | battlescribe.RosterXml:
    """An uploaded roster file, as the event takes it (see listing_from_share_link)."""
    return lists_of(event).from_file(event, raw, filename)


def _pack_list_from_share_id(event: Event, share_id: str | None) -> dict:
    other = models.BattleScribeRoster.objects.select_related("data_set").filter(share_id=share_id or "").first()
    if other is not None:
        raise SubmissionRefused(
            f"That share link is of a {other.data_set.name} roster; {event.name} is played with "
            f"{event.game_label}: submit a roster of it."
        )
    if share_id is None:
        raise SubmissionRefused(
            "That is not a share link of this site: paste the address of a roster's share page (…/r/…/)."
        )
    try:
        roster = roster_for_share(share_id)
    except Http404:
        raise SubmissionRefused("No roster has that share link: check you pasted the whole address.") from None
    return document_from_roster(roster)


def _pack_list_from_file(event: Event, raw: bytes, filename: str) -> dict:
    other_game = battlescribe.data_set_game(raw, filename)
    if other_game:
        raise SubmissionRefused(
            f"This roster is of {other_game}; {event.name} is played with {event.game_label}: submit a roster of it."
        )
    return document_from_file(raw, filename)


def document_from_file(raw: bytes, filename: str) -> dict:
    """A roster file read as the site's import reads it (every format it takes), as a file's mapping."""
    try:
        resolved = load_roster_file(raw, filename)
    except RosterFileInvalid as invalid:
        problems = "; ".join(str(problem) for problem in invalid.problems[:5])
        raise SubmissionRefused(f"The roster file could not be read: {problems}") from None
    return export_roster(resolved.snapshot())


@dataclass(frozen=True)
class Submitted:
    """A list stored: whether it replaced the player's earlier one, and the player's secret when it is new
    (shown once as their submission link; only its hash is kept)."""

    submission: Submission
    replaced: bool
    secret: str = ""


def player_key(player: str) -> str:
    """The key a player's name is held under: names that read the same (validation.name_key) share one."""
    return hashlib.sha256(name_key(player).encode()).hexdigest()


def owns(submission: Submission, secrets: Iterable[str]) -> bool:
    """Whether one of `secrets` (the player's submission link, or those their browser remembers) is this list's."""
    if not submission.owner_secret_hash:
        return False
    return any(
        hmac.compare_digest(hash_secret(secret), submission.owner_secret_hash)
        for secret in secrets
        if len(secret) <= 100
    )


def submission_for_owner(secret: str) -> Submission:
    """The submission this player's secret opens; 404 for any wrong secret, so guesses learn nothing."""
    if not secret or len(secret) > 100:
        raise Http404
    found = (
        Submission.objects.select_related("event__system", "event__data_set")
        .filter(owner_secret_hash=hash_secret(secret))
        .first()
    )
    if found is None:
        raise Http404
    return found


def _read(event: Event, document: dict | battlescribe.RosterXml) -> dict:
    """The list read, checked against the event's game and fingerprinted: the slow part, done before the
    write transaction so no other writer waits on it."""
    return lists_of(event).read(event, document)


def _read_pack_list(event: Event, document: dict) -> dict:
    if not isinstance(document, dict):  # a BattleScribe roster, from its editor
        raise SubmissionRefused(f"{event.name} is played with {event.game_label}: submit a roster of that game.")
    try:
        resolved = load_roster_file(dump_json(document).encode(), "roster.json")
    except RosterFileInvalid as invalid:
        raise SubmissionRefused(f"This list cannot be submitted as it stands: {invalid}") from None
    snapshot = resolved.snapshot()
    if resolved.system.id != event.system_id:
        raise SubmissionRefused(f"{event.name} is played with {event.system.name}, not {resolved.system.name}.")
    return {
        "document": document,
        "fingerprint": fingerprint(snapshot, resolved.data),
        "roster_name": snapshot.name,
        "army_name": army_label(resolved.data, resolved.army_id),
        "verdict": None,  # judged once stored, for the organiser's table (summary)
        "verdict_digest": "",
    }


def _open_event(event_id: int) -> tuple[Event, datetime]:
    """The event as it is now, read first in the write transaction (on PostgreSQL its row locked; on SQLite the
    transaction begins IMMEDIATE, holding the write lock): a lock or the deadline that came while the list was
    read is seen here. Refused with the reason if it takes no lists now."""
    event = Event.objects.select_for_update(of=("self",)).select_related("system", "data_set").get(id=event_id)
    now = timezone.now()
    reason = closed_reason(event, now)
    if reason:
        raise SubmissionRefused(reason)
    return event, now


def taken_message(event: Event, player: str, holder: str) -> str:
    """Why a name is refused, and what the player can do."""
    if holder == player:
        same = f"“{holder}”"
    else:  # the two differ only in what cannot be seen: say so, or the message reads as nonsense
        same = f"“{holder}”, which reads the same as the name you gave (they differ only in look-alike letters, case or invisible characters)"
    return (
        f"{event.name} already has a list under the name {same}, and this browser did not submit it. "
        "If it is yours, open your own submission link (shown when you submitted it) to replace or withdraw it; "
        "otherwise pick another name, such as your full name or your club's."
    )


def submit(
    event: Event, player: str, document: dict | battlescribe.RosterXml, secrets: Iterable[str] = ()
) -> Submitted:
    """Freeze `document` as `player`'s list for the event, checked and stored in one transaction that reads the
    event's lock and deadline again at its start, then judged for the organiser's table (stored with it). A
    name already taken (or one that reads the same) is the player's to replace only with their secret, one of
    `secrets`; a new player gets a secret of their own."""
    submitted = _store(event, player, document, secrets)
    summary(event, submitted.submission)
    return submitted


def _store(event: Event, player: str, document: dict | battlescribe.RosterXml, secrets: Iterable[str]) -> Submitted:
    reason = closed_reason(event)
    if reason:  # refused before the list is read, when it is plain already
        raise SubmissionRefused(reason)
    values = _read(event, document)
    key = player_key(player)
    with transaction.atomic():
        event, now = _open_event(event.id)
        existing = Submission.objects.select_for_update().filter(event=event, player_key=key).first()
        if existing is not None:
            if not owns(existing, secrets):
                raise SubmissionRefused(taken_message(event, player, existing.player))
            for field, value in values.items():
                setattr(existing, field, value)
            existing.submitted_at = now
            existing.save()
            return Submitted(existing, replaced=True)
        if Submission.objects.filter(event=event).count() >= MAX_SUBMISSIONS:
            raise SubmissionRefused(f"{event.name} holds its most lists ({MAX_SUBMISSIONS}): ask the organiser.")
        secret = new_edit_secret()
        try:
            with transaction.atomic():
                submission = Submission.objects.create(
                    event=event,
                    player=player,
                    player_key=key,
                    owner_secret_hash=hash_secret(secret),
                    first_submitted_at=now,
                    submitted_at=now,
                    **values,
                )
        except IntegrityError:  # the same name submitted at the same moment
            raise SubmissionRefused(
                "Another submission under that name arrived at the same time: submit again."
            ) from None
        return Submitted(submission, replaced=False, secret=secret)


def withdraw(secret: str) -> Submission:
    """The player withdraws their own list (while the event takes lists: after it, the organiser decides)."""
    submission = submission_for_owner(secret)
    with transaction.atomic():
        _open_event(submission.event_id)
        Submission.objects.filter(id=submission.id).delete()
    return submission


# --- checking under the event's rules --------------------------------------


def event_document(event: Event, document: dict) -> dict:
    """The submitted file's mapping with the event's limits in place of the roster's own."""
    checked = dict(document)
    checked["points_limit"] = event.points_limit
    settings = dict(checked.get("settings") or {})
    setting_keys = {definition["key"] for definition in event.system.config.get("settings", [])}
    if ORDER_DICE_SETTING in setting_keys:
        settings[ORDER_DICE_SETTING] = event.max_order_dice
    checked["settings"] = {key: value for key, value in settings.items() if value is not None}
    if event.year is not None or event.period:  # the event's when replaces the roster's, year and period both
        checked.pop("year", None)
        checked.pop("period", None)
    if event.year is not None:
        checked["year"] = event.year
    if event.period:
        names = {period["key"]: period["name"] for period in event.system.periods}
        checked["period"] = names.get(event.period, event.period)
    return checked


def event_findings(event: Event, snapshot: RosterSnapshot, data: GameData, army_id: int) -> list[Finding]:
    """What the event forbids beyond the game's rules: another army, or house rules."""
    findings = []
    army = data.armies[army_id]
    if event.allowed_armies:
        keys = {army.key, *(data.armies[other].key for other in army.borrows_from if other in data.armies)}
        if not keys & set(event.allowed_armies):
            names = ", ".join(allowed_army_names(event, data))
            findings.append(
                error(
                    "event.army_not_allowed",
                    f"{event.name} does not allow {army_label(data, army_id)}; it allows {names}.",
                    "Submit a list of an allowed army.",
                    rule="event-armies",
                    rule_name="Armies allowed at the event",
                )
            )
    if snapshot.house_rules and not event.house_rules_allowed:
        bought = ", ".join(sorted({choice.rule.name for choice in snapshot.house_rules}))
        findings.append(
            error(
                "event.house_rules_not_allowed",
                f"{event.name} allows no house rules; the list buys {bought}.",
                "Remove the house rules and submit again.",
                rule="event-house-rules",
                rule_name="House rules at the event",
            )
        )
    return findings


def army_label(data: GameData, army_id: int) -> str:
    """An army's name, with its nation's where another nation has a list of the same name ("1944: Normandy")."""
    army = data.armies[army_id]
    nations = [data.armies[other].name for other in army.borrows_from if other in data.armies]
    if nations and not any(nation in army.name for nation in nations):
        return f"{army.name} ({', '.join(nations)})"
    return army.name


def pack_versions(event: Event) -> list[tuple[str, str]]:
    """The pack a submission's verdict rests on, as the printed list names it."""
    return [(event.system.key, event.system.version)]


def allowed_armies(event: Event) -> list[str]:
    """The names of the armies the event allows (none listed: any); a BattleScribe event allows any."""
    return lists_of(event).allowed_armies(event)


def allowed_army_names(event: Event, data: GameData) -> list[str]:
    names = {army.key: army.name for army in data.armies.values()}
    return [names.get(key, key) for key in event.allowed_armies]


def check(event: Event, submission: Submission) -> CheckedList:
    """The submission judged as its own roster under the event's rules (always computed afresh)."""
    resolved = load_roster_file(dump_json(event_document(event, submission.document)).encode(), "roster.json")
    snapshot = resolved.snapshot()
    verdict = judge(snapshot)
    extra = event_findings(event, snapshot, resolved.data, resolved.army_id)
    verdict = replace(verdict, findings=verdict.findings + tuple(extra))
    return CheckedList(snapshot, resolved.data, verdict, resolved.army_id)


def settings_digest(event: Event) -> str:
    """Everything about the event a verdict depends on, with its game's content, as a short digest."""
    return lists_of(event).settings_digest(event)


def _pack_settings_digest(event: Event) -> str:
    values = [
        event.system.content_hash,
        event.name,
        event.points_limit,
        event.max_order_dice,
        sorted(event.allowed_armies),
        event.year,
        event.period,
        event.house_rules_allowed,
    ]
    return hashlib.sha256(json.dumps(values, default=str).encode()).hexdigest()[:24]


def summary(event: Event, submission: Submission) -> dict:
    """The table's figures for a submission (army, points, dice, verdict and findings): stored with it under the
    event's settings (judged again only once they change), and cached by content for lists alike."""
    digest = settings_digest(event)
    if submission.verdict is not None and submission.verdict_digest == digest:
        return submission.verdict
    lists = lists_of(event)
    key = f"event-check:{digest}:{lists.content_key(submission)}"
    found = cache.get(key)
    if found is None:
        found = lists.summarise(event, submission)
        cache.set(key, found, CHECK_SECONDS)
    Submission.objects.filter(id=submission.id, submitted_at=submission.submitted_at).update(
        verdict=found, verdict_digest=digest
    )
    submission.verdict, submission.verdict_digest = found, digest
    return found


def _summarise(event: Event, submission: Submission) -> dict:
    try:
        checked = check(event, submission)
    except RosterFileInvalid as invalid:  # the game's data changed under a frozen list
        message = f"The list no longer reads against the game's data: {invalid}"
        finding = {"code": "event.unreadable", "severity": "error", "message": message}
        return {"army": submission.army_name, "points": None, "order_dice": None, "valid": False, "findings": [finding]}
    verdict = checked.verdict
    return {
        "army": army_label(checked.data, checked.army_id),
        "points": verdict.points,
        "order_dice": verdict.order_dice,
        "valid": verdict.valid,
        "findings": [
            {
                "code": f.code,
                "severity": f.severity,
                "message": f"{f.message} {f.fix}".strip(),
                "unit": f.unit,
                "rule_name": f.rule_name,
            }
            for f in verdict.findings
        ],
    }


def _pack_content_key(submission: Submission) -> str:
    return hashlib.sha256(json.dumps(submission.document, sort_keys=True).encode()).hexdigest()


# Lists of our own games at their events; `data_set_lists` answers the same for a data set's events.
PACK_LISTS = SimpleNamespace(
    from_share_id=_pack_list_from_share_id,
    from_file=_pack_list_from_file,
    read=_read_pack_list,
    allowed_armies=lambda event: allowed_army_names(event, game_data(event.system)),
    settings_digest=_pack_settings_digest,
    content_key=_pack_content_key,
    summarise=_summarise,
    game_fields=lambda event: {"game": event.system.key},
    order_dice=True,
)
