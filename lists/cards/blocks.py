"""What a unit's card says: its stats, models, weapon profiles and rules by name; the rules reference's texts."""

from __future__ import annotations

import re
from collections import Counter

from lists.cards.layout import Block, Layout
from lists.loading import GameData
from lists.snapshot import ModelLine, RosterSnapshot, RuleInfo, UnitChoice

# Characters of a rule's name and reminder that fit one line of a card.
REMINDER_CHARS = {"poker": 62, "a6": 105}


def reminder(rule: RuleInfo, layout: Layout) -> str:
    """The rule's one-line reminder: the pack's own, else its summary's first sentence, shortened."""
    if rule.reminder:
        return rule.reminder
    first = re.split(r"(?<=[.;])\s", " ".join(rule.summary.split()), maxsplit=1)[0].rstrip(".;")
    budget = max(20, REMINDER_CHARS[layout.card] - len(rule.name))
    if len(first) <= budget:
        return first
    return first[:budget].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def applies(rule: RuleInfo, unit: UnitChoice) -> bool:
    """Whether a rule is printed on a unit's card: its `applies_to` scope, if it has one, matches the unit."""
    scope = rule.applies_to
    if scope is None:
        return True
    unit_type = unit.unit_type
    bought = {option.key for option, _ in unit.chosen_options}
    carried = {weapon.key for weapon in unit.weapons()}
    return (
        unit_type.kind in scope.get("kinds", ())
        or unit_type.category in scope.get("categories", ())
        or unit_type.key in scope.get("units", ())
        or bool(bought & set(scope.get("options", ())))
        or bool(carried & set(scope.get("weapons", ())))
    )


def unit_rules(roster: RosterSnapshot, data: GameData, unit: UnitChoice) -> list[RuleInfo]:
    """The rules a unit has: its weapons', its own and its army's, each once, where they apply to it."""
    system = roster.system
    keys = [key for weapon in unit.weapons() for key in sorted(weapon.rules)]
    keys += list(unit.unit_type.rules)
    army = next((a for a in data.armies.values() if a.key == roster.army_key), None)
    keys += list(army.rules if army else ())
    rules = [system.rules[key] for key in dict.fromkeys(keys) if key in system.rules]
    return [rule for rule in rules if applies(rule, unit)]


def roster_rules(roster: RosterSnapshot, data: GameData) -> list[RuleInfo]:
    """Every rule on the roster's cards and every house rule bought, alphabetical: the rules reference."""
    found = {rule.key: rule for unit in roster.units for rule in unit_rules(roster, data, unit)}
    found.update({bought.rule.key: bought.rule for bought in roster.house_rules})
    return sorted(found.values(), key=lambda rule: rule.name.casefold())


def _gear(line: ModelLine) -> str:
    """What a model line carries: the source's own words where options left it untouched, else weapon names."""
    if line.equipment:
        return line.equipment
    counts = Counter(weapon.name for weapon in line.weapons)
    return ", ".join(f"{n}× {name}" if n > 1 else name for name, n in counts.items())


