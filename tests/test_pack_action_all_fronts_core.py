"""The Action All Fronts pack: system, general material and the British, German and French (1940) lists.

Expected rows are transcribed from the source (004_1239150c32ecf1d2.txt, design version 8.3) and
compared with what the loader writes. The whole pack is loaded; these tests look at the system,
the general material and the British, German and French lists (test_pack_action_all_fronts_armies
covers the others).
"""

import subprocess
import sys
from pathlib import Path

import pytest

from lists import models
from lists.gamedata.loading import game_data

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "lists" / "packs" / "action-all-fronts"
FILES = ["pack.yaml", "british.yaml", "german.yaml", "french-1940.yaml"]


@pytest.fixture
def game(db, real_packs):
    return models.GameSystem.objects.get(key="action-all-fronts")


# --- source tables --------------------------------------------------------------

GENERAL_WEAPONS = [
    # key, name, range, power, type
    ("rifle", "Rifle", 24, 3, "Rifle1"),
    ("smg", "Submachine gun (SMG)", 6, 3, "Assault3"),
    ("lmg", "Light machine gun (LMG)", 24, 4, "LMG3"),
    ("hmg", "Heavy machine gun (HMG)", 30, 4, "HMG4 Support"),
    ("sniper-rifle", "Sniper rifle", 30, 4, "Rifle1"),
    ("anti-tank-rifle", "Anti-tank rifle (ATR)", 6, 3, "AT1"),
    ("light-mortar", "Light Mortar", 12, 3, "Assault3"),
    ("mortar-81mm", "81mm mortar", 36, 4, "HE1 Support"),
    ("hull-turret-mg", "Hull/turret MG", 24, 4, "LMG3"),
    ("cannon-20mm", "20mm cannon", 24, 2, "AT2"),
    ("cannon-25mm", "25mm", 18, 2, "AT1"),
    ("gun-37mm", "37mm", 18, 4, "AT1"),
    ("gun-47mm", "47mm", 20, 6, "AT1"),
    ("gun-57mm-6pdr", "57mm/6pdr", 20, 9, "AT1"),
    ("howitzer-105mm", "105mm howitzer", 60, 8, "HE1 Artillery"),
    ("flamethrower", "Flamethrower", 6, 6, "HE1"),
    ("mortar-120mm", "120mm mortar", None, 7, "HE1 Support Artillery"),
]

NATIONAL_WEAPONS = [
    ("british-2pdr", "2pdr", 18, 5, "AT1"),
    ("british-6pdr", "6pdr", 20, 9, "AT1"),
    ("british-75mm", "75mm", 30, 5, "AT1"),
    ("british-77mm", "77mm", 30, 11, "AT1"),
    ("british-17pdr", "17pdr", 30, 14, "AT1 no HE ability"),
    ("british-3in-cs", "3in CS", 24, 5, "HE1"),
    ("british-95mm-cs", "95mm CS", 24, 8, "HE1"),
    ("british-piat", "PIAT", 6, 7, "HEAT1"),
    ("german-mg34-42", "MG34/42", 24, 5, "LMG3"),
    ("german-mg34-42-tripod", "MG34/42 tripod", 30, 5, "HMG4 Support"),
    ("german-50mm", "50mm", 20, 8, "AT1"),
    ("german-25-8", "25/8", 24, 6, "HE1"),
    ("german-75mm-l43", "75/L43 or L48", 30, 10, "AT1"),
    ("german-75mm-l70", "75/L70", 40, 12, "AT1"),
    ("german-88mm-l56", "88/L56", 60, 13, "AT1"),
    ("german-88mm-l71", "88/L71", 60, 22, "AT1"),
    ("german-panzerfaust", "Panzerfaust", 6, 18, "HEAT1"),
    ("german-panzerschreck", "Panzerschreck", 6, 8, "HEAT1"),
]

