"""What a unit's card says: its stats, models, weapon profiles and rules by name; the rules reference's texts."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from lists.cards.layout import Block, Layout
from lists.cards.squads import armed_figures, carried_summary, hands_out, is_squad, men_by_kind
from lists.cards.vehicles import is_mounted, mounted_rows, move_text
from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import ModelLine, RosterSnapshot, RuleInfo, SystemInfo, UnitChoice, WeaponInfo

# Characters of a rule's name and reminder that fit one line of a card.
REMINDER_CHARS = {"poker": 62, "a6": 64}


def reminder(rule: RuleInfo, layout: Layout) -> str:
    """The rule's one-line reminder: the pack's own, else its summary's first sentence, shortened."""
    if rule.reminder:
        return rule.reminder
    first = re.split(r"(?<=[.;])\s", " ".join(rule.summary.split()), maxsplit=1)[0].rstrip(".;")
    budget = max(20, REMINDER_CHARS[layout.card] - len(rule.name))
    if len(first) <= budget:
        return first
    return first[:budget].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def applies(rule: RuleInfo, unit: UnitChoice, replaced: frozenset[tuple[str, str]] = frozenset()) -> bool:
    """Whether a rule is printed on a unit's card: its `applies_to` scope, if it has one, matches the unit.

    A weapon for which another of the unit's rules replaces this one (`replaced`: (rule, weapon) pairs) does not count.
    """
    scope = rule.applies_to
    if scope is None:
        return True
    unit_type = unit.unit_type
    bought = {option.key for option, _ in unit.chosen_options}
    carried = {weapon.key for weapon in unit.weapons()} - {weapon for key, weapon in replaced if key == rule.key}
    return (
        unit_type.kind in scope.get("kinds", ())
        or unit_type.category in scope.get("categories", ())
        or unit_type.key in scope.get("units", ())
        or bool(bought & set(scope.get("options", ())))
        or bool(carried & set(scope.get("weapons", ())))
    )


def unit_rules(roster: RosterSnapshot, data: GameData, unit: UnitChoice) -> list[RuleInfo]:
    """The rules a unit has: its weapons', its own, its options' and its army's, each once, where they apply."""
    system = roster.system
    keys = [key for weapon in unit.weapons() for key in sorted(weapon.rules)]
    keys += list(unit.unit_type.rules)
    keys += [key for option, _ in unit.chosen_options for key in option.rules]
    army = next((a for a in data.armies.values() if a.key == roster.army_key), None)
    keys += list(army.rules if army else ())
    keys += played_rule_choice(roster, army)
    rules = [system.rules[key] for key in dict.fromkeys(keys) if key in system.rules]
    replaced = replaced_notes(rules)
    return [rule for rule in rules if applies(rule, unit, replaced)]


def played_rule_choice(roster: RosterSnapshot, army) -> list[str]:
    """The rules of the set of national rules the roster plays, where its army has a choice of sets."""
    picked = [roster.setting(s["key"]) for s in roster.system.config.get("settings", []) if s["kind"] == "rule_choice"]
    return [
        key for choice in (army.rule_choices if army else ()) if choice["name"] in picked for key in choice["rules"]
    ]


def replaced_notes(rules: list[RuleInfo]) -> frozenset[tuple[str, str]]:
    """(rule, weapon) pairs whose note another of these rules replaces on that weapon."""
    return frozenset(
        (change["replaces"], weapon)
        for rule in rules
        for change in rule.modifies
        if change.get("replaces")
        for weapon in change["weapons"]
    )


def roster_rules(roster: RosterSnapshot, data: GameData) -> list[RuleInfo]:
    """Every rule on the roster's cards and every house rule bought, alphabetical: the rules reference.

    A rule of a document whose files each repeat it cites the file of the first unit it is printed for (a
    BattleScribe rule cites the unit's own catalogue, not the first one it was read from).
    """
    found: dict[str, RuleInfo] = {}
    for unit in roster.units:
        for rule in unit_rules(roster, data, unit):
            found.setdefault(rule.key, _cited_for(rule, unit, roster.system))
    found.update({bought.rule.key: bought.rule for bought in roster.house_rules})
    return sorted(found.values(), key=lambda rule: rule.name.casefold())


