"""BattleScribe data loaded as it is (`load_battlescribe`), one data set per game-system revision.

A data set keeps its files' content (compressed), so the engine can compile it in any process
without the folder, and the rows a page or a check reads without compiling: catalogues, cost types,
categories, forces, each catalogue's root entries with their categories and base costs, profiles
and rules. Rows carry BattleScribe's own ids; a data set is never changed once loaded (a new
revision, or new content, is a new data set beside it), so rosters can pin one.
"""

from __future__ import annotations

import zlib

from django.db import models


class BattleScribeDataSet(models.Model):
    game_system_id = models.CharField(max_length=100)
    name = models.CharField(max_length=200)
    revision = models.PositiveIntegerField()
    source_folder = models.CharField(max_length=500)  # where on the server it was read: for the operator only
    source_url = models.CharField(max_length=1000, blank=True)  # the address it was fetched from, checked for updates
    digest = models.CharField(max_length=64)  # SHA-256 of the files' names and contents
    loaded_at = models.DateTimeField(auto_now_add=True)
    report = models.JSONField(default=dict)  # what the data holds per catalogue, and what was not read

    class Meta:
        ordering = ["name", "-revision"]
        constraints = [
            # Loading the same files again finds this row and writes nothing.
            models.UniqueConstraint(fields=["game_system_id", "digest"], name="battlescribe_data_set_per_content"),
        ]
        indexes = [models.Index(fields=["game_system_id", "revision"], name="battlescribe_data_set_revision")]

    def __str__(self) -> str:
        return f"{self.name} revision {self.revision}"


class BattleScribeDataFile(models.Model):
    data_set = models.ForeignKey(BattleScribeDataSet, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    compressed = models.BinaryField()  # zlib of the file as found (a .catz stays zipped inside)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["data_set", "name"], name="battlescribe_file_name_per_set")]

    def __str__(self) -> str:
        return self.name

    @property
    def content(self) -> bytes:
        return zlib.decompress(bytes(self.compressed))


class BattleScribeCatalogue(models.Model):
    """A catalogue of the data set, or its game system (`is_game_system`)."""

    data_set = models.ForeignKey(BattleScribeDataSet, on_delete=models.CASCADE, related_name="catalogues")
    catalogue_id = models.CharField(max_length=100)
    name = models.CharField(max_length=200)
    revision = models.PositiveIntegerField()
    library = models.BooleanField(default=False)
    is_game_system = models.BooleanField(default=False)
    file_name = models.CharField(max_length=255)

    class Meta:
        ordering = ["-is_game_system", "name"]
        constraints = [
            models.UniqueConstraint(fields=["data_set", "catalogue_id"], name="battlescribe_catalogue_id_per_set")
        ]

    def __str__(self) -> str:
        return self.name


class BattleScribeRow(models.Model):
    """Fields of every row read from a catalogue: the data set, the catalogue, BattleScribe's id."""

    data_set = models.ForeignKey(BattleScribeDataSet, on_delete=models.CASCADE)
    catalogue = models.ForeignKey(BattleScribeCatalogue, on_delete=models.CASCADE)
    bs_id = models.CharField(max_length=200)  # links' ids can be chains of ids ("a::b")
    name = models.CharField(max_length=300)
    hidden = models.BooleanField(default=False)

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class BattleScribeCostType(BattleScribeRow):
    default_cost_limit = models.FloatField(null=True, blank=True)  # None: no limit

    class Meta(BattleScribeRow.Meta):
        constraints = [models.UniqueConstraint(fields=["data_set", "bs_id"], name="battlescribe_cost_type_per_set")]


class BattleScribeCategory(BattleScribeRow):
    class Meta(BattleScribeRow.Meta):
        constraints = [models.UniqueConstraint(fields=["data_set", "bs_id"], name="battlescribe_category_per_set")]


class BattleScribeForce(BattleScribeRow):
    """A force entry, with the categories it lists in order (an editor's sections)."""

    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    categories = models.ManyToManyField(BattleScribeCategory, through="BattleScribeForceCategory")

    class Meta(BattleScribeRow.Meta):
        constraints = [models.UniqueConstraint(fields=["catalogue", "bs_id"], name="battlescribe_force_per_catalogue")]


class BattleScribeForceCategory(models.Model):
    force = models.ForeignKey(BattleScribeForce, on_delete=models.CASCADE)
    category = models.ForeignKey(BattleScribeCategory, on_delete=models.CASCADE)
    position = models.PositiveIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["force", "category"], name="battlescribe_force_category_once")]

    def __str__(self) -> str:
        return f"{self.force_id}: {self.category_id}"


