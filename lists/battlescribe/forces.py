"""Forces and army lists: the game system's force entries as organisations (a slot per category, with
its limits and repeats), and each theatre selector of a catalogue as an army list."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from lxml.etree import _Element as Element

from lists.battlescribe.conditions import conditions_hold
from lists.battlescribe.converter import Converter
from lists.battlescribe.names import THEATRE_SELECTOR, TRAILING_NOTE, number, slug, whole
from lists.battlescribe.nodes import Army, Node
from lists.battlescribe.reader import DataFile


def organisation_key(force: Element) -> str:
    """The pack key of the organisation a force entry converts to."""
    return "bs-" + slug(force.get("name", "force"))


def limit_value(value: float) -> int:
    return int(value) if value == int(value) else whole(value)


def selectors(converter: Converter, army: Army) -> None:
    """Every entry under a theatre selector becomes an army list (added to `army.selector_ids`)."""
    seen: set[str] = set()
    keys: set[str] = set()
    for element in army.catalogue.root.iter():
        if element.tag not in ("selectionEntry", "selectionEntryGroup"):
            continue
        if (element.get("name") or "").strip() != THEATRE_SELECTOR:
            continue
        pending = [Node(element)]
        while pending:
            node = pending.pop(0)
            for child in converter.children(node, army.catalogue):
                if child.is_group or child.element.get("name", "").strip() == THEATRE_SELECTOR:
                    pending.append(child)
                    continue
                selector_id = child.element.get("id", "")
                if selector_id in seen:
                    continue
                seen.add(selector_id)
                base = f"{army.key}-{slug(TRAILING_NOTE.sub('', child.name), 60)}"
                key, suffix = base, 2
                while key in keys:
                    key, suffix = f"{base}-{suffix}", suffix + 1
                keys.add(key)
                army.selector_ids.append((selector_id, key, child.name))


@dataclass
class ListRules:
    """A catalogue's rules as its army lists have them: the nation's, and each theatre list's own and left out."""

    national: list[str] = field(default_factory=list)
    choices: list[dict] = field(default_factory=list)  # sets of national rules a player takes one of
    own: dict[str, list[str]] = field(default_factory=dict)  # theatre list key -> its rules the nation lacks
    left_out: dict[str, list[str]] = field(default_factory=dict)  # theatre list key -> national rules it lacks


def list_rules(converter: Converter, army: Army) -> ListRules:
    """The catalogue's rules by theatre list, as the data shows them: a rule is shown in the lists whose
    selector its hidden modifiers name. Those shown in at least half the lists are the nation's national
    rules (each list has them unless the data leaves it out); the others belong to the lists showing them."""
    shown_in: dict[str, list[str]] = {}
    for rule in army.catalogue.root.findall("rules/rule"):
        key = converter.rule_key(rule.get("name", ""), rule.get("id", ""), army.catalogue.name)
        if key in converter.rules:
            converter.rules[key]["kind"] = "army"  # a rule of the army list, not of one unit
        shown = converter.visible_in(Node(rule), army) if army.selector_ids else [army.key]
        if not shown:
            converter.report.skip(
                f"{army.catalogue.name}: {rule.get('name', '')}",
                rule.get("id", ""),
                "a rule shown only with a roster-wide choice (which book's national rules): in the army's rule_choices",
            )
        shown_in.setdefault(key, [])
        shown_in[key] += [list_key for list_key in shown if list_key not in shown_in[key]]
    lists_count = max(1, len(army.selector_ids))
    found = ListRules(national=[key for key, shown in shown_in.items() if shown and 2 * len(shown) >= lists_count])
    found.choices = rule_choices(converter, army, lists_count)
    for _, list_key, _ in army.selector_ids:
        found.own[list_key] = [k for k, shown in shown_in.items() if list_key in shown and k not in found.national]
        found.left_out[list_key] = [k for k in found.national if list_key not in shown_in[k]]
        if found.left_out[list_key]:
            converter.report.pattern("a national rule the data leaves out of one theatre list: left out there")
    return found


def rule_choices(converter: Converter, army: Army, lists_count: int) -> list[dict]:
    """Root entries whose choices each show a set of rules in most lists (Italy's "National Rules": which
    book's): each choice with its rules, the set a player takes one of."""
    catalogue = army.catalogue
    rules = catalogue.root.findall("rules/rule")
    found = []
    for entry in catalogue.root.findall("selectionEntries/selectionEntry"):
        node = converter.resolve(entry, catalogue)
        if node is None or node.name == THEATRE_SELECTOR:
            continue
        groups = [child for child in converter.children(node, catalogue) if child.is_group]
        for choice in [leaf for group in groups for leaf in converter.children(group, catalogue)]:
            chosen = frozenset({choice.id, choice.element.get("id", "")})
            keys = [
                converter.rule_key(rule.get("name", ""), rule.get("id", ""), catalogue.name)
                for rule in rules
                if 2 * len(converter.visible_in(Node(rule), army, chosen)) >= lists_count
                and not converter.visible_in(Node(rule), army)
            ]
            if keys:
                found.append({"name": choice.name, "rules": keys})
                converter.report.pattern("a set of national rules chosen for the roster (which book's): a choice")
            elif named := named_rule(converter, catalogue, node, choice):
                found.append({"name": choice.name, "rules": [named]})
                converter.report.pattern("a national rule chosen for the roster, named by its choice: a choice")
    return found


