"""The Bolt Action (2nd edition) pack against the source tables it was transcribed from.

The expected rows below are typed in from the rulebook weapons chapter
(000_cc07e95141025dac.txt) and the quick reference sheet (001_6969219561802364.txt);
the tests load the real pack folder and compare what a user would see.
"""

from pathlib import Path

import pytest

from lists import models

PACK = Path(__file__).resolve().parents[1] / "lists" / "packs" / "bolt-action-2e"
SYSTEM = "bolt-action-2e"

# (name, range, indirect range, shots, pen, special rules as displayed)
WEAPONS_CHART = [
    # Rulebook weapons chart: small arms
    ("Rifle", 24, None, "1", None, []),
    ("Pistol", 6, None, "1", None, ["Assault"]),
    ("Submachine gun (SMG)", 12, None, "2", None, ["Assault"]),
    ("Automatic rifle", 30, None, "2", None, []),
    ("Assault rifle", 18, None, "2", None, ["Assault"]),
    ("Light machine gun (LMG)", 36, None, "4", None, ["Team"]),
    ("Medium machine gun (MMG)", 36, None, "5", None, ["Team", "Fixed"]),
    # Quick reference sheet only
    ("Shotgun", 12, None, "1", None, ["Assault"]),
    # Rulebook weapons chart: heavy weapons
    ("Heavy machine gun (HMG)", 36, None, "3", 1, ["Team", "Fixed"]),
    ("Light automatic cannon", 48, None, "2", 2, ["Team", "Fixed", 'HE (1")']),
    ("Heavy automatic cannon", 72, None, "2", 3, ["Team", "Fixed", 'HE (1")']),
    ("Anti-tank Rifle", 36, None, "1", 2, ["Team"]),
    ("PIAT", 12, None, "1", 5, ["Team", "Shaped Charge"]),
    ("Bazooka", 24, None, "1", 5, ["Team", "Shaped Charge"]),
    ("Panzerschreck", 24, None, "1", 6, ["Team", "Shaped Charge"]),
    ("Panzerfaust", 12, None, "1", 6, ["One-shot", "Shaped Charge"]),
    ("Light AT gun", 48, None, "1", 4, ["Team", "Fixed", 'HE (1")']),
    ("Medium AT gun", 60, None, "1", 5, ["Team", "Fixed", 'HE (1")']),
    ("Heavy AT gun", 72, None, "1", 6, ["Team", "Fixed", 'HE (2")']),
    ("Super-heavy AT gun", 84, None, "1", 7, ["Team", "Fixed", 'HE (3")']),
    # Rulebook box "US and British 75mm tank guns": medium AT gun with HE (2")
    ("US/British 75mm tank gun", 60, None, "1", 5, ["Team", "Fixed", 'HE (2")']),
    ("Flamethrower (infantry)", 6, None, "D6", 3, ["Team", "Flamethrower"]),
    ("Flamethrower (vehicle)", 12, None, "D6+1", 3, ["Flamethrower"]),
    # Quick reference sheet only
    ("VB Launcher", None, (6, "18"), "1", None, ["Indirect Fire", 'HE (1")']),
    ("AT Weapon (Blacker Bombard / Ampulomet)", 24, None, "1", None, ["Team", "Fixed", 'HE (2")']),
    # Rulebook weapons chart again
    ("Light mortar", None, (12, "24"), "1", None, ["Team", "Indirect Fire", 'HE (1")']),
    ("Medium mortar", None, (12, "60"), "1", None, ["Team", "Fixed", "Indirect Fire", 'HE (2")']),
    ("Heavy mortar", None, (12, "72"), "1", None, ["Team", "Fixed", "Indirect Fire", 'HE (3")']),
    ("Light howitzer", 48, (24, "60"), "1", None, ["Team", "Fixed", "Howitzer", 'HE (2")']),
    ("Medium howitzer", 60, (30, "72"), "1", None, ["Team", "Fixed", "Howitzer", 'HE (3")']),
    ("Heavy howitzer", 72, (36, "84"), "1", None, ["Team", "Fixed", "Howitzer", 'HE (4")']),
]

# Weapons whose Pen column reads HE, with their template size.
HE_ONLY = {
    "VB Launcher": '1"',
    "AT Weapon (Blacker Bombard / Ampulomet)": '2"',
    "Light mortar": '1"',
    "Medium mortar": '2"',
    "Heavy mortar": '3"',
    "Light howitzer": '2"',
    "Medium howitzer": '3"',
    "Heavy howitzer": '4"',
}

