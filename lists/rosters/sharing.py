"""Share ids and edit secrets: who may read a roster and who may change it.

A share id is public and read-only. An edit secret is shown once to the
roster's creator (and remembered on their device); only its SHA-256 is kept.
"""

from __future__ import annotations

import hashlib
import secrets

import segno
from django.http import Http404

from lists.models import BattleScribeRoster, DeletedRoster, Roster

SHARE_ID_BYTES = 12  # 96 random bits
EDIT_SECRET_BYTES = 32  # 256 random bits


class RosterDeleted(Exception):
    """The roster a share id or edit secret opened was deleted for good (answered 410, saying so)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def new_share_id() -> str:
    return secrets.token_urlsafe(SHARE_ID_BYTES)


def new_edit_secret() -> str:
    return secrets.token_urlsafe(EDIT_SECRET_BYTES)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def roster_for_edit(secret: str) -> Roster:
    """The roster this edit secret opens; 404 for any wrong secret, so guesses learn nothing."""
    return _edited(Roster.objects.select_related("system", "army"), secret)


def roster_for_share(share_id: str) -> Roster:
    return _shared(Roster.objects.select_related("system", "army"), share_id)


def data_set_roster_for_edit(secret: str) -> BattleScribeRoster:
    """A roster of a loaded BattleScribe data set by its edit secret, as `roster_for_edit`."""
    return _edited(BattleScribeRoster.objects.select_related("data_set"), secret)


def data_set_roster_for_share(share_id: str) -> BattleScribeRoster:
    return _shared(BattleScribeRoster.objects.select_related("data_set"), share_id)


def _edited(rosters, secret: str):
    if len(secret) > 100:
        raise Http404
    roster = rosters.filter(edit_secret_hash=hash_secret(secret)).first()
    if roster is None:
        _deleted(edit_secret_hash=hash_secret(secret))
        raise Http404
    return roster


def _shared(rosters, share_id: str):
    if len(share_id) > 32:
        raise Http404
    roster = rosters.filter(share_id=share_id).first()
    if roster is None:
        _deleted(share_id=share_id)
        raise Http404
    return roster


def _deleted(**lookup) -> None:
    deleted = DeletedRoster.objects.filter(**lookup).first()
    if deleted is not None:
        raise RosterDeleted(deleted.name)


def qr_svg(url: str, title: str, scale: int = 4) -> str:
    """A QR code of `url`, drawn as an SVG element to inline in a page or PDF (nothing fetched from elsewhere)."""
    return segno.make(url, error="m").svg_inline(scale=scale, title=title, svgclass="qr", lineclass=None)
