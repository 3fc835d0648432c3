"""The editor's forms: every input a player types or picks, parsed by Django forms.

Django parses (a number is a number); `lists.rules.validation` judges, the same
function that judges roster files, so a value the editor saves always
imports again. The HTML `min`/`max` of each field come from the same limits.
"""

from __future__ import annotations

from django import forms

from lists import models
from lists.gamedata.loading import GameData, game_data
from lists.gamedata.snapshot import OptionInfo, SystemInfo, UnitChoice, UnitTypeInfo
from lists.rules.validation import (
    HERO_POINTS_MAX,
    HOUSE_RULE_COUNT_MAX,
    NAME_MAX_LENGTH,
    POINTS_LIMIT_MAX,
    SETTING_NUMBER_MAX,
    SIZE_MAX,
    SIZE_MIN,
    YEAR_MAX,
    YEAR_MIN,
    Refusal,
    house_rule_refusals,
    label_refusals,
    one_line,
    open_options,
    open_qualities,
    option_max,
    roster_refusals,
    setting_choices,
    unit_refusals,
)


class NameField(forms.CharField):
    """A name or label a player types: kept as `validation.one_line` keeps every name (one line, NFC,
    no invisible characters), refused with its message if it holds a control or direction character."""

    def to_python(self, value):
        text = super().to_python(value)
        try:
            return one_line(text) if text else text
        except ValueError as problem:
            raise forms.ValidationError(str(problem).capitalize() + ".") from None


def _number(low: int, high: int, **attrs) -> forms.IntegerField:
    """A whole number; the browser is told the limits, `lists.rules.validation` enforces them."""
    widget = forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric", **attrs})
    return forms.IntegerField(required=False, widget=widget)


class _JudgedForm(forms.Form):
    """A form whose values `lists.rules.validation` judges; each refusal is shown on its field."""

    def shown_fields(self) -> set[str]:
        """The inputs the page shows; a refusal of any other value is shown above the form."""
        return set(self.fields)

    def refuse(self, refusals: list[Refusal], fields: dict[str, str] | None = None) -> None:
        shown = self.shown_fields()
        for refusal in refusals:
            name = (fields or {}).get(refusal.field, refusal.field)
            self.add_error(name if name in shown else None, refusal.message)


class StartForm(_JudgedForm):
    """Start a roster: game and army, name, points limit and, for games with periods, the year or period."""

    army = forms.ModelChoiceField(
        queryset=models.Army.objects.filter(system__kind="game").select_related("system"),
        error_messages={"required": "Pick a game and an army.", "invalid_choice": "Pick a game and an army."},
    )
    name = NameField(required=False, max_length=NAME_MAX_LENGTH)
    points_limit = _number(0, POINTS_LIMIT_MAX, placeholder="no limit")
    year = _number(YEAR_MIN, YEAR_MAX)
    period = forms.CharField(required=False, widget=forms.Select)

    def clean(self):
        cleaned = super().clean()
        army = cleaned.get("army")
        if army is None:
            return cleaned
        system = game_data(army.system).system
        year, period = cleaned.get("year"), cleaned.get("period") or ""
        self.refuse(roster_refusals(system, points_limit=cleaned.get("points_limit"), year=year, period=period or None))
        if system.periods and year is None and not period and "year" not in self.errors:
            what = "a year or a period" if system.config.get("uses_years") else "a period"
            self.add_error("year", f"{system.name} rosters are set in {what}: its units and costs depend on it.")
        return cleaned