QUALITIES = [("Inexperienced", 8, "3+", "4+"), ("Regular", 9, "4+", "5+"), ("Veteran", 10, "5+", "6+")]

OFFICER_RANKS = [
    ("Second Lieutenant", 1, 1, 6),
    ("First Lieutenant", 2, 2, 6),
    ("Captain", 3, 3, 12),
    ("Major", 4, 4, 12),
]

HE_CHART = [['1"', "+1", "D2", "D3"], ['2"', "+2", "D3", "D6"], ['3"', "+3", "D3", "2D6"], ['4"', "+4", "D6", "3D6"]]

# (damage value, row name) in the quick reference sheet's order
DAMAGE_VALUES = [
    ("3+", "Inexperienced infantry or artillery"),
    ("4+", "Regular infantry or artillery"),
    ("5+", "Veteran infantry or artillery"),
    ("6+", "All soft-skinned vehicles"),
    ("7+", "Armoured car/carrier"),
    ("8+", "Light tank"),
    ("9+", "Medium tank"),
    ("10+", "Heavy tank"),
    ("11+", "Super-heavy tank"),
]

MOVEMENT = [
    ("Infantry", '6"', '12"'),
    ("Tracked vehicle", '9"', '18"'),
    ("Half-tracked vehicle", '9"', '18"'),
    ("Wheeled vehicle", '12"', '24"'),
]

WEAPON_RULES = {
    "Assault",
    "Fixed",
    "Flamethrower",
    "HE",
    "Howitzer",
    "Indirect Fire",
    "Spotters",
    "Multiple Launcher",
    "One-shot",
    "Shaped Charge",
    "Team",
    "Ampulomet",
}

# slot key: (categories, min, max); max None means "per unit" (checked separately)
PLATOON_SLOTS = {
    "lieutenant": (["platoon-commander"], 1, 1),
    "infantry-squads": (["infantry-squad"], 2, 5),
    "captain-or-major": (["company-commander"], 0, 1),
    "medic": (["medic"], 0, 1),
    "forward-observer": (["forward-observer"], 0, 1),
    "machine-gun-team": (["machine-gun-team"], 0, 1),
    "mortar-team": (["mortar-team"], 0, 1),
    "sniper-team": (["sniper-team"], 0, 1),
    "flamethrower-team": (["flamethrower-team"], 0, 1),
    "anti-tank-team": (["anti-tank-team"], 0, 1),
    "gun": (["gun"], 0, 1),
    "armoured-car": (["armoured-car"], 0, 1),
    "tank": (["tank"], 0, 1),
    "transports": (["transport"], 0, None),
}


GB = "BA2 - Armies of Great Britain.cat"
US = "BA2 - Armies of the United States.cat"
DE = "BA2 - Armies of Germany.cat"
GST = "Bolt Action 2.gst"
INEXP, REG, VET = "Inexperienced", "Regular", "Veteran"

# unit name: (category, catalogue cited, points by quality); costs typed in from BSData/boltaction
UNITS = {
    "Second Lieutenant": ("platoon-commander", GB, {INEXP: 35, REG: 50, VET: 65}),
    "First Lieutenant": ("platoon-commander", GB, {INEXP: 60, REG: 75, VET: 90}),
    "Captain": ("company-commander", DE, {REG: 110, VET: 125}),
    "Major": ("company-commander", DE, {REG: 150, VET: 165}),
    "Medic": ("medic", GB, {REG: 23, VET: 30}),
    "Artillery Forward Observer": ("forward-observer", GB, {REG: 100, VET: 115}),
    "Regular Infantry Section (Mid-/ Late-War)": ("infantry-squad", GB, {REG: 50}),
    "Medium Machine Gun Team": ("machine-gun-team", GB, {INEXP: 35, REG: 50, VET: 65}),
    "Light Mortar Team": ("mortar-team", GB, {INEXP: 24, REG: 35, VET: 46}),
    "Medium Mortar Team": ("mortar-team", GB, {INEXP: 35, REG: 50, VET: 65}),
    "Sniper Team": ("sniper-team", GB, {REG: 50, VET: 65}),
    "Flamethrower Team": ("flamethrower-team", GB, {REG: 50, VET: 65}),
    "PIAT Team": ("anti-tank-team", GB, {INEXP: 28, REG: 40, VET: 52}),
    "Boys Anti-Tank Rifle Team": ("anti-tank-team", GB, {INEXP: 21, REG: 30, VET: 39}),
    "Bazooka Team": ("anti-tank-team", US, {INEXP: 42, REG: 60, VET: 78}),
    "Panzerschreck Team": ("anti-tank-team", DE, {INEXP: 56, REG: 80, VET: 104}),
    "Light artillery": ("gun", GST, {INEXP: 40, REG: 50, VET: 60}),
    "Medium artillery": ("gun", GST, {INEXP: 60, REG: 75, VET: 90}),
    "QF 2-pdr": ("gun", GB, {INEXP: 40, REG: 50, VET: 60}),
    "QF 6-pdr": ("gun", GB, {INEXP: 60, REG: 75, VET: 90}),
    "Morris CS9 Armoured Car": ("armoured-car", GB, {INEXP: 64, REG: 80, VET: 96}),
    "Cruiser Tank Mk VI Crusader III": ("tank", GB, {INEXP: 116, REG: 145, VET: 174}),
    "M4 Sherman 75MM": ("tank", US, {INEXP: 148, REG: 185, VET: 232}),
    "Scammell Pioneer Artillery Tractor": ("transport", GB, {REG: 15, VET: 18}),
}

