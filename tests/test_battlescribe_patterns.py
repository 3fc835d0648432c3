"""The converter's pieces, one BattleScribe pattern each, on the hand-written catalogues of
tests/fixtures/battlescribe-patterns (one catalogue per pattern; the figures are read off their XML).

Each test checks the small function that reads the pattern and what a player meets in the converted
pack: the price, the limit, whether an entry is offered.
"""

import json
import shutil
from pathlib import Path

import pytest

from lists.battlescribe.conditions import conditions_hold, shown_beside
from lists.battlescribe.constraints import unit_limit
from lists.battlescribe.costs import theatre_costs
from lists.battlescribe.force_limits import force_limits
from lists.battlescribe.nodes import Node, Report
from lists.battlescribe.reader import read_library
from lists.battlescribe.run import import_data

ROOT = Path(__file__).resolve().parents[1]
PATTERNS = ROOT / "tests" / "fixtures" / "battlescribe-patterns"
BASE_PACK = ROOT / "lists" / "packs" / "bolt-action-2e"
PLATOON = "efef-703c-d244-559f"  # the fixture system's Reinforced Platoon force entry


@pytest.fixture(scope="module")
def library():
    return read_library(PATTERNS)


@pytest.fixture(scope="module")
def packs(tmp_path_factory):
    pack = tmp_path_factory.mktemp("packs") / "bolt-action-2e"
    pack.mkdir()
    for path in BASE_PACK.glob("*.yaml"):
        shutil.copy(path, pack / path.name)
    import_data(PATTERNS, pack / "armies", PATTERNS / "overrides.yaml")
    return {
        path.stem: json.loads(path.read_text().split("\n", 1)[1])
        for path in (pack / "armies").glob("*.yaml")
        if path.name != "shared.yaml"
    }


def _element(library, element_id: str):
    return next(e for f in library.catalogues for e in f.root.iter() if e.get("id") == element_id)


def _unit(packs, army: str, name: str) -> dict:
    return next(unit for unit in packs[army]["units"] if unit["name"] == name)


def _list(packs, army: str, key: str) -> dict:
    return next(a for a in packs[army]["armies"] if a["key"] == key)


def test_a_cost_a_theatre_sets_is_that_lists_price(library, packs):
    """tp-panther-reg: Regular 200 pts, set to 250 while tp-late ("1944: Late") is chosen; Veteran 240."""
    regular = _element(library, "tp-panther-reg")
    selectors = [("tp-early", "early"), ("tp-late", "late")]
    assert theatre_costs(200.0, regular.findall("modifiers/modifier"), selectors, PLATOON, conditions_hold) == {
        "late": 250.0
    }
    panther = _unit(packs, "theatre-prices", "Test Panther")
    regular_price, veteran_price = panther["qualities"]
    assert regular_price["points"] == 200
    assert regular_price["army_points"] == {"theatre-prices-1944-late": 250}
    assert veteran_price["points"] == 240 and "army_points" not in veteran_price


def test_a_limit_per_force_a_theatre_raises_is_that_lists_limit(library, packs):
    """lm-sniper-link: max 1 at parent scope (a root entry's parent is its force), set to 2 by lm-italy."""
    sniper = Node(_element(library, "lm-sniper"), _element(library, "lm-sniper-link"))
    selectors = [("lm-africa", "africa"), ("lm-italy", "italy")]
    assert unit_limit(sniper, selectors, PLATOON, Report()) == (1, {"italy": 2}, "force")
    unit = _unit(packs, "limits", "Test Sniper Team")
    assert (unit["max_in_roster"], unit["army_limits"], unit["limit_per"]) == (1, {"limits-1943-italy": 2}, "force")


def test_a_least_and_most_per_kind_of_force_become_the_units_force_limits(library, packs):
    """lm-officer-link: min 1 and max 1 with the Reinforced Platoon's force entry id as their scope."""
    officer = Node(_element(library, "lm-officer"), _element(library, "lm-officer-link"))
    organisations = {PLATOON: "bs-reinforced-platoon"}
    value = lambda constraint, selector: float(constraint.get("value"))  # noqa: E731 (no theatre changes them)
    limits = force_limits(officer.constraints(), organisations, None, value, [])
    assert limits == [{"organisation": "bs-reinforced-platoon", "min": 1, "max": 1, "source_id": "lm-officer-min"}]
    unit = _unit(packs, "limits", "Test Lieutenant")
    assert unit["force_limits"] == limits


def test_an_options_least_and_most_per_force_count_every_unit_taking_it(packs):
    """lm-io: max 1 at scope force (shared); lm-green: min 0 at scope force, set to 1 while lm-italy is chosen."""
    io, _, _, green = _unit(packs, "limits", "Test Lieutenant")["options"]
    assert io["force_limits"] == [{"group": "lm-io", "max": 1}]
    assert green["force_limits"] == [{"group": "lm-green", "min": 1, "armies": ["limits-1943-italy"]}]


def test_an_option_shown_while_another_of_the_unit_is_taken_needs_it(packs):
    """lm-piper: hidden, shown while lm-highland is taken inside lm-officer (greaterThan 0); 33 pts, at most 2."""
    _, highland, piper, _ = _unit(packs, "limits", "Test Lieutenant")["options"]
    assert (piper["name"], piper["points"], piper["max"]) == ("Bagpiper", 33, 2)
    assert piper["needs_options"] == [highland["key"]]
    assert "needs_options" not in highland


