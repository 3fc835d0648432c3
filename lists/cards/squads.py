"""Who carries what in a squad once its options are taken: "8 × Rifle, 1 × LMG, 2 × Panzerfaust, NCO: SMG"."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from lists.gamedata.snapshot import ModelLine, OptionInfo, SystemInfo, UnitChoice, WeaponInfo


def hands_out(option: OptionInfo) -> bool:
    """An option that gives men a weapon without saying whose it replaces (the BattleScribe squads' LMG, SMG...)."""
    return bool(option.weapons) and not (option.replaces or option.adds_models or option.copies_unit)


def _give(figures: list[list], option: OptionInfo, weapon: WeaponInfo, in_addition: bool, armed: set[int]) -> bool:
    """Hand one weapon to a figure: the line the option names, else the rank and file; False when nobody can take it.

    A weapon carried in addition (the pack's one-shot role: a panzerfaust) goes to a man who has none yet; any other
    takes the place of the first weapon of a man not yet re-armed.
    """
    named = [i for i, (line, _) in enumerate(figures) if option.model and line.name == option.model]
    soldiers = [i for i, (line, _) in enumerate(figures) if line.role == "soldier"]
    for i in named or soldiers:
        line, weapons = figures[i]
        if in_addition and weapon not in weapons:
            weapons.append(weapon)
            return True
        if not in_addition and i not in armed:
            figures[i][1] = [weapon, *weapons[1:]]
            armed.add(i)
            return True
    return False


def armed_figures(unit: UnitChoice, system: SystemInfo) -> tuple[list[ModelLine], list[tuple[OptionInfo, int]]]:
    """The unit's model lines with every option's weapon in a man's hands, and the options no man could take."""
    one_shot = system.rule_role("one_shot")
    figures = [[line, list(line.weapons)] for line in unit.armed_models() for _ in range(line.count)]
    armed: set[int] = set()
    left: list[tuple[OptionInfo, int]] = []
    for option, count in unit.chosen_options:
        if not hands_out(option):
            continue
        given = sum(
            _give(figures, option, weapon, one_shot in weapon.rules, armed)
            for _ in range(count)
            for weapon in option.weapons
        )
        if given < count * len(option.weapons):
            left.append((option, count))
    lines: list[ModelLine] = []
    for line, weapons in figures:
        # The source's own words for a man's gear stand only while his weapons are those listed.
        equipment = line.equipment if tuple(weapons) == line.weapons else ""
        shaped = replace(line, count=1, weapons=tuple(weapons), equipment=equipment)
        same = next((i for i, kept in enumerate(lines) if replace(kept, count=1) == shaped), None)
        if same is None:
            lines.append(shaped)
        else:
            lines[same] = replace(lines[same], count=lines[same].count + 1)
    return lines, left


def short_name(weapon: WeaponInfo) -> str:
    """A weapon's short name: the abbreviation its name ends with ("Light machine gun (LMG)" -> LMG), else the name."""
    match = re.search(r"\(([A-Z]{2,5})\)$", weapon.name)
    return match.group(1) if match else weapon.name


def role_label(role: str) -> str:
    return "NCO" if role == "nco" else role.capitalize()


def carried_summary(lines: list[ModelLine]) -> str:
    """The rank and file's weapons counted, then what each other man carries: "8 × Rifle, 1 × LMG, NCO: SMG"."""
    soldiers: Counter[str] = Counter()
    others = []
    for line in lines:
        names = [short_name(weapon) for weapon in line.weapons]
        if line.role == "soldier":
            for name in names:
                soldiers[name] += line.count
        elif names:
            several = f"{line.count} × " if line.count > 1 else ""
            others.append(f"{several}{role_label(line.role)}: {', '.join(names)}")
    return ", ".join([f"{n} × {name}" for name, n in soldiers.most_common()] + others)


def men_by_kind(lines: list[ModelLine]) -> list[ModelLine]:
    """The men of each line counted together whatever they carry, with the source's own words for their gear
    only where it holds for all of them."""
    merged: list[ModelLine] = []
    for line in lines:
        bare = replace(line, weapons=())
        same = next((i for i, kept in enumerate(merged) if (kept.role, kept.name) == (line.role, line.name)), None)
        if same is None:
            merged.append(bare)
        else:
            kept = merged[same]
            equipment = kept.equipment if kept.equipment == line.equipment else ""
            merged[same] = replace(kept, count=kept.count + line.count, equipment=equipment)
    return merged


def is_squad(unit: UnitChoice) -> bool:
    """A unit of men with a rank and file (a squad or section), whose card counts who carries what."""
    return any(line.role == "soldier" for line in unit.models())