# units added with the anti-tank, gun and tank slots: composition as (count, role, name, weapon names)
NEW_UNIT_MODELS = {
    "Boys Anti-Tank Rifle Team": [(2, "crew", "Crew", ["Anti-tank Rifle"])],
    "Bazooka Team": [(2, "crew", "Crew", ["Bazooka"])],
    "Panzerschreck Team": [(2, "crew", "Crew", ["Panzerschreck"])],
    "QF 2-pdr": [(3, "crew", "Crew", ["Light AT gun"])],
    "QF 6-pdr": [(3, "crew", "Crew", ["Medium AT gun"])],
    "M4 Sherman 75MM": [(1, "vehicle", "M4 Sherman", ["US/British 75mm tank gun", "Medium machine gun (MMG)"])],
}


@pytest.fixture
def game(db, real_packs):
    return models.GameSystem.objects.get(key=SYSTEM)


def test_system_header(game):
    assert game.name == "Bolt Action (2nd edition)"
    assert game.version == "1.0.0"
    assert {source["key"]: source.get("file") for source in game.sources} == {
        "rulebook": "000_cc07e95141025dac.txt",
        "quick-reference": "001_6969219561802364.txt",
        "bsdata": None,
    }
    assert [column["field"] for column in game.weapon_columns] == ["range", "indirect_range", "shots", "pen", "rules"]
    assert game.config["uses_years"] is False
    roles = {role: rule for role, rule in game.config["rule_roles"].items() if rule is not None}
    assert roles == {
        "team": "team",
        "fixed": "fixed",
        "indirect_fire": "indirect-fire",
        "indirect_fire_also": ["howitzer"],
        "one_shot": "one-shot",
        "flamethrower": "flamethrower",
        "spotter": "spotters",
    }
    settings = {setting["key"]: setting for setting in game.config["settings"]}
    assert settings["max-order-dice"]["kind"] == "int"
    assert settings["max-order-dice"].get("default") is None
    assert settings["enemy-fortifications"]["kind"] == "bool"
    assert settings["enemy-fortifications"]["default"] is False
    assert game.config["spotter_no_benefit_qualities"] == ["inexperienced"]
    assert game.config["order_dice"] is True


def test_every_chart_row_is_loaded_exactly(game):
    weapons = [
        weapon
        for weapon in models.Weapon.objects.filter(system=game).prefetch_related("rule_links__rule")
        if weapon.source["document"] != "bsdata"  # profiles the chart lacks, from the converted armies
    ]
    assert len(weapons) == len(WEAPONS_CHART)
    seen = []
    for weapon in weapons:
        indirect = None if weapon.indirect_min is None else (weapon.indirect_min, weapon.indirect_max)
        rules = [link.label() for link in weapon.rule_links.all()]
        seen.append((weapon.name, weapon.range, indirect, weapon.shots, weapon.pen, rules))
    assert seen == WEAPONS_CHART


def test_pen_column_reads_he_for_he_only_weapons(game):
    for weapon in models.Weapon.objects.filter(system=game):
        if weapon.name in HE_ONLY:
            assert weapon.pen is None, weapon.name
            assert weapon.he == HE_ONLY[weapon.name], weapon.name
            assert weapon.column_value("pen") == "HE"


def test_flamethrower_pen_follows_the_rulebook(game):
    weapon = models.Weapon.objects.get(system=game, name="Flamethrower (infantry)")
    assert weapon.column_value("pen") == "+3"
    erratum = models.Erratum.objects.get(system=game, where="weapons.flamethrower-infantry.pen")
    assert "+2" in erratum.source_value
    assert erratum.used_value == "+3"


