"""House-rule overlays a roster plays: off until chosen; only then are their priced house rules offered.

A roster file names them under `overlays:` (a file buying one of their house rules turns its overlay
on too); the editor's settings tick them. Switching one off while its house rules are bought is refused.
"""

from __future__ import annotations

from lists import models


def overlay_packs():
    """Every house-rule overlay loaded: any roster of any game may play one."""
    return models.GameSystem.objects.filter(kind="overlay").order_by("name")


def played_house_rules(overlay_ids):
    """The priced house rules of the overlays a roster plays (none played: none offered)."""
    return models.SpecialRule.objects.filter(
        system__kind="overlay", system__in=list(overlay_ids), points__isnull=False
    ).select_related("system")


def overlays_played(refs: list[str], house_rules, pick, problems) -> list[models.GameSystem]:
    """The overlays a file names (by name, short name or key) and those whose house rules it buys, in name order."""
    packs = list(overlay_packs())
    choices = {
        **{pack.key: pack for pack in packs},
        **{pack.name: pack for pack in packs},
        **{pack.short_name: pack for pack in packs},
    }
    played = {}
    for index, ref in enumerate(refs):
        pack = pick(ref, choices, "house-rule overlay", f"overlays.{index}", problems)
        if pack is not None:
            played[pack.id] = pack
    for bought in house_rules:
        played.setdefault(bought.rule.system_id, bought.rule.system)
    return sorted(played.values(), key=lambda pack: pack.name)


def switch_overlays(document: dict, chosen) -> str | None:
    """Play the overlays chosen in a roster file's mapping; or, where one switched off still has house rules
    bought, change nothing and say which to remove first (they are never dropped unseen)."""
    chosen = list(chosen)
    kept = {pack.id for pack in chosen}
    dropped = [pack for pack in overlay_packs() if pack.name in document.get("overlays", []) and pack.id not in kept]
    rules = {rule.name: rule for rule in models.SpecialRule.objects.filter(system__in=dropped)}
    bought = []
    for entry in document.get("house_rules", []):
        name = entry if isinstance(entry, str) else entry.get("house_rule", "")
        unit = entry.get("unit") if isinstance(entry, dict) else None
        if name in rules:
            bought.append(f"{name} (for {unit})" if unit else name)
    if bought:
        packs = ", ".join(pack.short_name for pack in dropped)
        return (
            f"{packs} stays on: this roster buys {', '.join(bought)}. "
            "Set those to 0 (in the settings or on their units) first, then untick it."
        )
    document["overlays"] = [pack.name for pack in chosen]
    return None
