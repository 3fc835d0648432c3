"""Issue 9 on the real packs: figures, transports, generic cards, periods, readings and hull MGs.

Every expected figure is taken from the source named in the test (Action All Fronts design
version 8.3, Heroes All), never from the app's output.
"""

import re

import pytest
from django.urls import reverse

from lists.gamedata.loading import game_data
from lists.models import Army, GameSystem
from lists.rosters.files import load_roster_file, save_new_roster
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
from lists.rules import check_roster
from lists.rules.pricing import unit_points
from lists.rules.transport import transport_candidates

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def roster(game: str, army: str, *units: str, year: int | None = None):
    lines = "".join(f"  - {unit}\n" for unit in units)
    when = f"year: {year}\n" if year else ""
    text = f"game: {game}\narmy: {army}\n{when}units:\n{lines}"
    return load_roster_file(text.encode(), "roster.yaml").snapshot()


def aaf(army: str, *units: str, year: int | None = 1944):
    return roster("action-all-fronts", army, *units, year=year)


def codes(snapshot) -> list[str]:
    return [finding.code for finding in check_roster(snapshot)]


def messages(snapshot) -> list[str]:
    return [finding.message for finding in check_roster(snapshot)]


# --- item 1: every figure the source prints ------------------------------------------


@pytest.mark.parametrize(
    ("army", "squad", "figures"),
    [
        # NCO + soldiers + the LMG team of two (4.4: light machine guns have two crew).
        ("japanese", "Rifle Squad", 1 + 9 + 2),
        ("french-1940", "Infantry Squad", 1 + 9 + 2),
        ("russian", "Rifle Squad", 1 + 8 + 2),
        ("british", "Rifle Squad", 1 + 5 + 2),
        ("german", "Infantry Squad up to 1943", 1 + 7 + 2),
        ("italian", "LMG Squad", 1 + 7 + 2),
        ("us", "Rifle Squad", 1 + 8 + 1),  # the BAR is one man's weapon (Assault2), not a team
        # Team of 2 entries, and a light mortar team of two (British Platoon HQ, Basic Points Values).
        ("german", "Panzerschreck team", 2),
        ("british", "Platoon HQ 1944+", 1 + 3 + 2 + 2),
        ("japanese", "Light mortar squad", 3 * 2),
        ("russian", "Anti-tank rifle squad", 2 * 2),
    ],
)
def test_squads_count_every_figure_the_army_list_prints(army, squad, figures):
    """Army lists and 4.4 Machine guns: a team line is one entry of two figures."""
    snapshot = aaf(army, f"{{unit: {squad}}}", year=1943)
    assert snapshot.units[0].men == figures


@pytest.mark.parametrize(
    ("army", "unit", "gun", "figures"),
    [
        # German Anti-tank gun: "Both 50mm and 75mm have crew of 4 not crew of 3."
        ("german", "Anti-tank gun", "37mm", 3),
        ("german", "Anti-tank gun", "50mm", 4),
        # British Anti-tank gun section: two guns; "6pdr and 17pdr have crew of 4 not crew of 3 per gun".
        ("british", "Anti-tank gun section", "2pdr", 6),
        ("british", "Anti-tank gun section", "6pdr", 8),
        # Japanese Anti-tank gun: "47mm gun has crew of 4, not 3."
        ("japanese", "Anti-tank gun", "gun-47mm", 4),
    ],
)
def test_a_bigger_gun_brings_its_bigger_crew_army_lists(army, unit, gun, figures):
    """The gun chosen sets the crew the army list gives it."""
    snapshot = aaf(army, f"{{unit: {unit}, options: [{gun}]}}")
    assert snapshot.units[0].men == figures
    assert sum(line.count for line in snapshot.units[0].models() if line.role == "crew") == figures


