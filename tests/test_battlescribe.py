"""The BattleScribe converter on small fixture files (tests/fixtures/battlescribe), one pattern each.

Every expected figure is read off the fixture XML (`Fixture System.gst`,
`Armies of Testland.cat`); the entry ids are given beside each test.
"""

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

from lists.battlescribe.reader import DataError, read_library
from lists.battlescribe.run import DEFAULT_SUMMARIES, import_data
from lists.battlescribe.summaries import load_summaries
from lists.gamedata.packs import check_references, load_all, read_pack
from lists.models import GameSystem, Roster

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "battlescribe"
BASE_PACK = ROOT / "lists" / "packs" / "bolt-action-2e"
ARMIES = BASE_PACK / "armies"


def _pack_with_armies(folder: Path) -> Path:
    """A copy of the bolt-action-2e pack (its own files only) to convert into."""
    pack = folder / "bolt-action-2e"
    pack.mkdir(parents=True)
    for path in BASE_PACK.glob("*.yaml"):
        shutil.copy(path, pack / path.name)
    return pack


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    pack = _pack_with_armies(tmp_path_factory.mktemp("packs"))
    report, text = import_data(FIXTURES, pack / "armies", FIXTURES / "overrides.yaml", FIXTURES / "rule_summaries.yaml")
    files = {path.name: yaml.safe_load(path.read_text()) for path in (pack / "armies").glob("*.yaml")}
    return {"pack": pack, "report": report, "text": text, "files": files}


def _unit(converted, name: str) -> dict:
    return next(unit for unit in converted["files"]["testland.yaml"]["units"] if unit["name"] == name)


def _option(unit: dict, name: str) -> dict:
    return next(option for option in unit.get("options", []) if option["name"] == name)


def _army(converted, name: str) -> dict:
    return next(army for army in converted["files"]["testland.yaml"]["armies"] if army["name"] == name)


def test_the_strict_loader_accepts_the_converted_pack(converted):
    pack = read_pack(converted["pack"])
    assert check_references(pack, set()) == []
    assert {unit.name for unit in pack.items("units")} >= {"Rifle Squad", "Panzer Test", "Hauptmann (Captain)"}


def test_each_theatre_selector_is_an_army_list_with_the_units_its_conditions_unhide(converted):
    """sel-normandy and sel-desert; Panzer Test (l-tank) is hidden when sel-desert is chosen."""
    normandy = _army(converted, "1944: Normandy (Armies of Testland)")
    desert = _army(converted, "1942: Desert (Armies of Testland)")
    assert normandy["source_id"] == "sel-normandy"
    assert normandy["borrows_from"] == ["testland"]
    assert "testland-panzer-test" in normandy["borrow_units"]
    assert "testland-panzer-test" not in desert["borrow_units"]
    assert "testland-rifle-squad" in desert["borrow_units"]


def test_the_nation_is_an_army_keeping_its_catalogue_id_and_national_rules_by_name_only(converted):
    nation = _army(converted, "Armies of Testland")
    assert nation["source_id"] == "fx-cat"
    rules = {rule["key"]: rule for rule in converted["files"]["shared.yaml"]["rules"]}
    assert rules[nation["rules"][0]]["name"] == "Blitz Drill"
    assert rules[nation["rules"][0]]["summary"] == ""


def test_a_rule_in_the_summaries_file_gets_our_summary_and_reminder(converted):
    """g-rule-tf Tough Fighters: the fixture summaries file has bs-tough-fighters; Blitz Drill (r-national) has none."""
    rules = {rule["key"]: rule for rule in converted["files"]["shared.yaml"]["rules"]}
    tough = rules["bs-tough-fighters"]
    assert tough["summary"] == "Fixture summary: each close-quarters kill earns one more damage roll."
    assert tough["reminder"] == "fixture reminder: another roll per kill"
    assert tough["source_id"] == "g-rule-tf"
    assert "bs-tough-fighters" in _unit(converted, "Rifle Squad")["rules"]
    assert "bs-unused-rule" not in rules  # a summary alone never makes a rule
    counts = converted["report"].counts
    assert (counts["rules imported with our summary"], counts["rules imported by name only"]) == (1, 1)
    assert "- rules imported with our summary: 1" in converted["text"]


def _committed(name: str) -> dict:
    return yaml.safe_load((ARMIES / name).read_text())


