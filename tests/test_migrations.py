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
