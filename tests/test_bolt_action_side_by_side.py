"""The BattleScribe engine and the converted Bolt Action packs on one footing (skipped without ../shared).

Every unit of three theatre lists of three nations, and of the theatre lists of each cluster the side by
side found and settled (CLUSTERS), at each quality the list offers, and each of its options taken on its
own: the engine's points (a Reinforced Platoon with the list's theatre selector chosen, as BattleScribe
builds it) against the pack's price. Where they differ, the difference must be one the project records:
an override of the data, or a reading of it.
"""

import dataclasses
import importlib.util
import json
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from lists.battlescribe.engine import counting, validation
from lists.battlescribe.engine import roster as roster_module
from lists.battlescribe.engine.compiled import without_collection
from lists.battlescribe.engine.validation import roster_errors
from lists.battlescribe.engine.xml_loading import load_data_folder

ROOT = Path(__file__).resolve().parents[1]
BOLT_ACTION = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "boltaction"
SAMPLE = {
    "australia-1941-42-imperial-force-mediterranean-and-north-africa": "BA2 - Armies of Australia.cat",
    "germany-1944-normandy": "BA2 - Armies of Germany.cat",
    "united-states-1944-normandy": "BA2 - Armies of the United States.cat",
}

# The theatre lists of the clusters the side by side found and settled (docs/battlescribe.md, "The engine
# beside the packs"): the unit or pattern each holds.
CLUSTERS = {
    # Assault Engineer NCO's SMG, SMG squad's lone-member SMG, Tank Hunters' weapons, Airborne grenades per man,
    # the Anti-Tank Rifle Squad NCO's grenades (override)
    "soviet-union-generic-reinforced-platoon": "BA2 - Armies of the  Soviet Union.cat",
    "france-1940-the-battle-of-france": "BA2 - Armies of France.cat",  # Renault FT's compulsory MMG
    "belgium-generic-reinforced-platoon": "BA2 - Armies of Belgium.cat",  # FT-17
    "hungary-generic-reinforced-platoon": "BA2 - Armies of Hungary.cat",  # Csaba 39M, Honvéd grenades, Medic Team
    "india-generic-reinforced-platoon": "BA2 - Armies of India.cat",  # Royal Engineers NCO's weapons
    "new-zeland-generic-reinforced-platoon": "BA2 - Armies of New Zeland.cat",  # the same
    "italy-1943-the-defence-of-sicily": "BA2 - Armies of Italy.cat",  # Motociclisti, Lancia IZ
    "italy-1942-43-x-reggimento-arditi": "BA2 - Armies of Italy.cat",  # X Arditi Support the list requires
    "great-britain-generic-reinforced-platoon": "BA2 - Armies of Great Britain.cat",  # SAS LMG man, LVT 4
    "partisans-generic-reinforced-platoon": "BA2 - Partisans.cat",  # extra men, Molotov squad, SAS Weapon Team
    "germany-generic-reinforced-platoon": "BA2 - Armies of Germany.cat",  # Volks Grenadiers' assault rifles
    "china-generic-reinforced-platoon": "BA2 - Armies of China.cat",  # Big Sword Squad
    "canada-generic-reinforced-platoon": "BA2 - Armies of Canada.cat",  # Assault Section's Green
    "slovakia-generic-reinforced-platoon": "BA2 - Armies of Slovakia.cat",  # both ratings compulsory (override)
    "poland-generic-reinforced-platoon": "BA2 - Armies of Poland.cat",  # motorcycles per man
    "germany-1945-last-levy": "BA2 - Armies of Germany.cat",  # the Panther's IR equipment (reading)
}

pytestmark = [
    pytest.mark.skipif(not BOLT_ACTION.is_dir(), reason=f"no Bolt Action data at {BOLT_ACTION}"),
]