def _rules_named_by_armies() -> set[str]:
    """Every rule key a converted army, unit, man or option names, over the committed army files."""
    used = set()
    for path in ARMIES.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        for army in data.get("armies", []):
            used.update(army.get("rules") or [])
        for unit in data.get("units", []):
            for holder in [unit, *unit.get("options", [])]:
                used.update(rule if isinstance(rule, str) else rule["rule"] for rule in holder.get("rules") or [])
    return used


@pytest.mark.timeout(300)  # every rule of every converted unit
def test_every_rule_a_converted_unit_has_is_summarised_or_a_label():
    """A card never prints a converted unit's rule as a bare name: each has our summary (labels say they are)."""
    rules = {rule["key"]: rule for rule in _committed("shared.yaml")["rules"]}
    summaries = load_summaries(DEFAULT_SUMMARIES)
    imported = sorted(key for key in _rules_named_by_armies() if key in rules)

    assert len(imported) > 250  # the converted armies name some 300 rules the base pack lacks
    assert [key for key in imported if not rules[key]["summary"].strip()] == []
    labels = [key for key in imported if summaries[key].label]
    assert labels and all(rules[key]["summary"].startswith("A label") for key in labels)


def test_the_committed_pack_carries_the_summaries_file():
    """Re-run the import after editing rule_summaries.yaml: every summary there is in shared.yaml, none stale."""
    rules = {rule["key"]: rule for rule in _committed("shared.yaml")["rules"]}
    summaries = load_summaries(DEFAULT_SUMMARIES)

    assert sorted(set(summaries) - set(rules)) == []  # no summary for a rule the data no longer names
    for key, ours in summaries.items():
        assert rules[key]["summary"] == " ".join(ours.summary.split())
        assert rules[key].get("reminder") == ours.reminder


def test_rule_texts_never_reach_the_pack(converted):
    for path in (converted["pack"] / "armies").iterdir():
        assert "MUST NEVER REACH A PACK" not in path.read_text()


def test_a_rule_the_base_pack_has_links_to_its_own_summary(converted):
    """gp-heavy-at lists "Team, Fixed, HE (2")": the pack's team, fixed and he rules."""
    weapons = {weapon["key"] for weapon in converted["files"]["shared.yaml"]["weapons"]}
    assert "bs-heavy-at-gun" not in weapons  # the chart's own Heavy AT gun is used
    assert _unit(converted, "Panzer Test")["composition"][0]["weapons"] == ["heavy-at-gun"]


def test_squad_men_give_the_size_range_the_base_cost_and_the_cost_per_extra_man(converted):
    """g-members: 5 to 10 men; m-nco 10 pts (min 1), m-soldier 10 pts (min 4, max 9). The Soldier with LMG
    the squad may add joins its NCO and four soldiers: their least numbers are the squad's own least."""
    squad = _unit(converted, "Rifle Squad")
    assert (squad["min_size"], squad["max_size"]) == (5, 10)
    assert squad["qualities"] == [
        {
            "quality": "regular",
            "points": 50,
            "per_extra_model": 10,
            "min_own_size": 5,
            "citation": {"source": "BSData/boltaction", "entry": "Armies of Testland.cat: l-squad (Rifle Squad)"},
        }
    ]
    assert [(line["count"], line["role"], line["name"]) for line in squad["composition"]] == [
        (1, "nco", "Regular NCO"),
        (4, "soldier", "Regular Soldier"),
    ]
    assert squad["source_id"] == "l-squad"


def test_the_per_man_trick_becomes_an_option_priced_per_man(converted):
    """o-grenades costs 2, takes 2 off when chosen, and each man gains 2 (m-nco, m-soldier)."""
    grenades = _option(_unit(converted, "Rifle Squad"), "Anti-tank Grenades")
    assert (grenades["points"], grenades["per"]) == (2, "model")
    assert grenades["source_id"] == "o-grenades"


def test_a_cost_on_a_link_target_in_the_game_system_is_added(converted):
    """o-nco-smg costs 0 but links g-smg (3 pts, at least one) in the .gst."""
    smg = _option(_unit(converted, "Rifle Squad"), "NCO SMG")
    assert (smg["points"], smg["weapons"]) == (3, ["smg"])
    assert "adds_models" not in smg


def test_a_man_of_another_cost_becomes_an_option_adding_him(converted):
    """m-lmg: 30 pts, at most one, inside the squad members."""
    lmg = _option(_unit(converted, "Rifle Squad"), "Regular Soldier with LMG")
    assert (lmg["points"], lmg["max"]) == (30, 1)
    assert lmg["adds_models"] == [{"count": 1, "role": "soldier", "name": "Regular Soldier with LMG"}]