# Non-AFV units: key -> (army, name, category, points)
UNITS = {
    "general-truck": ("general", "Truck", "transport", 50),
    "general-jeep": ("general", "Jeep", "transport", 30),
    "general-bicycle": ("general", "Bicycle", "transport", 2),
    "general-horse": ("general", "Horse", "transport", 4),
    "general-light-artillery-bombardment": ("general", "Light artillery bombardment", "artillery-support", 80),
    "general-medium-artillery-bombardment": ("general", "Medium artillery bombardment", "artillery-support", 120),
    "general-heavy-artillery-bombardment": ("general", "Heavy artillery bombardment", "artillery-support", 180),
    "general-counter-battery-fire": ("general", "Counter-battery fire", "artillery-support", 100),
    "general-smoke-bombardment": ("general", "Smoke bombardment", "artillery-support", 100),
    "general-flamethrower-team": ("general", "Flamethrower team", "engineers", 32),
    "general-engineer-team": ("general", "Engineer team", "engineers", 60),
    "british-rifle-squad": ("british", "Rifle Squad", "infantry-squad", 86),
    "british-company-hq": ("british", "Company HQ", "company-hq", 134),
    "british-platoon-hq-up-to-1944": ("british", "Platoon HQ up to 1944", "platoon-hq", 74),
    "british-platoon-hq-1944": ("british", "Platoon HQ 1944+", "platoon-hq", 74),
    "british-heavy-mortar": ("british", "Heavy Mortar", "platoon-support", 72),
    "british-heavy-machine-guns": ("british", "Heavy Machine Guns", "platoon-support", 140),
    "british-anti-tank-gun": ("british", "Anti-tank gun", "platoon-support", 168),
    "british-piat-team": ("british", "PIAT team", "platoon-support", 20),
    "british-anti-tank-gun-section": ("british", "Anti-tank gun section", "company-support", 0),
    "british-bren-gun-platoon": ("british", "Bren Gun Platoon", "company-support", 240),
    "german-infantry-squad-up-to-1943": ("german", "Infantry Squad up to 1943", "infantry-squad", 106),
    "german-panzer-grenadier-squad": ("german", "Panzer Grenadier squad", "infantry-squad", 196),
    "german-company-hq": ("german", "Company HQ", "company-hq", 144),
    "german-platoon-hq": ("german", "Platoon HQ", "platoon-hq", 50),
    "german-light-mortar-team": ("german", "Light mortar team", "platoon-support", 26),
    "german-heavy-machine-guns": ("german", "Heavy Machine Guns", "platoon-support", 160),
    "german-anti-tank-gun": ("german", "Anti-tank gun", "platoon-support", 0),
    "german-panzerschreck-team": ("german", "Panzerschreck team", "platoon-support", 30),
    "german-heavy-mortar-section": ("german", "Heavy Mortar Section", "company-support", 144),
    "french-1940-infantry-squad": ("french-1940", "Infantry Squad", "infantry-squad", 70),
    "french-1940-company-hq": ("french-1940", "Company HQ", "company-hq", 110),
    "french-1940-platoon-hq": ("french-1940", "Platoon HQ", "platoon-hq", 42),
    "french-1940-heavy-mortar": ("french-1940", "Heavy Mortar", "platoon-support", 72),
    "french-1940-heavy-mortar-platoon": ("french-1940", "Heavy Mortar Platoon", "company-support", 144),
    "french-1940-heavy-machine-platoon": ("french-1940", "Heavy Machine Platoon", "company-support", 140),
    "french-1940-25mm-anti-tank-gun": ("french-1940", "25mm Anti-tank gun", "company-support", 134),
    "french-1940-47mm-anti-tank-gun": ("french-1940", "47mm Anti-tank gun", "company-support", 134),
}

