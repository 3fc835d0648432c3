"""Every rule and weapon the BattleScribe data gives a Bolt Action unit is on that unit, and every chain a
player can select in the data is mapped by the packs or named with its reason (scripts/bolt_action_coverage.py).

Hand-checked against BA2 - Armies of Great Britain.cat (BSData/boltaction): the M5 Halftrack
(2d66bb35-423b-0def-bd92-a68335ef8a8c) holds a "Pintle mount" group whose "Pintle-Mounted HMG (360)"
(0c920c1f-350d-a872-dbb3-280738bc78d2, least 1) and two MMGs (15 points each) have no profile and no contents:
only their names say what they carry.
"""

import io

import pytest
from pypdf import PdfReader

from lists.cards import cards_pdf
from lists.rosters.files import load_roster_file
from tests import battlescribe_engine_rosters as made

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]
needs_bsdata = pytest.mark.skipif(not made.BOLT_ACTION.is_dir(), reason="../shared/bsdata/boltaction is absent")

BRITISH_M5 = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: great-britain-generic-reinforced-platoon
name: Halftracks
forces:
  - name: 1st Platoon
    organisation: Reinforced Platoon
    units:
      - {unit: great-britain-m5-halftrack, label: Halftrack, quality: Regular%s}
"""


@pytest.mark.parametrize("key", ["great-britain-m5-halftrack", "great-britain-m5-halftrack-2"])
def test_the_british_m5s_pintle_weapons_have_the_weapons_their_names_give(client, key):
    unit = client.get(f"/api/games/bolt-action-2e/units/{key}/").json()

    weapons = {option["name"]: option["weapons"] for option in unit["options"]}
    assert weapons["Pintle-Mounted HMG (360)"] == ["/api/games/bolt-action-2e/weapons/hmg/"]
    assert weapons["Pintle-Mounted MMG (left arc)"] == ["/api/games/bolt-action-2e/weapons/mmg/"]


def test_a_british_m5s_card_prints_its_preselected_hmgs_profile():
    resolved = load_roster_file((BRITISH_M5 % "").encode(), "roster.yaml")
    assert resolved.snapshot().units[0].options  # the HMG is taken when the unit is added, as BattleScribe does
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)

    assert 'Heavy machine gun (HMG) 36" 3' in text


def read_back(builder) -> tuple:
    """The engine's roster as BattleScribe saves it, read through our one door for roster files, then our export
    of it read again: the units, the national rules played and the points of each."""
    from lists.rosters.battlescribe_writing import export
    from lists.rules.verdict import judge

    ours = load_roster_file(builder.xml().encode(), "made.ros")
    again = load_roster_file(export(ours.snapshot()), "again.ros")
    units = [(u.unit_type.key, u.quality, u.own_size, dict(u.options)) for u in ours.snapshot().units]
    assert units == [(u.unit_type.key, u.quality, u.own_size, dict(u.options)) for u in again.snapshot().units]
    assert again.settings == ours.settings
    return units, ours.settings, judge(ours.snapshot()).points, judge(again.snapshot()).points


@needs_bsdata
def test_anti_tank_grenades_bought_for_a_veteran_us_squad_are_read_at_the_engines_points():
    """BA2 - Armies of the United States.cat: Infantry Squad (Early/Mid- War) (28809a19-...), each rating entry
    holding its own Anti-tank Grenades (the Veteran's 852c-0b7c-42fd-099d, +2 a man)."""
    b = made.Builder("Armies of the United States", "Husky", 1000)
    force = b.force("1943: Operation Husky", "1st Platoon")
    b.pick(b.existing(force, "Officer"), "Second Lieutenant", "Regular")
    squad = b.pick(force, "Infantry Squad (Early/Mid- War)", "Veteran")
    b.pick(squad, "Anti-tank Grenades")

    units, _, points, again = read_back(b)

    assert units[1][:2] == ("united-states-infantry-squad-early-mid-war", "veteran")
    assert units[1][3] == {"anti-tank-grenades": units[1][2]}  # every man of the squad pays for them
    assert points == again == b.points


@needs_bsdata
def test_a_british_sections_nco_smg_and_national_characteristic_are_read_at_the_engines_points():
    """BA2 - Armies of Great Britain.cat: the Regular NCO of an Infantry Section (Late-War) holds a Rifle and an
    SMG (e2e2-fa8b-c360-a5b0) with no group around them; the force's "National Charateristic" takes Rapid Fire."""
    b = made.Builder("Armies of Great Britain", "Into the Reich", 1000)
    force = b.force("1945: Into the Reich", "1 Platoon")
    b.pick(b.existing(force, "National Charateristic"), "Rapid Fire")
    b.pick(b.existing(force, "Officer"), "Second Lieutenant", "Regular")
    section = b.pick(force, "Infantry Section (Late-War)", "Regular")
    b.pick(b.existing(section, "Regular NCO"), "SMG")

    units, settings, points, again = read_back(b)

    assert units[1][0] == "great-britain-infantry-section-late-war-2" and units[1][3] == {"nco-smg": 1}
    assert settings == {"national-rules": "Rapid Fire"}
    assert points == again == b.points


def _coverage():
    import json
    from pathlib import Path

    from lists.battlescribe.coverage import cited_reasons, coverage

    armies = Path(__file__).resolve().parents[1] / "lists" / "packs" / "bolt-action-2e" / "armies"
    document = json.loads((armies / "battlescribe-ids.json").read_text())
    report = (armies / "IMPORT-REPORT.md").read_text()
    return {army.army: army for army in coverage(document, cited_reasons(report))}, report


def test_the_coverage_names_every_army_and_maps_the_entries_players_files_hold():
    found, report = _coverage()

    assert len(found) == 25
    not_mapped = {chain for army in found.values() for chain, _, _ in army.exceptions}
    for chain in (
        "28809a19-0876-529a-d180-27317a6a59d7::852c-0b7c-42fd-099d",  # a Veteran US squad's Anti-tank Grenades
        "5e11-b3df-b2a1-36ec::e2e2-fa8b-c360-a5b0",  # a Regular British NCO's SMG
        "ae71-670b-187c-7727",  # Great Britain's National Charateristic
    ):
        assert chain not in not_mapped
    # The import report prints the same figures, per army.
    britain = found["great-britain"]
    row = f"| great-britain | {britain.chains} | {britain.share:.1f}% | {len(britain.exceptions) - len(britain.uncited)} |"
    assert row in report


def test_an_entry_the_packs_do_not_map_is_an_exception_cited_by_the_reason_the_report_gives_it():
    from lists.battlescribe.coverage import coverage

    squad = ["u-squad", "Squad", "unit", "", "", 0, None, "", 0]
    tree = {
        "root::u-squad": squad,
        "root::u-lmg": ["u-lmg", "LMG", "upgrade", "", "", 0, 1, "root::u-squad", 20],
        "root::u-skis": ["u-skis", "Skis", "upgrade", "", "", 0, 1, "root::u-squad", 5],
        "root::u-lance": ["u-lance", "Lance", "upgrade", "", "", 0, 1, "root::u-squad", 1],
        "root::u-lance::w": ["w", "Lance", "upgrade", "", "", 1, 1, "root::u-lance", 0],
    }
    unit = {"catalogue": "testland", "root": "root::u-squad", "chain": "root::u-squad", "options": [["lmg", "u-lmg"]]}
    document = {"roots": {"testland": {"root::u-squad": tree}}, "units": {"squad": unit}}

    (army,) = coverage(document, {"u-skis": "hidden in every theatre list"})

    assert (army.chains, army.mapped) == (5, 2)
    assert army.exceptions == [
        ("root::u-skis", "Skis", "hidden in every theatre list"),
        ("root::u-lance", "Lance", ""),  # named once: what it holds goes with it
    ]
    assert army.uncited == [("root::u-lance", "Lance", "")]


@needs_bsdata
def test_an_italian_list_in_the_game_systems_reinforced_platoon_is_read_and_its_verdict_says_why_it_cannot_be_legal():
    """BA2 - Armies of Italy.cat: the game system's Reinforced Platoon (efef-703c-d244-559f) is offered to every
    Italian list, but its Lieutenant slot counts Headquarters where Italy's lieutenants are Platoon Commanders.
    The player leaves the Officer entry BattleScribe adds to the force empty and takes two Infantry Sections,
    one through the link shown in that platoon only (a7d7-a5a3-793f-eeef)."""
    from lists.rules.verdict import judge

    b = made.Builder("Armies of Italy", "Sicily", 1000)
    force = b.force("1943: The Defence of Sicily (Armies of Italy)", "Plotone")
    b.pick(force, "Infantry Section", "Infantry Section", "Regular")
    b.pick(force, "Infantry Section", "Infantry Section", "Regular")
    xml = b.xml()
    compulsory_link = "a7d7-a5a3-793f-eeef::4545-02d7-4870-4f2e"
    xml = xml.replace(force.selections[-1].entry_id, compulsory_link, 1) if compulsory_link not in xml else xml

    resolved = load_roster_file(xml.encode(), "plotone.ros")
    verdict = judge(resolved.snapshot())

    assert [u.unit_type.name for u in resolved.snapshot().units] == ["Infantry Section", "Infantry Section"]
    assert verdict.points == b.points
    (missing,) = [f for f in verdict.findings if f.code == "org.missing"]
    assert "needs at least 1 Lieutenant" in missing.message
    assert "No unit of this army list can fill Lieutenant in this organisation" in missing.fix


def test_the_same_italian_platoon_as_a_yaml_file_is_read_with_the_same_finding():
    from lists.rules.verdict import judge

    resolved = load_roster_file(
        b"""format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "1943: The Defence of Sicily (Armies of Italy)"
name: Plotone
forces:
  - name: Plotone
    organisation: Reinforced Platoon
    units:
      - {unit: italy-infantry-section, quality: Regular}
      - {unit: italy-infantry-section, quality: Regular}
""",
        "plotone.yaml",
    )

    findings = judge(resolved.snapshot()).findings
    assert [f.code for f in findings if f.rule == "bs-reinforced-platoon"] == ["org.missing"]


def test_the_us_market_garden_list_is_dated_1944_with_the_erratum_cited(client):
    """BA2 - Armies of the United States.cat names its list 7ed7-55c8-4fb6-bc07 "1943: Operation Market Garden";
    the operation was fought in September 1944, as Great Britain's own list of it says ("1944: Market Garden")."""
    army = client.get("/api/games/bolt-action-2e/armies/united-states-1943-operation-market-garden/").json()
    game = client.get("/api/games/bolt-action-2e/").json()

    assert army["name"] == "1944: Operation Market Garden"
    (erratum,) = [e for e in game["errata"] if e["source_value"] == "1943: Operation Market Garden"]
    assert erratum["used_value"] == "1944: Operation Market Garden" and "September 1944" in erratum["reason"]
    resolved = load_roster_file(
        b"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        b"army: united-states-1943-operation-market-garden\nname: Arnhem\n"
        b"forces:\n  - {name: 1st Platoon, units: [{unit: united-states-paratrooper-squad-late-war, quality: Veteran}]}\n",
        "arnhem.yaml",
    )
    assert resolved.snapshot().army_name == "1944: Operation Market Garden"


def test_the_check_finds_a_weaponless_weapon_option_and_a_rule_the_pack_leaves_off():
    """lists/battlescribe/profile_check.py, on what the engine shows for an option taken."""
    from lists.battlescribe.profile_check import PackNames, option_differences

    names = PackNames(weapons={"heavy machine gun (hmg)": "hmg"}, worded={"bs-tank-hunters"})
    armed = {"name": "Pintle-Mounted HMG (360)", "weapons": ["hmg"], "rules": ["bs-tank-hunters"]}
    weaponless = {"name": "Pintle-Mounted HMG (360)"}
    grenades = {"name": "Anti-tank Grenades", "weapons": []}

    assert option_differences(names, armed, {"Heavy machine gun (HMG)"}, {"Tank Hunters"}) == []
    assert option_differences(names, weaponless, set(), set()) == ["a weapon option carrying no weapon"]
    assert option_differences(names, grenades, set(), {"Tank Hunters"}) == [
        "rules the data gives it and the pack does not: bs-tank-hunters"
    ]
    assert option_differences(names, grenades, {"Rifle"}, set()) == [
        "weapons the data gives it and the pack does not: bs-rifle"
    ]


def test_every_chain_a_roster_file_may_hold_is_mapped_or_cited():
    found, _ = _coverage()

    assert [(army.army, chain, name) for army in found.values() for chain, name, _ in army.uncited] == []


@needs_bsdata
def test_a_medic_teams_veteran_soldier_beside_its_medic_is_read_as_the_medics():
    """BA2 - Armies of Hungary.cat: the Medic Team (c112419b-2857-346b-12c8-09cde56ec618) holds the Medic and,
    beside it, Veteran Soldiers (6564bb3d-d708-caa3-6cd3-6b97b6d5175c, 13) and an outer Rating whose Veteran
    (a25f7272-a164-4527-e2bd-e86a081b420c) the data charges 30 beside the Medic's own rating."""
    b = made.Builder("Armies of Hungary", "Medics", 1000)
    force = b.force("Generic Reinforced Platoon", "1st Platoon")
    b.pick(b.existing(force, "Officer"), "Hadnagy (Second Lieutenant)", "Regular")
    team = b.pick(force, "Medic Team")
    b.existing(b.pick(team, "Medic"), "Veteran")  # its only rating
    b.pick(team, "Veteran Soldier")

    units, _, points, again = read_back(b)

    assert (units[1][:2], units[1][3]) == (("hungary-medic", "veteran"), {"veteran-soldier": 1})
    assert points == again == b.points - 30  # the outer Veteran costs nothing (overrides.yaml, a25f7272-...)


@needs_bsdata
def test_a_tetrarchs_little_john_adaptor_and_a_veteran_honved_ncos_smg_are_read_at_the_engines_points():
    """BA2 - Armies of Great Britain.cat: the Tetrarch's Turret-mounted Light AT Gun, its Variant group's default,
    may take a Little John Adaptor (840c-e2ed-28f7-7dce, 15). BA2 - Armies of Hungary.cat: the Veteran NCO of
    the Experienced Honvéd Division Section holds a compulsory "Weapon" entry with a Rifle and an SMG
    (3095-13f0-aed1-c680, 3) in it, his weapon choice."""
    b = made.Builder("Armies of Great Britain", "Normandy", 1000)
    force = b.force("1944: Normandy", "1 Platoon")
    b.pick(b.existing(force, "Officer"), "Second Lieutenant", "Regular")
    tank = b.pick(force, "Light Tank MK VII Tetrarch")
    b.existing(tank, "Regular")  # its Rating group's default
    b.pick(b.existing(tank, "Turret-mounted Light AT Gun"), "Little John Adaptor")

    units, _, points, again = read_back(b)

    assert units[1][0] == "great-britain-light-tank-mk-vii-tetrarch" and units[1][3] == {"little-john-adaptor": 1}
    assert points == again == b.points

    b = made.Builder("Armies of Hungary", "Honvéd", 1000)
    force = b.force("Generic Reinforced Platoon", "1st Platoon")
    b.pick(b.existing(force, "Officer"), "Hadnagy (Second Lieutenant)", "Regular")
    veteran = b.pick(force, "Experienced Honvéd Division Section", "Veteran")
    b.pick(b.existing(b.existing(veteran, "Veteran NCO"), "Weapon"), "SMG")

    units, _, points, again = read_back(b)

    assert units[1][3] == {"nco-smg": 1}
    assert points == again == b.points


def test_an_intelligence_officer_comes_with_his_pistol_and_a_flamethrower_with_its_loader(client):
    """BA2 - Armies of Australia.cat: a Captain's Intelligence Officer (cd65-d1b6-575c-12b4) is a man with his own
    Rating and Weapon groups, the Pistol selected with him; a Jungle Engineer Section's Flamethrower
    (bfba-e785-c276-6d3c) links the game system's Flamethrower (infantry), which shows the Loader rule."""
    captain = client.get("/api/games/bolt-action-2e/units/australia-captain/").json()
    engineers = client.get("/api/games/bolt-action-2e/units/australia-jungle-engineer-section/").json()

    officer = next(o for o in captain["options"] if o["key"] == "intelligence-officer")
    assert officer["weapons"] == ["/api/games/bolt-action-2e/weapons/pistol/"]
    assert next(o for o in engineers["options"] if o["key"] == "flamethrower")["rules"] == ["bs-loader"]
    resolved = load_roster_file(
        b"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: australia-generic-reinforced-platoon\n"
        b"name: HQ\nforces:\n  - {name: 1st Platoon, units: [{unit: australia-captain, quality: Regular,"
        b" options: [{option: intelligence-officer, count: 1}]}]}\n",
        "hq.yaml",
    )
    assert resolved.snapshot().units[0].men == 2  # the Captain and his Intelligence Officer