def test_an_option_shown_only_in_one_theatre_is_limited_to_that_army(converted):
    """o-panzerfaust is hidden unless sel-normandy is chosen."""
    assert _option(_unit(converted, "Rifle Squad"), "Panzerfaust")["armies"] == ["testland-1944-normandy"]


def test_an_option_its_constraints_forbid_is_skipped_and_reported(converted):
    """o-forbidden has max 1 and max 0."""
    assert "Flamethrower" not in {option["name"] for option in _unit(converted, "Rifle Squad")["options"]}
    assert (
        "| Armies of Testland.cat: Rifle Squad / Flamethrower | o-forbidden | its own constraints" in converted["text"]
    )


def test_a_unit_hidden_in_every_theatre_is_skipped_and_reported(converted):
    assert not [unit for unit in converted["files"]["testland.yaml"]["units"] if unit["name"] == "Secret Weapon Team"]
    assert (
        "| Armies of Testland.cat: Secret Weapon Team | l-secret | hidden in every theatre selector |"
        in (converted["text"])
    )


def test_a_price_group_becomes_points_by_quality(converted):
    """u-tank-rating: Inexperienced 188, Regular 235, Veteran 282."""
    tank = _unit(converted, "Panzer Test")
    assert [(q["quality"], q["points"]) for q in tank["qualities"]] == [
        ("inexperienced", 188),
        ("regular", 235),
        ("veteran", 282),
    ]


def test_a_limit_per_force_becomes_the_units_limit_in_a_roster(converted):
    """l-tank: at most 1 selection at force scope."""
    assert _unit(converted, "Panzer Test")["max_in_roster"] == 1
    assert "max_in_roster" not in _unit(converted, "Rifle Squad")


def test_a_vehicle_profile_gives_damage_value_transport_and_tow(converted):
    """u-tank-prof: Medium Tank 9+, 3 men, Light gun."""
    tank = _unit(converted, "Panzer Test")
    assert tank["kind"] == "vehicle"
    # The profile's Type names its movement; the gun's entry name ("Turret-mounted ...") its mount. The
    # pintle MMG option has no profile: its name gives its weapon (the British M5's, in the real data).
    assert tank["armour"] == {
        "armour_class": "Tracked Vehicle",
        "damage_value": "medium-tank",
        "movement": "tracked",
        "mounts": [
            {"weapon": "heavy-at-gun", "mount": "turret"},
            {"weapon": "mmg", "mount": "pintle", "option": "pintle-mounted-mmg-15pts"},
        ],
    }
    assert (tank["transport_capacity"], tank["carries"]) == (3, "Light gun")


def test_officer_ranks_inside_one_entry_become_units_with_their_rank(converted):
    """u-officer's Rank group: u-officer-lt (Regular 50, Veteran 65) and u-officer-cpt (Regular 100)."""
    lieutenant = _unit(converted, "Leutnant (Second Lieutenant)")
    captain = _unit(converted, "Hauptmann (Captain)")
    assert lieutenant["officer_rank"] == "second-lieutenant"
    assert [(q["quality"], q["points"]) for q in lieutenant["qualities"]] == [("regular", 50), ("veteran", 65)]
    assert (captain["officer_rank"], captain["qualities"][0]["points"]) == ("captain", 100)
    assert captain["source_id"] == "u-officer-cpt"


def test_a_compulsory_choice_puts_its_default_in_the_unit_and_prices_the_others_as_swaps(converted):
    """u-officer-lt-weapon: one of Rifle (the default, g-rifle 0 pts) or SMG (0 pts plus g-smg's 3)."""
    lieutenant = _unit(converted, "Leutnant (Second Lieutenant)")
    assert lieutenant["composition"][0]["weapons"] == ["rifle"]
    smg = _option(lieutenant, "SMG")
    assert (smg["points"], smg["weapons"], smg["replaces"], smg["group"]) == (3, ["smg"], ["rifle"], "weapon")
    assert [(q["quality"], q["points"]) for q in lieutenant["qualities"]] == [("regular", 50), ("veteran", 65)]


def test_a_weapon_the_chart_lacks_comes_from_its_profile(converted):
    """gp-squeeze: 36", 1 shot, +3, Team, HE (1"), Squeze Bore (corrected by the fixture overrides)."""
    weapon = next(w for w in converted["files"]["shared.yaml"]["weapons"] if w["name"] == "Squeeze Gun")
    assert (weapon["range"], weapon["shots"], weapon["pen"]) == (36, "1", 3)
    assert weapon["rules"] == ["team", {"rule": "he", "value": '1"'}]
    assert weapon["notes"] == "Squeeze Bore"


