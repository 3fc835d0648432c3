"""BattleScribe entries as the roster sees them (a link merged with its target), the report and armies."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lxml.etree import _Element as Element

from lists.battlescribe.names import MAN, QUALITIES, number, quality_name, role_of
from lists.battlescribe.reader import DataFile


@dataclass
class Report:
    """What was converted and what was not, with reasons."""

    counts: Counter = field(default_factory=Counter)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # where, what, why
    patterns: Counter = field(default_factory=Counter)  # patterns recognised but not carried, by reason
    no_effect: list[tuple[str, str, str]] = field(default_factory=list)  # where, entry id, why: data errors

    def skip(self, where: str, what: str, why: str) -> None:
        self.skipped.append((where, what, why))

    def pattern(self, why: str) -> None:
        self.patterns[why] += 1

    def without_effect(self, where: str, what: str, why: str) -> None:
        """Data BattleScribe itself never applies (a modifier counting an entry where it never is)."""
        self.no_effect.append((where, what, why))


@dataclass
class Node:
    """An entry or group as the roster sees it: a link merged with its target."""

    element: Element
    link: Element | None = None

    @property
    def is_group(self) -> bool:
        return self.element.tag == "selectionEntryGroup"

    @property
    def name(self) -> str:
        """The entry's name, its spaces folded (the data's "Veteran  Soldier")."""
        linked = self.link.get("name") if self.link is not None else None
        return " ".join((linked or self.element.get("name") or "").split())

    @property
    def id(self) -> str:
        return (self.link if self.link is not None else self.element).get("id", "")

    @property
    def entry_type(self) -> str:
        return self.element.get("type", "")

    def parts(self) -> list[Element]:
        return [self.element] if self.link is None else [self.link, self.element]

    @property
    def cost(self) -> float:
        """Points of the entry: a link's own cost plus its target's (BattleScribe adds them)."""
        total = 0.0
        for part in self.parts():
            for cost in part.findall("costs/cost"):
                if cost.get("typeId") == "points":
                    total += number(cost.get("value"))
        return total

    def limit(self, kind: str) -> float | None:
        """The min or max selections at parent scope; a link's own constraint wins."""
        for part in reversed(self.parts()):
            for constraint in part.findall("constraints/constraint"):
                if (
                    constraint.get("type") == kind
                    and constraint.get("field") == "selections"
                    and constraint.get("scope") == "parent"
                ):
                    return number(constraint.get("value"))
        return None

    def constraints(self) -> list[Element]:
        return [c for part in self.parts() for c in part.findall("constraints/constraint")]

    def modifiers(self) -> list[Element]:
        return [m for part in self.parts() for m in part.findall("modifiers/modifier")]

    @property
    def hidden(self) -> bool:
        return any(part.get("hidden") == "true" for part in self.parts())

    def info_links(self, kind: str) -> list[Element]:
        return [i for part in self.parts() for i in part.findall("infoLinks/infoLink") if i.get("type") == kind]

    def profiles(self) -> list[Element]:
        return [p for part in self.parts() for p in part.findall("profiles/profile")]

    def rules(self) -> list[Element]:
        return [r for part in self.parts() for r in part.findall("rules/rule")]


def chosen_default(group: Node, entries: list[Node]) -> Node | None:
    """The entry BattleScribe selects in a compulsory one-of group: one compulsory in itself (its own
    least number 1, selected with the man or vehicle whatever the group's default: a Soviet Assault
    Engineer NCO's SMG, a Renault FT's MMG), else the group's `defaultSelectionEntryId`; None where
    the data names neither (each caller has its own fallback). A Rating group holding a compulsory gun
    beside its quality entries (the Marder II) is read otherwise (docs/battlescribe.md, "Readings"):
    there the gun is not taken as the default."""
    rating = any(quality_name(c.name) in QUALITIES for c in entries)
    compulsory = [] if rating else [c for c in entries if (c.limit("min") or 0) >= 1]
    if compulsory:
        return compulsory[0]
    wanted = group.element.get("defaultSelectionEntryId")
    return next((c for c in entries if wanted and wanted in (c.id, c.element.get("id"))), None)


@dataclass
class Army:
    key: str
    name: str
    catalogue: DataFile
    source_id: str
    selector_ids: list[tuple[str, str, str]] = field(default_factory=list)  # (id, key, name)


def is_man(node: Node) -> bool:
    """A model entry, or one named for a man or an NCO (a Partisan "Regular Man", an upgrade by type)."""
    return node.entry_type == "model" or bool(MAN.search(node.name)) or role_of(node.name, "infantry") == "nco"
