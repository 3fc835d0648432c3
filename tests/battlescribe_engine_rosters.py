"""Bolt Action rosters made with our BattleScribe engine (lists/battlescribe/engine/) from the real data.

Each roster is built as a player builds it in BattleScribe: a force of the Reinforced Platoon, its theatre
chosen under the Theatre Selector, units and their options selected through the engine's option tree, then
saved with `write_roster_xml`, which writes the composite entry ids BattleScribe writes. Nothing of them is
kept in the repository: they are made at test time from ../shared/bsdata (tests skip where it is absent).
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lists.battlescribe.engine import Roster, load_data_files
from lists.battlescribe.engine.elements import Force, Selection
from lists.battlescribe.engine.roster_files import write_roster_xml

BOLT_ACTION = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "boltaction"
REINFORCED_PLATOON = "efef-703c-d244-559f"
GAME_SYSTEM = "Bolt Action 2.gst"


@cache
def nation_data(catalogue: str):
    """The game system and one catalogue, as BattleScribe loads them for a roster of that nation."""
    files = [BOLT_ACTION / GAME_SYSTEM, BOLT_ACTION / f"BA2 - {catalogue}.cat"]
    return load_data_files([(path.name, path.read_bytes()) for path in files])


class Builder:
    """A roster built by name, as a player clicks through BattleScribe."""

    def __init__(self, catalogue: str, name: str, points_limit: int):
        self.data = nation_data(catalogue)
        self.roster = Roster(self.data, name)
        self.roster.set_cost_limit("points", float(points_limit))

    def force(self, theatre: str, name: str | None = None, entry: str = REINFORCED_PLATOON) -> Force:
        """A force (the Reinforced Platoon) choosing `theatre` (in place of the selector's default)."""
        force = self.roster.add_force(entry, self.data.catalogues[0].id)
        force.custom_name = name
        selector = next((s for s in force.selections if s.name == "Theatre Selector"), None)
        if selector is None:
            selector = self.pick(force, "Theatre Selector")
        for chosen in list(selector.children):
            self.roster.deselect(chosen)
        self.pick(selector, theatre)
        return force

    def pick(self, parent: Force | Selection, *names: str, label: str | None = None) -> Selection:
        """Select the option called `names[0]` under `parent`, then each next name under it."""
        selection = None
        for name in names:
            options = self.roster.options_under(parent)
            named = [o for o in options if " ".join(o.name.split()) == name]
            # As BattleScribe offers them: an entry hidden here (another theatre's copy) is not.
            shown = [o for o in named if not self.roster.view_option(o, parent).hidden]
            option = (shown or [None])[0]
            if option is None:
                known = sorted({" ".join(o.name.split()) for o in options})
                raise KeyError(f"{name!r} is not offered under {getattr(parent, 'name', parent)}: {known}")
            selection = parent = self.roster.select(parent, option)
        if label:
            selection.custom_name = label
        return selection

    def existing(self, parent: Force | Selection, name: str) -> Selection:
        """A selection BattleScribe made on its own (a compulsory entry, a default), else a new one."""
        children = parent.children if isinstance(parent, Selection) else parent.selections
        found = next((s for s in children if " ".join(s.name.split()) == name), None)
        return found or self.pick(parent, name)

    def count(self, selection: Selection, number: int) -> Selection:
        self.roster.set_count(selection, number)
        return selection

    @property
    def points(self) -> float:
        self.roster.refresh()
        return self.roster.total_cost("points")

    def xml(self) -> str:
        self.roster.refresh()
        return write_roster_xml(self.roster)


def zipped(xml: str | bytes, name: str = "roster.ros") -> bytes:
    """A .rosz as BattleScribe saves it: one member, the roster."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, xml)
    return buffer.getvalue()


def new_recruit(xml: str) -> str:
    """The roster as New Recruit exports it (see ../shared/battlescribe-format/newrecruit-export-example.ros):
    `generatedBy` on the roster, `from` and `group` on selections, profile `attributes`, and every force after
    the first nested in the one before."""
    xml = xml.replace("<roster ", '<roster generatedBy="https://newrecruit.eu" ', 1)
    xml = re.sub(r'(<selection [^>]*?type="(?:upgrade|model|unit)")', r'\1 from="entry"', xml)
    xml = re.sub(r'(<selection [^>]*?entryGroupId="[^"]*")', r'\1 group="Options"', xml)
    xml = xml.replace("<profile ", '<profile attributes="" ')
    forces = re.findall(r"\n    <force .*?\n    </force>", xml, flags=re.S)
    if len(forces) > 1:
        nested = forces[-1]
        for force in reversed(forces[:-1]):
            inner = "\n".join("    " + line if line else line for line in nested.split("\n"))
            nested = force.replace("\n    </force>", "\n      <forces>" + inner + "\n      </forces>\n    </force>")
        start = xml.index(forces[0])
        end = xml.index(forces[-1]) + len(forces[-1])
        xml = xml[:start] + nested + xml[end:]
    return xml


@dataclass
class Made:
    """A roster made with the engine: its file, the engine's points, and what our checks should say."""

    name: str
    content: bytes
    filename: str
    points: float
    legal: bool


def germany() -> Builder:
    """Two platoons in Normandy: a Leutnant and two Grenadier squads each (one of eight men with an LMG and two
    Panzerfausts), and in the first a Hanomag the first squad rides in."""
    b = Builder("Armies of Germany", "Kampfgruppe Normandie", 1000)
    for number in (1, 2):
        force = b.force("1944: Normandy (Armies of Germany)", f"{number}. Zug")
        officer = b.pick(b.existing(force, "Officer"), "Leutnant (Second Lieutenant)", label=f"Leutnant {number}")
        b.pick(officer, "Regular")
        first = b.pick(force, "Heer Grenadier Squad", label=f"{number}. Gruppe")
        b.count(b.existing(first, "Regular Soldier"), 7)
        b.pick(first, "LMG")
        b.count(b.pick(first, "Panzerfaust"), 2)
        b.pick(force, "Heer Grenadier Squad", label=f"{number}. Gruppe b")
    b.pick(b.roster.forces[0], "SdKfz 251/1 Half-Track ' Hanomag'", "Regular")
    b.roster.forces[0].selections[-1].custom_name = "Hanomag"
    # Our own convention for a unit riding another (the format has none): a custom note.
    next(s for s in b.roster.forces[0].selections if s.custom_name == "1. Gruppe").custom_notes = "Transport: Hanomag"
    return b


def platoon(
    b: Builder, force: Force, rank: str, quality: str, squad: tuple[str, ...], extra: int, option: str | None
) -> None:
    """An officer of `rank` and two squads of `squad` (its name, then its quality where it has a choice of
    them), the first with `extra` more men and `option`."""
    officer = b.pick(b.existing(force, "Officer"), rank)
    b.pick(officer, quality)
    b.pick(force, *squad)
    force.selections[-1].custom_name = f"{squad[0]} 1"
    first = force.selections[-1] if len(squad) == 1 else force.selections[-1].children[-1]
    if extra:
        men = [c for c in first.children if c.option.group is not None and c.number > 1] or first.children[-1:]
        b.count(men[-1], men[-1].number + extra)
    if option:
        b.pick(first, option)
    b.pick(force, *squad)
    force.selections[-1].custom_name = f"{squad[0]} 2"


def united_states() -> Builder:
    b = Builder("Armies of the United States", "Rhineland", 1000)
    force = b.force("1945: Rhineland", "First platoon")
    platoon(
        b,
        force,
        "Second Lieutenant",
        "Regular",
        ("Infantry Squad (Late-War)", "Regular"),
        2,
        "Regular Soldier with Bar M1918A2",
    )
    return b


def great_britain() -> Builder:
    b = Builder("Armies of Great Britain", "Into the Reich", 1000)
    force = b.force("1945: Into the Reich", "1 Platoon")
    platoon(b, force, "Second Lieutenant", "Regular", ("Infantry Section (Late-War)", "Regular"), 1, None)
    return b


def soviet_union() -> Builder:
    b = Builder("Armies of the  Soviet Union", "Bagration", 1000)
    for name in ("Platoon 1", "Platoon 2"):
        force = b.force("1944: Operation Bagration", name)
        platoon(b, force, "Leytenánt (Second Lieutenant)", "Regular", ("Rifle Squad",), 3, "Anti-tank Grenades")
    return b


def japan() -> Builder:
    b = Builder("Armies of Japan", "Burma", 1000)
    force = b.force("1944: Burma", "Shotai")
    platoon(
        b, force, "Rikugun Shoi (Second Lieutenant)", "Regular", ("IJA Infantry Squad",), 2, "Regular Soldier with LMG"
    )
    return b


def italy() -> Builder:
    b = Builder("Armies of Italy", "Sicily", 1000)
    # Italy's own "Reinforced Platoon 2", the only platoon its officers lead (docs/battlescribe.md).
    force = b.force("1943: The Defence of Sicily (Armies of Italy)", "Plotone", "8c7b-e8ce-d16d-009a")
    platoon(
        b,
        force,
        "Sottotenente (Second Lieutenant)",
        "Regular",
        ("Infantry Section", "Infantry Section", "Regular"),
        1,
        None,
    )
    return b
