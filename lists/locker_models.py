"""Roster lockers: the rosters a player's devices share on the server, without an account.

A locker holds rosters of both kinds (ours and loaded BattleScribe data's) and the devices joined to it.
Nothing here is a secret in the clear: a device's secret (its cookie) and the join link's secret are kept
as SHA-256 hashes, and the locker's key, which seals the rosters' edit secrets, only wrapped by them
(lists/rosters/locker_keys.py), so a leaked database gives no edit link.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Locker(models.Model):
    # The join link's secret, as a hash, and the locker's key wrapped by it; a new link replaces both.
    join_secret_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    join_wrapped_key = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"locker {self.pk}"


class LockerDevice(models.Model):
    """A browser joined to a locker: its cookie's secret as a hash, the locker's key wrapped by that secret."""

    locker = models.ForeignKey(Locker, on_delete=models.CASCADE, related_name="devices")
    secret_hash = models.CharField(max_length=64, unique=True)
    wrapped_key = models.CharField(max_length=200)
    name = models.CharField(max_length=80)  # read from its user agent: "Firefox on Android"
    joined_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at"]

    def __str__(self) -> str:
        return self.name


class LockerEntry(models.Model):
    """One roster in a locker: exactly one of `roster` and `data_set_roster`, its edit secret sealed."""

    locker = models.ForeignKey(Locker, on_delete=models.CASCADE, related_name="entries")
    roster = models.ForeignKey("lists.Roster", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    data_set_roster = models.ForeignKey(
        "lists.BattleScribeRoster", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    sealed_secret = models.CharField(max_length=300)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["locker", "roster"], name="locker_roster_once"),
            models.UniqueConstraint(fields=["locker", "data_set_roster"], name="locker_data_set_roster_once"),
            models.CheckConstraint(
                condition=models.Q(roster__isnull=True) ^ models.Q(data_set_roster__isnull=True),
                name="locker_entry_one_roster",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.locker_id}: {self.roster_id or self.data_set_roster_id}"


class DeletedRoster(models.Model):
    """What is left of a roster deleted for good: its share id and edit secret's hash answer "deleted" (410)."""

    share_id = models.CharField(max_length=32, unique=True)
    edit_secret_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    deleted_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name
