"""Small builders for in-memory rosters, so rule tests need no database."""

from lists.gamedata.snapshot import (
    ForceInfo,
    ModelLine,
    OptionInfo,
    OrganisationInfo,
    QualityInfo,
    QualityPrice,
    RankInfo,
    RosterSnapshot,
    RuleInfo,
    SlotInfo,
    SystemInfo,
    UnitChoice,
    UnitTypeInfo,
    WeaponInfo,
)

RIFLE = WeaponInfo("rifle", "Rifle", "rifle", "Rifle")
LMG = WeaponInfo("lmg", "Light machine gun", "lmg", "LMG", frozenset({"team"}))
MMG = WeaponInfo("mmg", "Medium machine gun", "mmg", "MMG", frozenset({"team", "fixed"}))
MORTAR = WeaponInfo(
    "light-mortar", "Light mortar", "light-mortar", "Light mortar", frozenset({"team", "indirect-fire"})
)
BAZOOKA = WeaponInfo("bazooka", "Bazooka", "bazooka", "Bazooka", frozenset({"team"}))

SYSTEM = SystemInfo(
    key="test",
    name="Test game",
    config={
        "rule_roles": {"team": "team", "fixed": "fixed", "indirect_fire": "indirect-fire", "spotter": "spotters"},
        "settings": [
            {"key": "max-order-dice", "kind": "int", "default": None},
            {"key": "enemy-fortifications", "kind": "bool", "default": False},
        ],
        "spotter_no_benefit_qualities": ["inexperienced"],
        "order_dice": True,
        "hero_points": [
            {
                "key": "per-2000",
                "name": "2 per 2,000 points or part",
                "points": 2,
                "per_points": 2000,
                "rounding": "part",
                "cost_each": 25,
                "max_per_hero": 6,
            },
            {
                "key": "per-full-1000",
                "name": "2 per full 1,000 points",
                "points": 2,
                "per_points": 1000,
                "rounding": "full",
                "cost_each": 25,
            },
        ],
        "period_costs": {
            "applies_to": ["afv"],
            "multipliers": {
                "early": {"early": 1, "mid": 0.5, "late": 0.25},
                "mid": {"early": 2, "mid": 1, "late": 0.5},
                "late": {"mid": 2, "late": 1},
            },
        },
    },
    rules={
        "team": RuleInfo("team", "Team", "Two crew."),
        "fixed": RuleInfo("fixed", "Fixed", "Heavy mount."),
        "spotters": RuleInfo("spotters", "Spotters", "One spotter."),
    },
    ranks={
        "second-lieutenant": RankInfo("second-lieutenant", "Second Lieutenant", 1, 1, 6),
        "first-lieutenant": RankInfo("first-lieutenant", "First Lieutenant", 2, 2, 6),
        "captain": RankInfo("captain", "Captain", 3, 3, 12),
    },
    qualities={
        "inexperienced": QualityInfo("inexperienced", "Inexperienced", 8),
        "regular": QualityInfo("regular", "Regular", 9),
    },
    periods=(
        {"key": "early", "name": "Early war", "start": 1939, "end": 1941},
        {"key": "mid", "name": "Middle war", "start": 1942, "end": 1943},
        {"key": "late", "name": "Late war", "start": 1944},
    ),
)


def unit_type(
    key="squad", name=None, category="squad", kind="infantry", category_kind=None, points=50, composition=None, **extra
):
    kinds = {"squad": "infantry", "hq": "headquarters", "team": "team", "afv": "vehicle", "transport": "transport"}
    return UnitTypeInfo(
        key=key,
        name=name or key.replace("-", " ").title(),
        category=category,
        category_name=category.replace("-", " ").title(),
        category_kind=category_kind or kinds.get(category, "other"),
        kind=kind,
        points=points,
        composition=tuple(
            composition
            if composition is not None
            else [
                ModelLine(1, "nco", "NCO", (RIFLE,)),
                ModelLine(4, "soldier", "Rifleman", (RIFLE,)),
            ]
        ),
        **extra,
    )


def option(key, points=0, **extra):
    return OptionInfo(key=key, name=extra.pop("name", key.replace("-", " ").capitalize()), points=points, **extra)


SQUAD = unit_type()
SQUAD_WITH_OPTIONS = unit_type(
    "rifle-squad",
    "Rifle Squad",
    options={
        "lmg": option("lmg", 20, name="Light machine gun", weapons=(LMG,), replaces=("rifle",), max=1),
        "mmg": option("mmg", 30, name="Medium machine gun", weapons=(MMG,), replaces=("rifle",)),
    },
    quality_prices={"regular": QualityPrice(50, 10), "inexperienced": QualityPrice(35, 7)},
    min_size=5,
    max_size=10,
)
LIEUTENANT = unit_type(
    "lieutenant",
    "Lieutenant",
    "hq",
    composition=[ModelLine(1, "officer", "Officer", (RIFLE,))],
    officer_rank="second-lieutenant",
    officer_ranks=("first-lieutenant",),
)
MORTAR_TEAM = unit_type(
    "mortar-team",
    "Light Mortar Team",
    "team",
    "team",
    composition=[ModelLine(2, "crew", "Crew", (MORTAR,))],
    options={"spotter": option("spotter", 10, name="Spotter", adds_models=(ModelLine(1, "spotter", "Spotter"),))},
    weapon_categories=("light-mortar",),
)
BAZOOKA_TEAM = unit_type(
    "bazooka-team",
    "Bazooka Team",
    "team",
    "team",
    composition=[ModelLine(2, "crew", "Crew", (BAZOOKA,))],
    options={
        "spotter": option("spotter", 10, name="Spotter", adds_models=(ModelLine(1, "spotter", "Spotter"),)),
        "mortar": option("mortar", 10, name="Light mortar", weapons=(MORTAR,), replaces=("bazooka",)),
    },
    weapon_categories=("bazooka",),
)
TRUCK = unit_type(
    "truck",
    "Truck",
    "transport",
    "transport",
    composition=[ModelLine(1, "vehicle", "Truck")],
    points=40,
    transport_capacity=12,
)


def roster(*units, organisation=None, **extra) -> RosterSnapshot:
    choices = []
    for index, item in enumerate(units):
        if isinstance(item, UnitChoice):
            item.index = index
            choices.append(item)
        else:
            choices.append(UnitChoice(index=index, label=f"{item.name} {index + 1}", unit_type=item))
    if "year" not in extra and "period" not in extra:
        # The test game has war periods: a roster with none gets period.missing, so tests about other rules set one.
        extra["period"] = "late"
    return RosterSnapshot(
        system=extra.pop("system", SYSTEM),
        army_key="test",
        army_name="Test army",
        name="Test roster",
        units=choices,
        forces=extra.pop("forces", [ForceInfo(0, "Platoon 1", organisation)]),
        **extra,
    )


def choice(unit_type_info, **extra) -> UnitChoice:
    label = extra.pop("label", unit_type_info.name)
    return UnitChoice(index=0, label=label, unit_type=unit_type_info, **extra)


def codes(findings) -> list[str]:
    return [finding.code for finding in findings]


def organisation(*slots) -> OrganisationInfo:
    return OrganisationInfo("platoon", "Test Platoon", tuple(slots))


def slot(key, categories, **extra) -> SlotInfo:
    return SlotInfo(key=key, name=extra.pop("name", key.title()), categories=tuple(categories), **extra)