def test_weapon_special_rules_are_all_present(game):
    rules = models.SpecialRule.objects.filter(system=game, kind="weapon")
    assert {rule.name for rule in rules} == WEAPON_RULES
    assert models.SpecialRule.objects.get(system=game, key="he").takes_value
    for rule in rules:
        assert len(rule.summary) > 40, rule.name


def test_weapon_categories(game):
    categories = {category.key: category for category in models.WeaponCategory.objects.filter(system=game)}
    for key in ["light-at-gun", "medium-at-gun", "heavy-at-gun", "super-heavy-at-gun"]:
        assert categories[key].family == "AT guns"
    for key in ["light-mortar", "medium-mortar", "heavy-mortar"]:
        assert categories[key].family == "Mortars"
    for key in ["light-howitzer", "medium-howitzer", "heavy-howitzer"]:
        assert categories[key].family == "Howitzers"
    for key in ["anti-tank-rifle", "piat", "bazooka", "panzerschreck", "panzerfaust"]:
        assert categories[key].family == "Infantry anti-tank weapons"
    assert (
        "Multiple Launcher" in categories["heavy-mortar"].summary
        or "multiple" in categories["heavy-mortar"].summary.lower()
    )
    tank_gun = models.Weapon.objects.get(system=game, name="US/British 75mm tank gun")
    assert tank_gun.category.key == "medium-at-gun"


def test_he_chart(game):
    chart = models.Chart.objects.get(system=game, key="he-templates")
    assert chart.columns == ["Diameter", "Pen", "Pin", "Hits vs targets in buildings"]
    assert chart.rows == HE_CHART


def test_qualities(game):
    qualities = [
        (quality.name, quality.morale, quality.damage_value, quality.damage_value_gun_shield)
        for quality in models.TroopQuality.objects.filter(system=game)
    ]
    assert qualities == QUALITIES


def test_officer_ranks(game):
    ranks = [
        (rank.name, rank.morale_bonus, rank.extra_orders, rank.order_range)
        for rank in models.OfficerRank.objects.filter(system=game)
    ]
    assert ranks == OFFICER_RANKS


def test_damage_values_and_movement(game):
    rows = models.Reference.objects.filter(system=game)
    damage = [(row.data["value"], row.name) for row in rows if row.table == "damage_values"]
    assert damage == DAMAGE_VALUES
    movement = [
        (row.name, row.data["values"]["advance"], row.data["values"]["run"]) for row in rows if row.table == "movement"
    ]
    assert movement == MOVEMENT


def test_every_erratum_is_complete(game):
    errata = list(models.Erratum.objects.filter(system=game))
    assert errata
    for erratum in errata:
        assert erratum.where and erratum.source_value and erratum.used_value and erratum.reason, erratum.where


def test_every_unit_cost_carries_a_citation(game):
    units = list(models.UnitType.objects.filter(system=game).prefetch_related("quality_costs", "options"))
    assert units
    for unit in units:
        costs = list(unit.quality_costs.all())
        assert unit.points is not None or costs, unit.name
        if unit.points is not None:
            assert unit.citation and unit.citation["source"] == "BSData/boltaction", unit.name
        for cost in costs:
            cited = cost.citation or unit.citation
            assert cited and cited["source"] == "BSData/boltaction", (unit.name, cost.quality.name)
            assert cited["entry"].split(":")[0].endswith((".cat", ".gst")), cited["entry"]
        for option in unit.options.all():
            assert option.citation and option.citation["source"] == "BSData/boltaction", (unit.name, option.name)


# The hand-written Generic army; the armies converted from BattleScribe have tests of their own.
def test_officer_units_have_their_ranks(game):
    officers = {
        unit.name: (unit.officer_rank.name, unit.category.key)
        for unit in models.UnitType.objects.filter(system=game, army__key="generic", officer_rank__isnull=False)
    }
    assert officers["Second Lieutenant"] == ("Second Lieutenant", "platoon-commander")
    assert officers["First Lieutenant"] == ("First Lieutenant", "platoon-commander")
    assert officers["Captain"] == ("Captain", "company-commander")
    assert officers["Major"] == ("Major", "company-commander")
    lieutenant = models.UnitType.objects.get(system=game, army__key="generic", name="Second Lieutenant")
    assert {cost.quality.name: cost.points for cost in lieutenant.quality_costs.all()} == {
        "Inexperienced": 35,
        "Regular": 50,
        "Veteran": 65,
    }


