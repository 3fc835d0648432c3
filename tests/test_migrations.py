"""Data migrations keep what rosters saved before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("lists", "0003_model_figures_weapon_counts_capacity_counts")]
AFTER = [("lists", "0004_house_rules_bought_for_roster_or_unit")]


@pytest.mark.django_db(transaction=True)
def test_house_rules_a_roster_had_become_one_bought_for_the_roster_each():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    system = old.get_model("lists", "GameSystem").objects.create(key="game", name="Game", short_name="G", version="1")
    overlay = old.get_model("lists", "GameSystem").objects.create(
        key="club", name="Club", short_name="C", kind="overlay", version="1"
    )
    army = old.get_model("lists", "Army").objects.create(system=system, key="army", name="Army")
    rule = old.get_model("lists", "SpecialRule").objects.create(
        system=overlay, key="field-telephone", name="Field telephones", kind="house", points=15
    )
    roster = old.get_model("lists", "Roster").objects.create(
        share_id="s", edit_secret_hash="h", system=system, army=army, name="Old roster"
    )
    roster.house_rules.add(rule)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    bought = new.get_model("lists", "RosterHouseRule").objects.get()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert (bought.roster_id, bought.rule_id, bought.unit_id, bought.count) == (roster.id, rule.id, None, 1)


@pytest.mark.django_db(transaction=True)
def test_each_roster_becomes_one_force_with_its_organisation_and_all_its_units():
    before = [("lists", "0009_option_prices_quality_and_theatre_limits")]
    after = [("lists", "0010_roster_forces")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    system = old.get_model("lists", "GameSystem").objects.create(key="game", name="Game", short_name="G", version="1")
    army = old.get_model("lists", "Army").objects.create(system=system, key="army", name="Army")
    platoon = old.get_model("lists", "Organisation").objects.create(
        system=system, key="platoon", name="Platoon", summary="", slots=[]
    )
    category = old.get_model("lists", "UnitCategory").objects.create(system=system, key="squad", name="Squad")
    squad = old.get_model("lists", "UnitType").objects.create(
        system=system, key="squad", name="Squad", army=army, category=category
    )
    roster = old.get_model("lists", "Roster").objects.create(
        share_id="s", edit_secret_hash="h", system=system, army=army, name="Old roster", organisation=platoon
    )
    for position in range(3):
        old.get_model("lists", "RosterUnit").objects.create(roster=roster, unit_type=squad, position=position)

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    [force] = new.get_model("lists", "Force").objects.filter(roster_id=roster.id)
    found = (force.name, force.organisation_id, force.units.count())
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert found == ("Platoon 1", platoon.id, 3)
