"""The compulsory core of a Bolt Action platoon, from the BattleScribe data and the rulebook.

Hand-checked against the data (BSData/boltaction at d939efb):
- BA2 - Armies of Germany.cat, entry link 6d374e2b-a4c6-a794-bc8c-77cdd56f58a8 "Officer" (the
  Leutnant and Oberleutnant): constraint 8fad-05b1-d39a-699d, at least 1 per Reinforced Platoon
  (scope efef-703c-d244-559f, the Reinforced Platoon force entry of Bolt Action 2.gst);
- BA2 - Armies of France.cat, entry link fe4a97c7-a711-50ae-e818-3297d552fbd5 "Officer": constraint
  7059-3304-bfbd-97d6, at most 1 per Reinforced Platoon;
- the rulebook's Reinforced Platoon: one Lieutenant (Second or First) and two infantry squads, which
  the data leaves out (lists/battlescribe/overrides.yaml, organisation_facts);
- BA2 - Armies of Australia.cat, 1942: Kanga Force (3a0d-8404-60d0-1984): the Officer link 3174-86c2 is hidden there,
  and the platoon is led by an Independent Company Raiding Party 640e-f2c3-594f-5b64 (Veteran, 70 for five, 14 a
  man more) whose "Replace NCO with an Officer" group af24-bc20-a71e-d7d4 holds a First Lieutenant
  711c-511d-b871-ce06 at 75: a party of six with him and a party of five, 84 + 75 + 70 = 229, fill the Lieutenant's
  place and the two squads.
"""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

HEAD = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "{army}"
name: Organisation test
points_limit: 1000
forces:
"""
NORMANDY = "1944: Normandy (Armies of Germany)"
LEUTNANT = "{unit: germany-leutnant-second-lieutenant, quality: Regular}"
SQUAD = "{unit: germany-heer-grenadier-squad, quality: Regular}"


def platoon(name: str, *units: str) -> str:
    body = "".join(f"      - {unit}\n" for unit in units) or "      []\n"
    return f"  - name: {name}\n    organisation: Reinforced Platoon\n    units:\n{body}"


def validate(tmp_path: Path, *platoons: str, army: str = NORMANDY) -> tuple[int, dict]:
    path = tmp_path / "roster.yaml"
    path.write_text(HEAD.format(army=army) + "".join(platoons))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return exit_info.value.code, json.loads(out.getvalue())


def errors(result: dict) -> list[tuple[str, str]]:
    return [(f["code"], f["message"]) for f in result["findings"] if f["severity"] == "error"]


def test_an_empty_reinforced_platoon_is_not_legal_and_names_its_lieutenant_and_squads(tmp_path):
    code, result = validate(tmp_path, platoon("1. Zug"))
    assert code == 1 and result["valid"] is False
    found = errors(result)
    assert all(code == "org.missing" for code, _ in found)
    messages = " ".join(message for _, message in found)
    assert "needs at least 1 Lieutenant" in messages
    assert "Leutnant (Second Lieutenant)" in messages  # the data's Officer, named by the units that fill it
    assert "needs at least 2 Infantry squads" in messages
    # The data's Officer entry asks for the same man as the rulebook's Lieutenant: one finding, not two.
    assert [m for _, m in found if "Lieutenant" in m or "Officer" in m] == [
        "The Reinforced Platoon needs at least 1 Lieutenant; the roster has 0. Add 1 more: Lieutenant (e.g."
        " Oberleutnant (First Lieutenant), Leutnant (Second Lieutenant))."
    ]


def test_a_lieutenant_and_two_squads_make_a_legal_core(tmp_path):
    code, result = validate(tmp_path, platoon("1. Zug", LEUTNANT, SQUAD, SQUAD))
    assert errors(result) == []
    assert code == 0 and result["points"] == 50 + 50 + 50  # 5-man Regular squads (4141d85d-...: 50 pts)


def test_a_platoon_of_three_panthers_and_nothing_else_is_not_legal(tmp_path):
    panther = "{unit: germany-panzer-v-panther, quality: Regular}"
    code, result = validate(tmp_path, platoon("1. Zug", panther, panther, panther))
    messages = " ".join(message for code, message in errors(result) if code == "org.missing")
    assert code == 1 and "Lieutenant" in messages and "Infantry squads" in messages


def test_a_second_platoon_without_its_officer_is_not_legal_and_the_finding_names_it(tmp_path):
    code, result = validate(tmp_path, platoon("1. Zug", LEUTNANT, SQUAD, SQUAD), platoon("2. Zug", SQUAD, SQUAD))
    assert code == 1
    missing = [message for code, message in errors(result) if code == "org.missing"]
    assert missing and all("2. Zug" in message for message in missing)
    assert any("Lieutenant" in message for message in missing)


def test_two_lieutenants_in_one_platoon_are_too_many(tmp_path):
    code, result = validate(tmp_path, platoon("1. Zug", LEUTNANT, LEUTNANT, SQUAD, SQUAD))
    assert code == 1
    assert [c for c, _ in errors(result)] == ["org.too_many"]


def test_the_french_data_caps_a_reinforced_platoon_at_one_officer(tmp_path):
    lieutenant = "{unit: france-lieutenant-first-lieutenant, quality: Regular}"
    sous = "{unit: france-sous-lieutenant-second-lieutenant, quality: Regular}"
    squad = "{unit: france-infantry-section-2, quality: Regular}"
    army = "1940: The Battle of France (Armies of France)"
    code, result = validate(tmp_path, platoon("1e section", lieutenant, sous, squad, squad), army=army)
    assert code == 1
    too_many = [message for code, message in errors(result) if code == "org.too_many"]
    assert any("2 Officer; it may have 1" in message for message in too_many)


def test_the_picker_offers_a_reinforced_platoon_only_what_it_has_a_place_for(client):
    from lists.models import Army

    army = Army.objects.get(key="germany-1944-normandy")
    started = client.post("/rosters/new/", {"army": army.id, "name": "Picker", "points_limit": "1000", "year": "1944"})
    page = client.get(started["Location"]).content.decode()
    picker = page[page.index('id="unit-list"') :]
    groups = [part.split("<")[0].strip() for part in picker.split("<h3>")[1:]]
    assert "Compulsory Vehicles" not in groups  # the Armoured Platoon's slot, not the Reinforced Platoon's
    assert "Panzer IV AUSF G, H, J" in picker
    assert groups.index("Headquarters") < groups.index("Artillery")  # in the organisation's slot order
    assert "Not legal" in page and "needs at least 1 Lieutenant" in page  # the empty platoon's verdict


def test_a_unit_hidden_inside_its_entry_is_not_offered_in_the_lists_that_hide_it(client):
    """BA2 - Armies of Great Britain.cat: the Heavy Mortar Team 05a06638-08b1-8dd8-a7a6-fa3f5c878880 sits
    inside the mortar teams' entry and hides itself in 16 theatre lists, "1940: Fall of France" among them."""
    fall_of_france = client.get("/api/games/bolt-action-2e/armies/great-britain-1940-fall-of-france/").json()
    normandy = client.get("/api/games/bolt-action-2e/armies/great-britain-1944-normandy/").json()
    assert "great-britain-heavy-mortar-team" not in fall_of_france["borrow_units"]
    assert "great-britain-heavy-mortar-team" in normandy["borrow_units"]