class BattleScribeProfile(BattleScribeRow):
    """A profile, where it is first defined (as the engine finds it by id)."""

    type_id = models.CharField(max_length=100, blank=True)
    type_name = models.CharField(max_length=200, blank=True)
    page = models.CharField(max_length=100, blank=True)
    publication = models.CharField(max_length=300, blank=True)
    characteristics = models.JSONField(default=list)  # [[name, value], ...] in the data's order

    class Meta(BattleScribeRow.Meta):
        constraints = [models.UniqueConstraint(fields=["data_set", "bs_id"], name="battlescribe_profile_per_set")]


class BattleScribeRule(BattleScribeRow):
    """A rule, where it is first defined. Its description is the data's copied text: kept so the
    engine's output can be checked against it, and shown on no page (docs/battlescribe.md)."""

    page = models.CharField(max_length=100, blank=True)
    publication = models.CharField(max_length=300, blank=True)
    description = models.TextField(blank=True)

    class Meta(BattleScribeRow.Meta):
        constraints = [models.UniqueConstraint(fields=["data_set", "bs_id"], name="battlescribe_rule_per_set")]


class BattleScribeEntry(BattleScribeRow):
    """A root selection entry (or entry link) a catalogue offers, resolved to what it selects."""

    target_id = models.CharField(max_length=100)  # the selection entry (or group) it selects
    entry_type = models.CharField(max_length=40, blank=True)  # unit, model, upgrade; blank for a group
    page = models.CharField(max_length=100, blank=True)
    publication = models.CharField(max_length=300, blank=True)
    costs = models.JSONField(default=dict)  # cost type id -> value, before modifiers
    categories = models.ManyToManyField(BattleScribeCategory, through="BattleScribeEntryCategory")
    profiles = models.ManyToManyField(BattleScribeProfile, blank=True)
    rules = models.ManyToManyField(BattleScribeRule, blank=True)

    class Meta(BattleScribeRow.Meta):
        constraints = [models.UniqueConstraint(fields=["catalogue", "bs_id"], name="battlescribe_entry_per_catalogue")]


class BattleScribeEntryCategory(models.Model):
    entry = models.ForeignKey(BattleScribeEntry, on_delete=models.CASCADE)
    category = models.ForeignKey(BattleScribeCategory, on_delete=models.CASCADE)
    primary = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["entry", "category"], name="battlescribe_entry_category_once")]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.category_id}"


class BattleScribeRoster(models.Model):
    """A roster of a loaded data set, kept as the .ros XML the engine writes, pinned to that data set.

    The XML is what the engine reads back for every edit; name, points and verdict are a summary of it
    kept for lists and pages that should not compile the data. Share id and edit secret work as a
    `Roster`'s do (lists/rosters/sharing.py)."""

    data_set = models.ForeignKey(BattleScribeDataSet, on_delete=models.PROTECT, related_name="rosters")
    share_id = models.CharField(max_length=32, unique=True)
    edit_secret_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    catalogue_name = models.CharField(max_length=200, blank=True)
    points = models.FloatField(default=0)
    points_limit = models.FloatField(null=True, blank=True)  # None: no limit
    error_count = models.PositiveIntegerField(default=0)
    ros_xml = models.TextField()
    version = models.PositiveIntegerField(default=1)  # raised by every saved edit
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def legal(self) -> bool:
        return self.error_count == 0
