"""Corrections of known data bugs, applied to the parsed files before conversion.

Each override names the value the data holds and the value used, with the
reason; one that no longer matches the data is reported, never applied.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from lists.battlescribe.organisation_facts import OrganisationFact
from lists.battlescribe.reader import Library


class Override(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str | None = None  # the data file; None: every file
    id: str | None = None  # the element's id; None: every element with the source value
    # name, cost, a profile's characteristic:NAME, targetId (what a link points to: another profile's id),
    # value (a constraint's number), childId (what the conditions of the element's own modifiers count),
    # scope (where they count it), alsoChildId (conditions counting the source entry copied to count the used
    # one as well: a theatre list the data's rules forgot), hidden (an element's own hidden flag), or
    # modifier:FIELD (a modifier of that field dropped, or changed; source_value "TYPE VALUE", e.g.
    # "increment 1.0", used_value "none" or the "TYPE VALUE" it takes instead), or
    # shown_name (a typo in names the player reads: the text replaced in the pack's names after conversion, so
    # the keys, made from the data's own spelling and named by saved rosters, stay as they were).
    field: str = Field(
        pattern=r"^(name|shown_name|cost|targetId|value|childId|alsoChildId|scope|hidden|characteristic:.+|modifier:.+)$"
    )
    source_value: str
    used_value: str
    reason: str = Field(min_length=1)
    nth: int | None = Field(default=None, ge=1)  # childId: only the nth condition counting the source (1: the first)


class OverridesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    overrides: list[Override] = []
    organisation_facts: list[OrganisationFact] = []


ATTRIBUTES = ("name", "targetId", "value", "hidden")  # the fields an override sets on the element itself


@dataclass
class Applied:
    override: Override
    count: int


def load_overrides(path: Path) -> OverridesFile:
    return OverridesFile.model_validate(yaml.safe_load(path.read_text()) or {})


def _targets(library: Library, override: Override):
    for data_file in [library.system, *library.catalogues]:
        if override.file and data_file.name != override.file:
            continue
        for element in data_file.root.iter():
            if override.id is None or element.get("id") == override.id:
                yield element


def _characteristic_holds(element, override: Override) -> bool:
    """A profile characteristic (field `characteristic:NAME`) whose text holds the source value."""
    return (
        override.field.startswith("characteristic:")
        and element.tag == "characteristic"
        and element.get("name") == override.field.partition(":")[2]
        and override.source_value in (element.text or "")
    )


def _drop_modifier(element, override: Override) -> int:
    """Remove the element's modifiers of field `modifier:FIELD` whose "TYPE VALUE" is the source value, or
    give them the used value's type and value."""
    if not override.field.startswith("modifier:"):
        return 0
    target = override.field.partition(":")[2]
    dropped = 0
    for holder in element.findall("modifiers"):
        for modifier in list(holder):
            shown = f"{modifier.get('type')} {modifier.get('value')}"
            if modifier.get("field") == target and shown == override.source_value:
                if override.used_value == "none":
                    holder.remove(modifier)
                else:
                    kind, _, value = override.used_value.partition(" ")
                    modifier.set("type", kind)
                    modifier.set("value", value)
                dropped += 1
    return dropped


def _recount(element, override: Override) -> int:
    """Point the conditions of the element's own modifiers counting the source entry (or counting in the
    source scope, field `scope`) at the used one."""
    changed = seen = 0
    for modifier in element.findall("modifiers/modifier"):
        for condition in modifier.iter("condition"):
            if condition.get(override.field) == override.source_value:
                seen += 1
                if override.nth is None or seen == override.nth:
                    condition.set(override.field, override.used_value)
                    changed += 1
    return changed


def _also_count(element, override: Override) -> int:
    """Beside each condition of the element's own modifiers counting the source entry, one counting the used one."""
    added = 0
    for modifier in element.findall("modifiers/modifier"):
        for holder in list(modifier.iter("conditions")):
            for condition in list(holder):
                if condition.tag == "condition" and condition.get("childId") == override.source_value:
                    copy = deepcopy(condition)
                    copy.set("childId", override.used_value)
                    holder.append(copy)
                    added += 1
    return added


def apply_overrides(library: Library, overrides: list[Override]) -> list[Applied]:
    """Apply each override where the data still holds its source value; count the places."""
    applied = []
    for override in overrides:
        if override.field == "shown_name":
            continue  # applied to the converted pack (apply_shown_names)
        count = 0
        for element in _targets(library, override):
            if override.field in ATTRIBUTES and element.get(override.field) == override.source_value:
                element.set(override.field, override.used_value)
                count += 1
            elif override.field == "cost":
                for cost in element.findall("costs/cost"):
                    if cost.get("typeId") == "points" and cost.get("value") == override.source_value:
                        cost.set("value", override.used_value)
                        count += 1
            elif override.field in ("childId", "scope"):
                count += _recount(element, override)
            elif override.field == "alsoChildId":
                count += _also_count(element, override)
            elif _characteristic_holds(element, override):
                element.text = (element.text or "").replace(override.source_value, override.used_value)
                count += 1
            else:
                count += _drop_modifier(element, override)
        applied.append(Applied(override, count))
    library.index()
    return applied


def apply_shown_names(files: dict[str, dict], overrides: list[Override]) -> list[Applied]:
    """Correct the names a player reads in the converted pack files (every `name` holding an override's source
    text, whatever it names: army, unit, option, rule, weapon); keys and the citations' entries are untouched."""
    applied = []
    for override in overrides:
        if override.field != "shown_name":
            continue
        count = 0
        for content in files.values():
            count += _rename(content, override.source_value, override.used_value)
        applied.append(Applied(override, count))
    return applied


def _rename(node, wrong: str, right: str) -> int:
    count = 0
    if isinstance(node, dict):
        name = node.get("name")
        if isinstance(name, str) and wrong in name:
            node["name"] = " ".join(name.replace(wrong, right).split())
            count += 1
        for key, value in node.items():
            if key != "name":
                count += _rename(value, wrong, right)
    elif isinstance(node, list):
        for value in node:
            count += _rename(value, wrong, right)
    return count