# AFVs: key -> (name, Fs, M, equipment, (front, side, rear) or armour note, speed, points, date, weapons)
AFVS = {
    "british-bren-gun-carrier": (
        "Bren Gun Carrier",
        3,
        7,
        "LMG or ATR, may dismount",
        (1, 1, 0),
        "12",
        60,
        1936,
        {"lmg"},
    ),
    "british-mk-vic": ("Mk VIC", 3, 7, "HMG, hull MG", (2, 1, 1), "12", 100, 1935, {"hmg", "hull-turret-mg"}),
    "british-crusader-i": (
        "Crusader I",
        3,
        7,
        "2pdr, hull MG",
        (4, 3, 2),
        "10",
        228,
        1941,
        {"british-2pdr", "hull-turret-mg"},
    ),
    "british-crusader-iii": ("Crusader III", 3, 7, "6pdr", (5, 3, 2), "10", 220, 1942, {"british-6pdr"}),
    "british-matilda-ii": ("Matilda II", 3, 7, "2pdr", (8, 8, 4), "5", 320, 1940, {"british-2pdr"}),
    "british-sherman-firefly": ("Sherman Firefly", 3, 7, "17pdr", (9, 4, 3), "8", 424, 1944, {"british-17pdr"}),
    "british-valentine-iii": ("Valentine III", 3, 7, "2pdr", (7, 6, 4), "5", 244, 1941, {"british-2pdr"}),
    "british-churchill-i": (
        "Churchill I",
        3,
        7,
        "2pdr, 3in CS (hull)",
        (9, 8, 3),
        "5",
        360,
        1942,
        {"british-2pdr", "british-3in-cs"},
    ),
    "british-churchill-iv": (
        "Churchill IV",
        3,
        7,
        "6pdr, hull MG",
        (10, 8, 2),
        "6",
        390,
        1943,
        {"british-6pdr", "hull-turret-mg"},
    ),
    "british-churchill-vii": (
        "Churchill VII",
        3,
        7,
        "75mm, hull MG",
        (13, 12, 2),
        "6",
        470,
        1944,
        {"british-75mm", "hull-turret-mg"},
    ),
    "british-comet": ("Comet", 3, 7, "77mm, hull MG", (8, 3, 3), "12", 360, 1944, {"british-77mm", "hull-turret-mg"}),
    "british-cromwell-i": (
        "Cromwell I",
        3,
        7,
        "6pdr, hull MG",
        (6, 4, 2),
        "15",
        270,
        1943,
        {"british-6pdr", "hull-turret-mg"},
    ),
    # M printed 5: erratum, 7 used.
    "british-cromwell-iv": (
        "Cromwell IV",
        3,
        7,
        "75mm, hull MG",
        (7, 4, 2),
        "12",
        290,
        1943,
        {"british-75mm", "hull-turret-mg"},
    ),
    "british-deacon": ("Deacon", 3, 7, "6pdr (hull) only", "not AFV, truck!", "-", 100, 1942, {"british-6pdr"}),
    "british-archer": ("Archer", 3, 7, "17pdr (hull) only", (5, 5, 0), "8", 290, 1944, {"british-17pdr"}),
    "british-humber-mki": ("Humber MkI wheeled", 3, 7, "HMG, RECON", (2, 1, 1), "12", 136, 1941, {"hmg"}),
    "german-pz-ii": ("Pz II", 3, 7, "20mm", (2, 1, 1), "10", 140, 1937, {"cannon-20mm"}),
    "german-pziii-e": ("PzIII E", 3, 7, "37mm, hull MG", (3, 3, 2), "10", 108, 1940, {"gun-37mm", "hull-turret-mg"}),
    "german-pziii-f": ("PzIII F", 3, 7, "50mm. hull MG", (3, 3, 2), "10", 232, 1940, {"german-50mm", "hull-turret-mg"}),
    "german-pz-ivc": ("Pz IVC", 3, 7, "75/L24", (3, 2, 1), "10", 176, 1940, {"german-25-8"}),
    "german-pzivg": (
        "PzIVG",
        3,
        7,
        "75/L43, hull MG",
        (8, 3, 1),
        "10",
        325,
        1942,
        {"german-75mm-l43", "hull-turret-mg"},
    ),
    # Gun printed 70/L70: erratum, 75/L70 used.
    "german-panther-d": (
        "Panther D",
        3,
        7,
        "75/L70, hull MG",
        (14, 5, 2),
        "10",
        476,
        1943,
        {"german-75mm-l70", "hull-turret-mg"},
    ),
    "german-tiger-i": (
        "Tiger I",
        4,
        8,
        "88/L56, hull MG",
        (12, 8, 6),
        "8",
        636,
        1942,
        {"german-88mm-l56", "hull-turret-mg"},
    ),
    "german-tiger-2": (
        "Tiger 2",
        4,
        8,
        "88/L71, hull MG",
        (23, 9, 6),
        "8",
        856,
        1944,
        {"german-88mm-l71", "hull-turret-mg"},
    ),
    "german-stug-iiib": (
        "STUG IIIb",
        3,
        7,
        "75/L24, hull MG",
        (5, 3, 3),
        "10",
        180,
        1940,
        {"german-25-8", "hull-turret-mg"},
    ),
    "german-pz38t": ("Pz38(t)", 3, 7, "37mm, hull MG", (3, 2, 1), "10", 180, 1940, {"gun-37mm", "hull-turret-mg"}),
    "german-hetzer": (
        "Hetzer",
        3,
        7,
        "75/L43 in hull, hull MG only",
        (8, 3, 1),
        "12",
        180,
        1944,
        {"german-75mm-l43", "hull-turret-mg"},
    ),
    "german-jagdpanther": (
        "Jagdpanther",
        3,
        7,
        "88/L71, hull MG only",
        (14, 6, 3),
        "12",
        400,
        1944,
        {"german-88mm-l71", "hull-turret-mg"},
    ),
    "german-wespe-artillery": (
        "Wespe artillery",
        3,
        7,
        "105mm howitzer, no MG's",
        (4, 2, 0),
        "12",
        180,
        1943,
        {"howitzer-105mm"},
    ),
    "german-sdkfz-222": ("SdKfz 222 wheeled", 3, 7, "20mm cannon RECON", (1, 1, 0), "18", 90, 1936, {"cannon-20mm"}),
    "german-sdkfz-251": (
        "Sdkfz 251",
        3,
        8,
        "MG34 can dismount to be LMG team",
        (2, 1, 0),
        "12",
        124,
        1939,
        {"german-mg34-42"},
    ),
    "french-1940-ft17": ("FT17", 3, 7, "Turret MG or 37mm, only", (2, 2, 1), "4", 58, 1930, {"hull-turret-mg"}),
    "french-1940-r35": ("R35", 3, 7, "37mm", (4, 4, 2), "5", 100, 1935, {"gun-37mm"}),
    "french-1940-h35": ("H35", 3, 7, "50mm. hull MG", (4, 4, 2), "8", 100, 1936, {"german-50mm", "hull-turret-mg"}),
    "french-1940-souma-35": ("Souma 35", 3, 7, "47mm", (5, 4, 3), "9", 145, 1937, {"gun-47mm"}),
    "french-1940-char-b1bis": (
        "Char B1bis",
        3,
        7,
        "47mm, hull MG, hull 75/L24",
        (9, 7, 3),
        "6",
        195,
        1937,
        {"gun-47mm", "hull-turret-mg", "german-25-8"},
    ),
    "french-1940-amc35": ("AMC35", 3, 7, "47mm, RECON", (3, 2, 1), "9", 105, 1936, {"gun-47mm"}),
    "french-1940-ch-lorraine": (
        "Ch. Lorraine",
        3,
        7,
        "No weapons, infantry transport",
        (1, 1, 0),
        "7",
        35,
        1930,
        set(),
    ),
}

