"""The project's own summaries of the rules BattleScribe names but the base pack lacks.

The data's rule descriptions are the books' words and never reach a pack; the
converter gives each rule it imports the summary kept here under the rule's key,
written in the project's words, and imports a rule by name only when it has none.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field


class WeaponNote(BaseModel):
    """What the rule changes in the printed profile of these weapons (the pack's `modifies`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    weapons: list[str] = Field(min_length=1)  # the base pack's weapon keys
    note: str = Field(min_length=1, max_length=60)
    replaces: str | None = None  # the rule whose note on these weapons this one stands in for


class RuleSummary(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    summary: str = Field(min_length=1, max_length=4000)
    reminder: str | None = Field(default=None, min_length=1, max_length=200)  # the card's line, else the first sentence
    label: bool = False  # a name with no game effect of its own (the summary says what it marks)
    modifies: list[WeaponNote] = []  # its effect, noted on the lines of the weapons it changes
    applies_to: dict[str, list[str]] | None = None  # the units its card line is printed on (the pack's field)
    building: bool = False  # a rule for building the list (what counts as a selection), not for play

    @property
    def on_cards(self) -> bool:
        """Whether the rule is played at the table, so printed on unit cards: labels and list-building rules are not."""
        return not (self.label or self.building)


def load_summaries(path: Path) -> dict[str, RuleSummary]:
    """The summaries file: rule key -> its summary (an absent file gives none)."""
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    return {key: RuleSummary.model_validate(value) for key, value in data.items()}


def load_unit_rules(path: Path) -> dict[str, list[str]]:
    """The rules file: a unit entry's name -> the names of the pack rules it is given (an absent file gives none)."""
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    return {str(name): [str(rule) for rule in rules] for name, rules in data.items()}
