"""The Italian, Japanese, Russian and US lists of the Action All Fronts pack.

The expected rows below are transcribed from the source
(/work/shared/seeds/004_1239150c32ecf1d2.txt, design version 8.3) as printed,
corrupted cells included; every place the pack departs from the print is
listed in CORRECTIONS and must have a matching erratum. A wrong figure in a
pack file fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lists import models

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "lists" / "packs" / "action-all-fronts"
ARMY_FILES = ["italian.yaml", "japanese.yaml", "russian.yaml", "us.yaml"]
ARMIES = ["italian", "japanese", "russian", "us"]

# --- Units as printed: (name, points or None for "Pts varies", category) ------------
UNITS = {
    "italian": [
        ("Rifle Squad", 68, "infantry-squad"),
        ("LMG Squad", 84, "infantry-squad"),
        ("Company HQ", 50, "company-hq"),
        ("Platoon HQ", 22, "platoon-hq"),
        ("Light mortar Squad", 74, "platoon-support"),
        ("Heavy MG Squad", 136, "platoon-support"),
        ("47mm Anti-tank gun", 150, "company-support"),
        ("Heavy Mortar Platoon", 144, "company-support"),
    ],
    "japanese": [
        ("Rifle Squad", 173, "infantry-squad"),
        ("Company HQ", 166, "company-hq"),
        ("Platoon HQ", 32, "platoon-hq"),
        ("Light mortar squad", 78, "platoon-support"),
        ("Heavy Machine Gun", 70, "platoon-support"),
        ("Anti-tank gun", None, "company-support"),
        ("Howitzer platoon", 200, "company-support"),
        ("Heavy Mortar Section", 184, "company-support"),
    ],
    "russian": [
        ("Rifle Squad", 76, "infantry-squad"),
        ("Tank Riders", 80, "infantry-squad"),
        ("Company HQ", 72, "company-hq"),
        ("Platoon HQ", 36, "platoon-hq"),
        ("Light mortar team", 20, "platoon-support"),
        ("Anti-tank rifle squad", 55, "platoon-support"),
        ("Heavy Machine Gun", 60, "platoon-support"),
        ("Heavy Mortar", 65, "platoon-support"),
        ("Heavy Mortar squad", 290, "company-support"),
        ("Infantry Gun squad", 290, "company-support"),
        ("Anti-tank gun squad", None, "company-support"),
    ],
    "us": [
        ("Rifle Squad", 69, "infantry-squad"),
        ("Armoured Rifle Squad", 156, "infantry-squad"),
        ("Company HQ", 56, "company-hq"),
        ("Platoon HQ", 44, "platoon-hq"),
        ("Heavy Machine Gun", 70, "platoon-support"),
        ("Bazooka team", 20, "platoon-support"),
        ("Heavy Mortar platoon", 210, "company-support"),
        ("Heavy Machine Guns", 140, "company-support"),
        ("Anti-tank gun section", 440, "company-support"),
    ],
}

# --- Composition as printed: (count, description, Fs, M, equipment); None = "-" or blank
COMPOSITION = {
    "italian": {
        "Rifle Squad": [(1, "NCO", 3, 7, "Fucile 1891"), (10, "Soldier", 3, 6, "Fucile 1891")],
        "LMG Squad": [
            (1, "NCO", 3, 7, "Fucile 1891"),
            (7, "Soldier", 3, 6, "Fucile 1891"),
            (1, "LMG team", 3, 6, "Breda 30"),
        ],
        "Company HQ": [
            (2, "Officer", 3, 8, "SMG"),
            (1, "NCO", 3, 7, "Fucile 1891"),
            (3, "Soldier", 3, 7, "Fucile 1891"),
        ],
        "Platoon HQ": [(1, "Officer", 3, 7, "SMG"), (1, "NCO", 3, 7, "Fucile 1891")],
        "Light mortar Squad": [(1, "NCO", 3, 7, "Fucile 1891"), (3, "Mortar teams", 3, 6, "Lt mortar")],
        "Heavy MG Squad": [(1, "NCO", 3, 7, "Fucile 1891"), (8, "crew", 3, 6, None), (2, "HMG", None, None, "HMG")],
        "47mm Anti-tank gun": [
            (4, "crew", 3, 7, None),
            (1, "47mm gun", None, None, "47mm"),
            (1, "Truck", None, None, "Transport"),
        ],
        "Heavy Mortar Platoon": [(8, "crew", 3, 7, None), (2, "81mm mortar", None, None, None)],
    },
    "japanese": {
        "Rifle Squad": [
            (1, "NCO", 3, 7, "Arisaka"),
            (9, "Soldier", 3, 7, "Arisaka"),
            (1, "LMG team", 3, 7, "Model 11"),
        ],
        "Company HQ": [(1, "Officer", 3, 9, "None"), (1, "NCO", 3, 8, "Arisaka"), (9, "Soldier", 3, 7, "Arisaka")],
        "Platoon HQ": [(1, "Officer", 3, 8, "None"), (1, "NCO", 3, 7, "Arisaka")],
        "Light mortar squad": [(3, "Mortar team", 3, 7, "Light mortar")],
        "Heavy Machine Gun": [(3, "crew", 3, 7, None), (1, "HMG", None, None, "HMG")],
        "Anti-tank gun": [(3, "crew", 3, 7, None), (1, "A/T gun", None, None, "See below")],
        "Howitzer platoon": [(6, "crew", 3, 7, None), (2, "70mm howitzer", None, None, "70mm")],
        "Heavy Mortar Section": [(3, "crew", 3, 7, None), (2, "81mm mortar", None, None, "81mm")],
    },
    "russian": {
        "Rifle Squad": [(1, "NCO", 2, 6, "Rifle"), (8, "Soldier", 2, 6, "Rifle"), (1, "LMG team", 2, 6, "LMG")],
        "Tank Riders": [(8, "Soldier", 3, 7, "SMG")],
        "Company HQ": [
            (1, "Officer", 3, 8, "SMG"),
            (1, "Political officer", 3, 10, "None"),
            (4, "Soldier", 2, 6, "Rifle"),
        ],
        "Platoon HQ": [(1, "Officer", 3, 7, "SMG"), (1, "NCO", 3, 7, "SMG"), (2, "Soldier", 2, 6, "Rifle")],
        "Light mortar team": [(1, "Mortar team", 2, 6, "Light mortar")],
        "Anti-tank rifle squad": [(2, "ATR team", 3, 7, "ATR")],
        "Heavy Machine Gun": [(3, "crew", 2, 6, None), (1, "HMG", None, None, "HMG")],
        "Heavy Mortar": [(4, "crew", 2, 6, None), (1, "82mm mortar", None, None, "As 81mm mortar")],
        "Heavy Mortar squad": [
            (8, "crew", 3, 6, None),
            (2, "Heavy mortar", None, None, "120mm mortar"),
            (2, "Trucks", None, None, "Transport"),
        ],
        "Infantry Gun squad": [
            (6, "crew", 3, 6, None),
            (2, "76mm howitzer", None, None, "76mm how"),
            (2, "Trucks", None, None, "Transport"),
        ],
        "Anti-tank gun squad": [
            (8, "crew", 3, 6, None),
            (2, "A/T gun", None, None, "See below"),
            (2, "Trucks", None, None, "Transport"),
        ],
    },
    "us": {
        "Rifle Squad": [(1, "NCO", 3, 7, "M1 Garand"), (8, "Soldier", 3, 6, "M1 Garand"), (1, "BAR", 3, 6, "BAR")],
        "Armoured Rifle Squad": [
            (1, "NCO", 3, 7, "M1 Garand"),
            (9, "Soldier", 3, 6, "M1 Garand"),
            (1, "M3 half-track", 3, 7, "See list"),
        ],
        "Company HQ": [
            (1, "Officer", 3, 9, "Carbine"),
            (1, "Officer", 3, 8, "Carbine"),
            (2, "Soldier", 3, 6, "M1 Garand"),
        ],
        "Platoon HQ": [
            (1, "Officer", 3, 8, "Carbine"),
            (2, "NCO", 3, 7, "M1 Garand"),
            (2, "Soldier", 2, 6, "M1 Garand"),
        ],
        "Heavy Machine Gun": [(3, "crew", 3, 7, None), (1, "HMG", None, None, "HMG")],
        "Bazooka team": [(1, "Team of 2", 3, 7, "Bazooka")],
        "Heavy Mortar platoon": [
            (8, "crew", 3, 7, None),
            (2, "81mm mortar", None, None, None),
            (2, "Trucks", None, None, "Transport"),
        ],
        "Heavy Machine Guns": [
            (6, "crew", 3, 7, None),
            (2, "HMG", None, None, "HMG"),
            (2, "Trucks", None, None, "Transport"),
        ],
        "Anti-tank gun section": [
            (6, "crew", 3, 7, None),
            (2, "57mm", None, None, "57mm"),
            (2, "M3 half-track", None, None, "Transport"),
        ],
    },
}

# --- AFV tables as printed: (description, Fs, M, equipment, armour, Sp, Pts, date) ---
AFVS = {
    "italian": [
        ("CV33", 3, 7, "2x Breda 30", "2/1/1", "8", 60, 1933),
        ("M13/40", 3, 7, "47mm, 2x hull MG", "4/3/2", "7", 168, 1940),
        ("M15/42", 3, 7, "47mm, 2x hull MG", "5/3/2", "7", 200, 1943),
        ("SMV 75/18", 3, 7, "75mm/18 (hull), hull MG", "4/3/1", "7", 140, 1941),
        ("SMV 75/34", 3, 7, "75mm/34 (hull), 2 hull MG", "5/4/1", "8", 160, 1941),
        ("SMV 90/53", 3, 7, "90mm/L53 (hull) only", "4/3/0", "8", 180, 1942),
        ("AB 40 wheeled", 3, 7, "Turret MG, hull MG, RECON", "1/1/1", "12", 140, 1940),
    ],
    "japanese": [
        ("89", 3, 7, "57mm/L18, hull MG", "2/2/1", "6", 100, 1930),
        ("95", 3, 7, "37mm, hull MG", "3/2/1", "10", 120, 1940),
        ("97 Chi-Ha", 3, 7, "57mm/L18, hull MG", "3/3/1", "10", 120, 1937),
        ("97 Chi-Ha Kai", 3, 7, "47mm, 2x hull MG", "4/3/1", "10", 172, 1942),
    ],
    "russian": [
        ("BT-7", 2, 6, "45/L42", "2/1/1", "10", 130, 1937),
        ("T26", 2, 6, "45/L42, hull MG", "3/2/1", "12", 115, 1935),
        # Printed over three rows: "T70 2 6 45/L32", "one man turret ... RECON", "7/2/1 12 140 1942".
        ("T70", 2, 6, "45/L32", "7/2/1", "12", 140, 1942),
        ("T34/76 1940", 2, 6, "76mm, hull MG", "8/6/4", "12", 250, 1941),
        ("KV1", 3, 6, "76mm, hull MG", "10/8/4", "8", 320, 1940),
        ("KV2", 2, 6, "152mm, hull MG", "10/8/4", "6", 450, 1940),
        ("T35", 2, 6, "76mm howitzer, two 45/L42, six turret mounted MG in total", "4/3/2", "6", 250, 1938),
        ("T34/85", 2, 6, "85mm, hull MG", "9/7/4", "12", 330, 1945),
        ("IS-2", 3, 6, "122mm, hull MG", "19/9/3", "10", 650, 1944),
        ("SU-76", 2, 6, "76mm (hull), no MG", "5/2/0", "12", 110, 1943),
        ("SU-85", 2, 6, "85mm (hull)", "8/6/2", "12", 250, 1943),
        ("SU122", 2, 6, "122mm (hull)", "9/6/2", "12", 280, 1942),
        ("ISU122", 2, 6, "122mm (hull)", "14/9/3", "8", 500, 1944),
        ("SU-152", 2, 6, "152mm (hull)", "15/6/3", "8", 440, 1943),
        ("BA10 wheeled", 2, 6, "45/L42, hull MG RECON", "2/1/1", "12", 82, 1935),
    ],
    "us": [
        ("M3 half-track", 3, 7, "HMG", "2/1/1", "16", 92, 1941),
        ("M5 tank", 3, 7, "37mm, hull MG", "5/3/1", "12", 200, 1941),
        ("M3 Lee", 3, 7, "37mm, 75mm (hull), hull MG", "6/4/2", "12", 180, 1941),
        ("Sherman M4A1", 3, 7, "75mm, hull MG", "7/4/2", "8", 200, 1942),
        ("Sherman Jumbo", 3, 7, "75mm, hull MG", "15/8/2", "8", 400, 1944),
        ("Sherman (76)", 3, 7, "76mm, hull MG", "9/4/2", "8", 300, 1944),
        ("Sherman (105) artillery", 3, 7, "105mm M4 hull MG", "9/4/2", "8", 300, 1943),
        ("M24 Chaffee", 3, 7, "75mm, hull MG", "5/3/1", "12", 280, 1944),
        ("M26 Pershing", 3, 7, "90mm, hull MG", "15/8/3", "10", 576, 1945),
        ("M10", 3, 7, "76mm <u>no</u> MG's", "6/3/0", "17", 270, 1944),
        ("M18", 3, 7, "76mm <u>no</u> MG's", "2/2/0", "22", 240, 1944),
        ("M36", 3, 7, "90mm <u>no</u> MG's", "07/03/2000", "15", 350, 1944),
        ("M7 artillery", 3, 7, "105 artillery, no MG's", "6/4/0", "10", 280, 1942),
    ],
}

# --- National weapons tables as printed: (weapon, range, power, type) -----------------
WEAPONS = {
    "italian": [
        ("Fucile 1891", 24, 2, "Rifle1"),
        ("Breda 30", 24, 3, "LMG2"),
        ("Fucile 1938", 24, 3, "Rifle1"),
        ("75mm/18", 24, 5, "HE1"),
        ("75mm/34", 30, 5, "AT1"),
        ("90mm/L53", 60, 12, "AT1"),
    ],
    "japanese": [
        ("Arisaka", 24, 2, "Rifle1"),
        ("Model 11", 24, 3, "LMG2"),
        ("57mm/L18", 20, 5, "HE1"),
        ("70mm howitzer", 24, 5, "HE1 Artillery Support"),
    ],
    "russian": [
        ("45/L42", 18, 5, "AT1"),
        ("57mm", 20, 9, "AT1"),
        ("76mm", 30, 6, "AT1"),
        ("76mm howitzer", 30, 6, "HE1"),
        ("85mm", 40, 10, "AT1"),
        ("100mm", 45, 15, "AT1"),
        ("122mm", 40, 7, "HE1"),
        ("152mm", 40, 10, "HE1"),
    ],
    "us": [
        ("M1 Garand", 24, 3, "Rifle1"),
        ("or upgrade (cost +2 points per figure)", 24, 3, "Assault2"),
        ("BAR", 24, 4, "Assault2"),
        ("50 cal machine gun", 36, 5, "HMG4"),
        ("Carbine", 18, 2, "Assault2"),
        ("57mm", 20, 9, "AT1"),
        ("75mm no HE penalty", 30, 5, "AT1"),
        ("76mm", 30, 10, "AT1"),
        ("90mm", 40, 13, "AT1"),
        ("Bazooka", 6, 7, "HEAT1"),
        ("105mm M4", 30, 7, "HE1"),
    ],
}
WEAPON_GROUPS = {
    "italian": "Italian weapons",
    "japanese": "Japanese weapons",
    "russian": "Russian weapons",
    "us": "US weapons",
}

# Printed value -> value the pack uses; each one has an erratum below.
CORRECTIONS = {
    "07/03/2000": "7/3/0",
    "76mm <u>no</u> MG's": "76mm no MG's",
    "90mm <u>no</u> MG's": "90mm no MG's",
    "or upgrade (cost +2 points per figure)": "M1 Garand (upgraded)",
}
# The T70's equipment cell overflowed into a row of its own.
T70_EQUIPMENT = "45/L32, one man turret, RECON"

# Every erratum of the four files: (where, source value, used value).
ERRATA = [
    (
        "units.japanese-anti-tank-gun.options.gun-47mm.service.start",
        "37mm from 1940, 37mm from 1943",
        "37mm from 1940, 47mm from 1943 (47mm option: service start 1943)",
    ),
    (
        "units.russian-t70",
        "three rows: 'T70 | 2 | 6 | 45/L32' / ' | one man turret | | | RECON' / '7/2/1 | 12 | 140 | 1942'",
        "one AFV: Fs 2, M 6, equipment '45/L32, one man turret, RECON', armour 7/2/1, Sp 12, 140 pts, 1942",
    ),
    (
        "units.russian-t70.composition.0.weapons",
        "45/L32",
        "russian-45-l42 (the 45/L42 profile); the equipment text keeps 45/L32",
    ),
    ("units.us-m36.armour", "07/03/2000", "7/3/0"),
    ("weapons.us-m1-garand-upgraded.name", "or upgrade (cost +2 points per figure)", "M1 Garand (upgraded)"),
    ("units.us-m10.composition.0.equipment", "76mm <u>no</u> MG's", "76mm no MG's"),
    ("units.us-m18.composition.0.equipment", "76mm <u>no</u> MG's", "76mm no MG's"),
    ("units.us-m36.composition.0.equipment", "90mm <u>no</u> MG's", "90mm no MG's"),
]
ERRATA_PREFIXES = tuple(f"{part}.{army}-" for part in ("units", "weapons", "rules") for army in ARMIES)

# Anti-tank guns chosen per unit: (option name, cost, in service from, crew, weapon key).
GUN_OPTIONS = {
    ("japanese", "Anti-tank gun"): [
        ("37mm", 80, 1940, 3, "gun-37mm"),
        ("47mm", 120, 1943, 4, "gun-47mm"),
    ],
    ("russian", "Anti-tank gun squad"): [
        ("45/L42", 300, 1933, 8, "russian-45-l42"),
        ("76mm", 380, 1942, 8, "russian-76mm"),
        ("100mm", 740, 1945, 8, "russian-100mm"),
    ],
}

# Options per army, counted from the lists and the Army List Design chapter.
OPTION_COUNTS = {
    # Fucile 1938 on the six rifle-armed units; two observer options on the company HQ.
    "italian": 6 + 2,
    # Rifle squad: marksman, horses, bicycles, lunge mine; two HQs: horses, bicycles, lunge mine;
    # company HQ observers; two anti-tank guns.
    "japanese": 4 + 3 + 3 + 2 + 2,
    # Rifle squad SMG and horses; horses for tank riders and both HQs; company HQ observers;
    # three anti-tank guns; the combined-unit discount on each of the 15 AFVs.
    "russian": 2 + 1 + 1 + 1 + 2 + 3 + 15,
    # Garand upgrade on four units; company HQ observers.
    "us": 4 + 2,
}

ARMY_RULES = {
    "italian": {"italian-thin-armour"},
    "japanese": {
        "japanese-lead-from-the-front",
        "japanese-fanatics",
        "japanese-jungle-training",
        "japanese-marksmen",
        "japanese-cavalry",
        "japanese-lunge-mines",
    },
    "russian": {
        "russian-stick-to-the-plan",
        "russian-keep-moving",
        "russian-combined-afvs",
        "russian-cavalry",
        "russian-lend-lease",
    },
    "us": {"us-excellent-communications", "us-75mm-gun"},
}


@pytest.fixture
def loaded(db, real_packs):
    return models.GameSystem.objects.get(key="action-all-fronts")


def _armour(unit) -> str:
    armour = unit.armour
    return f"{armour['front']}/{armour['side']}/{armour['rear']}"


def _non_afv(army):
    return models.UnitType.objects.filter(army__key=army).exclude(category__key="afv")


def test_armies_and_their_rules(loaded):
    for army, rules in ARMY_RULES.items():
        obj = models.Army.objects.get(system=loaded, key=army)
        assert {rule.key for rule in obj.rules.all()} == rules
        for rule in obj.rules.all():
            assert rule.kind == "army"
            assert rule.summary
            assert rule.source["section"] == obj.source["section"]
    russian = models.Army.objects.get(key="russian")
    assert {army.key for army in russian.borrows_from.all()} == {"us", "british"}
    assert "Fs 2" in russian.borrow_note


@pytest.mark.parametrize("army", ARMIES)
def test_unit_points_and_categories(loaded, army):
    units = _non_afv(army)
    assert units.count() == len(UNITS[army])
    for name, points, category in UNITS[army]:
        unit = units.get(name=name)
        assert unit.category.key == category, name
        assert unit.source["section"] == models.Army.objects.get(key=army).source["section"]
        assert unit.source["entry"] == name
        if points is None:
            assert unit.points == 0, name
            assert unit.points_note.startswith("Pts varies"), name
        else:
            assert unit.points == points, name


@pytest.mark.parametrize("army", ARMIES)
def test_unit_composition(loaded, army):
    for name, rows in COMPOSITION[army].items():
        unit = _non_afv(army).get(name=name)
        got = [(m.count, m.name, m.fs, m.morale, m.equipment or None) for m in unit.models.all()]
        assert got == rows, name


@pytest.mark.parametrize("army", ARMIES)
def test_afvs(loaded, army):
    afvs = models.UnitType.objects.filter(army__key=army, category__key="afv")
    assert afvs.count() == len(AFVS[army])
    for name, fs, morale, equipment, armour, speed, points, date in AFVS[army]:
        unit = afvs.get(name=name)
        assert unit.kind == "vehicle"
        [line] = unit.models.all()
        expected_equipment = T70_EQUIPMENT if name == "T70" else CORRECTIONS.get(equipment, equipment)
        assert (line.count, line.role, line.name) == (1, "vehicle", name)
        assert (line.fs, line.morale, line.equipment) == (fs, morale, expected_equipment), name
        assert _armour(unit) == CORRECTIONS.get(armour, armour), name
        assert (unit.speed, unit.points, unit.service_start) == (speed, points, date), name
        period = "early" if date <= 1941 else "mid" if date <= 1943 else "late"
        assert unit.service_period == period, name


@pytest.mark.parametrize("army", ARMIES)
def test_national_weapons(loaded, army):
    weapons = models.Weapon.objects.filter(system=loaded, group=WEAPON_GROUPS[army])
    assert weapons.count() == len(WEAPONS[army])
    for name, range_, power, weapon_type in WEAPONS[army]:
        weapon = weapons.get(name=CORRECTIONS.get(name, name))
        assert weapon.key.startswith(f"{army}-")
        assert (weapon.range, weapon.power, weapon.weapon_type) == (range_, power, weapon_type), name


def test_every_unit_key_is_prefixed(loaded):
    for army in ARMIES:
        for unit in models.UnitType.objects.filter(army__key=army):
            assert unit.key.startswith(f"{army}-")


@pytest.mark.parametrize("army", ARMIES)
def test_option_counts(loaded, army):
    assert models.UnitOption.objects.filter(unit_type__army__key=army).count() == OPTION_COUNTS[army]


def test_anti_tank_gun_choices(loaded):
    for (army, unit_name), guns in GUN_OPTIONS.items():
        unit = models.UnitType.objects.get(army__key=army, name=unit_name)
        options = list(unit.options.all())
        assert len(options) == len(guns)
        for option, (name, cost, year, crew, weapon) in zip(options, guns, strict=True):
            assert (option.name, option.points, option.service_start, option.crew, option.group) == (
                name,
                cost,
                year,
                crew,
                "gun",
            )
            assert [w.key for w in option.weapons.all()] == [weapon]


def test_weapon_upgrades(loaded):
    # Italian Fucile 1938: +2 per rifle-armed figure, for the whole unit at once.
    fucile = models.UnitOption.objects.filter(unit_type__army__key="italian", key="fucile-1938")
    expected = {
        "Rifle Squad": 22,
        "LMG Squad": 16,
        "Company HQ": 8,
        "Platoon HQ": 2,
        "Light mortar Squad": 2,
        "Heavy MG Squad": 2,
    }
    assert {o.unit_type.name: o.points for o in fucile} == expected
    for option in fucile:
        riflemen = sum(m.count for m in option.unit_type.models.all() if m.equipment == "Fucile 1891")
        assert option.points == 2 * riflemen
        assert option.replaces == ["italian-fucile-1891"]
    # US M1 Garand upgrade: +2 per M1 Garand figure.
    garand = models.UnitOption.objects.filter(unit_type__army__key="us", key="garand-upgrade")
    assert {o.unit_type.name: (o.points, o.per, o.max) for o in garand} == {
        "Rifle Squad": (2, "model", 9),
        "Armoured Rifle Squad": (2, "model", 10),
        "Company HQ": (2, "model", 2),
        "Platoon HQ": (2, "model", 4),
    }
    # Russian rifle squad: SMGs for everyone at no cost.
    smg = models.UnitOption.objects.get(unit_type__key="russian-rifle-squad", key="smg")
    assert (smg.points, smg.replaces, [w.key for w in smg.weapons.all()]) == (0, ["rifle"], ["smg"])


def test_japanese_and_russian_extras(loaded):
    marksman = models.UnitOption.objects.get(unit_type__key="japanese-rifle-squad", key="marksman")
    assert (marksman.points, marksman.per, marksman.max) == (5, "model", 2)
    for key in ("japanese-rifle-squad", "japanese-company-hq", "japanese-platoon-hq"):
        options = {o.key: o for o in models.UnitOption.objects.filter(unit_type__key=key)}
        assert (options["horses"].points, options["bicycles"].points, options["lunge-mine"].points) == (4, 2, 0)
        assert options["horses"].group == options["bicycles"].group == "mount"
    for key in ("russian-rifle-squad", "russian-tank-riders", "russian-company-hq", "russian-platoon-hq"):
        horses = models.UnitOption.objects.get(unit_type__key=key, key="horses")
        assert (horses.points, horses.per) == (4, "model")
    for key in ("italian-company-hq", "japanese-company-hq", "russian-company-hq", "us-company-hq"):
        options = {o.key: o.points for o in models.UnitOption.objects.filter(unit_type__key=key)}
        assert options["artillery-observer"] == 50
        assert options["independent-observer"] == 30


def test_percentage_modifiers(loaded):
    combined = models.SpecialRule.objects.get(system=loaded, key="russian-combined-afvs")
    assert combined.name == "Lack of Radios"
    assert "-20%" in combined.points_note
    for afv in models.UnitType.objects.filter(army__key="russian", category__key="afv"):
        assert "russian-combined-afvs" in {rule.key for rule in afv.rules.all()}
        option = afv.options.get(key="combined-unit")
        assert (option.points, option.percent, option.copies_unit, option.max) == (0, -20, True, 2)
    communications = models.SpecialRule.objects.get(system=loaded, key="us-excellent-communications")
    assert "+20%" in communications.points_note


def test_errata_are_complete(loaded):
    ours = [
        (e.where, e.source_value, e.used_value, e.reason)
        for e in models.Erratum.objects.filter(system=loaded)
        if e.where.startswith(ERRATA_PREFIXES)
    ]
    assert [row[:3] for row in ours] == ERRATA
    for row in ours:
        assert len(row[3]) > 40, row[0]
    # Every correction of the printed tables is recorded.
    recorded = {(source, used) for _, source, used, _ in ours}
    for printed, used in CORRECTIONS.items():
        assert (printed, used) in recorded