def unit_blocks(roster: RosterSnapshot, data: GameData, unit: UnitChoice, layout: Layout) -> list[Block]:
    """The card's content in reading order: stats, options, models, weapon profiles, then its rules by name."""
    system = roster.system
    unit_type = unit.unit_type
    blocks: list[Block] = []

    stats = []
    quality = system.qualities.get(unit.quality) if unit.quality else None
    if quality:
        stats.append(("Quality", f"{quality.name}" + (f", morale {quality.morale}" if quality.morale else "")))
    armour = unit_type.armour or {}
    damage = None
    if armour.get("damage_value"):
        row = data.references.get("damage_values", {}).get(armour["damage_value"])
        damage = row["value"] if row else None
    elif quality and quality.damage_value and unit_type.kind not in {"vehicle", "transport"}:
        damage = quality.damage_value
    if armour.get("front") is not None:
        stats.append(("Armour F/S/R", f"{armour['front']}/{armour['side']}/{armour['rear']}"))
    elif armour.get("armour_class"):
        stats.append(("Armour", armour["armour_class"]))
    if damage:
        stats.append(("Damage value", damage))
    if unit_type.constitution is not None:
        stats.append(("Constitution", str(unit_type.constitution)))
    movement = data.references.get("movement", {}).get(unit_type.kind)
    if unit_type.speed:
        stats.append(("Move", unit_type.speed))
    elif movement:
        stats.append(("Move", ", ".join(f"{k} {v}" for k, v in movement["values"].items())))
    if unit_type.transport_capacity is not None:
        stats.append(("Carries", str(unit_type.transport_capacity)))
    rank = system.ranks.get(unit.rank) if unit.rank else None
    if rank:
        stats.append(("Rank", rank.name))
    if unit.hero_points:
        stats.append(("Hero points", str(unit.hero_points)))
    if stats:
        blocks.append(Block("stats", {"rows": stats}))
    if unit.chosen_options:
        options = ", ".join(f"{o.name}" + (f" ×{n}" if n > 1 else "") for o, n in unit.chosen_options)
        blocks.append(Block("stats", {"rows": [("Options", options)]}))

    models = []
    for line in unit.armed_models():
        figures = " ".join(
            part
            for part in [
                f"Fs {line.fs}" if line.fs is not None else "",
                f"M {line.morale}" if line.morale is not None else "",
            ]
            if part
        )
        # A line of several figures says how many, unless its name does ("Team of 2").
        several = line.figures > 1 and str(line.figures) not in line.name.split()
        name = f"{line.name} ({line.figures} figures)" if several else line.name
        models.append({"count": line.count, "name": name, "figures": figures, "gear": _gear(line)})
    # Weapons an option gives the whole unit (a panzerfaust), not one figure.
    for option, _ in unit.chosen_options:
        if option.weapons and not option.replaces and not option.adds_models:
            models.append(
                {"count": "", "name": option.name, "figures": "", "gear": _gear(ModelLine(1, "", "", option.weapons))}
            )
    if models:
        blocks.append(Block("models", {"rows": models}))

    blocks.extend(_weapon_blocks(unit, data, system.config.get("weapon_columns", [])))

    blocks.extend(
        Block("reminder", {"name": rule.name, "text": reminder(rule, layout)})
        for rule in unit_rules(roster, data, unit)
    )
    if rank:
        blocks.append(
            Block(
                "reminder",
                {
                    "name": rank.name,
                    "text": f'+{rank.morale_bonus} morale to units within {rank.order_range}"; '
                    f"passes {rank.extra_orders} extra order{'s' if rank.extra_orders != 1 else ''} "
                    f'within {rank.order_range}"',
                },
            )
        )
    return blocks


def reference_blocks(rules: list[RuleInfo]) -> list[Block]:
    """The full text of each rule, with the source it comes from."""
    return [Block("rule", {"name": rule.name, "text": rule.summary, "source": rule.source}) for rule in rules]


# More profile columns than this do not fit across a card: each weapon then gets a line of its own.
MAX_TABLE_COLUMNS = 5


def _weapon_blocks(unit: UnitChoice, data: GameData, columns: list[dict]) -> list[Block]:
    """The profiles of the unit's weapons in the game's own columns.

    Columns empty for every weapon on the card are left out, and so are the
    notes: they record how the pack read its sources (see the game page's errata).
    """
    names = {weapon.key: weapon.name for weapon in unit.weapons()}
    if not names or not columns:
        return []
    # A model carrying a weapon more than once (2x hull MG) shows how many.
    most = Counter()
    for line in unit.models():
        most |= Counter(weapon.key for weapon in line.weapons)
    names = {key: f"{most[key]}× {name}" if most[key] > 1 else name for key, name in names.items()}
    profiles = {key: dict(data.weapon_profiles.get(key, [])) for key in names}
    shown = [c["label"] for c in columns if c["field"] != "notes" and any(profiles[k].get(c["label"]) for k in names)]
    rows = [{"name": names[key], "values": [profiles[key].get(label, "") for label in shown]} for key in names]
    if len(shown) <= MAX_TABLE_COLUMNS:
        return [Block("weapons", {"columns": shown, "rows": rows})]
    lines = [
        {
            "name": row["name"],
            "pairs": [(label, value) for label, value in zip(shown, row["values"], strict=True) if value],
        }
        for row in rows
    ]
    return [Block("profiles", {"rows": lines})]
