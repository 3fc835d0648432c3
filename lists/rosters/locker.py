"""A player's roster locker: the rosters their devices started, and the devices joined to it.

A device proves itself by its secret (its cookie); with it the locker's key is unwrapped, and with the
key the rosters' edit secrets. A join link's secret unwraps the key too, once, for the device joining.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from lists.models import BattleScribeRoster, DeletedRoster, Locker, LockerDevice, LockerEntry, Roster
from lists.rosters.locker_keys import KeyMismatch, new_key, seal, unseal, unwrap, wrap
from lists.rosters.sharing import hash_secret

DEVICE_SECRET_BYTES = 32
JOIN_SECRET_BYTES = 32
SEEN_EVERY = timedelta(minutes=5)  # "last seen" is written at most this often, not on every page
OURS, DATA_SET = "ours", "data"  # the two kinds of roster: of our packs, of a loaded BattleScribe data set


@dataclass
class Opened:
    """A device whose secret opened its locker: the row, and the locker's key."""

    device: LockerDevice
    key: bytes

    @property
    def locker(self) -> Locker:
        return self.device.locker


@dataclass
class Kept:
    """A roster of the locker as "my rosters" lists it, with its edit secret."""

    entry: LockerEntry
    roster: Roster | BattleScribeRoster
    secret: str
    kind: str


def new_device(name: str) -> tuple[Opened, str]:
    """A new locker with this one device in it; returns it and the device's secret (for its cookie only)."""
    secret, key = secrets.token_urlsafe(DEVICE_SECRET_BYTES), new_key()
    with transaction.atomic():
        locker = Locker.objects.create()
        device = LockerDevice.objects.create(
            locker=locker, secret_hash=hash_secret(secret), wrapped_key=wrap(secret, key), name=name[:80]
        )
    return Opened(device, key), secret


def open_device(secret: str) -> Opened | None:
    """The device this secret is, with its locker opened; None for a dropped device or any other secret."""
    if not secret or len(secret) > 100:
        return None
    device = LockerDevice.objects.select_related("locker").filter(secret_hash=hash_secret(secret)).first()
    if device is None:
        return None
    try:
        key = unwrap(secret, device.wrapped_key)
    except KeyMismatch:
        return None
    now = timezone.now()
    if now - device.last_seen > SEEN_EVERY:
        LockerDevice.objects.filter(pk=device.pk).update(last_seen=now)
        device.last_seen = now
    return Opened(device, key)


def keep(opened: Opened, roster: Roster | BattleScribeRoster, edit_secret: str) -> None:
    """Put a roster (with its edit secret, sealed) into the device's locker; a roster already in it stays once."""
    field = "data_set_roster" if isinstance(roster, BattleScribeRoster) else "roster"
    LockerEntry.objects.get_or_create(
        locker=opened.locker, **{field: roster}, defaults={"sealed_secret": seal(opened.key, edit_secret.encode())}
    )


def kept_rosters(opened: Opened, search: str = "") -> list[Kept]:
    """The locker's rosters, newest change first; `search` keeps those whose name holds it (any case)."""
    entries = LockerEntry.objects.filter(locker=opened.locker).select_related(
        "roster__system", "roster__army", "data_set_roster__data_set"
    )
    search = search.strip()[:100]
    if search:
        entries = entries.filter(roster__name__icontains=search) | entries.filter(
            data_set_roster__name__icontains=search
        )
    kept = []
    for entry in entries:
        try:
            secret = unseal(opened.key, entry.sealed_secret).decode()
        except (KeyMismatch, UnicodeDecodeError):
            continue  # sealed under another key: not this locker's to open
        kind = OURS if entry.roster_id else DATA_SET
        kept.append(Kept(entry, entry.roster if kind == OURS else entry.data_set_roster, secret, kind))
    return sorted(kept, key=lambda one: (one.roster.updated_at, one.entry.pk), reverse=True)


def kept_one(opened: Opened, kind: str, share_id: str) -> Kept | None:
    """One roster of the locker by its kind and share id; None when the locker does not hold it."""
    field = "roster__share_id" if kind == OURS else "data_set_roster__share_id"
    if kind not in (OURS, DATA_SET) or len(share_id) > 32:
        return None
    entry = LockerEntry.objects.filter(locker=opened.locker, **{field: share_id}).first()
    if entry is None:
        return None
    try:
        secret = unseal(opened.key, entry.sealed_secret).decode()
    except (KeyMismatch, UnicodeDecodeError):
        return None
    return Kept(entry, entry.roster if kind == OURS else entry.data_set_roster, secret, kind)


def new_join_secret(opened: Opened) -> str:
    """A new join link's secret for the locker; the link made before stops working."""
    secret = secrets.token_urlsafe(JOIN_SECRET_BYTES)
    Locker.objects.filter(pk=opened.locker.pk).update(
        join_secret_hash=hash_secret(secret), join_wrapped_key=wrap(secret, opened.key)
    )
    return secret


def locker_to_join(join_secret: str) -> Locker | None:
    """The locker a join link opens; None for a wrong or replaced link."""
    if not join_secret or len(join_secret) > 100:
        return None
    return Locker.objects.filter(join_secret_hash=hash_secret(join_secret)).first()


def join(join_secret: str, current: Opened | None, device_secret: str | None, name: str) -> tuple[Opened, str] | None:
    """Join a device to the locker of this join link. A device with rosters of its own brings them along (their
    copies stay in its old locker for the devices still there). Returns the device and its (new) secret."""
    locker = locker_to_join(join_secret)
    if locker is None:
        return None
    key = unwrap(join_secret, locker.join_wrapped_key)
    with transaction.atomic():
        if current is None or device_secret is None:
            device_secret = secrets.token_urlsafe(DEVICE_SECRET_BYTES)
            device = LockerDevice.objects.create(
                locker=locker, secret_hash=hash_secret(device_secret), wrapped_key=wrap(device_secret, key), name=name
            )
            return Opened(device, key), device_secret
        joined = Opened(current.device, key)
        if current.locker.pk != locker.pk:
            old, brought = current.locker, kept_rosters(current)
            current.device.locker = locker
            current.device.wrapped_key = wrap(device_secret, key)
            current.device.save(update_fields=["locker", "wrapped_key"])
            for one in brought:
                keep(joined, one.roster, one.secret)
            if not old.devices.exists():
                old.delete()  # no device can open it any more
    return joined, device_secret


def drop_device(opened: Opened, device_id: int) -> bool:
    """Drop a device of the locker: its cookie no longer opens it. The device asking may drop itself; a locker
    left without devices goes, as nothing could open it."""
    with transaction.atomic():
        dropped = LockerDevice.objects.filter(locker=opened.locker, pk=device_id).delete()[0] > 0
        if dropped and not opened.locker.devices.exists():
            opened.locker.delete()
    return dropped


def remove(opened: Opened, kind: str, share_id: str) -> Kept | None:
    """Take a roster out of the locker (every joined device's list); the roster and its links stay."""
    kept = kept_one(opened, kind, share_id)
    if kept is not None:
        kept.entry.delete()
    return kept


def delete_for_good(opened: Opened, kind: str, share_id: str) -> str | None:
    """Delete a roster of the locker with its links; its share and edit links then say it was deleted.
    Returns its name, or None when the locker does not hold it."""
    kept = kept_one(opened, kind, share_id)
    if kept is None:
        return None
    roster = kept.roster
    with transaction.atomic():
        DeletedRoster.objects.create(
            share_id=roster.share_id, edit_secret_hash=roster.edit_secret_hash, name=roster.name
        )
        roster.delete()  # its entries in every locker go with it
    return roster.name
