"""The forms of tournament events: running one, and submitting a list to one."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from lists import models
from lists.event_models import PLAYER_MAX_LENGTH
from lists.rosters.files import MAX_FILE_BYTES
from lists.rosters.numbers import whole_number
from lists.rules.validation import NAME_MAX_LENGTH, POINTS_LIMIT_MAX, SETTING_NUMBER_MAX, YEAR_MAX, YEAR_MIN
from lists.web.army_choices import army_groups
from lists.web.forms import NameField

DATA_SET_PREFIX = "data-set-"  # a BattleScribe data set in the game select: "data-set-<id>"
# The settings our packs define and a BattleScribe data set's rules do not: left empty for its events.
PACK_ONLY = {
    "max_order_dice": "order-dice cap",
    "allowed_armies": "list of armies",
    "year": "year",
    "period": "period",
    "house_rules_allowed": "house rules",
}


def data_set_value(data_set: models.BattleScribeDataSet) -> str:
    return f"{DATA_SET_PREFIX}{data_set.pk}"


def data_set_from(value) -> models.BattleScribeDataSet | None:
    """The data set a game select's value names, or None (another value, or no such data set)."""
    text = str(value or "").strip()
    number = whole_number(text.removeprefix(DATA_SET_PREFIX))
    if not text.startswith(DATA_SET_PREFIX) or number is None:
        return None
    return models.BattleScribeDataSet.objects.filter(pk=number).first()


def picked_game(form: forms.Form) -> models.GameSystem | None:
    """The game the form is for: the one sent, else the one it starts with, else the first game."""
    value = form.data.get("game") if form.is_bound else form.initial.get("game")
    games = models.GameSystem.objects.filter(kind="game").order_by("name")
    return (PackGame.chosen(value) if value else None) or games.first()


class PackGame:
    """An event of one of our packs' games: its armies, order dice, year and period are the event's settings."""

    def __init__(self, system: models.GameSystem | None):
        self.system, self.data_set = system, None
        self.value = system.key if system else ""

    @staticmethod
    def chosen(value) -> models.GameSystem | None:
        """The game a select's value names, by its pack key or (as a script might send it) its name."""
        text = str(value or "").strip()
        games = models.GameSystem.objects.filter(kind="game")
        return games.filter(key=text).first() or games.filter(name__iexact=text).first()

    def army_choices(self) -> list:
        return army_groups([self.system], value="key") if self.system else []

    def clean(self, form: EventForm, cleaned: dict) -> dict:
        """The armies, order-dice cap, period and year, each checked against the game's pack."""
        system = self.system
        cleaned["system"], cleaned["data_set"] = system, None
        armies = {army.key: army.key for army in models.Army.objects.filter(system=system)}
        armies |= {army.name.casefold(): army.key for army in models.Army.objects.filter(system=system)}
        given = [value.strip() for value in cleaned.get("allowed_armies") or []]
        unknown = [value for value in given if value not in armies and value.casefold() not in armies]
        if unknown:
            form.add_error("allowed_armies", f"Not armies of {system.name}: {', '.join(unknown)}.")
        cleaned["allowed_armies"] = sorted(
            {armies.get(value) or armies[value.casefold()] for value in given if value not in unknown}
        )
        if cleaned.get("max_order_dice") is not None and not system.config.get("order_dice"):
            form.add_error("max_order_dice", f"{system.name} has no order dice: leave the cap empty.")
        period = cleaned.get("period") or ""
        periods = {p["key"]: p["key"] for p in system.periods} | {
            p["name"].casefold(): p["key"] for p in system.periods
        }
        if period and period.casefold() not in periods and period not in periods:
            names = ", ".join(p["name"] for p in system.periods) or "none"
            form.add_error("period", f"{system.name} has no period {period!r}; its periods: {names}.")
        elif period:
            cleaned["period"] = periods.get(period, periods.get(period.casefold()))
        if cleaned.get("year") is not None and not system.config.get("uses_years"):
            form.add_error("year", f"{system.name} lists are not set in a year: leave it empty.")
        return cleaned


class DataSetGame:
    """An event of a loaded BattleScribe data set at one revision: its lists are checked by the game's data and
    the points limit only, so our packs' settings are refused (the form hides them; a script may still send
    them)."""

    def __init__(self, data_set: models.BattleScribeDataSet):
        self.system, self.data_set = None, data_set
        self.value = data_set_value(data_set)

    @staticmethod
    def chosen(value) -> models.BattleScribeDataSet | None:
        return data_set_from(value)

    def army_choices(self) -> list:
        return []

    def clean(self, form: EventForm, cleaned: dict) -> dict:
        for name, label in PACK_ONLY.items():
            if cleaned.get(name) not in (None, "", [], False):
                form.add_error(
                    name,
                    f"An event of {self.data_set.name} takes no {label}: its lists are checked by the game's data "
                    "and the points limit only. Leave it empty.",
                )
        cleaned["system"], cleaned["data_set"] = None, self.data_set
        return cleaned


# The kinds of game an event is of, each reading its own form of the game select's value: a data set's
# `data-set-<id>` first, then a pack's key or name.
EVENT_GAMES = (DataSetGame, PackGame)