def test_bicycles_for_the_whole_japanese_squad_are_legal_japanese_cavalry():
    """Japanese Cavalry + General Transport Vehicles: +2 per figure, all 12 figures of the squad."""
    snapshot = aaf("japanese", "{unit: Rifle Squad, options: [{option: bicycles, count: 12}]}")
    assert codes(snapshot) == []
    assert unit_points(snapshot, snapshot.units[0]) == 173 + 12 * 2
    too_many = aaf("japanese", "{unit: Rifle Squad, options: [{option: bicycles, count: 13}]}")
    assert codes(too_many) == ["option.too_many"]


def test_a_platoon_hq_and_a_panzerschreck_team_overload_a_jeep_29_general_transport():
    """A jeep 'carries up to 5 men'; the German Platoon HQ is 4 figures and the team of 2 makes 6."""
    snapshot = aaf(
        "german",
        "{unit: Platoon HQ, transport: Jeep}",
        "{unit: Panzerschreck team, transport: Jeep}",
        "{unit: Infantry Squad up to 1943}",
        "{unit: Jeep}",
        year=1943,
    )
    assert "transport.capacity" in codes(snapshot)
    assert any("carries 6 men; it has room for 5" in message for message in messages(snapshot))
    alone = aaf("german", "{unit: Platoon HQ, transport: Jeep}", "{unit: Infantry Squad up to 1943}", "{unit: Jeep}")
    assert "transport.capacity" not in codes(alone)


# --- item 2: transports ------------------------------------------------------------------


def test_a_squad_rides_on_a_tank_11_5_tank_riders():
    """11.5: infantry squads and platoon HQs may mount tanks, each squad on its own tank."""
    riders = aaf("russian", "{unit: Rifle Squad, transport: T34/76 1940}", "{unit: T34/76 1940}")
    assert "transport.not_allowed" not in codes(riders) and "transport.capacity" not in codes(riders)
    hq = aaf("russian", "{unit: Platoon HQ, transport: T34/76 1940}", "{unit: Rifle Squad}", "{unit: T34/76 1940}")
    assert "transport.not_allowed" not in codes(hq)


def test_two_squads_on_one_tank_are_refused_11_5_tank_riders():
    """11.5: 'each squad must have its own tank to ride on'."""
    snapshot = aaf(
        "russian",
        "{unit: Rifle Squad, label: A, transport: T34/76 1940}",
        "{unit: Rifle Squad, label: B, transport: T34/76 1940}",
        "{unit: T34/76 1940}",
    )
    assert "transport.capacity" in codes(snapshot)
    assert any("carries 2 units; it may carry 1" in message for message in messages(snapshot))


def test_a_support_team_may_not_ride_on_a_tank_11_5_tank_riders():
    """11.5 names infantry squads and platoon HQs only."""
    snapshot = aaf("russian", "{unit: Heavy Machine Gun, transport: T34/76 1940}", "{unit: T34/76 1940}")
    assert "transport.not_allowed" in codes(snapshot)


def test_a_vehicle_cannot_ride_in_a_jeep_11_1_transport_capacity():
    """11.1: a jeep carries up to 5 figures or a gun crew, never a tank destroyer."""
    snapshot = aaf("german", "{unit: Hetzer, transport: Jeep}", "{unit: Jeep}")
    assert codes(snapshot).count("transport.not_allowed") == 1
    assert transport_candidates(snapshot, snapshot.units[0]) == []


def test_units_that_cannot_be_carried_are_offered_no_transport():
    """A bombardment is off the table; a squad may take the truck or, by 11.5, the tank."""
    snapshot = aaf(
        "russian", "{unit: Light artillery bombardment}", "{unit: Rifle Squad}", "{unit: T34/76 1940}", "{unit: Truck}"
    )
    bombardment, squad, tank, truck = snapshot.units
    assert transport_candidates(snapshot, bombardment) == []
    assert [unit.label for unit in transport_candidates(snapshot, squad)] == [tank.label, truck.label]
    assert transport_candidates(snapshot, tank) == []


def aboard(carrier: str, passenger: str, how_many: int):
    """A German Heroes All force: `how_many` of one card riding in one carrier."""
    return roster(
        "heroes-all", "german", *[f"{{unit: {passenger}, transport: {carrier}}}"] * how_many, f"{{unit: {carrier}}}"
    )


