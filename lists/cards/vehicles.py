"""What a vehicle's card adds: its move by the kind of vehicle it is, and each weapon with its mount and arc."""

from __future__ import annotations

from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import ModelLine, UnitChoice, UnitTypeInfo, WeaponInfo


def move_text(unit_type: UnitTypeInfo, data: GameData) -> str:
    """The unit's move: its own speed, else the pack's movement row for its vehicle type (tracked...) or its kind."""
    if unit_type.speed:
        return unit_type.speed
    key = (unit_type.armour or {}).get("movement") or unit_type.kind
    movement = data.references.get("movement", {}).get(key)
    if not movement:
        return ""
    values = movement["values"]
    return ", ".join(f"{key} {values[key]}" for key in movement.get("order", values))


def mount_label(mount_key: str, data: GameData) -> str:
    """A mount as the card prints it: "Turret (360°)", "Hull (forward facing)"."""
    mount = data.references.get("mounts", {}).get(mount_key)
    return f"{mount['name']} ({mount['arc']})" if mount else mount_key


def mounted_rows(
    line: ModelLine, unit_type: UnitTypeInfo, data: GameData, option: str | None = None
) -> tuple[list[dict], list[WeaponInfo]]:
    """A vehicle's weapons in the pack's order of mounts, one row each ("Turret (360°): Heavy AT gun"), and the
    weapons left without a mount (a weapon an option swapped in)."""
    unmounted = list(line.weapons)
    rows = []
    for mounted in (unit_type.armour or {}).get("mounts", []):
        weapon = next((w for w in unmounted if w.key == mounted["weapon"]), None)
        if mounted.get("option") == option and weapon is not None:
            unmounted.remove(weapon)
            rows.append({"count": "", "name": mount_label(mounted["mount"], data), "figures": "", "gear": weapon.name})
    return rows, unmounted


def is_mounted(unit: UnitChoice) -> bool:
    """Whether the unit's weapons are mounted on a vehicle (its pack data says where)."""
    return bool((unit.unit_type.armour or {}).get("mounts"))
