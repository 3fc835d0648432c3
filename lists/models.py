"""Game data loaded from packs, and the rosters players build from it.

Every game-data row carries the `key` its pack gives it; `loadpacks` matches
rows by (system, key) so that reloading a changed pack updates rows in place
and the ids rosters point at stay the same.
"""

from __future__ import annotations

from django.db import models


class GameSystem(models.Model):
    key = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    short_name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, default="game")  # "game" or "overlay"
    extends = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="overlays")
    summary = models.TextField(blank=True)
    version = models.CharField(max_length=20)
    content_hash = models.CharField(max_length=64)
    loaded_at = models.DateTimeField(auto_now=True)
    # Small structured settings the views and rules read as a whole:
    # sources, periods, weapon columns, rule roles, roster settings, hero points, period costs.
    config = models.JSONField(default=dict)

    class Meta:
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def weapon_columns(self) -> list[dict]:
        return self.config.get("weapon_columns", [])

    @property
    def sources(self) -> list[dict]:
        return self.config.get("sources", [])

    @property
    def periods(self) -> list[dict]:
        return self.config.get("periods", [])


class PackRow(models.Model):
    """Fields every row loaded from a pack has."""

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE)
    key = models.SlugField(max_length=80)
    name = models.CharField(max_length=200)

    class Meta:
        abstract = True
        ordering = ["name"]
        # Rows are matched by key on reload: the pair must be unique.
        constraints = [
            models.UniqueConstraint(fields=["system", "key"], name="%(class)s_unique_key_per_system"),
        ]

    def __str__(self) -> str:
        return self.name


class SpecialRule(PackRow):
    kind = models.CharField(max_length=20)
    summary = models.TextField()
    source = models.JSONField(default=dict)
    points = models.IntegerField(null=True, blank=True)
    points_note = models.CharField(max_length=200, blank=True)
    takes_value = models.BooleanField(default=False)
    # How a priced house rule is bought (pack_schema.Purchase); empty: once or more per roster.
    purchase = models.JSONField(default=dict, blank=True)
    reminder = models.CharField(max_length=200, blank=True)  # the line printed on unit cards
    applies_to = models.JSONField(null=True, blank=True)  # army rules: the units it is printed on; null: all
    modifies = models.JSONField(default=list, blank=True)  # notes on the weapon lines it changes (pack_schema)
    source_id = models.CharField(max_length=80, blank=True)  # the BattleScribe entry id, for converted data

    class Meta(PackRow.Meta):
        pass


class Chart(PackRow):
    columns = models.JSONField(default=list)
    rows = models.JSONField(default=list)
    notes = models.TextField(blank=True)
    source = models.JSONField(default=dict)

    class Meta(PackRow.Meta):
        pass


class WeaponCategory(PackRow):
    family = models.CharField(max_length=200)
    summary = models.TextField(blank=True)

    class Meta(PackRow.Meta):
        pass


class Weapon(PackRow):
    group = models.CharField(max_length=200)
    category = models.ForeignKey(WeaponCategory, null=True, blank=True, on_delete=models.SET_NULL)
    range = models.IntegerField(null=True, blank=True)
    indirect_min = models.IntegerField(null=True, blank=True)
    indirect_max = models.CharField(max_length=10, blank=True)  # inches, or "table"
    range_short = models.CharField(max_length=10, blank=True)
    range_effective = models.CharField(max_length=10, blank=True)
    range_long = models.CharField(max_length=10, blank=True)
    shots = models.CharField(max_length=30, blank=True)
    pen = models.IntegerField(null=True, blank=True)
    power = models.IntegerField(null=True, blank=True)
    attack_short = models.CharField(max_length=10, blank=True)
    attack_effective = models.CharField(max_length=10, blank=True)
    attack_long = models.CharField(max_length=10, blank=True)
    he = models.CharField(max_length=20, blank=True)
    weapon_type = models.CharField(max_length=60, blank=True)
    notes = models.TextField(blank=True)
    source = models.JSONField(default=dict)
    position = models.PositiveIntegerField(default=0)  # order in the source table

    class Meta(PackRow.Meta):
        ordering = ["position"]

    def profile(self) -> list[tuple[str, str]]:
        """The weapon's figures as its game prints them: (label, value) per column."""
        return [(column["label"], self.column_value(column["field"])) for column in self.system.weapon_columns]

    def column_value(self, field: str) -> str:
        unit = self.system.config.get("distance_unit", '"')
        if field == "range":
            return "" if self.range is None else f"{self.range}{unit}"
        if field == "indirect_range":
            if self.indirect_min is None:
                return ""
            maximum = self.indirect_max if self.indirect_max == "table" else f"{self.indirect_max}{unit}"
            return f"{self.indirect_min}{unit}–{maximum}"
        if field == "pen":
            if self.pen is None:
                return "HE" if self.he else "–"
            return f"{self.pen:+d}" if self.pen else "–"
        if field == "power":
            return "" if self.power is None else str(self.power)
        if field == "rules":
            return ", ".join(link.label() for link in self.rule_links.all())
        return str(getattr(self, field) or "")