def _script():
    spec = importlib.util.spec_from_file_location("side_by_side", ROOT / "scripts" / "bolt_action_side_by_side.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def side_by_side():
    module = _script()
    files = sorted(set(SAMPLE.values()) | set(CLUSTERS.values()))
    data = without_collection(lambda: load_data_folder(BOLT_ACTION, files))
    return module, data, module.read_pack()


def test_every_difference_in_three_theatre_lists_is_recorded(side_by_side):
    module, data, pack = side_by_side
    findings = module.compare_armies(data, pack, list(SAMPLE))
    units = {(f.army, f.unit) for f in findings}
    assert {army for army, _ in units} == set(SAMPLE)
    assert len(units) > 100
    unexplained = [f for f in findings if f.cause not in ("agree", "override", "reading")]
    assert unexplained == []
    assert sum(f.cause == "agree" for f in findings) > 0.9 * len(findings)


@pytest.mark.parametrize("army", list(CLUSTERS))
def test_every_difference_in_the_lists_of_the_settled_clusters_is_recorded(side_by_side, army):
    module, data, pack = side_by_side
    findings = module.compare_armies(data, pack, [army])
    assert len(findings) > 50
    assert [f for f in findings if f.cause not in ("agree", "override", "reading")] == []


def test_the_settled_clusters_are_priced_as_battlescribe_prices_them(side_by_side):
    module, data, pack = side_by_side
    soviet = module.ArmyRoster(data, pack, "soviet-union-generic-reinforced-platoon")
    engineers = soviet.add_unit("soviet-union-assault-engineer-squad", "veteran")
    assert module.points_of(engineers) == 68  # the NCO's compulsory SMG (5f82dfb1-60d9-2cc1-bc6c-fbb60a654507)
    smg_squad = soviet.add_unit("soviet-union-submachine-gun-squad", "inexperienced")
    assert module.points_of(smg_squad) == 50  # one SMG for the NCO, not two
    france = module.ArmyRoster(data, pack, "france-1940-the-battle-of-france")
    assert module.points_of(france.add_unit("france-renault-ft", "inexperienced")) == 28


def test_a_tank_costs_its_quality_entry_in_a_theatre_list(side_by_side):
    module, data, pack = side_by_side
    army = module.ArmyRoster(data, pack, "australia-1941-42-imperial-force-mediterranean-and-north-africa")
    grant = army.add_unit("australia-m3-grant", "regular")
    assert module.points_of(grant) == 220
    assert army.roster.totals["points"] == 220


def test_errors_are_the_same_counted_through_the_index_or_walked(side_by_side, monkeypatch):
    module, data, pack = side_by_side
    army = module.ArmyRoster(data, pack, "germany-1944-normandy")
    for unit in pack.armies["germany-1944-normandy"]["borrow_units"][:12]:
        army.add_unit(unit, "regular", options=2)
    army.new_force()
    for unit in pack.armies["germany-1944-normandy"]["borrow_units"][12:20]:
        army.add_unit(unit, "veteran", options=1)
    army.roster.refresh()
    points, errors = army.roster.totals["points"], roster_errors(army.roster)
    assert points > 500
    assert errors  # twenty units taken in list order break some of the platoons' limits

    monkeypatch.setattr(counting, "evaluation_pass", walking_pass)
    monkeypatch.setattr(validation, "evaluation_pass", walking_pass)
    monkeypatch.setattr(roster_module, "evaluation_pass", walking_pass)
    army.roster.refresh()
    assert army.roster.totals["points"] == points
    assert roster_errors(army.roster) == errors


@contextmanager
def walking_pass(roster):
    yield


def test_the_data_caps_no_tanks_in_a_reinforced_platoon_where_the_packs_take_the_rulebooks_one(side_by_side):
    """The recorded difference (docs/battlescribe.md, Readings; overrides.yaml, organisation_facts): the game
    system's platoon (efef-703c-d244-559f) limits neither its tank slot (c379-4700-0446-a712) nor its armoured
    car slot (8568-c74f-c47d-7772), so the engine finds nothing wrong with two of each; the packs do."""
    module, data, pack = side_by_side
    army = module.ArmyRoster(data, pack, "germany-1944-normandy")
    for unit in ("germany-panzer-iv-ausf-g-h-j", "germany-jagdpanzer-iv", "germany-sdkfz-222-light-armoured-car") * 2:
        assert army.add_unit(unit, "regular") is not None
    army.roster.refresh()
    capped_slots = {"c379-4700-0446-a712", "8568-c74f-c47d-7772"}
    assert not [e for e in roster_errors(army.roster) if e.entry_id in capped_slots or "Tank" in e.message]
    text = (module.ARMIES / "shared.yaml").read_text()
    organisations = json.loads(text[text.index("{") :])["organisations"]
    platoon = next(o for o in organisations if o["key"] == "bs-reinforced-platoon")
    limits = {s["source_id"]: s.get("max") for s in platoon["slots"] if s.get("source_id") in capped_slots}
    assert limits == {slot: 1 for slot in capped_slots}


def test_the_british_m5s_pintle_weapons_agree_in_weapons_and_rules(side_by_side):
    """BA2 - Armies of Great Britain.cat, M5 Halftrack (2d66bb35-423b-0def-bd92-a68335ef8a8c): its Pintle mount
    entries have no profile; the check finds a weapon option carrying no weapon, so each must carry its own."""
    module, data, pack = side_by_side
    pack = dataclasses.replace(pack, carried=True)
    army = module.ArmyRoster(data, pack, "great-britain-generic-reinforced-platoon")
    findings = module.compare_unit(data, pack, army, army.army_key, "great-britain-m5-halftrack", True)

    carried = [f for f in findings if f.kind == "weapons and rules"]
    assert {f.option for f in carried} >= {"pintle-mounted-hmg-360", "pintle-mounted-mmg-left-arc"}
    assert [f.detail for f in carried if f.cause != "agree"] == []
