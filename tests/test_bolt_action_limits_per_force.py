"""Limits the BattleScribe data counts over a whole force or roster, priced and judged by hand from the data
(BSData/boltaction).

An option's most per force, over every unit taking it:
- BA2 - Armies of Belgium.cat: the Onderluitenant (Second Lieutenant) a804f047-cbf6-c427-18d8-3e6e3cae86d8, Regular
  50, and his Intelligence Officer cf48-400b-0815-6db6 (Rating: Regular 30), whose constraint 6ea6-fe21-40b9-3239
  allows 1 per force (shared: every selection of that entry in the force). The Luitenant (First Lieutenant)
  34d0d9dd-6fdb-3ff9-4c31-6556b4a40cc2, Regular 75, has his own Intelligence Officer 95b9-bdb5-14dc-b416. Two
  Onderluitenants with one each: 2 x 80 = 160 and a second Intelligence Officer too many; a Luitenant and an
  Onderluitenant with one each: 105 + 80 = 185, two entries, none too many.

An option's least per force:
- BA2 - Armies of Italy.cat, Divisione Costiera Section f0d8-4b4a-76c4-5992 (Inexperienced, 15 for five men, 3 a
  man more): its Shirkers aaf2-9598-7d23-92f5 and Surrender 9a2d-913c-dad7-a9da (spelt "Surreder" in the data)
  each cost 0 and must be taken at least once in the force (constraints 26bd-3304-9781-fdf2, 2d2d-a43b-5a16-9c85).
- The Infantry Section a4ee-438b-30ca-efe7, Inexperienced (35 for five): its Green 4ffe-a044-888f-5679 holds a
  least per force of 0 (e149-642e-d26b-bbf6) set to 1 while the force holds the 1940-41 Invasion of Greece
  selector 3349-b6ba-34f2-7f32. A Regular section (50) may not take Green, so a force of Regular sections needs none.

A group's most per force, shared by its options:
- BA2 - Armies of Australia.cat, Independent Company Raiding Party 640e-f2c3-594f-5b64 (Veteran, 70 for five): its
  group "Replace NCO with an Officer" af24-bc20-a71e-d7d4 holds a Captain 7fac-3b70-1437-45a4 at 110 and a First
  Lieutenant 711c-511d-b871-ce06 at 75, and allows 1 per force (5719-30a7-9e72-3436): two parties, one with a
  Captain and one with a First Lieutenant, are 180 + 145 = 325 and one officer too many; in two platoons, none.

A limit of an entry two links place in the force:
- BA2 - Armies of Belgium.cat, Infantry Section 58a76cdd-dcd9-58f2-1540-560bb6b83110, linked twice (2717-0376-b872-001c,
  9519-7389-aba1-1886): its least per force of 2 (e29e-6e6e-2c55-4ab9, shared) counts the entry's selections by
  either link. A force with one section lacks one.

A unit's own most per roster inside the entry holding it:
- BA2 - Armies of Romania.cat, French Artillery Doctrine bd4ca1cc-f250-b687-e1ae-c7d5a151d1e0, whose Artillery
  Unit group holds the Light Anti-tank gun 286935c0-46d3-3d38-232d-ffb3bb2e6391 (its Regular rating costs 0),
  limited to 1 per roster (maxInRoster): a second one, even in another platoon, is too many.
- BA2 - Armies of Italy.cat, Monte Cervino Ski Squad 0479-9f87-c6aa-b117: 1 per force (aad6-305d-8a32-578a),
  set to 10 in the 1943 Alpini Corps list (selector f4db-2639-6a34-dffe).
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

ONDERLUITENANT = "{unit: belgium-onderluitenant-second-lieutenant, quality: Regular, options: [Intelligence Officer]}"
LUITENANT = "{unit: belgium-luitenant-first-lieutenant, quality: Regular, options: [Intelligence Officer]}"
COSTIERA = "italy-divisione-costiera-section"


def judged(tmp_path, army: str, *forces: list[str]) -> dict:
    """validate_roster --json on a roster of these forces (each a list of unit lines)."""
    text = f"format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: {army}\nname: Hand-priced\n"
    text += "points_limit: 1000\nforces:\n"
    for number, units in enumerate(forces, start=1):
        text += f"  - name: Platoon {number}\n    units:\n" + "".join(f"      - {unit}\n" for unit in units)
    path = tmp_path / "roster.yaml"
    path.write_text(text)
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def found(result: dict, code: str) -> list[str]:
    return [finding["message"] for finding in result["findings"] if finding["code"] == code]


def test_two_intelligence_officers_of_one_entry_in_a_force_are_one_too_many(tmp_path):
    result = judged(tmp_path, "belgium-1940-the-battle-of-belgium", [ONDERLUITENANT, ONDERLUITENANT])
    assert result["points"] == 160
    (message,) = found(result, "option.too_many")
    assert "takes Intelligence Officer twice over its units; it may take it once" in message
    assert "Drop Intelligence Officer from Onderluitenant (Second Lieutenant) 2" in message


def test_intelligence_officers_of_two_entries_or_two_forces_are_each_within_the_limit(tmp_path):
    ranks = judged(tmp_path, "belgium-1940-the-battle-of-belgium", [LUITENANT, ONDERLUITENANT])
    assert ranks["points"] == 185
    assert found(ranks, "option.too_many") == []
    platoons = judged(tmp_path, "belgium-1940-the-battle-of-belgium", [ONDERLUITENANT], [ONDERLUITENANT])
    assert platoons["points"] == 160
    assert found(platoons, "option.too_many") == []


def test_a_divisione_costiera_platoon_takes_shirkers_and_surrender_at_least_once(tmp_path):
    bare = judged(tmp_path, "italy-1943-divisione-costiera", [f"{{unit: {COSTIERA}, quality: Inexperienced}}"])
    assert bare["points"] == 15
    assert len(found(bare, "option.required")) == 2
    assert any(
        "must take Surrender at least once over its units; none of them takes it" in m
        for m in found(bare, "option.required")
    )
    taken = f"{{unit: {COSTIERA}, quality: Inexperienced, options: [Shirkers, Surrender]}}"
    plain = f"{{unit: {COSTIERA}, quality: Inexperienced, size: 6}}"
    result = judged(tmp_path, "italy-1943-divisione-costiera", [taken, plain])
    assert result["points"] == 15 + 18
    assert found(result, "option.required") == []


def test_green_is_asked_of_inexperienced_sections_in_the_invasion_of_greece_only(tmp_path):
    inexperienced = "{unit: italy-infantry-section, quality: Inexperienced}"
    greece = judged(tmp_path, "italy-1940-41-the-invasion-of-greece", [inexperienced, inexperienced])
    assert greece["points"] == 70
    (message,) = found(greece, "option.required")
    assert "must take Green at least once over its units in the 1940-41: The Invasion of Greece" in message
    green = "{unit: italy-infantry-section, quality: Inexperienced, options: [Green]}"
    assert (
        found(judged(tmp_path, "italy-1940-41-the-invasion-of-greece", [green, inexperienced]), "option.required") == []
    )
    assert found(judged(tmp_path, "italy-1940-43-the-war-in-africa", [inexperienced]), "option.required") == []
    regular = judged(
        tmp_path, "italy-1940-41-the-invasion-of-greece", ["{unit: italy-infantry-section, quality: Regular}"]
    )
    assert regular["points"] == 50
    assert found(regular, "option.required") == []


def test_a_least_number_of_an_entry_two_links_place_is_one_finding(tmp_path):
    officer = "{unit: belgium-onderluitenant-second-lieutenant, quality: Regular}"
    section = "{unit: belgium-infantry-section, quality: Regular}"
    result = judged(tmp_path, "belgium-1940-the-battle-of-belgium", [officer, section])
    assert [m for m in found(result, "org.missing") if "Infantry Section;" in m] == [
        "The Reinforced Platoon needs 2 Infantry Section; it has 1. Add 1: Infantry Section."
    ]


def test_a_gun_kind_limited_to_one_a_roster_is_refused_a_second_time_in_another_platoon(tmp_path):
    gun = "{unit: romania-light-anti-tank-gun, quality: Regular}"
    one = judged(tmp_path, "romania-1941-43-onward-to-the-caucasus", [gun])
    assert found(one, "org.too_many") == []
    two = judged(tmp_path, "romania-1941-43-onward-to-the-caucasus", [gun], [gun])
    assert found(two, "org.too_many") == [
        "The roster has 2 Light Anti-tank gun; the army list allows 1. Remove Light Anti-tank gun 2."
    ]


@pytest.mark.parametrize(
    ("army", "refused"), [("italy-1943-alpini-corps-platoon", False), ("italy-1941-43-the-eastern-front", True)]
)
def test_a_ski_squad_is_one_a_platoon_save_in_the_alpini_corps_list(tmp_path, army, refused):
    squad = "{unit: italy-monte-cervino-ski-squad, quality: Veteran}"
    result = judged(tmp_path, army, [squad, squad])
    assert any("Monte Cervino Ski Squad" in m for m in found(result, "org.too_many")) is refused


def test_one_raiding_party_a_platoon_may_replace_its_nco_with_an_officer(tmp_path):
    party = "{unit: australia-independent-company-raiding-party-2, quality: Veteran, options: [%s]}"
    captain, lieutenant = party % "Captain", party % "First Lieutenant"
    together = judged(tmp_path, "australia-generic-reinforced-platoon", [captain, lieutenant])
    assert together["points"] == 325
    (message,) = found(together, "option.too_many")
    assert "takes Captain, Major or First Lieutenant twice over its units; it may take it once" in message
    apart = judged(tmp_path, "australia-generic-reinforced-platoon", [captain], [lieutenant])
    assert apart["points"] == 325
    assert found(apart, "option.too_many") == []