class WeaponRule(models.Model):
    """A special rule a weapon has, with its value where the rule takes one (HE 1")."""

    weapon = models.ForeignKey(Weapon, on_delete=models.CASCADE, related_name="rule_links")
    rule = models.ForeignKey(SpecialRule, on_delete=models.CASCADE, related_name="weapon_links")
    value = models.CharField(max_length=60, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.label()

    def label(self) -> str:
        return f"{self.rule.name} ({self.value})" if self.value else self.rule.name


class TroopQuality(PackRow):
    morale = models.IntegerField(null=True, blank=True)
    damage_value = models.CharField(max_length=20, blank=True)
    damage_value_gun_shield = models.CharField(max_length=20, blank=True)
    summary = models.TextField(blank=True)
    source = models.JSONField(default=dict)
    position = models.PositiveIntegerField(default=0)

    class Meta(PackRow.Meta):
        ordering = ["position"]


class OfficerRank(PackRow):
    morale_bonus = models.IntegerField()
    extra_orders = models.PositiveIntegerField()
    order_range = models.PositiveIntegerField()
    source = models.JSONField(default=dict)
    position = models.PositiveIntegerField(default=0)

    class Meta(PackRow.Meta):
        ordering = ["position"]


class UnitCategory(PackRow):
    kind = models.CharField(max_length=20)
    summary = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta(PackRow.Meta):
        ordering = ["position"]


class Reference(PackRow):
    """Reference tables that are read, not computed with: damage values, movement, capacities."""

    table = models.CharField(max_length=30)  # damage_values, movement, capacities
    data = models.JSONField(default=dict)
    position = models.PositiveIntegerField(default=0)

    class Meta(PackRow.Meta):
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["system", "table", "key"], name="reference_unique_key_per_table"),
        ]


def army_title(name: str, nation: str | None) -> str:
    """An army's name as every page shows it: a theatre list's with its nation's where its own name leaves it
    out, so that two nations' "1944: Normandy" never look alike: "1944: Normandy (Armies of Great Britain)"."""
    if not nation or nation.casefold() in name.casefold():
        return name
    return f"{name} ({nation})"


class Army(PackRow):
    summary = models.TextField(blank=True)
    rules = models.ManyToManyField(SpecialRule, blank=True, related_name="armies")
    borrows_from = models.ManyToManyField("self", blank=True, symmetrical=False)
    borrow_note = models.TextField(blank=True)
    borrow_units = models.JSONField(default=list, blank=True)  # unit keys; empty: every unit borrowed
    # Sets of national rules of which a player takes one (which book's): [{"name", "rules": [keys]}]
    rule_choices = models.JSONField(default=list, blank=True)
    shared = models.BooleanField(default=False)  # units open to every army of the system
    source = models.JSONField(default=dict)
    source_id = models.CharField(max_length=80, blank=True)  # the BattleScribe entry id, for converted data

    class Meta(PackRow.Meta):
        verbose_name_plural = "armies"

    @property
    def title(self) -> str:
        """Its name with its nation's (see `army_title`); prefetch `borrows_from` where many are shown."""
        nation = next(iter(self.borrows_from.all()), None)
        return army_title(self.name, nation.name if nation else None)