# army -> (units, AFVs, national weapons, options over all its units)
COUNTS = {
    "general": (11, 0, 0, 3),  # the US Excellent Communications option on three bombardments
    "british": (26, 16, 8, 8),
    "german": (24, 15, 10, 25),
    "french-1940": (15, 7, 0, 3),
}

ERRATA = [
    (
        "system.periods",
        "early war up to 1942, mid war 1942 to 1943 (25.1 AFV)",
        "early 1939-1941, mid 1942-1943, late 1944 on",
    ),
    (
        "system.hero_points",
        "Up to two hero points for each full 1,000 points (25. Building an Army)",
        "2 per 2,000 points or part of 2,000 at 25 points each (default); the other reading is the setting choice "
        "per-full-1000",
    ),
    ("weapons.anti-tank-rifle.name", "Ant-tank rifle (ATR)", "Anti-tank rifle (ATR)"),
    ("weapons.mortar-81mm.weapon_type", "HE1 Support.", "HE1 Support"),
    ("weapons.mortar-120mm.weapon_type", "HE1 Support. Artillery", "HE1 Support Artillery"),
    ("weapons.mortar-120mm.range", "N/A", "null (no range)"),
    ("units.general-bicycle.carries", "Coverts soldier into wheeled unit", "Converts soldier into wheeled unit"),
    (
        "charts.constitution-damage.notes",
        "Quick reference 13.3: behind smoke +1 (with cover and wooden buildings)",
        "Behind smoke +2 (with entrenched and stone buildings), as chapter 13.3 prints it",
    ),
    (
        "organisations.action-all-fronts.slots.company-choices",
        "25: each company HQ allows one artillery support plus one more choice (artillery support, company support "
        "unit or AFV)",
        "29: one artillery support once there is any company HQ, plus one choice per company HQ (if_any 1, each 1)",
    ),
    (
        "units.british-anti-tank-gun-section.options.2pdr.service",
        "37mm from 1938, 6pdr from 1943, 17pdr from 1944",
        "2pdr from 1938",
    ),
    ("units.british-cromwell-iv.composition.0.morale", "5", "7"),
    ("units.german-panther-d.composition.0.equipment", "70/L70, hull MG", "75/L70, hull MG"),
    (
        "weapons.german-25-8",
        "25/8 (a German Weapons row no unit carries); 75/L24 (a gun the Pz IVC and STUG IIIb carry with no row)",
        "The 75/L24 uses the 25/8 row: range 24, power 6, HE1; the row is kept under its printed name",
    ),
    ("units.german-pz-ivc.composition.0.equipment", "75/L24,", "75/L24"),
    (
        "units.french-1940-h35.composition.0.equipment",
        "50mm. hull MG",
        "50mm. hull MG (kept as printed; weapon linked to the German 50mm row: 20/8/AT1)",
    ),
    ("units.french-1940-souma-35.name", "Souma 35", "Souma 35 (kept as printed)"),
    ("units.french-1940-char-b1bis.composition.0.weapons", "hull 75/L24", "German Weapons row 25/8 (24, 6, HE1)"),
    (
        "units.french-1940-infantry-squad.composition.2.weapons; french-1940-company-hq; french-1940-platoon-hq",
        "Chauchat; 60mm mortar; Carbine",
        "lmg; light-mortar; no weapon link",
    ),
]