class SettingsForm(_JudgedForm):
    """A roster's name, limit, year or period, game settings and house rules (each force has its organisation)."""

    name = NameField(required=False, max_length=NAME_MAX_LENGTH)
    points_limit = _number(0, POINTS_LIMIT_MAX, placeholder="no limit")
    year = _number(YEAR_MIN, YEAR_MAX)
    period = forms.CharField(required=False)
    overlays = forms.ModelMultipleChoiceField(
        queryset=models.GameSystem.objects.filter(kind="overlay").order_by("name"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="House-rule overlays played",
        help_text="Their priced house rules are offered once ticked.",
    )

    def __init__(
        self,
        *args,
        data_for: GameData,
        house_rules: list[tuple[models.SpecialRule, int]],
        rule_choices: tuple[str, ...] = (),
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.system = data_for.system
        self.rule_choices = rule_choices  # the names of the army's sets of national rules
        self.house_rules = add_house_rule_fields(self, house_rules)
        for definition in self.system.config.get("settings", []):
            name = f"setting-{definition['key']}"
            if definition["kind"] == "rule_choice":
                if not rule_choices:
                    continue  # an army with one set of national rules has nothing to pick
                picks = [("", "Not chosen yet"), *((choice, choice) for choice in rule_choices)]
                self.fields[name] = forms.CharField(required=False, widget=forms.Select(choices=picks))
            elif definition["kind"] == "bool":
                self.fields[name] = forms.BooleanField(required=False, label=definition["name"])
            elif definition["kind"] == "int":
                self.fields[name] = _number(0, SETTING_NUMBER_MAX)
            else:
                self.fields[name] = forms.CharField(
                    required=False, widget=forms.Select(choices=setting_choices(self.system, definition))
                )
            self.fields[name].label = definition["name"]
            self.fields[name].help_text = definition.get("summary", "")

    def overlay_field(self) -> forms.BoundField | None:
        return self["overlays"] if self.fields["overlays"].queryset.exists() else None

    def house_rule_fields(self) -> list[tuple[forms.BoundField, str]]:
        """Each roster house rule's field, with its price as its overlay gives it."""
        return [(self[name], f"({rule.points} pts each, {rule.system.short_name})") for rule, name in self.house_rules]

    def setting_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("setting-")]

    def clean(self):
        cleaned = super().clean()
        settings = {}
        for definition in self.system.config.get("settings", []):
            value = cleaned.get(f"setting-{definition['key']}")
            settings[definition["key"]] = value if value != "" else None
        cleaned["settings"] = settings
        cleaned["house_rules"] = judge_house_rules(self)
        fields = {f"settings.{key}": f"setting-{key}" for key in settings}
        self.refuse(
            roster_refusals(
                self.system,
                points_limit=cleaned.get("points_limit"),
                year=cleaned.get("year"),
                period=cleaned.get("period") or None,
                settings=settings,
                rule_choices=self.rule_choices,
            ),
            fields,
        )
        return cleaned


class ForceForm(_JudgedForm):
    """A force to add or rename: its name and the organisation it follows, among those the army may use.

    Whether the roster may have it (how many forces, names of their own) is judged
    with the whole roster, by the same check as a roster file's forces.
    """

    name = NameField(required=False, max_length=NAME_MAX_LENGTH, label="Name")
    organisation = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label="Organisation")

    def __init__(self, *args, data_for: GameData, army_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["organisation"].choices = [
            (org_id, data_for.organisations[org_id].name) for org_id in data_for.organisations_for(army_id)
        ]


class UnitForm(_JudgedForm):
    """One roster unit: label, quality, men, rank, options, transport, hero points and its force.

    Field names are the same for every unit; ids are made unique per unit so
    labels, error messages and the focus after a live update find their field.
    """

    label = NameField(required=False, max_length=NAME_MAX_LENGTH)
    quality = forms.CharField(required=False, widget=forms.Select)
    size = _number(SIZE_MIN, SIZE_MAX)
    officer_rank = forms.CharField(required=False, widget=forms.Select)
    transport = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    hero_points = _number(0, HERO_POINTS_MAX)
    force = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)

    def __init__(
        self,
        *args,
        system: SystemInfo,
        army_key: str,
        unit: UnitChoice,
        unit_id: int,
        taken_labels: dict[str, str],
        carriers: list[tuple[int, str]],
        house_rules: list[tuple[models.SpecialRule, int]] = (),
        forces: list[tuple[int, str]] = (),
        **kwargs,
    ):
        kwargs.setdefault("auto_id", f"unit-{unit_id}-%s")
        super().__init__(*args, **kwargs)
        unit_type: UnitTypeInfo = unit.unit_type
        self.system, self.army_key, self.unit_type, self.taken_labels = system, army_key, unit_type, taken_labels
        self.fields["label"].widget.attrs["placeholder"] = unit_type.name
        self.fields["quality"].widget.choices = [
            (key, system.qualities[key].name) for key in open_qualities(unit_type, army_key)
        ]
        ranks = [r for r in (unit_type.officer_rank, *unit_type.officer_ranks) if r]
        if unit.officer_rank and unit.officer_rank not in ranks:
            ranks.append(unit.officer_rank)  # a rank saved from a file stays chosen; the rules judge it
        self.fields["officer_rank"].widget.choices = [("", "As listed")] + [
            (key, system.ranks[key].name) for key in ranks if key in system.ranks
        ]
        # Men as the unit counts them: its own and those its options add (a BAR gunner is one of a squad's men).
        self.fields["size"].widget.attrs["placeholder"] = unit.size_counted
        self.fields["transport"].choices = [("", "On foot"), *carriers]
        self.fields["force"].choices = list(forces)
        self.option_names: dict[str, str] = {}
        offered = open_options(unit_type, army_key, unit.quality)
        self.choices = one_of_groups(offered)
        for group, members in self.choices.items():
            self.fields[choice_name(group)] = _one_of_field(group, members)
        for option in offered:
            if option.group in self.choices:
                self.option_names[option.key] = choice_name(option.group)
                continue
            name = f"option-{option.key}"
            self.option_names[option.key] = name
            if is_single_option(option):
                self.fields[name] = forms.BooleanField(required=False)
                # Compulsory in this list (a half-track's pintle HMG): shown taken; the roster keeps it anyway.
                self.fields[name].disabled = bool(option.default and option.least_in.get(army_key))
            else:
                self.fields[name] = _number(0, option_max(option))
            self.fields[name].label = option.name
        self.house_rules = add_house_rule_fields(self, house_rules)
        # The inputs a unit of this type has; the others are not shown (and not read).
        self.shown = {"label", *self.option_names.values(), *(name for _, name in self.house_rules)}
        if unit_type.quality_prices:
            self.shown.add("quality")
        if unit_type.min_size is not None or unit_type.max_size is not None:
            self.shown.add("size")
        if len(self.fields["officer_rank"].widget.choices) > 1:
            self.shown.add("officer_rank")
        if carriers:
            self.shown.add("transport")
        if system.config.get("hero_points"):
            self.shown.add("hero_points")
        if len(forces) > 1:
            self.shown.add("force")

    @classmethod
    def initial_for(cls, unit: UnitChoice, transport_id: int | None, force_id: int | None = None) -> dict:
        """The form's values for a unit as saved."""
        initial = {
            "label": unit.label,
            "quality": unit.quality or "",
            "size": unit.size_counted if unit.size is not None else None,
            "officer_rank": unit.officer_rank or "",
            "transport": transport_id,
            "hero_points": unit.hero_points,
            "force": force_id,
        }
        groups = one_of_groups(unit.unit_type.options.values())
        for key, count in unit.options.items():
            option = unit.unit_type.options[key]
            if option.group in groups:
                initial[choice_name(option.group)] = key
            initial[f"option-{key}"] = bool(count) if is_single_option(option) else count
        return initial

    def shown_fields(self) -> set[str]:
        return self.shown

    def option_fields(self) -> list[tuple[str, forms.BoundField]]:
        """The options bought on their own (a tick box or a count), by key; one-of choices are `choice_fields`."""
        return [(key, self[name]) for key, name in self.option_names.items() if name.startswith("option-")]

    def choice_fields(self) -> list[tuple[forms.BoundField, list[OptionInfo]]]:
        """Each one-of choice (a Lieutenant's weapon) as one field, with the options it chooses between."""
        return [(self[choice_name(group)], members) for group, members in self.choices.items()]

    def house_rule_fields(self) -> list[tuple[models.SpecialRule, forms.BoundField]]:
        return [(rule, self[name]) for rule, name in self.house_rules]

    def clean(self):
        cleaned = super().clean()
        options = {}
        for group in self.choices:
            name = choice_name(group)
            picked = [value for value in self.data.getlist(name) if value] if hasattr(self.data, "getlist") else []
            if len(set(picked)) > 1:
                names = " and ".join(
                    self.unit_type.options[key].name for key in dict.fromkeys(picked) if key in self.unit_type.options
                )
                self.add_error(
                    name, f"Choose one {self.fields[name].label.lower()}: {names or 'two'} were both chosen."
                )
            elif cleaned.get(name):
                options[cleaned[name]] = 1
        for key, name in self.option_names.items():
            if not name.startswith("option-"):
                continue
            value = cleaned.get(name)
            count = int(value) if isinstance(value, bool) else value or 0
            if count:
                options[key] = count
        cleaned["options"] = options
        cleaned["house_rules"] = judge_house_rules(self)
        cleaned["size"] = self._own_men(cleaned.get("size"), cleaned.get("quality") or None, options)
        cleaned["label"] = (cleaned.get("label") or "").strip() or self.unit_type.name
        cleaned["quality"] = cleaned.get("quality") or None
        cleaned["officer_rank"] = cleaned.get("officer_rank") or None
        cleaned["hero_points"] = cleaned.get("hero_points") or 0
        refusals = label_refusals(cleaned["label"], self.taken_labels) + unit_refusals(
            self.system,
            self.army_key,
            self.unit_type,
            quality=cleaned["quality"],
            size=cleaned.get("size"),
            officer_rank=cleaned["officer_rank"],
            options=options,
            hero_points=cleaned["hero_points"],
        )
        self.refuse(refusals, {f"options.{key}": name for key, name in self.option_names.items()})
        return cleaned

    def _own_men(self, men: int | None, quality: str | None, options: dict[str, int]) -> int | None:
        """The unit's own men from the Men shown, which counts the men its options add: seven men with a BAR
        gunner are six of its own and the gunner. Fewer than the options add is refused on the field."""
        if men is None:
            return None
        added = UnitChoice(0, "", self.unit_type, quality=quality, options=options).added_in_size
        if added and men - added < 1:  # with none added, the size's own refusal says what is wrong
            self.add_error("size", f"Men count the {added} its options add: give at least {added + 1}.")
            return None
        return men - added


