"""The army pickers: the home page's (a roster's army) and an event's armies allowed, grouped by nation."""

from __future__ import annotations

from lists.models import Army, GameSystem, army_title


def army_groups(games: list[GameSystem], value: str = "id") -> list[tuple[str, list[tuple[int | str, str]]]]:
    """The armies a roster starts with, one group per game and nation (a nation's theatre lists under
    it), each named so that two nations' lists never look alike: "1944: Normandy (Armies of Great Britain)".
    Each army is given by its `value` ("id", or "key" for an event's armies allowed)."""
    groups: dict[tuple[int, int], tuple[str, list[tuple[int, str]]]] = {}
    armies = Army.objects.filter(system__in=games).prefetch_related("borrows_from").order_by("system", "name")
    names = {game.id: game.name for game in games}
    for army in armies:
        nation = next(iter(army.borrows_from.all()), None) or army
        # A hand-written army of its own joins its game's group; a nation (and its theatre lists) has one.
        alone = nation is army and not army.source_id
        label = names[army.system_id] if alone else f"{names[army.system_id]}: {nation.name}"
        entry = (getattr(army, value), army_title(army.name, None if nation is army else nation.name))
        choices = groups.setdefault((army.system_id, 0 if alone else nation.id), (label, []))[1]
        # The nation's own army (every unit) first, then its theatre lists by name.
        choices.insert(0, entry) if nation is army else choices.append(entry)
    return [groups[key] for key in sorted(groups, key=lambda key: (names[key[0]], key[1] != 0, groups[key][0]))]