def test_a_unit_hidden_while_a_theatre_is_chosen_is_not_offered_in_that_list(library, packs):
    """hd-mortar: hidden while hd-france ("1940: France") is chosen (greaterThan 0)."""
    modifier = _element(library, "hd-mortar").find("modifiers/modifier")
    assert conditions_hold(modifier, {"hd-france", PLATOON})
    assert not conditions_hold(modifier, {"hd-normandy", PLATOON})
    france = _list(packs, "hidden-entries", "hidden-entries-1940-france")
    normandy = _list(packs, "hidden-entries", "hidden-entries-1944-normandy")
    assert "hidden-entries-test-heavy-mortar" not in france["borrow_units"]
    assert "hidden-entries-test-heavy-mortar" in normandy["borrow_units"]


def test_an_option_hidden_unless_a_theatre_is_chosen_is_offered_only_there(library, packs):
    """hd-panzerfaust: hidden, shown while hd-normandy is chosen (atLeast 1); 5 pts, at most 2."""
    modifier = _element(library, "hd-panzerfaust").find("modifiers/modifier")
    assert conditions_hold(modifier, {"hd-normandy", PLATOON})
    assert not conditions_hold(modifier, {"hd-france", PLATOON})
    (panzerfaust,) = _unit(packs, "hidden-entries", "Test Squad")["options"]
    assert (panzerfaust["points"], panzerfaust["max"]) == (5, 2)
    assert panzerfaust["armies"] == ["hidden-entries-1944-normandy"]


def test_a_quality_with_its_own_men_is_priced_and_sized_by_them(packs):
    """qs-regular: 1 NCO + 4 soldiers at 10 pts (5 to 10 men); qs-veteran: 1 NCO + 5 soldiers at 13 (6 to 10)."""
    section = _unit(packs, "quality-sizes", "Test Section")
    regular, veteran = section["qualities"]
    assert (regular["points"], regular["per_extra_model"]) == (50, 10)
    assert (section["min_size"], section["max_size"]) == (5, 10)
    assert (veteran["points"], veteran["per_extra_model"]) == (78, 13)
    assert (veteran["base_size"], veteran["min_size"]) == (6, 6)


def test_a_man_an_option_adds_counts_in_the_squads_size(packs):
    """mo-lmg: a Soldier with LMG at 20 pts, at most 1, beside 5 to 10 men at 10 pts (mo-men)."""
    section = _unit(packs, "men-by-option", "Test Rifle Section")
    _, lmg = section["options"]
    assert (lmg["points"], lmg["max"], lmg["in_size"]) == (20, 1, True)
    assert lmg["adds_models"] == [{"count": 1, "role": "soldier", "name": "Regular Soldier with LMG"}]
    assert section["qualities"][0]["points"] == 50 and section["max_size"] == 10


def test_a_man_paying_more_than_the_others_for_a_per_man_option_pays_the_difference(packs):
    """mo-horse: 2 pts, cancelled while taken (decrement 2); each man +2 while it is taken, the LMG man +3."""
    horse, lmg = _unit(packs, "men-by-option", "Test Rifle Section")["options"]
    assert (horse["points"], horse["per"], horse["every_man"]) == (2, "model", True)
    assert lmg["points_with"] == {"horse": 1}


def test_a_mans_compulsory_weapon_choice_puts_its_cheapest_in_the_price(packs):
    """wc-squad-nco-weapon (min 1, max 1): Rifle 0 or SMG 3 on an NCO at 10, 4 soldiers at 10: 50 with the
    rifle, the SMG an option of 3 replacing it in the NCO's hands."""
    squad = _unit(packs, "weapon-choices", "Test Squad")
    assert squad["qualities"][0]["points"] == 50
    assert squad["composition"][0]["weapons"] == ["rifle"]
    (smg,) = squad["options"]
    assert (smg["name"], smg["points"], smg["replaces"], smg["model"]) == ("NCO SMG", 3, ["rifle"], "Regular NCO")


def test_a_man_whose_only_weapon_choice_costs_pays_for_it(packs):
    """wc-flying-nco-weapon holds only an SMG at 3: 10 + 3 + 4 x 10 = 53, no option."""
    squad = _unit(packs, "weapon-choices", "Test Flying Squad")
    assert squad["qualities"][0]["points"] == 53
    assert squad["composition"][0]["weapons"] == ["smg"] and "options" not in squad


def test_an_option_shown_beside_another_unit_needs_it_in_the_force(library, packs):
    """mc-cavalry: hidden unless the force holds mc-troop (greaterThan 0); 5 pts; mc-soldier +5 while it is taken."""
    cavalry = _element(library, "mc-cavalry")
    assert shown_beside(cavalry.findall("modifiers/modifier"), {"mc-poland", PLATOON}) == {"mc-troop"}
    officer = _unit(packs, "mounted-officers", "Test Officer")
    ride, soldier = officer["options"]
    assert (ride["points"], ride["needs_units"]) == (5, ["mounted-officers-test-cavalry-troop"])
    assert (soldier["points"], soldier["points_with"]) == (10, {"cavalry": 5})