class UnitType(PackRow):
    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="unit_types")
    category = models.ForeignKey(UnitCategory, on_delete=models.CASCADE, related_name="unit_types")
    kind = models.CharField(max_length=20)
    points = models.IntegerField(null=True, blank=True)
    points_note = models.CharField(max_length=200, blank=True)
    citation = models.JSONField(null=True, blank=True)
    min_size = models.PositiveIntegerField(null=True, blank=True)
    max_size = models.PositiveIntegerField(null=True, blank=True)
    max_in_roster = models.PositiveIntegerField(null=True, blank=True)
    army_limits = models.JSONField(default=dict, blank=True)  # army key -> its own limit, where it differs
    limit_per = models.CharField(max_length=8, default="roster")  # the limits count the roster, or each force
    force_limits = models.JSONField(default=list, blank=True)  # least and most per force of an organisation
    shared_limits = models.JSONField(default=dict, blank=True)  # key -> {name, max}: options' shared limits
    officer_rank = models.ForeignKey(OfficerRank, null=True, blank=True, on_delete=models.SET_NULL)
    officer_ranks = models.ManyToManyField(OfficerRank, blank=True, related_name="allowed_in")
    weapon_categories = models.JSONField(null=True, blank=True)  # None: any category
    armour = models.JSONField(null=True, blank=True)
    speed = models.CharField(max_length=40, blank=True)
    constitution = models.IntegerField(null=True, blank=True)
    transport_capacity = models.PositiveIntegerField(null=True, blank=True)
    capacity_counts = models.CharField(max_length=20, default="figures")  # or vehicles-and-guns
    carries = models.CharField(max_length=200, blank=True)
    service_start = models.PositiveSmallIntegerField(null=True, blank=True)
    service_end = models.PositiveSmallIntegerField(null=True, blank=True)
    service_period = models.CharField(max_length=80, blank=True)
    service_note = models.CharField(max_length=200, blank=True)
    rules = models.ManyToManyField(SpecialRule, blank=True, related_name="unit_types")
    notes = models.TextField(blank=True)
    source = models.JSONField(default=dict)
    source_id = models.CharField(max_length=80, blank=True)  # the BattleScribe entry id, for converted data
    position = models.PositiveIntegerField(default=0)

    class Meta(PackRow.Meta):
        ordering = ["army", "category__position", "position"]
        indexes = [
            # The army page lists units by army and slot.
            models.Index(fields=["army", "position"], name="unittype_army_position"),
        ]


class UnitModel(models.Model):
    """One line of a unit's composition: how many models of a role, with what."""

    unit_type = models.ForeignKey(UnitType, on_delete=models.CASCADE, related_name="models")
    count = models.PositiveIntegerField()
    role = models.CharField(max_length=20)
    name = models.CharField(max_length=200)
    fs = models.PositiveSmallIntegerField(null=True, blank=True)
    morale = models.PositiveSmallIntegerField(null=True, blank=True)
    equipment = models.CharField(max_length=200, blank=True)
    figures = models.PositiveSmallIntegerField(default=1)  # figures per model: a "Team of 2" is 2
    weapons = models.ManyToManyField(Weapon, blank=True, related_name="carried_by")
    weapon_counts = models.JSONField(default=dict, blank=True)  # weapon key -> how many, where more than one
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.count} {self.name}"


class QualityCost(models.Model):
    unit_type = models.ForeignKey(UnitType, on_delete=models.CASCADE, related_name="quality_costs")
    quality = models.ForeignKey(TroopQuality, on_delete=models.CASCADE)
    points = models.PositiveIntegerField()
    per_extra_model = models.PositiveIntegerField(null=True, blank=True)
    armies = models.JSONField(default=list, blank=True)  # army keys offering this quality; empty: any army
    army_points = models.JSONField(default=dict, blank=True)  # army key -> its theatre's own price, where it differs
    sizes = models.JSONField(default=dict, blank=True)  # this quality's own base_size, min_size, max_size, min_own_size
    citation = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["quality__position"]

    def __str__(self) -> str:
        return f"{self.quality} {self.points} pts"


# The UnitOption fields a pack's option gives under the same name and a game's data holds as they are: the
# loader, the game-data builder and the API copy these by name, so a new one is added here once.
OPTION_PLAIN_FIELDS = (
    "name",
    "points",
    "per",
    "every_man",
    "max",
    "quality_points",
    "quality_max",
    "points_with",
    "max_with",
    "min_if_taken",
    "least_in",
    "default",
    "max_in",
    "points_once",
    "percent",
    "copies_unit",
    "in_size",
    "crew",
    "excludes",
    "needs_options",
    "rules",
)