def unit(game, key):
    return models.UnitType.objects.get(system=game, key=key)


# --- system ---------------------------------------------------------------------


def test_system_config(game):
    assert game.name == "Action All Fronts"
    assert game.version == "1.0.0"
    config = game.config
    assert config["sources"] == [
        {
            "key": "rules",
            "title": "Action All Fronts, design version 8.3",
            "file": "004_1239150c32ecf1d2.txt",
            "rules_cite_unit_section": False,
        }
    ]
    assert [(p["key"], p["name"], p["start"], p["end"]) for p in config["periods"]] == [
        ("early", "Early war", 1939, 1941),
        ("mid", "Middle war", 1942, 1943),
        ("late", "Late war", 1944, None),
    ]
    assert config["uses_years"] is True
    assert [(c["field"], c["label"]) for c in config["weapon_columns"]] == [
        ("range", "Range"),
        ("power", "Power"),
        ("weapon_type", "Type"),
        ("notes", "Notes"),
    ]
    assert config["period_costs"] == {
        "applies_to": ["afv"],
        "multipliers": {
            "early": {"early": 1, "mid": 0.5, "late": 0.25},
            "mid": {"early": 2, "mid": 1, "late": 0.5},
            "late": {"mid": 2, "late": 1},
        },
    }


def test_hero_points_and_settings(game):
    readings = game.config["hero_points"]
    assert [
        (r["key"], r["points"], r["per_points"], r["rounding"], r["cost_each"], r["max_per_hero"]) for r in readings
    ] == [
        ("per-2000", 2, 2000, "part", 25, 6),
        ("per-full-1000", 2, 1000, "full", 25, 6),
    ]
    settings = {s["key"]: s for s in game.config["settings"]}
    assert set(settings) == {"enemy-fortifications", "hero-points"}
    assert settings["enemy-fortifications"]["kind"] == "bool"
    assert settings["enemy-fortifications"]["default"] is False
    assert settings["hero-points"]["kind"] == "choice"
    assert settings["hero-points"]["default"] == "per-2000"
    assert settings["hero-points"]["choices"] == ["per-2000", "per-full-1000"]


def test_unit_categories(game):
    assert list(models.UnitCategory.objects.filter(system=game).order_by("position").values_list("key", flat=True)) == [
        "infantry-squad",
        "platoon-hq",
        "company-hq",
        "platoon-support",
        "company-support",
        "artillery-support",
        "afv",
        "transport",
        "engineers",
        "other",
    ]


# --- weapons --------------------------------------------------------------------


def test_general_weapons(game):
    rows = [
        (w.key, w.name, w.range, w.power, w.weapon_type)
        for w in models.Weapon.objects.filter(system=game, group="General Weapons").order_by("position")
    ]
    assert rows == GENERAL_WEAPONS


