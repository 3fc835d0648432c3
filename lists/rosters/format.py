"""The roster file format (armybuilder-roster/1): its schema, its limits, and the problems a file can have.

See docs/roster-format.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from lists.rules.validation import FORCES_MAX, HOUSE_RULE_COUNT_MAX, NAME_MAX_LENGTH, NOTE_MAX_LENGTH, one_line

FORMAT = "armybuilder-roster/1"
MAX_FILE_BYTES = 512 * 1024
MAX_DEPTH = 20
MAX_UNITS = 400
MAX_HOUSE_RULES = 100
MAX_COUNT = HOUSE_RULE_COUNT_MAX
MAX_DIGITS = 18  # no number in a roster file is longer; a longer one is refused before it is converted

Label = Annotated[
    str, StringConstraints(min_length=1, max_length=NAME_MAX_LENGTH, strip_whitespace=True), AfterValidator(one_line)
]


def short_note(text: str) -> str:
    if len(text) > NOTE_MAX_LENGTH:
        raise ValueError(f"a unit's note holds at most {NOTE_MAX_LENGTH} characters, not {len(text)}: shorten it")
    return text


Note = Annotated[str, StringConstraints(strip_whitespace=True), AfterValidator(one_line), AfterValidator(short_note)]
Ref = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class OptionEntry(_Input):
    option: Ref
    count: int = 1


class HouseRuleEntry(_Input):
    house_rule: Ref
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    unit: Label | int | None = None  # the label (or 1-based position) of the unit it is bought for


class UnitEntry(_Input):
    unit: Ref
    label: Label | None = None
    quality: Ref | None = None
    size: int | None = None
    officer_rank: Ref | None = None
    options: list[Ref | OptionEntry] = []
    transport: Label | int | None = None
    hero_points: int = 0
    note: Note = ""  # the player's own words on the unit, one line (docs/roster-format.md)


class ForceEntry(_Input):
    """One force (platoon): its organisation (default: the first the army may use), name and units."""

    organisation: Ref | None = None
    name: Label | None = None
    units: list[UnitEntry] = Field(default=[], max_length=MAX_UNITS)


class RosterFile(_Input):
    format: str = FORMAT
    game: Ref
    army: Ref
    organisation: Ref | None = None  # the older form: one force, its units at the top level
    name: Label = "Untitled roster"
    points_limit: int | None = None
    year: int | None = None
    period: Ref | None = None
    settings: dict[Ref, bool | int | str | None] = {}
    overlays: list[Ref] = Field(
        default=[], max_length=20
    )  # the house-rule overlays played (lists/gamedata/overlays.py)
    house_rules: list[Ref | HouseRuleEntry] = Field(default=[], max_length=MAX_HOUSE_RULES)
    forces: list[ForceEntry] | None = Field(default=None, max_length=FORCES_MAX)
    units: list[UnitEntry] = Field(default=[], max_length=MAX_UNITS)

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value != FORMAT:
            raise ValueError(f"this site reads roster files of format {FORMAT}, not {value[:40]!r}")
        return value

    @model_validator(mode="after")
    def _one_form(self) -> RosterFile:
        if self.forces is not None and (self.units or self.organisation is not None):
            raise ValueError("give either forces (each with its organisation and units) or organisation and units")
        if sum(len(force.units) for force in self.force_entries()) > MAX_UNITS:
            raise ValueError(f"a roster holds at most {MAX_UNITS} units")
        return self

    def force_entries(self) -> list[ForceEntry]:
        """The file's forces; the older form (organisation and units at the top level) is one force."""
        if self.forces is not None:
            return self.forces
        return [ForceEntry.model_construct(organisation=self.organisation, name=None, units=self.units)]

    def unit_entries(self) -> list[tuple[str, int, UnitEntry]]:
        """Every unit in roster order, with its path in the file and the position of its force."""
        prefix = "forces.{}.units" if self.forces is not None else "units"
        return [
            (f"{prefix.format(f_index)}.{u_index}", f_index, unit)
            for f_index, force in enumerate(self.force_entries())
            for u_index, unit in enumerate(force.units)
        ]


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = ", ".join(part for part in (f"line {self.line}" if self.line else "", self.path) if part)
        return f"{where}: {self.message}" if where else self.message


MAX_PROBLEMS = 50  # a file with thousands of problems is told its first ones: the page and any log stay small
STOPPED = f"and more problems: the file was read no further than its first {MAX_PROBLEMS}; fix these first"


class RosterFileInvalid(Exception):
    """A file that cannot be used: at most MAX_PROBLEMS problems, then a last line saying how many more there are
    (`more`), or that reading stopped there (`stopped`: the readers stop at the cap, so their time is bounded)."""

    def __init__(self, problems: list[Problem], more: int = 0, stopped: bool = False):
        more += max(0, len(problems) - MAX_PROBLEMS)
        if more or stopped:
            last = f"and {more:,} more problems; fix these first" if more and not stopped else STOPPED
            problems = [*problems[:MAX_PROBLEMS], Problem("", last)]
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))