class UnitOption(models.Model):
    """An option or upgrade of a unit; rosters refer to it, so it keeps its key."""

    unit_type = models.ForeignKey(UnitType, on_delete=models.CASCADE, related_name="options")
    key = models.SlugField(max_length=80)
    name = models.CharField(max_length=200)
    points = models.IntegerField()
    per = models.CharField(max_length=10, default="unit")
    every_man = models.BooleanField(default=False)  # per model, and every man pays while it is taken
    max = models.PositiveIntegerField(null=True, blank=True)
    group = models.CharField(max_length=80, blank=True)
    shares = models.CharField(max_length=80, blank=True)  # the unit's shared limit it counts toward
    excludes = models.JSONField(default=list, blank=True)  # option keys it is never taken with
    adds_models = models.JSONField(default=list)
    weapons = models.ManyToManyField(Weapon, blank=True, related_name="option_links")
    replaces = models.JSONField(default=list)
    model = models.CharField(max_length=200, blank=True)  # the model line swapping the weapon; blank: rank and file
    officer_rank = models.ForeignKey(OfficerRank, null=True, blank=True, on_delete=models.SET_NULL)
    service_start = models.PositiveSmallIntegerField(null=True, blank=True)
    service_end = models.PositiveSmallIntegerField(null=True, blank=True)
    service_period = models.CharField(max_length=80, blank=True)
    period_points = models.JSONField(default=dict)
    quality_points = models.JSONField(default=dict, blank=True)  # quality key -> points, where they differ
    quality_max = models.JSONField(default=dict, blank=True)  # quality key -> its own lower limit
    points_with = models.JSONField(default=dict, blank=True)  # option key -> points more each while it is taken
    max_with = models.JSONField(default=dict, blank=True)  # option key -> its greatest number while it is taken
    min_if_taken = models.PositiveIntegerField(null=True, blank=True)  # taken at all, at least this often
    needs_units = models.JSONField(default=list, blank=True)  # unit keys, one of which its force must hold
    needs_options = models.JSONField(default=list, blank=True)  # option keys of the unit, one of which it needs
    rules = models.JSONField(default=list, blank=True)  # rule keys a unit taking it has
    least_in = models.JSONField(default=dict, blank=True)  # army key -> how often its units must take it
    default = models.BooleanField(default=False)  # taken when the unit is added (the data's default choice)
    max_in = models.JSONField(default=dict, blank=True)  # army key -> its greatest number there, where lower
    force_limits = models.JSONField(default=list, blank=True)  # [{group, min, max, armies}] over each force
    qualities = models.JSONField(default=list, blank=True)  # quality keys it is offered to; empty: any quality
    points_once = models.IntegerField(default=0)  # paid once on top when taken at all
    percent = models.IntegerField(default=0)
    armies = models.JSONField(default=list, blank=True)  # army keys; empty: any army
    copies_unit = models.BooleanField(default=False)  # each adds another copy of the unit, at its points
    in_size = models.BooleanField(default=False)  # the men it adds count in the unit's size range
    crew = models.PositiveIntegerField(null=True, blank=True)
    note = models.TextField(blank=True)
    citation = models.JSONField(null=True, blank=True)
    source_id = models.CharField(max_length=80, blank=True)  # the BattleScribe entry id, for converted data
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["unit_type", "key"], name="option_unique_key_per_unit"),
        ]

    def __str__(self) -> str:
        return self.name


class Organisation(PackRow):
    summary = models.TextField()
    armies = models.ManyToManyField(Army, blank=True)
    slots = models.JSONField(default=list)
    source = models.JSONField(default=dict)
    source_id = models.CharField(max_length=80, blank=True)  # the BattleScribe entry id, for converted data
    position = models.PositiveIntegerField(default=0)

    class Meta(PackRow.Meta):
        # Pack order: a roster's default organisation is the first its army may use.
        ordering = ["position"]


class Erratum(models.Model):
    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="errata")
    where = models.CharField(max_length=200)
    source_value = models.CharField(max_length=200)
    used_value = models.CharField(max_length=200)
    reason = models.TextField()
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["system", "position"]

    def __str__(self) -> str:
        return f"{self.where}: {self.source_value} -> {self.used_value}"


# --- rosters -----------------------------------------------------------------