def test_national_weapons(game):
    for key, name, rng, power, kind in NATIONAL_WEAPONS:
        weapon = models.Weapon.objects.get(system=game, key=key)
        assert (weapon.name, weapon.range, weapon.power, weapon.weapon_type) == (name, rng, power, kind), key
    assert models.Weapon.objects.filter(system=game, group="British Weapons").count() == 8
    assert models.Weapon.objects.filter(system=game, group="German Weapons").count() == 10


# --- armies and units -----------------------------------------------------------


def test_armies(game):
    british = models.Army.objects.get(system=game, key="british")
    assert british.name == "British and Commonwealth Army"
    assert list(british.borrows_from.values_list("key", flat=True)) == ["us"]
    assert "M3" in british.borrow_note and "M7" in british.borrow_note
    assert set(british.rules.values_list("key", flat=True)) >= {"british-for-the-regiment"}
    german = models.Army.objects.get(system=game, key="german")
    assert set(german.rules.values_list("key", flat=True)) == {"german-panzer-attack", "german-panzerfaust"}
    french = models.Army.objects.get(system=game, key="french-1940")
    assert french.name == "French (1940) Army"
    assert set(french.rules.values_list("key", flat=True)) == {"french-one-man-turrets"}
    assert models.Army.objects.get(system=game, key="general").name == "General (all armies)"


def test_unit_points(game):
    for key, (army, name, category, points) in UNITS.items():
        obj = unit(game, key)
        assert (obj.army.key, obj.name, obj.category.key, obj.points) == (army, name, category, points), key


# 25.1 AFV: every tank has a hull MG unless its entry says otherwise; these entries name none
# and say nothing otherwise ("(hull)" places a gun, it does not remove the MG).
IMPLIED_HULL_MG = {
    "british-crusader-iii",
    "british-matilda-ii",
    "british-sherman-firefly",
    "british-valentine-iii",
    "british-churchill-i",
    "french-1940-r35",
    "french-1940-souma-35",
    "french-1940-amc35",
    "german-pz-ii",
    "german-pz-ivc",
    "italian-cv33",
    "russian-bt-7",
    "russian-t70",
    "russian-su-85",
    "russian-su122",
    "russian-isu122",
    "russian-su-152",
}


def test_afvs(game):
    for key, (name, fs, morale, equipment, armour, speed, points, date, weapons) in AFVS.items():
        if key in IMPLIED_HULL_MG:
            weapons = weapons | {"hull-turret-mg"}
        obj = unit(game, key)
        assert obj.name == name, key
        assert obj.category.key == "afv", key
        assert obj.kind == "vehicle", key
        assert (obj.points, obj.speed, obj.service_start) == (points, speed, date), key
        if isinstance(armour, tuple):
            assert (obj.armour["front"], obj.armour["side"], obj.armour["rear"]) == armour, key
        else:
            assert obj.armour["note"] == armour, key
        [vehicle] = obj.models.all()
        assert (vehicle.role, vehicle.name, vehicle.fs, vehicle.morale, vehicle.equipment) == (
            "vehicle",
            name,
            fs,
            morale,
            equipment,
        ), key
        assert set(vehicle.weapons.values_list("key", flat=True)) == weapons, key
        period = "early" if date <= 1941 else "mid" if date <= 1943 else "late"
        assert obj.service_period == period, key


def test_counts_per_army(game):
    for army, (units, afvs, weapons, options) in COUNTS.items():
        qs = models.UnitType.objects.filter(system=game, army__key=army)
        assert qs.count() == units, army
        assert qs.filter(category__key="afv").count() == afvs, army
        assert models.Weapon.objects.filter(system=game, key__startswith=f"{army}-").count() == weapons, army
        assert models.UnitOption.objects.filter(unit_type__in=qs).count() == options, army
    assert set(UNITS) | set(AFVS) == set(
        models.UnitType.objects.filter(system=game, army__key__in=list(COUNTS)).values_list("key", flat=True)
    )


