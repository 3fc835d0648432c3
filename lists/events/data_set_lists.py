"""Lists of a loaded BattleScribe data set submitted to an event for that data set, judged and printed there:
the data sets' side of how an event takes its lists (`submitting.lists_of`; our games' side is
`submitting.PACK_LISTS` and `print_pack.PACK_PRINTS`, with the same names).

An event of a data set names the game and the revision its lists are checked by. A list comes as a
.ros/.rosz (BattleScribe, New Recruit or this site's editor) or as the share link of a roster kept here.
It is refused when it is of another game, or of another revision of the event's game: the engine would
price it by the event's data, and a list is never re-priced behind the player's back, so the player
moves it to the event's revision in the editor (where they see what changes) and submits again. A list
taken is kept as submitted (its .ros XML), with its fingerprint against the event's data; it is
judged as the engine judges any roster of the data set, with the event's points limit in place of its own.
Over the limit or breaking the data's constraints, it is taken and flagged, as our own events flag lists.
"""

from __future__ import annotations

import hashlib
import json

from lists import models
from lists.cards import battlescribe_cards
from lists.event_models import Event, Submission
from lists.events.refusals import SubmissionRefused
from lists.roster_kinds.base import RosterXml
from lists.rosters.battlescribe_data_editing import set_points_limit
from lists.rosters.battlescribe_data_rosters import (
    DataSetRoster,
    is_data_set_roster,
    read_data_set_roster,
    read_root,
    revision_of,
)
from lists.rosters.battlescribe_fingerprint import battlescribe_fingerprint
from lists.rosters.battlescribe_reading import is_battlescribe
from lists.rosters.format import RosterFileInvalid
from lists.rosters.pasted_rosters import is_pasted_list, pasted_ros

ROSTER_NAME_MAX = 120
ARMY_NAME_MAX = 200


def what_to_submit(event: Event) -> str:
    data_set = event.data_set
    return (
        f"submit a roster of {data_set.name} built with revision {data_set.revision}: a .ros or .rosz file "
        "(as BattleScribe, New Recruit or this site's editor saves it), or the share link of your roster here (…/bs/r/…/)"
    )


def from_file(event: Event, raw: bytes, filename: str) -> RosterXml:
    """An uploaded file, if it is a BattleScribe roster at all (or its text, pasted); a list of our own games is
    refused, saying why."""
    if is_pasted_list(raw, filename):  # BattleScribe's text: the .ros it stands for (lists/rosters/pasted_rosters.py)
        try:
            raw = pasted_ros(raw) or raw
        except RosterFileInvalid as invalid:
            problems = "; ".join(str(problem) for problem in invalid.problems[:5])
            raise SubmissionRefused(f"The list could not be read: {problems}") from None
    if not is_battlescribe(raw, filename):
        raise SubmissionRefused(f"{event.name} is played with {event.game_label}: {what_to_submit(event)}.")
    return RosterXml(raw)


def data_set_game(raw: bytes, filename: str) -> str:
    """The name of the loaded data set's game a .ros/.rosz is of, or "" (not such a roster, or unreadable: the
    import's own reading says why)."""
    if not is_battlescribe(raw, filename):
        return ""
    try:
        root, _ = read_root(raw)
    except RosterFileInvalid:
        return ""
    if not is_data_set_roster(root):
        return ""
    loaded = models.BattleScribeDataSet.objects.filter(game_system_id=root.get("gameSystemId") or "").first()
    return loaded.name if loaded else ""


def from_share_id(event: Event, share_id: str | None) -> RosterXml:
    """The roster kept here under a share id, as it stands now; another game's roster is refused, saying so."""
    if share_id is None:
        raise SubmissionRefused(
            "That is not a share link of this site: paste the address of a roster's share page (…/bs/r/…/)."
        )
    kept = models.BattleScribeRoster.objects.filter(share_id=share_id).first()
    if kept is not None:
        return RosterXml(kept.ros_xml.encode())
    ours = models.Roster.objects.select_related("system").filter(share_id=share_id).first()
    if ours is not None:
        raise SubmissionRefused(
            f"That share link is of a {ours.system.name} roster; {event.name} is played with {event.game_label}: "
            f"{what_to_submit(event)}."
        )
    raise SubmissionRefused("No roster has that share link: check you pasted the whole address.")


def _game_refusal(event: Event, game_system_id: str, file_name: str) -> SubmissionRefused:
    loaded = models.BattleScribeDataSet.objects.filter(game_system_id=game_system_id).first()
    game = loaded.name if loaded is not None else (file_name or game_system_id or "a game it does not name")
    return SubmissionRefused(
        f"This roster is of {game}; {event.name} is played with {event.game_label}: {what_to_submit(event)}."
    )


def _revision_refusal(event: Event, file_revision: int) -> SubmissionRefused:
    data_set = event.data_set
    wanted = data_set.revision
    said = (
        f"{event.name} checks lists against {data_set.name} revision {wanted}; this roster was built with revision "
        f"{file_revision}. It is not priced again by the event's data without you seeing it: "
    )
    if file_revision < wanted:
        how = f"move your roster to revision {wanted} in the editor (its page offers the move), then submit again."
    else:
        how = (
            f"revision {wanted} is older than your roster's, so build the list on revision {wanted} "
            "(its game page starts one) or ask the organiser, then submit again."
        )
    return SubmissionRefused(said + how)


