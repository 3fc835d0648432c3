"""A plain name for every unit an army fields, one no other unit of the army has: what roster.txt prints.

BattleScribe lists some units twice under one name (a squad under "Compulsory Units" and under
"Infantry", with different options). The first keeps its bare name (the one a name alone has always
meant when a roster file is read); each other adds its category in brackets ("Heer Grenadier Squad
(Infantry)"), and a number where the category is shared too.
"""

from __future__ import annotations

from collections import defaultdict

from lists.rules.validation import one_line


def plain_text(text: str, notes: bool = False) -> str:
    """A name as every name of ours is kept (`validation.one_line`: one line, NFC, no control characters nor
    what no XML may hold), or `notes`, each of their lines so kept; ValueError says what it holds."""
    if notes:
        return "\n".join(one_line(line) for line in text.splitlines()).strip()
    return one_line(text)


def _normal(text: str) -> str:
    return " ".join(text.casefold().replace("’", "'").split())


def plain_unit_names(data, army_key: str) -> dict[int, str]:
    """unit id -> the name roster.txt gives it in this army: its own, or its own and its category."""
    army = next((a for a in data.armies.values() if a.key == army_key), None)
    if army is None:
        return {}
    unit_ids = list(dict.fromkeys(unit_id for _, unit_id in data.available_units(army.id)))
    by_name: dict[str, list[int]] = defaultdict(list)
    for unit_id in unit_ids:
        by_name[_normal(data.unit_types[unit_id].name)].append(unit_id)
    names = {}
    for same in by_name.values():
        names[same[0]] = data.unit_types[same[0]].name  # the one its bare name has always meant
        categories = [data.unit_types[unit_id].category_name for unit_id in same]
        for position, unit_id in enumerate(same[1:], start=1):
            qualifier = categories[position]
            if not qualifier or categories.count(qualifier) > 1:  # numbered among those of its category
                qualifier = f"{qualifier} {categories[: position + 1].count(qualifier)}".strip()
            names[unit_id] = f"{data.unit_types[unit_id].name} ({qualifier})"
    return names


def plain_army_name(data, army) -> str:
    """The army as roster.txt names it: its name, and where another army has that name (two nations'
    "1944: Normandy") the nation's list it comes from in brackets; its key if even that is shared."""
    if " ".join(army.name.casefold().split()) not in data.shared_army_names:
        return army.name
    parents = [data.armies[other].name for other in army.borrows_from if other in data.armies]
    named = f"{army.name} ({parents[0]})" if parents else army.key
    twins = [a for a in data.armies.values() if a.name == army.name and a.borrows_from[:1] == army.borrows_from[:1]]
    return army.key if len(twins) > 1 else named


def army_by_plain_name(data, ref: str):
    """The army a roster.txt names by key, by a name no other army has, or by its plain name; else None."""
    wanted = _normal(ref)
    for army in data.armies.values():
        if wanted in {_normal(army.key), _normal(plain_army_name(data, army))}:
            return army
    return None
