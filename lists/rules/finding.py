"""What a rule check reports."""

from __future__ import annotations

from dataclasses import dataclass

from lists.gamedata.snapshot import UnitChoice


@dataclass(frozen=True)
class Finding:
    """One thing wrong (or doubtful) with a roster.

    `code` is a stable identifier (see the design's table); `rule` is the key of
    the pack rule or organisation it enforces, so pages can link to its text.
    """

    code: str
    severity: str  # "error" or "warning"
    message: str  # what is wrong and where
    fix: str  # how to put it right
    rule: str
    rule_name: str = ""
    unit: str | None = None  # the roster unit's label
    unit_index: int | None = None

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": f"{self.message} {self.fix}".strip(),
            "unit": self.unit,
            "rule": self.rule,
        }


def error(code: str, message: str, fix: str, rule: str, unit: UnitChoice | None = None, rule_name: str = "") -> Finding:
    return Finding(
        code, "error", message, fix, rule, rule_name, unit.label if unit else None, unit.index if unit else None
    )


def warning(
    code: str, message: str, fix: str, rule: str, unit: UnitChoice | None = None, rule_name: str = ""
) -> Finding:
    return Finding(
        code, "warning", message, fix, rule, rule_name, unit.label if unit else None, unit.index if unit else None
    )


def counted(count: int, word: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: "1 unit", "2 units", "1 man", "3 men"."""
    return f"{count} {word if count == 1 else plural or word + 's'}"
