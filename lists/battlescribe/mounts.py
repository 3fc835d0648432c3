"""A vehicle's movement and where its weapons are mounted, read from the BattleScribe data.

The data gives a vehicle's movement as its profile's Type ("Tracked Vehicle") and each
weapon's mount only in the name of the entry holding it ("Turret-mounted light howitzer",
"Forward facing hull mounted MMG", "Coaxial MMG", "Pintle-mounted MMG (Rear Arc)(15pts)").
These name the pack's `movement` and `mounts` keys; what a mount's arc is stays in the pack.
"""

from __future__ import annotations

import re

from lists.battlescribe.nodes import chosen_default

# Words of an entry's name and the mount they name, the most specific first (a coaxial MMG sits in the turret).
MOUNT_WORDS = [
    (r"co-?axial", "coaxial"),
    (r"turret.*rear|rear.*turret", "turret-rear"),
    (r"turret", "turret"),
    (r"casement|casemate", "casemate"),
    (r"hull", "hull"),
    (r"pintle.*rear", "pintle-rear"),
    (r"pintle.*(front|forward)", "pintle-front"),
    (r"pintle", "pintle"),
    (r"platform.*forward", "platform-forward"),
    (r"platform", "platform"),
    (r"forward", "forward"),
]

# The profile's Type, spelt as the data spells it (Half-traked, WHeeled, Wheelled), and the movement it names.
MOVEMENT_WORDS = [(r"^half-?tra", "half-tracked"), (r"^track", "tracked"), (r"^whee?l", "wheeled")]


def mount_of(entry_name: str) -> str | None:
    """The mount an entry's name gives its weapon, if it names one."""
    lowered = entry_name.lower()
    return next((mount for words, mount in MOUNT_WORDS if re.search(words, lowered)), None)


def movement_of(vehicle_type: str) -> str | None:
    """The movement key of a vehicle profile's Type ("Tracked Vehicle" -> tracked); a boat or an animal has none."""
    lowered = vehicle_type.strip().lower()
    return next((key for words, key in MOVEMENT_WORDS if re.search(words, lowered)), None)


def _mounted_entries(builder, node, found: dict[str, list[str]]) -> None:
    """Each weapon the compulsory entries under `node` hold, with the mount their names give, in the data's order."""
    children = builder.converter.children(node, builder.catalogue)
    # A compulsory one-of group (a half-track's variant): its default entry is taken.
    found_default = chosen_default(node, [c for c in children if not c.is_group]) if node.is_group else None
    chosen = [found_default] if found_default is not None else []
    if node.is_group and (node.limit("min") or 0) >= 1 and node.limit("max") == 1 and not chosen:
        chosen = [c for c in children if not c.is_group][:1]
    for child in children:
        if child.is_group:
            _mounted_entries(builder, child, found)
            continue
        least = int(child.limit("min") or 0) or (1 if child in chosen and (node.limit("min") or 0) >= 1 else 0)
        mount = mount_of(child.name)
        if least >= 1 and mount is not None:
            for weapon in builder.converter.weapons_of(child, builder.catalogue):
                found.setdefault(weapon, []).extend([mount] * least)
        if least >= 1:
            _mounted_entries(builder, child, found)


def describe_vehicle(unit: dict, builder, body: list) -> None:
    """Add a converted vehicle's movement and its weapons' mounts to its `armour` (the vehicle profile)."""
    armour = unit.get("armour")
    if armour is None:
        return
    movement = movement_of(armour.get("armour_class", ""))
    if movement:
        armour["movement"] = movement
    found: dict[str, list[str]] = {}
    for node in body:
        _mounted_entries(builder, node, found)
    mounts = []
    for line in unit.get("composition", []):
        for weapon in line.get("weapons", []):
            key, count = (weapon, 1) if isinstance(weapon, str) else (weapon["weapon"], weapon["count"])
            mounts += [{"weapon": key, "mount": mount} for mount in found.get(key, [])[:count]]
    for option in unit.get("options", []):
        mount = mount_of(option["name"])
        if mount is not None:
            mounts += [{"weapon": key, "mount": mount, "option": option["key"]} for key in option.get("weapons", [])]
    if mounts:
        armour["mounts"] = mounts
