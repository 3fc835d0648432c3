"""Tournament events: an organiser's settings and the frozen lists players submit to them."""

from __future__ import annotations

from django.db import models

MAX_SUBMISSIONS = 256  # an event holds at most this many lists
PLAYER_MAX_LENGTH = 80


class Event(models.Model):
    """A tournament. Anyone with the public id may submit; the organiser's secret opens the table."""

    public_id = models.CharField(max_length=32, unique=True)
    # Only a SHA-256 of the organiser's secret is kept, as for a roster's edit secret.
    organiser_secret_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=120)
    date = models.DateField()
    # The game: one of our packs, or a loaded BattleScribe data set at one revision (exactly one of the two).
    system = models.ForeignKey(
        "lists.GameSystem", on_delete=models.PROTECT, related_name="events", null=True, blank=True
    )
    data_set = models.ForeignKey(
        "lists.BattleScribeDataSet", on_delete=models.PROTECT, related_name="events", null=True, blank=True
    )
    points_limit = models.PositiveIntegerField()
    max_order_dice = models.PositiveIntegerField(null=True, blank=True)  # games with order dice only
    allowed_armies = models.JSONField(default=list, blank=True)  # army keys; empty: every army
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    period = models.CharField(max_length=80, blank=True)
    house_rules_allowed = models.BooleanField(default=False)
    deadline = models.DateTimeField()
    locked = models.BooleanField(default=False)
    lists_published = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "lists"
        ordering = ["-date"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(system__isnull=False, data_set__isnull=True)
                | models.Q(system__isnull=True, data_set__isnull=False),
                name="event_game_is_a_pack_or_a_data_set",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def game_label(self) -> str:
        """The game as its pages name it: a pack's name, or a data set's name and the revision lists are checked by."""
        if self.data_set_id:
            return f"{self.data_set.name} revision {self.data_set.revision}"
        return self.system.name


class Submission(models.Model):
    """One player's list as submitted: a roster file's mapping, frozen; later edits to the roster leave it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="submissions")
    player = models.CharField(max_length=PLAYER_MAX_LENGTH)
    # SHA-256 of what the name reads as (validation.name_key): "Anna", "ANNA" and "Аnna" with a Cyrillic А are
    # one player, so the constraint below keeps a look-alike from taking another player's place.
    player_key = models.CharField(max_length=64)
    # Only a SHA-256 of the player's own secret (their submission link) is kept; "" for lists submitted
    # before submissions had owners: only the organiser can remove those.
    owner_secret_hash = models.CharField(max_length=64, blank=True, default="", db_index=True)
    document = models.JSONField()  # export_roster() of the list when it was submitted ({} for a BattleScribe list)
    # A list of a BattleScribe data set: the .ros XML as submitted, read again against the event's data set.
    ros_xml = models.TextField(blank=True, default="")
    fingerprint = models.CharField(max_length=40)  # the list's own fingerprint, as its printed list shows
    roster_name = models.CharField(max_length=120)
    army_name = models.CharField(max_length=200)
    first_submitted_at = models.DateTimeField()
    submitted_at = models.DateTimeField()  # the latest submission; equal to the first until it is replaced
    # The organiser's table's figures for the list (events.submitting.summary), kept with the digest of the event's
    # settings they were judged under, so the table of 256 lists is read, never judged again on a GET.
    verdict = models.JSONField(null=True, blank=True)
    verdict_digest = models.CharField(max_length=24, blank=True, default="")

    class Meta:
        app_label = "lists"
        ordering = ["submitted_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player_key"], name="one_submission_per_player_name"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.roster_name}"