def test_a_theatre_limits_a_squad_the_others_leave_unlimited(tmp_path):
    """BA2 - Armies of Italy.cat, entry link d9ba1686-7b22-7246-1408-32b64b02de5e "Infantry Section": its
    constraint ac8c-dee5-e1bc-8185 (scope parent: the force) is -1, no limit, and a modifier sets it to 1
    while "1940-41: The War in Africa, East Africa" (27ad-f9b1-e2dd-4a22) is chosen."""
    section = "{unit: italy-infantry-section, quality: Regular}"
    east_africa = "italy-1940-41-the-war-in-africa-east-africa"
    _, result = validate(tmp_path, italian_platoon(section, section), army=east_africa)
    too_many = [message for code, message in errors(result) if code == "org.too_many"]
    # The entry's most binds the section kinds it holds together: the force's limit for the entry.
    assert any("has 2 Infantry Section" in message and "may have 1" in message for message in too_many)
    _, result = validate(tmp_path, italian_platoon(section, section), army="italy-1943-the-defence-of-sicily")
    assert not [message for code, message in errors(result) if "Infantry Section" in message and code == "org.too_many"]


def test_a_root_entrys_parent_limit_counts_its_platoon(tmp_path):
    """BA2 - Armies of Germany.cat, "Sturmpioniere - Assault Engineers Squad" 93802072-6d5c-6c13-bab9-876464150eca:
    at most 1 at scope parent, which for an entry of the force is the platoon."""
    squad = "{unit: germany-sturmpioniere-assault-engineers-squad, quality: Veteran}"
    army = "germany-generic-reinforced-platoon"
    _, one_each = validate(tmp_path, platoon("1. Zug", squad), platoon("2. Zug", squad), army=army)
    assert not [m for c, m in errors(one_each) if c == "org.too_many" and "Sturmpioniere" in m]
    _, two = validate(tmp_path, platoon("1. Zug", squad, squad), army=army)
    assert [m for c, m in errors(two) if c == "org.too_many" and "Sturmpioniere" in m]