def test_compositions(game):
    squad = unit(game, "british-rifle-squad")
    assert [(m.count, m.role, m.name, m.fs, m.morale, m.equipment) for m in squad.models.order_by("position")] == [
        (1, "nco", "NCO", 3, 7, "Rifle"),
        (5, "soldier", "Soldier", 3, 7, "Rifle"),
        (1, "team", "LMG team", 3, 7, "LMG"),
    ]
    german = unit(game, "german-infantry-squad-up-to-1943")
    assert [(m.count, m.name, m.equipment) for m in german.models.order_by("position")] == [
        (1, "NCO", "SMG"),
        (7, "Soldier", "Rifle"),
        (1, "LMG team", "MG34/42"),
    ]
    assert list(german.models.get(name="LMG team").weapons.values_list("key", flat=True)) == ["german-mg34-42"]
    hq = unit(game, "german-platoon-hq")
    assert hq.models.get(name="Marksman").fs == 4
    french = unit(game, "french-1940-infantry-squad")
    assert [(m.count, m.morale) for m in french.models.order_by("position")] == [(1, 6), (9, 6), (1, 6)]
    flame = unit(game, "general-flamethrower-team")
    [team] = flame.models.all()
    assert (team.name, team.fs, team.morale, team.equipment) == ("Team of 2", 2, 7, "Man pack flamethrower")
    engineers = unit(game, "general-engineer-team")
    [men] = engineers.models.all()
    assert (men.count, men.fs, men.morale) == (4, 3, 7)
    # "Platoon HQ up to 1944" is read as including 1944 (errata: one reading of "up to" everywhere).
    assert unit(game, "british-platoon-hq-up-to-1944").service_end == 1944
    assert unit(game, "german-infantry-squad-up-to-1943").service_end == 1943
    assert unit(game, "british-platoon-hq-1944").service_start == 1944


def option_rows(game, key):
    return [
        (o.key, o.name, o.points, o.group, o.crew, o.service_start)
        for o in unit(game, key).options.order_by("position")
    ]


def test_anti_tank_gun_options(game):
    assert option_rows(game, "british-anti-tank-gun-section") == [
        ("2pdr", "2pdr", 316, "gun", 6, 1938),
        ("6pdr", "6pdr", 372, "gun", 8, 1943),
        ("17pdr", "17pdr", 564, "gun", 8, 1944),
        ("bren-gun-carriers", "Bren Gun Carriers instead of Trucks", 20, "", None, None),
    ]
    assert option_rows(game, "german-anti-tank-gun") == [
        ("37mm", "37mm", 130, "gun", 3, 1940),
        ("50mm", "50mm", 165, "gun", 4, 1941),
        ("75mm-l43", "75mm/L43", 210, "gun", 4, 1942),
    ]


def test_other_options(game):
    for key, points in [
        ("german-infantry-squad-up-to-1943", 40),
        ("german-panzer-grenadier-squad", 40),
        ("german-company-hq", 20),
        ("german-platoon-hq", 20),
    ]:
        option = unit(game, key).options.get(key="panzerfaust")
        assert (option.points, option.service_start) == (points, 1943), key
        assert list(option.weapons.values_list("key", flat=True)) == ["german-panzerfaust"]
    panzer_attack = models.UnitOption.objects.filter(unit_type__system=game, key="panzer-attack")
    assert panzer_attack.count() == 16  # 15 German AFVs and the Panzer Grenadier squad
    assert set(panzer_attack.values_list("points", flat=True)) == {0}
    for key in ["british-company-hq", "german-company-hq", "french-1940-company-hq"]:
        options = {o.key: o.points for o in unit(game, key).options.all()}
        assert options["artillery-observer"] == 50
        assert options["independent-observer"] == 30
    piat = unit(game, "british-bren-gun-platoon").options.get(key="piat")
    assert (piat.points, piat.service_start, piat.replaces) == (0, 1943, ["anti-tank-rifle"])


def test_transport(game):
    truck, jeep = unit(game, "general-truck"), unit(game, "general-jeep")
    assert (truck.speed, truck.constitution, truck.carries, truck.transport_capacity) == ("12", 5, "Carries squad.", 16)
    assert (jeep.speed, jeep.constitution, jeep.carries, jeep.transport_capacity) == (
        "12",
        5,
        "Carries up to 5 men.",
        5,
    )
    assert [m.morale for m in truck.models.all()] == [7]
    assert unit(game, "general-bicycle").points_note == "+2 per soldier mounted"
    assert unit(game, "general-horse").speed == "12"