def test_a_tank_carries_six_figures_heroes_all_carriage_capacity():
    """Carriage capacity: 'Other tanks (all others)' 6; four Panzerschrecke teams of 2 crew are 8."""
    assert "transport.capacity" not in codes(aboard("Panzer IV (Early)", "Panzerschrecke", 3))
    four = aboard("Panzer IV (Early)", "Panzerschrecke", 4)
    assert "transport.capacity" in codes(four)
    assert any("carries 8 men; it has room for 6" in message for message in messages(four))


def test_the_lct_4_counts_vehicles_and_guns_not_crews_heroes_all_lct_4_card():
    """LCT-4 card: 'Capacity 5 vehicles/guns'. Five Panzer IVs (4 crew each) fit; a sixth does not."""
    five = aboard("LCT-4", "Panzer IV (Early)", 5)
    assert "transport.capacity" not in codes(five) and "transport.not_allowed" not in codes(five)
    six = aboard("LCT-4", "Panzer IV (Early)", 6)
    assert any("carries 6 vehicles and guns; it has room for 5" in message for message in messages(six))
    team = aboard("LCT-4", "Panzerschrecke", 1)
    assert codes(team).count("transport.not_allowed") == 1


def test_two_units_cannot_carry_each_other():
    """Each landing craft is a vehicle the other could take, but not both at once."""
    snapshot = roster(
        "heroes-all",
        "german",
        "{unit: LCT-4, label: First, transport: Second}",
        "{unit: LCT-4, label: Second, transport: First}",
    )
    assert "transport.not_allowed" in codes(snapshot)
    assert any("cannot carry each other" in message for message in messages(snapshot))


# --- item 5: Heroes All Generic cards -------------------------------------------------------


@pytest.mark.parametrize("army", ["american", "british", "german"])
def test_every_national_army_may_take_the_generic_cards_heroes_all_codex(army):
    """CODEX cards headed 'Generic' (Infantry Landing Craft, LCT-4) may be used by any nation."""
    snapshot = roster("heroes-all", army, "{unit: LCT-4}", "{unit: Infantry Landing Craft}")
    assert [unit.unit_type.key for unit in snapshot.units] == ["lct-4", "infantry-landing-craft"]
    system = GameSystem.objects.get(key="heroes-all")
    data = game_data(system)
    available = {
        data.unit_types[unit_id].key
        for _, unit_id in data.available_units(Army.objects.get(system=system, key=army).id)
    }
    assert {"lct-4", "infantry-landing-craft"} <= available


# --- item 6: periods are never silently skipped -------------------------------------------


def test_a_roster_without_year_or_period_gets_a_finding_2_2_tanks():
    """2.2 and 25.1: AFV costs change with the period, so a roster without one cannot be priced."""
    snapshot = aaf("german", "{unit: Infantry Squad up to 1943}", "{unit: Tiger 2}", year=None)
    assert "period.missing" in codes(snapshot)
    dated = aaf("german", "{unit: Infantry Squad up to 1943}", year=1943)
    assert "period.missing" not in codes(dated)


def test_a_year_before_the_war_periods_gets_a_finding_2_2_tanks():
    """2.2: early war is 1939 to 1941; 1938 falls in no period."""
    snapshot = aaf("german", "{unit: Infantry Squad up to 1943}", year=1938)
    assert "period.missing" in codes(snapshot)


# --- item 8: one reading of "up to" and of squads per platoon command ---------------------


def test_up_to_a_year_includes_that_year_british_and_german_lists():
    """'Platoon HQ up to 1944' is fielded in 1944; 'Infantry Squad up to 1943' in 1943 with its
    panzerfaust (from 1943), not in 1944."""
    british = aaf("british", "{unit: Platoon HQ up to 1944}", "{unit: Rifle Squad}", year=1944)
    assert "period.unavailable" not in codes(british)
    german = aaf("german", "{unit: Infantry Squad up to 1943, options: [panzerfaust]}", year=1943)
    assert "period.unavailable" not in codes(german)
    assert "period.unavailable" in codes(aaf("german", "{unit: Infantry Squad up to 1943}", year=1944))