def test_a_unit_with_no_place_in_the_platoon_is_told_where_the_same_unit_has_one(tmp_path):
    """The German catalogue lists the Panther twice: under Compulsory Vehicles (an Armoured Platoon's slot)
    and under Tanks, Tank Destroyers... (a slot the Reinforced Platoon has)."""
    _, result = validate(tmp_path, platoon("1. Zug", "{unit: germany-panzer-v-panther-2, quality: Regular}"))
    (message,) = [m for c, m in errors(result) if "no place for" in m]
    assert "add Panzer V 'Panther' from Tanks, Tank Destroyers" in message
    assert "move it to another force" not in message


def test_a_missing_slots_fix_names_units_of_the_army_that_fill_it(tmp_path):
    """The Normandy list's Heer Grenadier Squad is an Infantry unit; its officers are Leutnant and Oberleutnant."""
    code, result = validate(tmp_path, platoon("1. Zug"))
    # The JSON finding's message ends with its fix: "...; the roster has 0. Add 2 more: ...".
    fixes = dict(f["message"].split("; ", 1) for f in result["findings"] if f["code"] == "org.missing")
    squads = next(fix for what, fix in fixes.items() if "Infantry squads" in what)
    lieutenant = next(fix for what, fix in fixes.items() if "1 Lieutenant" in what)
    assert code == 1 and "Heer Grenadier Squad" in squads
    assert "Leutnant (Second Lieutenant)" in lieutenant and "Heer Grenadier Squad" not in lieutenant


# BA2 - Armies of Italy.cat's own force entry "Reinforced Platoon 2" (8c7b-e8ce-d16d-009a) states its
# limits only in its slots' names: "Platoon Commander (0-1)", "Compulsory Units (0-2)", "Medic (0-1)".
ITALY = "italy-generic-reinforced-platoon"
TENENTE = "{unit: italy-tenente-first-lieutenant, quality: Regular}"
MEDIC = "{unit: italy-medic, quality: Veteran}"


def italian_platoon(*units: str) -> str:
    body = "".join(f"      - {unit}\n" for unit in units) or "      []\n"
    return f"  - name: 1° Plotone\n    organisation: Reinforced Platoon 2\n    units:\n{body}"


def test_an_empty_italian_platoon_is_not_legal_and_names_its_lieutenant(tmp_path):
    code, result = validate(tmp_path, italian_platoon(), army=ITALY)
    messages = " ".join(message for code, message in errors(result) if code == "org.missing")
    assert code == 1 and "needs at least 1 Lieutenant" in messages and "Tenente (First Lieutenant)" in messages
    assert "needs at least 2 Infantry squads" in messages


def test_a_slot_named_0_1_in_the_italian_platoon_takes_one(tmp_path):
    code, result = validate(tmp_path, italian_platoon(TENENTE, MEDIC, MEDIC), army=ITALY)
    assert code == 1
    assert any(code == "org.too_many" and message.startswith("Medic:") for code, message in errors(result))


# The same force entry's Infantry link (1ea9-796c-b28c-fdba) appends "(0-3)" while the Generic Reinforced
# Platoon selector 93b2-d4d2-1f1f-d6bc is chosen and "(0-4)" for eight theatres, among them "1940-43: The War in
# Africa" 3e2e-7942-0790-fa86: each list keeps its own figure.
BERSAGLIERI = "{unit: italy-bersaglieri-infantry-section, quality: Veteran}"


@pytest.mark.parametrize(("army", "allowed"), [(ITALY, 3), ("italy-1940-43-the-war-in-africa", 4)])
def test_the_italian_infantry_slot_holds_what_each_theatre_names(tmp_path, army, allowed):
    _, at_most = validate(tmp_path, italian_platoon(TENENTE, *[BERSAGLIERI] * allowed), army=army)
    _, over = validate(tmp_path, italian_platoon(TENENTE, *[BERSAGLIERI] * (allowed + 1)), army=army)
    assert not any(message.startswith("Infantry:") for _, message in errors(at_most))
    too_many = [message for code, message in errors(over) if code == "org.too_many"]
    assert any(message.startswith(f"Infantry: the roster has {allowed + 1}") for message in too_many)
    assert any(f"allows {allowed}." in message for message in too_many)


def test_a_raiding_party_led_by_a_first_lieutenant_is_the_kanga_force_platoons_lieutenant(tmp_path):
    led = "{unit: australia-independent-company-raiding-party, quality: Veteran, size: 6, options: [First Lieutenant]}"
    party = "{unit: australia-independent-company-raiding-party-2, quality: Veteran}"
    code, result = validate(tmp_path, platoon("Kanga", led, party), army="australia-1942-kanga-force")
    assert (code, result["points"], errors(result)) == (0, 229, [])
    code, result = validate(tmp_path, platoon("Kanga", party, party), army="australia-1942-kanga-force")
    assert result["points"] == 140
    assert [c for c, m in errors(result) if "Lieutenant" in m] == ["org.missing"]