def test_overrides_are_applied_recorded_as_errata_and_reported(converted):
    """u-tank-squeeze costs 15.0 in the fixture; the fixture overrides use 12."""
    assert _option(_unit(converted, "Panzer Test"), "Squeeze gun")["points"] == 12
    errata = converted["files"]["shared.yaml"]["errata"]
    assert {
        "where": "Armies of Testland.cat: u-tank-squeeze",
        "source_value": "15.0",
        "used_value": "12.0",
    }.items() <= (errata[-1].items())
    assert "| 2 | name | Threatre Selector | Theatre Selector |" in converted["text"]


def test_a_force_entry_becomes_an_organisation_with_repeating_slot_limits(converted):
    """efef-703c-d244-559f: Headquarters 1 to 2; Transports 0 plus one per Infantry unit."""
    platoon = converted["files"]["shared.yaml"]["organisations"][0]
    slots = {slot["name"]: slot for slot in platoon["slots"]}
    assert (slots["Headquarters"]["min"], slots["Headquarters"]["max"]) == (1, 2)
    assert slots["Transports"]["max"] == {"base": 0, "per": [{"categories": ["bs-infantry"], "each": 1.0}]}
    assert platoon["source_id"] == "efef-703c-d244-559f"


def test_the_report_counts_what_was_converted(converted):
    counts = converted["report"].counts
    assert (counts["entries a player can add"], counts["entries converted"]) == (6, 5)
    assert counts["theatre selectors converted"] == 2


def test_the_output_is_deterministic(converted, tmp_path):
    pack = _pack_with_armies(tmp_path)
    import_data(FIXTURES, pack / "armies", FIXTURES / "overrides.yaml", FIXTURES / "rule_summaries.yaml")
    for path in (converted["pack"] / "armies").iterdir():
        assert (pack / "armies" / path.name).read_bytes() == path.read_bytes()