def test_weapon_team_crews_carry_only_the_team_weapon(game):
    for unit in models.UnitType.objects.filter(system=game, army__key="generic", kind="team"):
        carried = {weapon.name for model in unit.models.all() for weapon in model.weapons.all()}
        assert len(carried) == 1, (unit.name, carried)


def test_squad_options(game):
    squad = models.UnitType.objects.get(system=game, army__key="generic", category__key="infantry-squad")
    assert (squad.min_size, squad.max_size) == (5, 10)
    lmg = squad.options.get(key="lmg")
    assert [weapon.name for weapon in lmg.weapons.all()] == ["Light machine gun (LMG)"]
    assert lmg.replaces == ["rifle"]
    assert lmg.max == 1


def test_medium_mortar_spotter(game):
    mortar = models.UnitType.objects.get(system=game, army__key="generic", name="Medium Mortar Team")
    spotter = mortar.options.get(key="spotter")
    assert spotter.points == 10
    [model] = spotter.adds_models
    assert (model["count"], model["role"], model["name"]) == (1, "spotter", "Spotter")


def test_generic_reinforced_platoon_slots(game):
    platoon = models.Organisation.objects.get(system=game, key="generic-reinforced-platoon")
    assert platoon.name == "Generic Reinforced Platoon"
    assert platoon.source["document"] == "bsdata"
    slots = {slot["key"]: slot for slot in platoon.slots}
    assert set(slots) == set(PLATOON_SLOTS)
    for key, (categories, minimum, maximum) in PLATOON_SLOTS.items():
        slot = slots[key]
        assert slot["categories"] == categories, key
        assert slot["min"] == minimum, key
        if maximum is not None:
            assert slot["max"] == maximum, key
    assert slots["lieutenant"]["officer_ranks"] == ["second-lieutenant", "first-lieutenant"]
    per = slots["transports"]["max"]["per"]
    assert len(per) == 1 and per[0]["each"] == 1
    assert {"infantry-squad", "gun"} <= set(per[0]["categories"])


def test_unit_costs_by_quality_and_citations(game):
    units = models.UnitType.objects.filter(system=game, army__key="generic").prefetch_related("quality_costs__quality")
    seen = {}
    for unit in units:
        costs = {cost.quality.name: cost.points for cost in unit.quality_costs.all()}
        seen[unit.name] = (unit.category.key, costs)
        if unit.name in UNITS and UNITS[unit.name][1] != GST:
            catalogue = UNITS[unit.name][1]
            for cost in unit.quality_costs.all():
                entry = (cost.citation or unit.citation)["entry"]
                assert entry.startswith(f"{catalogue}: "), (unit.name, entry)
    assert seen == {name: (category, costs) for name, (category, _, costs) in UNITS.items()}


def test_new_unit_citations_name_the_entry_and_quality(game):
    for name in NEW_UNIT_MODELS:
        unit = models.UnitType.objects.get(system=game, army__key="generic", name=name)
        catalogue = UNITS[name][1]
        for cost in unit.quality_costs.all():
            assert cost.citation == {
                "source": "BSData/boltaction",
                "entry": f"{catalogue}: {name} / {cost.quality.name}",
            }


def test_new_unit_compositions(game):
    for name, expected in NEW_UNIT_MODELS.items():
        unit = models.UnitType.objects.get(system=game, army__key="generic", name=name)
        lines = [
            (model.count, model.role, model.name, sorted(weapon.name for weapon in model.weapons.all()))
            for model in unit.models.all()
        ]
        assert lines == [(count, role, model, sorted(weapons)) for count, role, model, weapons in expected], name


# company commanders: (regular, veteran) cost with the per-extra-man cost at each quality
COMPANY_COMMANDERS = {
    "Captain": {REG: (110, 10), VET: (125, 13)},
    "Major": {REG: (150, 10), VET: (165, 13)},
}


def test_company_commanders(game):
    for name, expected in COMPANY_COMMANDERS.items():
        unit = models.UnitType.objects.get(system=game, army__key="generic", name=name)
        assert (unit.min_size, unit.max_size) == (1, 3), name
        costs = {cost.quality.name: (cost.points, cost.per_extra_model) for cost in unit.quality_costs.all()}
        assert costs == expected, name
        for cost in unit.quality_costs.all():
            entry = cost.citation["entry"]
            assert entry.startswith(f"{DE}: High Ranking Officer / "), entry