def profile_notes(rules: list[RuleInfo]) -> dict[str, list[str]]:
    """What the unit's rules change in its weapons' printed profiles, by weapon key ("Hitler's Buzzsaw: 6 shots")."""
    notes: dict[str, list[str]] = {}
    replaced = replaced_notes(rules)
    for rule in rules:
        for change in rule.modifies:
            for weapon_key in change["weapons"]:
                if (rule.key, weapon_key) not in replaced:
                    notes.setdefault(weapon_key, []).append(f"{rule.name}: {change['note']}")
    return notes


def _cited_for(rule: RuleInfo, unit: UnitChoice, system: SystemInfo) -> RuleInfo:
    """The rule citing the unit's own section of the document both come from, where it names another."""
    own = unit.unit_type.source
    section = own.get("section", "")
    if not (rule.document and rule.section and section) or own.get("document") != rule.document:
        return rule
    if not any(
        s["key"] == rule.document and s.get("rules_cite_unit_section") for s in system.config.get("sources", [])
    ):
        return rule
    return replace(rule, source=rule.source.replace(rule.section, section), section=section)


def _gear(line: ModelLine) -> str:
    """What a model line carries: the source's own words where options left it untouched, else weapon names."""
    if line.equipment:
        return line.equipment
    counts = Counter(weapon.name for weapon in line.weapons)
    return ", ".join(f"{n}× {name}" if n > 1 else name for name, n in counts.items())


def _stats_rows(roster: RosterSnapshot, data: GameData, unit: UnitChoice) -> list[tuple[str, str]]:
    """Quality, armour, damage value, constitution, move, capacity, rank and hero points, where the unit has them."""
    system, unit_type = roster.system, unit.unit_type
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
    move = move_text(unit_type, data)
    if move:
        stats.append(("Move", move))
    if unit_type.transport_capacity is not None:
        stats.append(("Carries", str(unit_type.transport_capacity)))
    rank = system.ranks.get(unit.rank) if unit.rank else None
    if rank:
        stats.append(("Rank", rank.name))
    if unit.hero_points:
        stats.append(("Hero points", str(unit.hero_points)))
    return stats


def _model_row(line: ModelLine) -> dict:
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
    return {"count": line.count, "name": name, "figures": figures, "gear": _gear(line)}


def _model_rows(roster: RosterSnapshot, data: GameData, unit: UnitChoice) -> tuple[list[dict], str]:
    """The models and what each carries, and for a squad the count of who carries what.

    A squad's option weapons are put in its men's hands; a vehicle's weapons are listed by their mounts.
    """
    squad = is_squad(unit)
    lines, left = armed_figures(unit, roster.system) if squad else (unit.armed_models(), unit.chosen_options)
    mounted = is_mounted(unit)
    rows = []
    # A squad's men are listed by kind; the count of who carries what says their weapons.
    for line in men_by_kind(lines) if squad else lines:
        if mounted and line.role == "vehicle":
            mount_rows, unmounted = mounted_rows(line, unit.unit_type, data)
            rows.append(_model_row(replace(line, weapons=tuple(unmounted), equipment="")))
            rows += mount_rows
        else:
            rows.append(_model_row(line))
    # Weapons an option gives the whole unit (a vehicle's pintle MMG), not one figure.
    for option, _ in left:
        if option.weapons and not option.replaces and not option.adds_models:
            gear = ModelLine(1, "", "", option.weapons)
            mount_rows, unmounted = mounted_rows(gear, unit.unit_type, data, option.key) if mounted else ([], [])
            if mount_rows and not unmounted:
                rows += mount_rows
            else:
                rows.append({"count": "", "name": option.name, "figures": "", "gear": _gear(gear)})
    return rows, carried_summary(lines) if squad else ""