def test_truck_capacity_is_the_largest_squad_and_a_gun_crew_11_1(game):
    """11.1: a truck carries a full squad and a towed gun's crew. The largest squads are the
    Japanese and French ones, 1 NCO + 9 soldiers + an LMG team of 2 (4.4) = 12 figures; the largest
    gun crew is 4 (6pdr, 50mm, 75mm, 47mm): 16."""
    data = game_data(game)
    squads = [info for info in data.unit_types.values() if info.category == "infantry-squad"]
    largest = max(info.base_size for info in squads)
    assert largest == 12
    assert {info.key for info in squads if info.base_size == 12} == {
        "japanese-rifle-squad",
        "french-1940-infantry-squad",
    }
    assert unit(game, "general-truck").transport_capacity == largest + 4


def test_artillery_support_notes(game):
    for key, power in [
        ("general-light-artillery-bombardment", 4),
        ("general-medium-artillery-bombardment", 7),
        ("general-heavy-artillery-bombardment", 10),
    ]:
        obj = unit(game, key)
        assert obj.notes.startswith(f"Power {power}."), key
        assert not obj.models.exists()


# --- organisation ------------------------------------------------------------------


def test_organisation_slots(game):
    organisation = models.Organisation.objects.get(system=game, key="action-all-fronts")
    assert organisation.name == "Action All Fronts company"
    slots = {slot["key"]: slot for slot in organisation.slots}
    assert slots["infantry-squads"]["min"] == 1
    # 25 / 29: up to three squads per platoon command; the starting squad needs none.
    assert slots["infantry-squads"]["max"] == {
        "base": 0,
        "per": [{"categories": ["platoon-hq"], "each": 3, "if_any": None}],
        "at_least": 1,
    }
    assert slots["platoon-hqs"]["max"]["per"] == [{"categories": ["infantry-squad"], "each": 1, "if_any": None}]
    assert slots["platoon-support"]["max"]["per"] == [{"categories": ["platoon-hq"], "each": 1, "if_any": None}]
    assert slots["company-hqs"]["max"]["per"] == [{"categories": ["platoon-hq"], "each": 0.5, "if_any": None}]
    choices = slots["company-choices"]
    assert choices["categories"] == ["artillery-support", "company-support", "afv"]
    assert choices["max"]["per"] == [{"categories": ["company-hq"], "each": 1, "if_any": 1}]
    assert choices["half_choice_at_most_points"] == 200
    assert choices["half_choice_categories"] == ["afv"]
    support = slots["company-support-and-afv"]
    assert support["categories"] == ["company-support", "afv"]
    assert support["max"]["per"] == [{"categories": ["company-hq"], "each": 1, "if_any": None}]
    assert (support["half_choice_at_most_points"], support["half_choice_categories"]) == (200, ["afv"])
    engineers = slots["engineers"]
    assert engineers["requires_setting"] == "enemy-fortifications"
    assert engineers["max"]["per"] == [{"categories": ["platoon-hq"], "each": 1, "if_any": None}]


def test_charts(game):
    costs = models.Chart.objects.get(system=game, key="fortification-costs")
    # Cost by fortification (listed alphabetically; the order is checked below).
    assert {row[0]: int(row[1]) for row in costs.rows} == {
        "AT Obstacles section": 20,
        "Area of mines - single type": 30,
        "Barbed wire section": 20,
        "Large bunker": 100,
        "Large gun pit": 50,
        "Small bunker": 75,
        "Small gun pit": 30,
        "Trench": 20,
    }
    assert [row[0] for row in costs.rows][:3] == ["Barbed wire section", "Trench", "Small gun pit"]
    basic = models.Chart.objects.get(system=game, key="basic-points-infantry")
    assert basic.rows == [
        ["1", "4", "6", "8", "10", "12"],
        ["2", "6", "8", "12", "16", "20"],
        ["3", "8", "10", "14", "18", "22"],
        ["4", "10", "12", "16", "20", "24"],
        ["5", "12", "14", "20", "24", "28"],
    ]


# --- errata and own words ---------------------------------------------------------


def test_errata_complete(game):
    rows = list(models.Erratum.objects.filter(system=game).order_by("position"))
    # These parts' errata are all there (the other armies add their own).
    assert set(ERRATA) <= {(e.where, e.source_value, e.used_value) for e in rows}
    assert all(len(e.reason) > 20 for e in rows)


def test_no_copied_text():
    result = subprocess.run(  # noqa: S603 - fixed arguments
        [sys.executable, str(ROOT / "scripts" / "copied_text.py"), *(str(PACK / name) for name in FILES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout == ""
    assert result.returncode == 0