def test_zipped_files_read_as_the_plain_ones(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for path in FIXTURES.glob("*.gst"):
        shutil.copy(path, data / path.name)
    with zipfile.ZipFile(data / "Armies of Testland.catz", "w") as archive:
        archive.write(FIXTURES / "Armies of Testland.cat", "Armies of Testland.cat")
    library = read_library(data)
    assert [catalogue.name for catalogue in library.catalogues] == ["Armies of Testland.cat"]
    assert library.find("u-squad", library.catalogues[0]).get("name") == "Rifle Squad"


def test_an_entity_expansion_is_refused(tmp_path):
    (tmp_path / "bomb.gst").write_text(
        '<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        '<gameSystem id="x" name="&b;"/>'
    )
    with pytest.raises(DataError, match="refused"):
        read_library(tmp_path)


def test_the_command_prints_the_report(tmp_path, capsys):
    pack = _pack_with_armies(tmp_path)
    call_command(
        "import_battlescribe",
        str(FIXTURES),
        "--out",
        str(pack / "armies"),
        "--overrides",
        str(FIXTURES / "overrides.yaml"),
        "--summaries",
        str(FIXTURES / "rule_summaries.yaml"),
    )
    assert "entries a player can add: 6; converted: 5 (83.3%)" in capsys.readouterr().out
    assert (pack / "armies" / "IMPORT-REPORT.md").exists()


# Conditional costs, qualities and limits: the pack fields, then what a player pays ---------------------------


def test_an_option_under_each_quality_entry_is_priced_by_quality_and_offered_only_to_those_qualities(converted):
    """u-pioneer: o-charges-reg (Regular) costs 3; o-charges-vet (Veteran) costs 3 and gains 3 whenever it is
    taken in its Veteran selection; Inexperienced has no Demolition Charges."""
    charges = _option(_unit(converted, "Pioneer Team"), "Demolition Charges")
    assert (charges["points"], charges["quality_points"], charges["qualities"]) == (
        3,
        {"veteran": 6},
        ["regular", "veteran"],
    )


def test_an_option_set_by_the_units_quality_is_priced_by_quality(converted):
    """o-handler costs 0 and is set to 12 while u-pioneer-reg, to 15 while u-pioneer-vet is chosen."""
    handler = _option(_unit(converted, "Pioneer Team"), "Handler")
    assert (handler["points"], handler["quality_points"]) == (0, {"regular": 12, "veteran": 15})
    assert "qualities" not in handler


def test_a_quality_a_theatre_hides_is_offered_only_in_the_other_lists(converted):
    """u-pioneer-ine is hidden while sel-desert is chosen."""
    qualities = {q["quality"]: q for q in _unit(converted, "Pioneer Team")["qualities"]}
    assert qualities["inexperienced"]["armies"] == ["testland-1944-normandy"]
    assert "armies" not in qualities["regular"]


def test_an_unconditional_set_points_is_the_options_price(converted):
    """u-tank-mmg costs 15, and a modifier without conditions sets its points to 5."""
    assert _option(_unit(converted, "Panzer Test"), "Pintle-Mounted MMG (15pts)")["points"] == 5


def test_a_price_set_by_the_units_primary_category_applies(converted):
    """o-radio costs 10, set to 0 when the unit is an instance of cat-hq (Mounted Officer's primary category)."""
    assert _option(_unit(converted, "Mounted Officer"), "Field Radio")["points"] == 0


def test_a_man_costs_more_while_another_option_is_taken(converted):
    """m-mounted-man costs 10, +5 while o-cavalry is selected in u-mounted; its +7 counts o-cavalry inside the
    man himself, where it never is, so BattleScribe never adds it."""
    man = _option(_unit(converted, "Mounted Officer"), "Regular Soldier")
    assert (man["points"], man["points_with"]) == (10, {"cavalry": 5})
    no_effect = converted["text"].split("## Data with no effect in BattleScribe (1)", 1)[1].split("## Skipped")[0]
    assert "| m-mounted-man | a points increment of 7.0 counting o-cavalry inside m-mounted-man," in no_effect


def test_a_unit_limit_a_theatre_changes_is_that_theatre_lists_own_limit(converted):
    """l-pioneer-max: 1 per force, set to 2 while sel-desert is chosen."""
    pioneers = _unit(converted, "Pioneer Team")
    assert (pioneers["max_in_roster"], pioneers["army_limits"]) == (1, {"testland-1942-desert": 2})


def test_a_unit_limit_keeps_what_it_counts_each_force_or_the_roster(converted):
    """l-pioneer-max and l-tank-max have scope="force" (each platoon); l-mounted-max has scope="roster"."""
    assert _unit(converted, "Pioneer Team")["limit_per"] == "force"
    assert _unit(converted, "Panzer Test")["limit_per"] == "force"
    mounted = _unit(converted, "Mounted Officer")
    assert (mounted["max_in_roster"], mounted.get("limit_per", "roster")) == (2, "roster")


def test_a_per_man_option_only_the_fixed_men_pay_for_is_priced_with_the_unit(converted):
    """o-smoke costs 1 and takes 1 off when taken; m-nco (exactly one) and m-lmg gain 1 while it is taken in
    u-squad, and m-soldier's +1 counts it inside the soldier, where it never is: 1 - 1 + 1 for the NCO, and
    the LMG man pays his 1 himself."""
    squad = _unit(converted, "Rifle Squad")
    smoke = _option(squad, "Smoke Bombs")
    assert (smoke["points"], smoke.get("per", "unit")) == (1, "unit")
    assert _option(squad, "Regular Soldier with LMG")["points_with"] == {"smoke-bombs": 1}


def test_a_per_man_option_whose_own_cost_does_not_cancel_pays_it_once(converted):
    """o-sticky costs 0 and takes 2 off when taken, and every man (m-nco, m-soldier) gains 2 meanwhile."""
    sticky = _option(_unit(converted, "Rifle Squad"), "Sticky Bombs")
    assert (sticky["points"], sticky["per"], sticky["points_once"]) == (2, "model", -2)


@pytest.fixture(scope="module")
def fixture_game(converted, django_db_setup, django_db_blocker):
    """The converted fixture pack loaded as the game (each test rolls back its own changes)."""
    with django_db_blocker.unblock():
        load_all(converted["pack"].parent)
    yield
    with django_db_blocker.unblock():
        Roster.objects.all().delete()
        GameSystem.objects.all().delete()


def _validate(tmp_path: Path, army: str, *units: str) -> tuple[int, dict | str]:
    """validate_roster on a roster of these unit lines: the exit code and the JSON verdict (or the error text)."""
    path = tmp_path / "roster.yaml"
    lines = "".join(f"  - {line}\n" for line in units)
    path.write_text(f'game: Bolt Action (2nd edition)\narmy: "{army}"\nunits:\n{lines}')
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=err)
    return exit_info.value.code, (json.loads(out.getvalue()) if out.getvalue() else err.getvalue())