class Roster(models.Model):
    """A player's army list. Anyone with the share id may read it; the edit secret's holder may change it."""

    share_id = models.CharField(max_length=32, unique=True)
    # Only a SHA-256 of the edit secret is kept: a leaked database gives no edit links.
    edit_secret_hash = models.CharField(max_length=64, unique=True)
    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="rosters")
    army = models.ForeignKey(Army, on_delete=models.PROTECT, related_name="rosters")
    name = models.CharField(max_length=120)
    points_limit = models.PositiveIntegerField(null=True, blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    period = models.CharField(max_length=80, blank=True)
    settings = models.JSONField(default=dict, blank=True)
    # The house-rule overlays it plays: their priced house rules are offered only when chosen.
    overlays = models.ManyToManyField(
        GameSystem, blank=True, related_name="played_in", limit_choices_to={"kind": "overlay"}
    )
    # Bumped by every edit; an edit made from an older page is refused rather than lost.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name


class Force(models.Model):
    """One force (a platoon) of a roster, under its organisation; a game without organisations has none."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="forces")
    position = models.PositiveIntegerField(default=0)
    name = models.CharField(max_length=120)
    organisation = models.ForeignKey(Organisation, null=True, blank=True, on_delete=models.PROTECT)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            # Findings name a force by its name: two of one name would be told apart by nothing.
            models.UniqueConstraint(fields=["roster", "name"], name="one_force_of_a_name_per_roster"),
        ]

    def __str__(self) -> str:
        return self.name


class RosterUnit(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="units")
    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="units")
    unit_type = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="roster_units")
    position = models.PositiveIntegerField(default=0)
    label = models.CharField(max_length=120, blank=True)
    quality = models.ForeignKey(TroopQuality, null=True, blank=True, on_delete=models.PROTECT)
    size = models.PositiveSmallIntegerField(null=True, blank=True)
    officer_rank = models.ForeignKey(OfficerRank, null=True, blank=True, on_delete=models.PROTECT)
    transport = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="passengers")
    hero_points = models.PositiveSmallIntegerField(default=0)
    # The player's own words on the unit (painting scheme, which models): exported and shared, never priced.
    note = models.CharField(max_length=300, blank=True, default="")  # NOTE_MAX_LENGTH, lists/rules/validation.py

    class Meta:
        ordering = ["position", "id"]
        indexes = [
            # Loading a roster reads its units in order.
            models.Index(fields=["roster", "position"], name="rosterunit_roster_position"),
        ]

    def __str__(self) -> str:
        return self.label or self.unit_type.name


class RosterHouseRule(models.Model):
    """A priced house rule bought for a roster, or for one of its units, `count` times."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="house_rules")
    rule = models.ForeignKey(SpecialRule, on_delete=models.PROTECT, related_name="purchases")
    unit = models.ForeignKey(RosterUnit, null=True, blank=True, on_delete=models.CASCADE, related_name="house_rules")
    count = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["id"]
        constraints = [
            # One row per rule and what it is bought for: buying it again raises the count.
            models.UniqueConstraint(
                fields=["roster", "rule"], condition=models.Q(unit__isnull=True), name="one_row_per_house_rule"
            ),
            models.UniqueConstraint(fields=["roster", "rule", "unit"], name="one_row_per_house_rule_per_unit"),
        ]

    def __str__(self) -> str:
        return f"{self.rule} x{self.count}"


class RosterUnitOption(models.Model):
    roster_unit = models.ForeignKey(RosterUnit, on_delete=models.CASCADE, related_name="chosen_options")
    option = models.ForeignKey(UnitOption, on_delete=models.PROTECT, related_name="+")
    count = models.PositiveSmallIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["roster_unit", "option"], name="one_row_per_option_per_unit"),
        ]

    def __str__(self) -> str:
        return f"{self.option} x{self.count}"


class IssuedFingerprint(models.Model):
    """A fingerprint the site has shown or printed, with the roster and verdict it stood for then.

    An organiser holding a printed list looks it up at /verify/<fingerprint>/, even
    after the roster has been edited since.
    """

    fingerprint = models.CharField(max_length=40, unique=True)
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="fingerprints")
    document = models.JSONField()  # the roster file's mapping (export_roster)
    verdict = models.JSONField()  # Verdict.to_dict()
    issued_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.fingerprint


# Tournament events, BattleScribe data sets and roster lockers live in their own modules; imported here so Django finds them.
from lists.battlescribe_models import (  # noqa: E402,F401
    BattleScribeCatalogue,
    BattleScribeCategory,
    BattleScribeCostType,
    BattleScribeDataFile,
    BattleScribeDataSet,
    BattleScribeEntry,
    BattleScribeEntryCategory,
    BattleScribeForce,
    BattleScribeForceCategory,
    BattleScribeProfile,
    BattleScribeRoster,
    BattleScribeRule,
)
from lists.event_models import Event, Submission  # noqa: E402,F401
from lists.locker_models import DeletedRoster, Locker, LockerDevice, LockerEntry  # noqa: E402,F401