def read(event: Event, listing: RosterXml) -> dict:
    """The Submission fields of a list for the event, read by the engine against the event's data set; refused,
    saying why and what to do, when it is of another game or revision or cannot be read."""
    if not isinstance(listing, RosterXml):  # a roster of our own games, from its editor
        raise SubmissionRefused(
            f"{event.name} is played with {event.game_label}, not with one of our own games' rosters: "
            f"{what_to_submit(event)}."
        )
    data_set = event.data_set
    try:
        root, xml = read_root(listing.raw)
        text = xml.decode("utf-8")
    except UnicodeDecodeError:
        raise SubmissionRefused(
            "The roster file is not UTF-8 text: save it again in BattleScribe or New Recruit and resubmit."
        ) from None
    except RosterFileInvalid as invalid:
        raise SubmissionRefused(f"The roster file could not be read: {_problems(invalid)}") from None
    if (root.get("gameSystemId") or "") != data_set.game_system_id:
        raise _game_refusal(event, root.get("gameSystemId") or "", root.get("gameSystemName") or "")
    file_revision = revision_of(root)
    if file_revision is not None and file_revision != data_set.revision:
        raise _revision_refusal(event, file_revision)
    try:
        found = read_data_set_roster(listing.raw, data_set, root=root)  # the tree read above: parsed once
    except RosterFileInvalid as invalid:
        raise SubmissionRefused(
            f"The roster cannot be read against {event.game_label}: {_problems(invalid)}. "
            "Open it in BattleScribe or the editor here, save it again and resubmit."
        ) from None
    roster = found.roster
    return {
        "document": {},
        "ros_xml": text,  # as submitted (unzipped): what the organiser's .ros download gives back
        "fingerprint": battlescribe_fingerprint(roster, data_set.digest),
        "roster_name": (roster.name or "").strip()[:ROSTER_NAME_MAX] or "Unnamed roster",
        "army_name": army_name(found)[:ARMY_NAME_MAX],
        "verdict": None,  # judged once stored, as every list is (submitting.summary)
        "verdict_digest": "",
    }


def allowed_armies(event: Event) -> list[str]:
    """An event of a data set allows any of its armies."""
    return []


def game_fields(event: Event) -> dict:
    """The event's game in its JSON export: the game system's id, and the data the lists are checked against."""
    return {
        "game": event.data_set.game_system_id,
        "data_set": {"name": event.data_set.name, "revision": event.data_set.revision},
    }


order_dice = False  # the data's games have no order dice of ours


def _problems(invalid: RosterFileInvalid) -> str:
    return "; ".join(str(problem) for problem in invalid.problems[:5])


def army_name(found: DataSetRoster) -> str:
    """The catalogues the roster's forces are of, each once, in the roster's order."""
    return ", ".join(dict.fromkeys(force.catalogue.name for force in found.roster.forces))


def check(event: Event, submission: Submission) -> DataSetRoster:
    """The frozen list read again against the event's data set, with the event's points limit as its own."""
    found = read_data_set_roster(submission.ros_xml.encode(), event.data_set)
    set_points_limit(found.roster, event.points_limit)
    return found


def settings_digest(event: Event) -> str:
    """What a BattleScribe list's verdict at the event depends on: the data's content and the points limit."""
    values = ["battlescribe", event.data_set.digest, event.name, event.points_limit]
    return hashlib.sha256(json.dumps(values).encode()).hexdigest()[:24]


def content_key(submission: Submission) -> str:
    return hashlib.sha256(submission.ros_xml.encode()).hexdigest()


def summarise(event: Event, submission: Submission) -> dict:
    """The organiser's table's figures for the list, in the shape our own lists' have (submitting.summary)."""
    try:
        verdict = check(event, submission).verdict()
    except RosterFileInvalid as invalid:
        message = f"The list no longer reads against {event.game_label}: {_problems(invalid)}"
        finding = {"code": "event.unreadable", "severity": "error", "message": message, "unit": None}
        return {"army": submission.army_name, "points": None, "order_dice": None, "valid": False, "findings": [finding]}
    return {
        "army": submission.army_name,
        "points": verdict["points"],
        "order_dice": None,
        "valid": verdict["valid"],
        "findings": [
            {"code": f["code"], "severity": f["severity"], "message": f["message"], "unit": f["unit"]}
            for f in verdict["findings"]
        ],
    }


# --- printing: the print pack's cards and lists of the event's lists ---------------------------------


def cards_key(event: Event, submission: Submission) -> str:
    """A list's cards change with the data and the list as submitted."""
    look = battlescribe_cards.pdf_look("cards")
    return f"pdf:event-bs-cards:{look}:{event.data_set.digest}:{content_key(submission)}"


def card_units(event: Event, submission: Submission) -> int:
    return battlescribe_cards.card_units(check(event, submission))


def cards_pdf(event: Event, submission: Submission) -> bytes:
    return battlescribe_cards.battlescribe_cards_pdf(check(event, submission))


def list_pdf(event: Event, submission: Submission) -> bytes:
    """The organiser's list, headed by the player's name, with the fingerprint it was submitted with."""
    return battlescribe_cards.battlescribe_list_pdf(
        check(event, submission),
        title=f"{submission.player}: {submission.roster_name}",
        fingerprint=submission.fingerprint,
    )
