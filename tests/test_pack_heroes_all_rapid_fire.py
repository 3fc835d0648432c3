"""The Heroes All and Rapid Fire house-rules packs against the source tables.

The expected data below is transcribed straight from the source documents
(/work/shared/seeds/002_e90e69ea884633d5.txt and 003_895cc24b281d3967.txt), so a
wrong figure in a pack fails here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lists import models
from lists.gamedata.packs import load_all

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "lists" / "packs"
PACK_NAMES = ["heroes-all", "rapid-fire-house-rules"]

# Weapons table: key, name, (S, E, L), indirect (min, max), shots, attack (S, E, L), HE.
# None stands for n/a or an empty cell.
NA = None
WEAPONS_TABLE = [
    ("rifle", "Rifle", (12, 24, 36), None, "1", (NA, NA, NA), NA),
    ("pistol", "Pistol", (NA, 3, NA), None, "1", (NA, NA, NA), NA),
    ("smg", "SMG", (NA, 12, NA), None, "1", (NA, NA, NA), NA),
    ("auto-rifle", "Auto Rifle", (12, 24, 36), None, "2", (NA, NA, NA), NA),
    ("lmg", "LMG", (18, 36, 60), None, "3", (NA, NA, NA), NA),
    ("tank-mg", "Tank MG", (24, 48, 60), None, "4", (NA, NA, NA), NA),
    ("mmg", "MMG", (24, 48, 60), None, "4", (NA, NA, NA), NA),
    ("hmg", "HMG", (24, 48, 60), None, "4", ("+4", "+1", "-3"), NA),
    ("atr", "ATR", (12, 24, NA), None, "1", ("+6", "+2", NA), NA),
    ("piat", "PIAT", (3, 6, NA), None, "1", ("+8", "+8", NA), NA),
    ("bazooka", "Bazooka", (4, 9, NA), None, "1", ("+8", "+8", NA), NA),
    ("pzschreck", "PzSchreck", (4, 9, NA), None, "1", ("+11", "+11", NA), NA),
    ("pzfaust", "PzFaust", (NA, 6, NA), None, "1", (NA, "+11", NA), NA),
    ("class-1-at-gun", "Class 1 AT gun", (12, 24, 48), None, "1", ("+8", "+5", "-3"), NA),
    ("class-2-at-gun", "Class 2 AT gun", (12, 24, 48), None, "1", ("+11", "+8", "+1"), NA),
    ("class-3-at-gun", "Class 3 AT gun", (24, 48, 60), None, "1", ("+14", "+11", "+3"), NA),
    ("class-4-at-gun", "Class 4 AT gun", (24, 48, 60), None, "1", ("+17", "+14", "+6"), NA),
    ("class-5-at-gun", "Class 5 AT gun", (24, 48, 60), None, "1", ("+20", "+17", "+9"), NA),
    ("autocannon-20mm-or-less", "<=20mm A/cannon", (12, 24, 36), None, "2", ("+4", "+1", "-3"), "A"),
    ("autocannon-over-20mm", ">20mm A/cannon", (15, 30, 60), None, "2", ("+8", "+5", "-3"), "B"),
    ("light-mortar", "Light mortar", (NA, NA, NA), (6, 24), "2", (NA, NA, NA), "A"),
    ("med-mortar", "Med mortar", (NA, NA, NA), (6, 48), "1", (NA, NA, NA), "C"),
    ("heavy-mortar", "Heavy mortar", (NA, NA, NA), (12, 60), "1", (NA, NA, NA), "D"),
    ("rockets", "Rockets", (NA, NA, NA), (24, "table"), "1 per barrel", (NA, NA, NA), "C each"),
    ("howitzer-50mm", "Howitzer -50mm", (24, 48, 60), None, "1", (NA, NA, NA), "B"),
    ("howitzer-51-75mm", "Howitzer 51 - 75mm", (30, 60, "table"), None, "1", (NA, NA, NA), "C"),
    ("howitzer-76-104mm", "Howitzer 76 - 104mm", (30, 60, "table"), None, "1", ("+8", "+5", "-3"), "D"),
    ("howitzer-105-149mm", "Howitzer 105 - 149mm", (30, 60, "table"), None, "1", ("+8", "+5", "-3"), "E"),
    ("howitzer-150mm-plus", "Howitzer 150mm+", (30, 60, "table"), None, "1", ("+11", "+8", "+1"), "F"),
    ("manpack-flamethrower", "Manpack Flamethrower", (NA, 6, NA), None, "1", (NA, "+3", NA), "C"),
    ("vehicle-flamethrower", "Vehicle Flamethrower", (NA, 12, NA), None, "1", (NA, "+4", NA), "D"),
    ("rifle-grenade-launcher", "Rifle Grenade Launcher", (NA, 12, NA), None, "1", (NA, NA, NA), "A"),
    ("at-grenades", "AT grenades", (NA, 3, NA), None, "1", (NA, "+5", NA), NA),
    ("hand-grenades", "Hand grenades", (NA, 3, NA), None, "1", (NA, NA, NA), "G1/G2"),
]

# Weapons printed on the CODEX cards whose figures differ from the table.
CARD_WEAPONS = [
    ("75mm-l24", "75mm L24", (12, 24, 48), None, "1", ("+11", "+8", "+1"), "C"),
    ("tmg", "TMG", (18, 36, 60), None, "3", (NA, NA, NA), NA),
]

# Table notes that became rules, by weapon.
WEAPON_RULES = {
    "rifle": ["move-and-fire"],
    "smg": ["sub-machine-gun-reroll"],
    "lmg": ["crewed"],
    "tank-mg": ["tank-mg-mount"],
    "mmg": ["crewed", "immobile"],
    "hmg": ["crewed", "immobile"],
    "atr": ["move-and-fire"],
    "light-mortar": ["crewed", "move-and-fire", "indirect-fire"],
    "med-mortar": ["crewed", "immobile", "indirect-fire"],
    "heavy-mortar": ["crewed", "immobile", "indirect-fire"],
    "rockets": ["crewed", "immobile", "indirect-fire", "rocket-launcher"],
    "howitzer-50mm": ["crewed", "immobile", "indirect-fire"],
    "manpack-flamethrower": ["automatic-hit"],
    "vehicle-flamethrower": ["automatic-hit"],
    "rifle-grenade-launcher": ["rifle-grenade-launcher-limits", "indirect-fire"],
    "at-grenades": ["grenades"],
    "hand-grenades": ["grenades"],
    "tmg": ["tank-mg-mount"],
}

# Carriage capacity table: key, name as printed, capacity.
CAPACITIES = [
    ("horse", "Horse", 2),
    ("canoe-2-man", "Canoe (2 man)", 4),
    ("rubber-boats-generic", "Rubber boats (generic)", 8),
    ("assault-boat-goatley-boat", "Assault Boat/Goatley boat etc", 10),
    ("bicycle", "Bicycle", 2),
    ("motorcycle", "Motorcycle", 3),
    ("civilian-car", "Civilian car", 4),
    ("motorcycle-sidecar-kettenkrad", "Motorcycle/sidecar, Kettenkrad etc", 5),
    ("horse-drawn-cart", "Horse drawn cart", 6),
    ("universal-carrier-jeep", "Universal carrier, jeep", 7),
    ("kubelwagen-car", "Kubelwagen, car etc", 5),
    ("specialist-radio-truck-prime-mover", "Specialist/radio truck/prime mover for artillery", 8),
    ("service-truck", "Service truck", 12),
    ("light-tank", "Light tank (up to Pz II, Vickers, A10 etc)", 4),
    ("other-tanks", "Other tanks (all others)", 6),
    ("transport-aircraft-tank-carrying-glider", "Transport aircraft/tank-carrying glider", 32),
    ("glider-to-mid-1942", "Glider (to mid 1942)", 10),
    ("glider-after-mid-1942", "Glider (after mid 1942)", 16),
    ("lca", "Landing Craft Assault (LCA)", 16),
    ("lcvp", "Landing Craft Vehicle Personnel (LCVP)", 16),
    ("lcm-mk-i", "Landing Craft Mechanised (LCM) Mk I", 60),
    ("lcm-mk-ii", "Landing Craft Mechanised (LCM) Mk II", 100),
    ("dukw-or-lvt", "DUKW or LVT", 30),
    ("lvt-mk-iv", "LVT Mk IV", 36),
    ("lct-4", "LCT - 4", 180),
]

# Armour class: (front brew, front damage, side brew, side damage, rear brew, rear damage).
DEFENCE_VALUES = {
    "Soft-skinned vehicle": ("2", "auto", "2", "auto", "2", "auto"),
    "Flimsy": ("11", "9", "7", "5", "5", "auto"),
    "Light": ("14", "11", "10", "8", "8", "6"),
    "Medium": ("17", "15", "13", "11", "11", "9"),
    "Heavy": ("20", "18", "16", "14", "14", "12"),
    "Formidable": ("23", "21", "19", "17", "17", "15"),
}

# Movement table: name -> (rd, xc); None where the cell is blank.
MOVEMENT = {
    "Infantry": ("3", "2"),
    "Infantry (crawling)": ("1", "1"),
    "Infantry (built up/jungle)": ("2", "2"),
    "Infantry (wading)": (None, "1"),
    "Infantry (paddling/raft)": (None, "2"),
    "Carried HCSW": ("3", "2"),
    "Mounted/horse": ("6", "5"),
    "Hand moved gun": ("2", "1"),
    "Towing vehicle": ("5", "2"),
    "Bicycle": ("5", "1"),
    "Swimming tank": (None, "1"),
    "Powered boat": (None, "5"),
    "MTB": (None, "8"),
    "Vehicle Ferry": (None, "3"),
}

# CODEX cards: key -> (name, army, points, crew, speed, armour class, capacity, carries, weapons).
CARDS = {
    "bazooka": ("Bazooka", "american", 10, 2, "", None, None, "", ["bazooka"]),
    "piat": ("PIAT", "british", 10, 1, "", None, None, "", ["piat"]),
    "infantry-landing-craft": ("Infantry Landing Craft", "generic", 5, 0, "5", None, 14, "", []),
    "lct-4": ("LCT-4", "generic", 25, 0, "5", "Light", 5, "vehicles/guns", []),
    # Carriage capacity table: "Other tanks (all others)" 6 (the Panzer IV is no light tank).
    "panzer-iv-early": ("Panzer IV (Early)", "german", 10, 4, "5/3", "Medium", 6, "", ["75mm-l24", "tmg"]),
    "panzerschrecke": ("Panzerschrecke", "german", 10, 2, "", None, None, "", ["pzschreck"]),
}

# Card "Shots/rounds" figures, kept in the unit notes.
CARD_ROUNDS = {
    "bazooka": ["1/3"],
    "piat": ["1/5"],
    "infantry-landing-craft": ["3/10"],
    "lct-4": ["3/10"],
    "panzer-iv-early": ["1/9", "3/8"],
    "panzerschrecke": ["1/3"],
}

PRICED_HOUSE_RULES = {
    "field-telephone": 15,
    "battalion-radio": 15,
    "air-link-observer": 15,
    "spotter-plane-radio": 15,
    "spotter-plane": 50,
    "british-6pdr-apds": 10,
}
HOUSE_RULE_COUNT = 29

HEROES_ALL_ERRATA = [
    ("weapons.at-grenades.range_effective", "In assault or", "3"),
    ("weapons.hand-grenades.range_effective", "3 if thrown", "3"),
    ("charts.firing-modifiers (target unobserved but would be an autospot)", "+1", "-1"),
    (
        "weapons.tmg (Panzer IV (Early) card) and weapons.tank-mg",
        "Tank MG row: 24/48/60, 4 shots; card TMG: 18/36/60, Shots/rounds 3/8",
        "both kept as printed: tank-mg has the table's figures, tmg the card's",
    ),
]
RAPID_FIRE_ERRATA = [
    ("rules.multiple-rocket-launchers.summary", "Kaytushas", "Katyusha"),
    ("rules.anti-tank-gun-and-artillery-movement.summary", "US Pak howitzers", "US pack howitzer"),
]


def _band(value) -> str:
    return "" if value is None else str(value)


@pytest.fixture
def loaded(db, tmp_path):
    for name in PACK_NAMES:
        (tmp_path / name).symlink_to(PACKS / name, target_is_directory=True)
    reports = load_all(tmp_path)
    return {report.system: report for report in reports}


@pytest.fixture
def heroes(loaded):
    return models.GameSystem.objects.get(key="heroes-all")


@pytest.fixture
def rapid_fire(loaded):
    return models.GameSystem.objects.get(key="rapid-fire-house-rules")


def test_systems(heroes, rapid_fire):
    assert (heroes.name, heroes.version, heroes.kind) == ("Heroes All", "1.0.0", "game")
    assert heroes.sources == [
        {
            "key": "rules",
            "title": "Heroes All WWII skirmish rules",
            "file": "002_e90e69ea884633d5.txt",
            "rules_cite_unit_section": False,
        }
    ]
    fields = [column["field"] for column in heroes.weapon_columns]
    for field in [
        "range_short",
        "range_effective",
        "range_long",
        "shots",
        "attack_short",
        "attack_effective",
        "attack_long",
        "he",
        "rules",
        "notes",
    ]:
        assert field in fields
    assert (rapid_fire.name, rapid_fire.version, rapid_fire.kind) == (
        "Rapid Fire: Molesly Club House Rules",
        "1.0.0",
        "overlay",
    )
    assert rapid_fire.extends is None
    assert rapid_fire.sources == [
        {
            "key": "house-rules",
            "title": "WWII Rapid Fire, Molesly Club House Rules",
            "file": "003_895cc24b281d3967.txt",
            "rules_cite_unit_section": False,
        }
    ]
    assert rapid_fire.weapon_columns == [{"field": "notes", "label": "Notes"}]


@pytest.mark.parametrize("row", WEAPONS_TABLE + CARD_WEAPONS, ids=lambda row: row[0])
def test_weapon_profiles(heroes, row):
    key, name, (short, effective, long), indirect, shots, (a_short, a_effective, a_long), he = row
    weapon = models.Weapon.objects.get(system=heroes, key=key)
    assert weapon.name == name
    assert (weapon.range_short, weapon.range_effective, weapon.range_long) == (
        _band(short),
        _band(effective),
        _band(long),
    )
    if indirect is None:
        assert (weapon.indirect_min, weapon.indirect_max) == (None, "")
    else:
        assert (weapon.indirect_min, weapon.indirect_max) == (indirect[0], str(indirect[1]))
    assert weapon.shots == shots
    assert (weapon.attack_short, weapon.attack_effective, weapon.attack_long) == (
        _band(a_short),
        _band(a_effective),
        _band(a_long),
    )
    assert weapon.he == _band(he)


def test_every_table_row_and_nothing_else(heroes):
    table = list(models.Weapon.objects.filter(system=heroes, group="Weapons table").values_list("key", flat=True))
    assert table == [row[0] for row in WEAPONS_TABLE]
    cards = set(models.Weapon.objects.filter(system=heroes, group="CODEX cards").values_list("key", flat=True))
    assert cards == {row[0] for row in CARD_WEAPONS}
    assert models.Weapon.objects.filter(system=heroes).count() == len(WEAPONS_TABLE) + len(CARD_WEAPONS)


def test_weapon_rules(heroes):
    for weapon in models.Weapon.objects.filter(system=heroes):
        keys = [link.rule.key for link in weapon.rule_links.all()]
        if weapon.key.startswith("howitzer-"):
            assert keys == ["crewed", "immobile", "indirect-fire"], weapon.key
        else:
            assert keys == WEAPON_RULES.get(weapon.key, []), weapon.key
    notes = dict(models.Weapon.objects.filter(system=heroes).values_list("key", "notes"))
    assert notes["rifle"] == "Can move and fire without penalty"
    assert notes["rifle-grenade-launcher"] == "3 RGL shots per game or one use of either AT or HE grenades per platoon"
    assert notes["class-1-at-gun"] == 'Crew served ATGs are "Crewed + Immobile"'
    assert notes["autocannon-20mm-or-less"].startswith("Crewed + Immobile if ground mounted. HE Range 24/48/60.")
    assert "1/9" in notes["75mm-l24"] and "30/60/table" in notes["75mm-l24"]
    assert "3/8" in notes["tmg"]
    for key in ["howitzer-51-75mm", "howitzer-76-104mm", "howitzer-105-149mm", "howitzer-150mm-plus"]:
        assert "Howitzer" in notes[key] and "printed" in notes[key].lower()


def test_capacities(heroes):
    rows = models.Reference.objects.filter(system=heroes, table="capacities").order_by("position")
    assert [(row.key, row.name, row.data["capacity"]) for row in rows] == CAPACITIES


def test_defence_values(heroes):
    chart = models.Chart.objects.get(system=heroes, key="defence-values")
    assert {row[0]: tuple(row[1:]) for row in chart.rows} == DEFENCE_VALUES
    assert [row[0] for row in chart.rows] == list(DEFENCE_VALUES)
    entries = models.Reference.objects.filter(system=heroes, table="damage_values").order_by("position")
    assert [entry.name for entry in entries] == list(DEFENCE_VALUES)
    for entry in entries:
        fb, fd, sb, sd, rb, rd = DEFENCE_VALUES[entry.name]
        assert entry.data["kind"] == "armour"
        assert entry.data["value"] == f"front {fb}/{fd}; side {sb}/{sd}; rear {rb}/{rd} (Brew/Damage)"


def test_movement(heroes):
    rows = models.Reference.objects.filter(system=heroes, table="movement").order_by("position")
    assert {row.name: (row.data["values"].get("rd"), row.data["values"].get("xc")) for row in rows} == MOVEMENT
    assert [row.name for row in rows] == list(MOVEMENT)


def test_armies(heroes):
    armies = dict(models.Army.objects.filter(system=heroes).values_list("key", "name"))
    assert armies == {"american": "American", "british": "British", "german": "German", "generic": "Generic"}


@pytest.mark.parametrize("key", list(CARDS))
def test_codex_cards(heroes, key):
    name, army, points, crew, speed, armour_class, capacity, carries, weapons = CARDS[key]
    unit = models.UnitType.objects.get(system=heroes, key=key)
    assert (unit.name, unit.army.key, unit.points, unit.speed) == (name, army, points, speed)
    assert sum(m.count for m in unit.models.all() if m.role == "crew") == crew
    assert (unit.armour or {}).get("armour_class") == armour_class
    assert (unit.transport_capacity, unit.carries) == (capacity, carries)
    carried = sorted(w.key for m in unit.models.all() for w in m.weapons.all())
    assert carried == sorted(weapons)
    for figures in CARD_ROUNDS[key]:
        assert f"Shots/rounds {figures}" in unit.notes


def test_landing_craft_lmg_options(heroes):
    for key, base, note in [("infantry-landing-craft", 5, "5 + 3 per LMG"), ("lct-4", 25, "25 + 3 per LMG")]:
        unit = models.UnitType.objects.get(system=heroes, key=key)
        assert (unit.points, unit.points_note) == (base, note)
        (option,) = unit.options.all()
        assert (option.key, option.points, option.per) == ("lmg", 3, "unit")
        assert [w.key for w in option.weapons.all()] == ["lmg"]
    assert models.UnitType.objects.get(system=heroes, key="infantry-landing-craft").armour == {"note": "n/a"}


def test_house_rules(rapid_fire):
    rules = models.SpecialRule.objects.filter(system=rapid_fire)
    assert rules.count() == HOUSE_RULE_COUNT
    assert set(rules.values_list("kind", flat=True)) == {"house"}
    priced = {rule.key: rule.points for rule in rules if rule.points is not None}
    assert priced == PRICED_HOUSE_RULES
    notes = dict(rules.values_list("key", "points_note"))
    assert notes["air-link-observer"] == "plus the cost of any vehicle"
    assert notes["spotter-plane"] == "plus 15 points for a radio/FO (bought as Spotter plane radio/FO)"
    assert notes["british-6pdr-apds"] == "per gun; from June 1944; counts as Gun Class 2"
    summaries = dict(rules.values_list("key", "summary"))
    assert '48"' in summaries["field-telephone"] and "6 on D6" in summaries["field-telephone"]
    for figure in ["20%", "10%", "5%", "25%/15%", "30%/20%", "35%/25%"]:
        assert figure in summaries["anti-aircraft-fire"]
    for key in [
        "hill-level-1",
        "hill-level-2",
        "hill-level-3",
        "woods",
        "built-up-areas",
        "railway-lines",
        "fording-rivers",
        "multiple-rocket-launchers",
        "use-of-smoke",
        "tank-flank-shots",
        "anti-tank-grenades",
        "destroyed-armoured-personnel-carriers",
        "grenades",
        "vehicle-mounted-weapons",
        "infantry-firing-from-moving-vehicles",
        "anti-tank-movement-modifiers",
    ]:
        assert summaries[key]
    assert not models.Weapon.objects.filter(system=rapid_fire).exists()


def test_heroes_all_rules(heroes):
    rules = dict(models.SpecialRule.objects.filter(system=heroes).values_list("key", "kind"))
    for key in [
        "crewed",
        "immobile",
        "automatic-hit",
        "sub-machine-gun-reroll",
        "tank-mg-mount",
        "rifle-grenade-launcher-limits",
    ]:
        assert rules[key] == "weapon"
    assert heroes.config["rule_roles"]["team"] == "crewed"


@pytest.mark.parametrize(
    ("system_key", "expected"),
    [("heroes-all", HEROES_ALL_ERRATA), ("rapid-fire-house-rules", RAPID_FIRE_ERRATA)],
)
def test_errata(loaded, system_key, expected):
    errata = models.Erratum.objects.filter(system__key=system_key).order_by("position")
    assert [(e.where, e.source_value, e.used_value) for e in errata] == expected
    for erratum in errata:
        assert len(erratum.reason) > 40


def test_reload_changes_nothing(loaded, tmp_path):
    assert all(report.changed for report in loaded.values())
    again = load_all(tmp_path)
    assert not any(report.changed for report in again)


def test_summaries_in_own_words():
    spec = importlib.util.spec_from_file_location("copied_text", ROOT / "scripts" / "copied_text.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files = sorted(str(path) for name in PACK_NAMES for path in (PACKS / name).glob("*.yaml"))
    assert module.main(files) == 0