def add_house_rule_fields(form: forms.Form, offered) -> list[tuple[models.SpecialRule, str]]:
    """A number field `house_rule-<id>` for each house rule offered, starting at the count bought."""
    names = []
    for rule, count in offered:
        name = f"house_rule-{rule.id}"
        form.fields[name] = _number(0, HOUSE_RULE_COUNT_MAX)
        form.fields[name].label = rule.name
        form.initial.setdefault(name, count)
        names.append((rule, name))
    return names


def judge_house_rules(form) -> dict[int, int]:
    """The counts posted for the form's house rules, by rule id; a refused count is shown on its field."""
    counts = {}
    for rule, name in form.house_rules:
        count = form.cleaned_data.get(name) or 0
        refusals = house_rule_refusals(rule.name, count, name)
        form.refuse(refusals)
        if count and not refusals:
            counts[rule.id] = count
    return counts


def choice_name(group: str) -> str:
    return f"choice-{group}"


def one_of_groups(options) -> dict[str, list[OptionInfo]]:
    """The option groups a unit takes one of (each option once at most, two or more to choose from): a
    Lieutenant's SMG, Rifle or Assault Rifle; an armoured car's variant."""
    groups: dict[str, list[OptionInfo]] = {}
    for option in options:
        if option.group:
            groups.setdefault(option.group, []).append(option)
    return {
        group: members
        for group, members in groups.items()
        if len(members) > 1 and all(is_single_option(o) and not o.every_man for o in members)
    }


def _one_of_field(group: str, members: list[OptionInfo]) -> forms.ChoiceField:
    """Radio buttons: none (the unit as listed) or one of the group's options."""
    replaced = any(o.replaces for o in members)
    none = "As listed" if replaced else "None"
    field = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, choices=[("", none), *((o.key, o.name) for o in members)]
    )
    field.label = group.replace("-", " ").capitalize()
    return field


def is_single_option(option) -> bool:
    """An option bought once or not at all (a tick box), rather than a number of times."""
    return (option.per == "unit" and option.max == 1) or option.every_man