def test_three_squads_per_platoon_command_25_building_an_army():
    """25: 'up to three infantry squads per platoon command'; the starting squad needs no HQ."""
    assert "org.ratio" not in codes(aaf("british", "{unit: Rifle Squad}"))
    assert "org.ratio" in codes(aaf("british", "{unit: Rifle Squad}", "{unit: Rifle Squad}"))
    three = aaf("british", "{unit: Platoon HQ 1944+}", *["{unit: Rifle Squad}"] * 3)
    assert "org.ratio" not in codes(three)
    four = aaf("british", "{unit: Platoon HQ 1944+}", *["{unit: Rifle Squad}"] * 4)
    assert "org.ratio" in codes(four)


# --- item 9: the implied hull MG, and weapons carried more than once ------------------------


def names(snapshot) -> list[str]:
    return sorted(weapon.name for weapon in snapshot.units[0].weapons())


def test_every_tank_has_a_hull_mg_unless_its_entry_says_otherwise_25_1():
    """25.1: the Crusader III ('6pdr') and SU-85 ('85mm (hull)') have a hull MG; the SU-76
    ('76mm (hull), no MG') and the Archer ('17pdr (hull) only') do not."""
    assert names(aaf("british", "{unit: Crusader III}")) == ["6pdr", "Hull/turret MG"]
    assert names(aaf("russian", "{unit: SU-85}")) == ["85mm", "Hull/turret MG"]
    assert names(aaf("russian", "{unit: SU-76}")) == ["76mm"]
    assert names(aaf("british", "{unit: Archer}")) == ["17pdr"]


def test_weapons_carried_twice_count_twice_italian_and_russian_afvs():
    """M13/40 '47mm, 2x hull MG'; T35 '76mm howitzer, two 45/L42, six turret mounted MG in total'."""
    assert names(aaf("italian", "{unit: M13/40}")) == ["47mm", "Hull/turret MG", "Hull/turret MG"]
    t35 = names(aaf("russian", "{unit: T35}"))
    assert t35.count("45/L42") == 2 and t35.count("Hull/turret MG") == 6 and len(t35) == 9


def test_the_editor_offers_only_the_transports_the_rule_allows(client):
    """The editor's transport choice comes from transport_candidates: a squad may take the T-34
    (11.5) or the truck; the tank and the bombardment get no transport choice at all."""
    text = (
        "game: action-all-fronts\narmy: russian\nyear: 1944\nunits:\n"
        "  - {unit: Rifle Squad, label: Riders}\n  - {unit: T34/76 1940, label: Tank}\n"
        "  - {unit: Truck, label: Lorry}\n  - {unit: Light artillery bombardment, label: Guns}\n"
    )
    secret = new_edit_secret()
    saved = save_new_roster(load_roster_file(text.encode(), "roster.yaml"), new_share_id(), hash_secret(secret))
    html = client.get(reverse("lists:edit", args=[secret])).content.decode()
    ids = {unit.label: unit.id for unit in saved.units.all()}
    selects = re.findall(r'<select name="transport"[^>]*>(.*?)</select>', html, re.S)
    assert len(selects) == 1
    offered = re.findall(r'<option value="(\d+)"', selects[0])
    assert offered == [str(ids["Tank"]), str(ids["Lorry"])]


def test_the_api_gives_figures_per_model_and_weapons_carried_twice(client):
    """British Rifle Squad: '1 LMG team' of two figures (4.4); M13/40: '47mm, 2x hull MG'."""
    squad = client.get("/api/games/action-all-fronts/units/british-rifle-squad/").json()
    assert [(m["count"], m["name"], m["figures"]) for m in squad["composition"]] == [
        (1, "NCO", 1),
        (5, "Soldier", 1),
        (1, "LMG team", 2),
    ]
    tank = client.get("/api/games/action-all-fronts/units/italian-m13-40/").json()
    [vehicle] = tank["composition"]
    assert sorted((w["name"], w["count"]) for w in vehicle["weapons"]) == [("47mm", 1), ("Hull/turret MG", 2)]