def named_rule(converter: Converter, catalogue: DataFile, root: Node, choice: Node) -> str | None:
    """The rule a choice holding nothing but its name stands for (Great Britain's "National Charateristic":
    Rapid Fire, Vengeance...), keyed by the root entry and the choice, as other nations name rules alike; only
    where our summaries word it, as a bare name would tell the player nothing."""
    key = "bs-" + slug(f"{root.name} {choice.name}", 70)
    if key not in converter.rule_summaries or converter.children(choice, catalogue) or choice.cost:
        return None
    return converter.rule_key(choice.name, choice.element.get("id", ""), catalogue.name, key)


def slot_growth(converter: Converter, link: Element, most: Element, data_file: DataFile, where: str) -> list[dict]:
    """How a slot's most grows with other units: an increment repeating per so many of a category."""
    terms = []
    for modifier in link.findall("modifiers/modifier"):
        if modifier.get("field") != most.get("id"):
            continue
        repeats = modifier.findall("repeats/repeat")
        if modifier.get("type") != "increment" or not repeats or modifier.find("conditions") is not None:
            converter.report.skip(where, modifier.get("field", ""), "a conditional change of a slot limit")
            continue
        for repeat in repeats:
            counted = converter.category(repeat.get("childId", ""), data_file)
            if counted is None:
                converter.report.skip(
                    where, repeat.get("childId", ""), "a repeat counting something else than a category"
                )
                continue
            each = number(modifier.get("value")) / (number(repeat.get("value")) or 1)
            terms.append({"categories": [counted], "each": each})
    return terms


NAMED_RANGE = re.compile(r"\(\s*0\s*-\s*(\d+)\s*\)")


def named_most(converter: Converter, link: Element, selectors: dict[str, str]) -> tuple[int | None, dict[str, int]]:
    """A slot's most stated only in the text its name is given, "Medic (0-1)" (the Italian force entries):
    the data's own figure for players to read. Where theatres name different figures ("Infantry (0-3)" in
    one, "(0-4)" in eight), the highest is the slot's `max` and each lower one the list's own (`max_in`);
    lists naming none take the figure most lists name. `selectors` maps army keys to their selector ids."""
    figures = [
        (int(match.group(1)), modifier)
        for modifier in link.findall("modifiers/modifier")
        if modifier.get("field") == "name" and (match := NAMED_RANGE.fullmatch(modifier.get("value", "").strip()))
    ]
    if not figures:
        return None, {}
    if all(modifier.find("conditions") is None and modifier.find("conditionGroups") is None for _, modifier in figures):
        converter.report.pattern("a slot's most stated only in its name, '(0-1)': read as its limit")
        return max(figure for figure, _ in figures), {}
    named = {}
    for army_key, selector_id in selectors.items():
        stated = [figure for figure, modifier in figures if conditions_hold(modifier, {selector_id})]
        if stated:
            named[army_key] = max(stated)
    usual = Counter(named.values()).most_common(1)[0][0] if named else max(figure for figure, _ in figures)
    by_army = {army_key: named.get(army_key, usual) for army_key in selectors}
    most = max([usual, *by_army.values()])
    converter.report.pattern(
        "a slot's most stated in its name and changed by theatre: each list's own, the most usual where none"
    )
    return most, {army_key: figure for army_key, figure in by_army.items() if figure < most}


def slot(
    converter: Converter, link: Element, data_file: DataFile, where: str, selectors: dict[str, str]
) -> dict | None:
    """A force entry's category link as a slot with its least and most, or None for an unknown category;
    `selectors` maps the army keys of the organisation to their theatre selector ids."""
    category = converter.category(link.get("targetId", ""), data_file)
    if category is None:
        converter.report.skip(where, link.get("id", ""), "a slot for an unknown category")
        return None
    found: dict = {"key": slug(link.get("name") or category), "name": link.get("name") or category}
    found["categories"] = [category]
    limits = {c.get("type"): c for c in link.findall("constraints/constraint")}
    if "min" in limits:
        found["min"] = limit_value(number(limits["min"].get("value")))
    if "max" in limits:
        terms = slot_growth(converter, link, limits["max"], data_file, where)
        base = limit_value(number(limits["max"].get("value")))
        found["max"] = {"base": base, "per": terms} if terms else base
        if terms:
            converter.report.pattern("a slot limit that grows with other units (one transport per infantry unit)")
    else:
        named, by_army = named_most(converter, link, selectors)
        if named is not None:
            found["max"] = named
        if by_army:
            found["max_in"] = by_army
    found["source_id"] = link.get("id", "")
    return found


def organisations(converter: Converter, data_file: DataFile, armies: dict[str, str]) -> list[dict]:
    """Force entries as organisations for these armies (army key -> its theatre selector id): a slot per
    category with its limits and repeats."""
    found = []
    for force in data_file.root.iter("forceEntry"):
        where = f"{data_file.name}: {force.get('name')}"
        links = force.findall("categoryLinks/categoryLink")
        slots = [slot(converter, link, data_file, where, armies) for link in links]
        slots = [s for s in slots if s is not None]
        keys = [s["key"] for s in slots]
        for each in slots:
            if keys.count(each["key"]) > 1:
                each["key"] = f"{each['key']}-{each['source_id'][:4]}"
        if not slots:
            continue
        found.append(
            {
                "key": organisation_key(force),
                "name": force.get("name", ""),
                "summary": "Force organisation from the BattleScribe data: each slot holds units of one category.",
                "armies": list(armies),
                "slots": slots,
                "source": {"document": "bsdata", "section": data_file.name, "entry": force.get("name", "")},
                "source_id": force.get("id", ""),
            }
        )
        converter.report.counts["organisations converted"] += 1
    return found