def unit_blocks(roster: RosterSnapshot, data: GameData, unit: UnitChoice, layout: Layout) -> list[Block]:
    """The card's content in reading order: stats, options, models, weapon profiles, then its rules by name."""
    system = roster.system
    blocks: list[Block] = []
    stats = _stats_rows(roster, data, unit)
    if stats:
        blocks.append(Block("stats", {"rows": stats}))
    models, carried = _model_rows(roster, data, unit)
    # A squad's weapon options are counted on its Weapons line: the Options line keeps the rest.
    chosen = [(o, n) for o, n in unit.chosen_options if not (carried and hands_out(o))]
    if chosen:
        options = ", ".join(f"{o.name}" + (f" ×{n}" if n > 1 else "") for o, n in chosen)
        blocks.append(Block("stats", {"rows": [("Options", options)]}))
    if carried:
        blocks.append(Block("stats", {"rows": [("Weapons", carried)]}))
    if models:
        blocks.append(Block("models", {"rows": models}))
    rules = unit_rules(roster, data, unit)
    blocks.extend(_weapon_blocks(unit, data, system, profile_notes(rules)))
    blocks.extend(Block("reminder", {"name": rule.name, "text": reminder(rule, layout)}) for rule in rules)
    rank = system.ranks.get(unit.rank) if unit.rank else None
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


def _rules_for(text: str, weapon: WeaponInfo, unit: UnitChoice, system: SystemInfo) -> str:
    """A weapon's special rules column less the rules whose scope leaves the unit out (Team on a tank's MMG)."""
    hidden = {system.rules[key].name for key in weapon.rules if key in system.rules}
    hidden -= {
        system.rules[key].name for key in weapon.rules if key in system.rules and applies(system.rules[key], unit)
    }
    if not hidden:
        return text
    return ", ".join(label for label in text.split(", ") if label.split(" (")[0] not in hidden)


def _weapon_blocks(
    unit: UnitChoice, data: GameData, system: SystemInfo, rule_notes: dict[str, list[str]]
) -> list[Block]:
    """The profiles of the unit's weapons in the game's own columns, each with what the unit's rules change in it.

    Columns empty for every weapon on the card are left out, and so are the
    notes: they record how the pack read its sources (see the game page's errata).
    """
    columns = system.config.get("weapon_columns", [])
    carried = {weapon.key: weapon for weapon in unit.weapons()}
    names = {key: weapon.name for key, weapon in carried.items()}
    if not names or not columns:
        return []
    # A model carrying a weapon more than once (2x hull MG) shows how many.
    most = Counter()
    for line in unit.models():
        most |= Counter(weapon.key for weapon in line.weapons)
    names = {key: f"{most[key]}× {name}" if most[key] > 1 else name for key, name in names.items()}
    profiles = {key: dict(data.weapon_profiles.get(key, [])) for key in names}
    for column in columns:
        if column["field"] == "rules":
            for key, profile in profiles.items():
                if profile.get(column["label"]):
                    profile[column["label"]] = _rules_for(profile[column["label"]], carried[key], unit, system)
    shown = [c["label"] for c in columns if c["field"] != "notes" and any(profiles[k].get(c["label"]) for k in names)]
    rows = [
        {
            "name": names[key],
            "values": [profiles[key].get(label, "") for label in shown],
            "notes": rule_notes.get(key, []),
        }
        for key in names
    ]
    if len(shown) <= MAX_TABLE_COLUMNS:
        return [Block("weapons", {"columns": shown, "rows": rows})]
    lines = [
        {
            "name": row["name"],
            "pairs": [(label, value) for label, value in zip(shown, row["values"], strict=True) if value],
            "notes": row["notes"],
        }
        for row in rows
    ]
    return [Block("profiles", {"rows": lines})]