def event_game(value) -> PackGame | DataSetGame | None:
    """The game a select's value names, as the kind of event it makes; None for no game known here."""
    return next((kind(found) for kind in EVENT_GAMES if (found := kind.chosen(value))), None)


class GameChoice(forms.ModelChoiceField):
    """A game by its pack key (what the form's select sends), or by its name as a script might send it; or a
    loaded BattleScribe data set at one revision (`data-set-<id>`): the kind of event it makes (`event_game`)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        game = event_game(value)
        if game is None:
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return game


class ArmyKeys(forms.MultipleChoiceField):
    """Armies by key or name; which game's they must be is known only once the game is read (see clean)."""

    def valid_value(self, value) -> bool:
        return isinstance(value, str) and 0 < len(value) <= 200


class EventForm(forms.Form):
    """Run an event: what it is, and the rules every list submitted to it is checked by."""

    name = NameField(max_length=NAME_MAX_LENGTH)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    game = GameChoice(
        queryset=models.GameSystem.objects.filter(kind="game"),
        to_field_name="key",
        label="Game",
        error_messages={"invalid_choice": "Pick one of the games listed."},
    )
    points_limit = forms.IntegerField(min_value=1, max_value=POINTS_LIMIT_MAX)
    max_order_dice = forms.IntegerField(
        required=False, min_value=1, max_value=SETTING_NUMBER_MAX, label="Order-dice cap (games with order dice)"
    )
    allowed_armies = ArmyKeys(
        required=False,
        label="Armies allowed (none picked: every army)",
        help_text="The armies of the event's game, by nation; a nation allows its theatre lists too. "
        "Hold Ctrl (or ⌘) to pick several.",
        widget=forms.SelectMultiple(attrs={"size": 8}),
    )
    year = forms.IntegerField(required=False, min_value=YEAR_MIN, max_value=YEAR_MAX, label="Year (games with years)")
    period = forms.CharField(required=False, max_length=80, label="Period (games with periods)")
    house_rules_allowed = forms.BooleanField(required=False, label="House rules allowed")
    deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="Lists are taken until then (the server's time zone).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        games = models.GameSystem.objects.filter(kind="game")
        periods = [(p["key"], f"{p['name']} ({game.short_name})") for game in games for p in game.periods]
        self.fields["period"].widget = forms.Select(choices=[("", "—"), *periods])
        # The armies of the event's game only, grouped by nation, each named with its nation where another
        # nation has a list of the same name; another game's armies come with that game (htmx, or the button).
        value = self.data.get("game") if self.is_bound else self.initial.get("game")
        picked = event_game(value) if value else None
        picked = picked or PackGame(picked_game(self))
        self.data_set, self.system, self.game_key = picked.data_set, picked.system, picked.value
        self.data_sets = [
            (data_set_value(data_set), f"{data_set.name} revision {data_set.revision}")
            for data_set in models.BattleScribeDataSet.objects.order_by("name", "-revision", "-pk")
        ]
        self.fields["allowed_armies"].choices = picked.army_choices()

    def clean(self):
        cleaned = super().clean()
        game = cleaned.get("game")
        if game is None:
            cleaned["system"], cleaned["data_set"] = None, None
            return cleaned
        cleaned = game.clean(self, cleaned)
        self._clean_deadline(cleaned)
        return cleaned

    def refused_pack_fields(self) -> list[forms.BoundField]:
        """Our packs' settings sent for a BattleScribe event: shown again, with why, so they can be cleared."""
        return [self[name] for name in PACK_ONLY if self[name].errors]

    def _clean_deadline(self, cleaned: dict) -> None:
        deadline = cleaned.get("deadline")
        if deadline is not None and deadline < timezone.now():
            self.add_error("deadline", "The deadline has already passed: pick a later time.")


class ListForm(forms.Form):
    """A list for an event: a share link of this site or a roster file (a player replacing their own list)."""

    share_link = forms.CharField(
        required=False, max_length=500, label="Share link of your roster (the address of its read-only page)"
    )
    file = forms.FileField(required=False, label="or a roster file")

    def clean(self):
        cleaned = super().clean()
        link, upload = (cleaned.get("share_link") or "").strip(), cleaned.get("file")
        if bool(link) == bool(upload) and not self.errors.get("file"):
            self.add_error(None, "Paste a share link or upload a roster file (one of the two).")
        if upload is not None and upload.size > MAX_FILE_BYTES:
            self.add_error("file", f"A roster file may be at most {MAX_FILE_BYTES // 1024} KB.")
        cleaned["share_link"] = link
        return cleaned


class SubmitForm(ListForm):
    """A player's list for an event: their name, and a share link of this site or a roster file."""

    player = NameField(max_length=PLAYER_MAX_LENGTH, label="The name you play under")
    field_order = ["player", "share_link", "file"]


class SubmitRosterForm(forms.Form):
    """From a roster's editor: the event's link and the player's name."""

    event_link = forms.CharField(max_length=500, label="The event's link, or your own submission link")
    player = NameField(required=False, max_length=PLAYER_MAX_LENGTH, label="The name you play under")