NORMANDY, DESERT = "1944: Normandy (Armies of Testland)", "1942: Desert (Armies of Testland)"


@pytest.mark.django_db
@pytest.mark.usefixtures("fixture_game")
class TestWhatAPlayerPays:
    def test_a_mounted_officer_with_cavalry_pays_more_for_each_extra_man(self, tmp_path):
        """Regular 50 + Cavalry 5 + 2 Regular Soldiers at 10 + 5 = 85; without Cavalry 50 + 2 x 10 = 70."""
        unit = "{unit: testland-mounted-officer, quality: Regular, options: [cavalry, {option: regular-soldier, count: 2}]}"
        assert _validate(tmp_path, NORMANDY, unit)[1]["points"] == 85
        plain = "{unit: testland-mounted-officer, quality: Regular, options: [{option: regular-soldier, count: 2}]}"
        assert _validate(tmp_path, NORMANDY, plain)[1]["points"] == 70

    def test_options_cost_what_the_units_quality_pays(self, tmp_path):
        """Veteran 39 + Demolition Charges 3 + 3 + Handler 15 = 60; Regular 30 + 3 + 12 = 45."""
        veteran = "{unit: testland-pioneer-team, quality: Veteran, options: [demolition-charges, handler]}"
        regular = "{unit: testland-pioneer-team, quality: Regular, options: [demolition-charges, handler]}"
        assert _validate(tmp_path, NORMANDY, veteran)[1]["points"] == 60
        assert _validate(tmp_path, DESERT, regular)[1]["points"] == 45

    def test_an_option_for_other_qualities_is_refused(self, tmp_path):
        """The Inexperienced entry (u-pioneer-ine) holds no Demolition Charges."""
        code, error = _validate(
            tmp_path, NORMANDY, "{unit: testland-pioneer-team, quality: Inexperienced, options: [demolition-charges]}"
        )
        assert code == 2
        assert "Demolition Charges is only for Regular or Veteran units of Pioneer Team" in error

    def test_a_quality_the_theatre_hides_is_refused_there_only(self, tmp_path):
        """u-pioneer-ine (24) is hidden in the Desert list and shown in Normandy."""
        assert _validate(tmp_path, NORMANDY, "{unit: testland-pioneer-team, quality: Inexperienced}")[1]["points"] == 24
        code, error = _validate(tmp_path, DESERT, "{unit: testland-pioneer-team, quality: Inexperienced}")
        assert code == 2
        assert "Pioneer Team has no Inexperienced price in this army list" in error

    def test_the_theatre_lists_own_unit_limit_applies(self, tmp_path):
        """l-pioneer-max: 2 Pioneer Teams are one too many in Normandy (1) and allowed in the Desert (2)."""
        two = ["{unit: testland-pioneer-team, quality: Regular}"] * 2
        _, normandy = _validate(tmp_path, NORMANDY, *two)
        _, desert = _validate(tmp_path, DESERT, *two)
        assert "org.too_many" in [f["code"] for f in normandy["findings"]]
        assert "org.too_many" not in [f["code"] for f in desert["findings"]]

    def test_a_squad_pays_the_fixed_mens_share_of_a_per_man_option(self, tmp_path):
        """Rifle Squad 5 men (50) + Smoke Bombs (1 for the NCO) + Soldier with LMG 30 + 1 = 82."""
        unit = "{unit: testland-rifle-squad, size: 5, options: [smoke-bombs, regular-soldier-with-lmg]}"
        assert _validate(tmp_path, NORMANDY, unit)[1]["points"] == 82

    def test_a_per_man_option_pays_each_man_and_its_own_cost_once(self, tmp_path):
        """Rifle Squad 5 men (50) + Sticky Bombs for 5 men at 2 (o-sticky: every man +2), less its own 2 = 58."""
        unit = "{unit: testland-rifle-squad, size: 5, options: [{option: sticky-bombs, count: 5}]}"
        assert _validate(tmp_path, NORMANDY, unit)[1]["points"] == 58

    def test_an_option_set_to_a_price_costs_that_price(self, tmp_path):
        """Panzer Test Regular 235 + Pintle-Mounted MMG set to 5 (u-tank-mmg) = 240."""
        unit = "{unit: testland-panzer-test, quality: Regular, options: [pintle-mounted-mmg-15pts]}"
        assert _validate(tmp_path, NORMANDY, unit)[1]["points"] == 240
