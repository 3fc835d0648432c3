"""The rulebook's Reinforced Platoon on the theatre lists: one tank, one armoured car, a transport per unit.

Hand-checked against the data (BSData/boltaction at d939efb):
- Bolt Action 2.gst, force entry efef-703c-d244-559f "Reinforced Platoon": its slots "Tanks, Tank Destroyers,
  Self-propelled Artillery and Anti-Aircraft Vehicles" (c379-4700-0446-a712) and "Armoured Cars and Recce
  Vehicles" (8568-c74f-c47d-7772) carry no constraint; "Transports" (a00e-3a9f-3549-7b0b) has a most of 0
  raised by one per Infantry Support, Compulsory Infantry, Infantry and Headquarters selection;
- the rulebook's platoon (as lists/packs/bolt-action-2e/army.yaml, generic-reinforced-platoon, states it): 0-1
  tank, tank destroyer, self-propelled gun or anti-aircraft vehicle, 0-1 armoured car, a transport or tow per
  infantry or artillery unit; lists/battlescribe/overrides.yaml, organisation_facts, records the caps;
- BA2 - Armies of Italy.cat, Tenente d9d2... and Sottotenente are "Platoon Commander" units, a category only
  the catalogue's own "Reinforced Platoon 2" (8c7b-e8ce-d16d-009a) holds; the game system's platoon asks for
  its Lieutenant among "Headquarters", so no Italian list could fill it.
"""

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.battlescribe.organisation_facts import apply_facts
from lists.battlescribe.overrides import load_overrides
from lists.battlescribe.run import DEFAULT_OVERRIDES
from lists.gamedata.loading import game_data
from lists.gamedata.snapshot import UnitChoice
from lists.rules.organisation import in_slot
from tests.builders import organisation, slot

ARMIES = Path(__file__).resolve().parent.parent / "lists" / "packs" / "bolt-action-2e" / "armies"
HEAD = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "{army}"
name: Platoon caps
points_limit: 2000
forces:
"""
NORMANDY = "1944: Normandy (Armies of Germany)"
CORE = [
    "{unit: germany-leutnant-second-lieutenant, quality: Regular}",
    "{unit: germany-heer-grenadier-squad, quality: Regular}",
    "{unit: germany-heer-grenadier-squad, quality: Regular}",
]
PANZER_IV = "{unit: germany-panzer-iv-ausf-g-h-j, quality: Regular}"
JAGDPANZER_IV = "{unit: germany-jagdpanzer-iv, quality: Regular}"
SDKFZ_222 = "{unit: germany-sdkfz-222-light-armoured-car, quality: Regular}"
HANOMAG = "{unit: germany-sdkfz-251-1-half-track-hanomag, quality: Regular}"
TANKS = "Tanks, Tank Destroyers, Self-propelled Artillery and Anti-Aircraft Vehicles"


def platoon(units: list[str], organisation_name: str = "Reinforced Platoon") -> str:
    body = "".join(f"      - {unit}\n" for unit in units)
    return f"  - name: 1. Zug\n    organisation: {organisation_name}\n    units:\n{body}"


def validate(tmp_path: Path, units: list[str], army: str = NORMANDY, organisation_name="Reinforced Platoon"):
    path = tmp_path / "roster.yaml"
    path.write_text(HEAD.format(army=army) + platoon(units, organisation_name))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=err)
    return exit_info.value.code, (json.loads(out.getvalue()) if out.getvalue() else None), err.getvalue()


def errors(result: dict, prefix: str = "org.") -> list[tuple[str, str]]:
    """Error findings as (code, message): the message ends with its fix, as the player reads it."""
    return [
        (f["code"], f["message"])
        for f in result["findings"]
        if f["severity"] == "error" and f["code"].startswith(prefix)
    ]


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
class TestTheRulebooksPlatoonInNormandy:
    def test_one_tank_is_a_legal_platoon(self, tmp_path):
        code, result, _ = validate(tmp_path, [*CORE, PANZER_IV])
        assert errors(result) == []

    def test_a_panzer_iv_and_a_jagdpanzer_iv_are_one_tank_too_many_and_the_finding_names_the_slot_and_a_unit(
        self, tmp_path
    ):
        code, result, _ = validate(tmp_path, [*CORE, PANZER_IV, JAGDPANZER_IV])
        assert code == 1 and result["valid"] is False
        [(finding_code, message)] = errors(result)
        assert finding_code == "org.too_many"
        assert message == (
            f"{TANKS}: the roster has 2, the Reinforced Platoon allows 1. Remove Jagdpanzer IV or another {TANKS}."
        )

    def test_two_sdkfz_222_are_one_armoured_car_too_many(self, tmp_path):
        code, result, _ = validate(tmp_path, [*CORE, SDKFZ_222, SDKFZ_222])
        assert code == 1
        [(finding_code, message)] = errors(result)
        assert finding_code == "org.too_many"
        assert message.startswith("Armoured Cars and Recce Vehicles: the roster has 2")
        assert "allows 1" in message and "Remove SdKfz 222 Light Armoured Car" in message

    def test_one_tank_and_one_armoured_car_together_are_legal(self, tmp_path):
        _, result, _ = validate(tmp_path, [*CORE, PANZER_IV, SDKFZ_222])
        assert errors(result) == []

    def test_a_half_track_for_each_infantry_unit_is_allowed_and_one_more_is_not(self, tmp_path):
        # The Leutnant and two squads: three infantry units, three transports.
        _, allowed, _ = validate(tmp_path, [*CORE, HANOMAG, HANOMAG, HANOMAG])
        assert errors(allowed) == []
        code, over, _ = validate(tmp_path, [*CORE, HANOMAG, HANOMAG, HANOMAG, HANOMAG])
        assert code == 1
        [(finding_code, message)] = errors(over)
        assert finding_code == "org.ratio" and message.startswith("Transports: the roster has 4")
        assert "allows 3" in message and "Remove SdKfz 251/1 Half-Track" in message


def test_a_slot_the_data_limits_keeps_the_datas_figure_and_an_open_one_takes_the_rulebooks():
    """The converter's facts, as overrides.yaml states them, over the committed Reinforced Platoon."""
    facts = load_overrides(DEFAULT_OVERRIDES).organisation_facts
    shared = json.loads((ARMIES / "shared.yaml").read_text().split("\n", 1)[1])
    platoon_org = copy.deepcopy(next(o for o in shared["organisations"] if o["key"] == "bs-reinforced-platoon"))
    categories = {c["name"]: c["key"] for c in shared["unit_categories"]}
    for each in platoon_org["slots"]:
        each.pop("max", None), each.pop("citation", None)
        if each["name"] == TANKS:
            each["max_in"] = {"germany-1944-normandy": 2}  # a theatre's own figure
    platoon_org["slots"] = [s for s in platoon_org["slots"] if s["key"] not in ("lieutenant", "infantry-squads")]
    errata = apply_facts([platoon_org], facts, categories)
    by_name = {s["name"]: s for s in platoon_org["slots"]}
    assert "max" not in by_name[TANKS] and by_name[TANKS]["max_in"] == {"germany-1944-normandy": 2}
    assert by_name["Armoured Cars and Recce Vehicles"]["max"] == 1
    assert by_name["Armoured Cars and Recce Vehicles"]["citation"]["source"].startswith(
        "Bolt Action 2nd edition rulebook, Reinforced Platoon"
    )
    assert [e["where"] for e in errata if "greatest" in e["where"]] == [
        "Reinforced Platoon: Armoured Cars and Recce Vehicles: greatest number"
    ]


def test_a_theatres_own_least_replaces_the_rulebooks_in_that_list_only():
    lieutenant = slot("lieutenant", ["hq"], min=1, max=1, min_in={"warlords": 0})
    platoon_org = organisation(lieutenant)
    assert platoon_org.in_army("warlords").slots[0].min == 0
    assert platoon_org.in_army("generic").slots[0].min == 1


def _candidates(unit_type):
    """The unit as added, and led by each officer its options or ranks make it."""
    yield UnitChoice(index=0, label=unit_type.name, unit_type=unit_type)
    for key, option in unit_type.options.items():
        if option.officer_rank:
            yield UnitChoice(index=0, label=unit_type.name, unit_type=unit_type, options={key: 1})
    for rank in unit_type.officer_ranks:
        yield UnitChoice(index=0, label=unit_type.name, unit_type=unit_type, officer_rank=rank)


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
class TestEveryForceOfferedCanBeFilled:
    def test_every_list_starts_in_a_force_it_can_fill_and_still_offers_the_ones_it_cannot(self):
        """BattleScribe offers the game system's Reinforced Platoon to every list (Bolt Action 2.gst,
        efef-703c-d244-559f); the 24 Italian lists and twelve armoured lists hold no unit for its Lieutenant."""
        from lists.models import Army

        armies = Army.objects.filter(system__key="bolt-action-2e").select_related("system")
        data = game_data(armies[0].system)
        unfillable, starts_unfillable = [], []
        for army in armies:
            units = data.unit_types_of(army.id)
            offered = data.organisations_for(army.id)
            for org_id in offered:
                fielded = data.organisations[org_id].in_army(army.key)
                compulsory = [each for each in fielded.slots if isinstance(each.min, int) and each.min > 0]
                empty = [s.name for s in compulsory if not any(in_slot(s, c) for u in units for c in _candidates(u))]
                if empty:
                    unfillable.append((army.key, fielded.name))
                    if org_id == offered[0]:
                        starts_unfillable.append((army.key, fielded.name, empty))
        assert starts_unfillable == []
        assert ("italy-1943-the-defence-of-sicily", "Reinforced Platoon") in unfillable  # offered all the same
        assert ("great-britain-1942-british-armoured-brigade", "Reinforced Platoon") in unfillable

    def test_italian_players_are_offered_italys_own_platoon_first_and_the_game_systems_too(self):
        from lists.models import Army

        sicily = Army.objects.get(key="italy-1943-the-defence-of-sicily")
        data = game_data(sicily.system)
        offered = [data.organisations[o].name for o in data.organisations_for(sicily.id)]
        assert "Reinforced Platoon" in offered  # as BattleScribe offers it
        assert offered[0] == "Reinforced Platoon 2"  # the force a new roster of the list starts with

    def test_a_new_roster_starts_in_a_force_its_list_can_fill(self, client):
        """The home page's "start a roster": an armoured brigade has no Lieutenant (BA2 - Armies of Great
        Britain.cat, "1942: British Armoured Brigade"), so it starts in the Armoured Platoon, whose tank
        commander it has; an Italian list starts in Italy's own platoon."""
        from lists.models import Army, Roster

        for key, expected in [
            ("great-britain-1942-british-armoured-brigade", "Armoured Platoon"),
            ("italy-1943-the-defence-of-sicily", "Reinforced Platoon 2"),
            ("germany-1944-normandy", "Reinforced Platoon"),
        ]:
            army = Army.objects.get(key=key)
            started = client.post("/rosters/new/", {"army": army.id, "name": key, "points_limit": "1000"})
            assert started.status_code == 302, key
            roster = Roster.objects.filter(army=army, name=key).get()
            assert [force.organisation.name for force in roster.forces.all()] == [expected]

    def test_an_italian_platoon_of_a_tenente_and_two_sections_is_legal(self, tmp_path):
        units = [
            "{unit: italy-tenente-first-lieutenant, quality: Regular}",
            "{unit: italy-infantry-section, quality: Regular}",
            "{unit: italy-infantry-section, quality: Regular}",
        ]
        sicily = "1943: The Defence of Sicily (Armies of Italy)"
        code, result, _ = validate(tmp_path, units, army=sicily, organisation_name="Reinforced Platoon 2")
        assert (code, errors(result, "")) == (0, [])
        # The game system's platoon is read, not refused; its verdict says why it cannot be legal.
        code, result, err = validate(tmp_path, units, army=sicily)
        assert (code, err, result["valid"]) == (1, "", False)
        missing, no_place = errors(result)
        assert missing == (
            "org.missing",
            "The Reinforced Platoon needs at least 1 Lieutenant; the roster has 0. No unit of this army list can "
            "fill Lieutenant in this organisation: field the force as another organisation the list offers.",
        )
        assert no_place[0] == "org.too_many" and no_place[1].startswith(
            "Tenente (First Lieutenant) is taken as Platoon Commander, which the Reinforced Platoon has no place for."
        )

    def test_an_italian_platoon_takes_a_truck_per_infantry_unit_and_no_more(self, tmp_path):
        """BA2 - Armies of Italy.cat, Reinforced Platoon 2's Transports (4068-c059-a663-3792) name no figure."""
        units = [
            "{unit: italy-tenente-first-lieutenant, quality: Regular}",
            "{unit: italy-infantry-section, quality: Regular}",
            "{unit: italy-infantry-section, quality: Regular}",
        ]
        truck = "{unit: italy-truck-2, quality: Regular}"
        sicily = "1943: The Defence of Sicily (Armies of Italy)"
        _, allowed, _ = validate(tmp_path, [*units, truck, truck, truck], sicily, "Reinforced Platoon 2")
        assert errors(allowed) == []
        code, over, _ = validate(tmp_path, [*units, truck, truck, truck, truck], sicily, "Reinforced Platoon 2")
        [(finding_code, message)] = errors(over)
        assert (code, finding_code) == (1, "org.ratio")
        assert message.startswith("Transports: the roster has 4") and "allows 3" in message

    def test_the_warlords_list_keeps_its_platoon_led_by_its_warlord(self):
        from lists.models import Army

        warlords = Army.objects.get(key="china-warlords-reinforced-platoon")
        data = game_data(warlords.system)
        offered = {data.organisations[o].name: o for o in data.organisations_for(warlords.id)}
        fielded = data.organisations[offered["Reinforced Platoon"]].in_army(warlords.key)
        assert next(s for s in fielded.slots if s.key == "lieutenant").min == 0

    def test_a_warlord_leads_his_platoon_with_no_lieutenant_asked_for(self, tmp_path):
        """BA2 - Armies of China.cat, Warlord (link 5589-ecf3-6df2-b5e9): one per Reinforced Platoon in the
        Warlords list (constraint 44da-054d-b4e7-f1f4); the list shows no lieutenant."""
        squad = "{unit: china-conscript-squad, quality: Inexperienced}"
        _, led, _ = validate(tmp_path, ["{unit: china-warlord}", squad], "Warlords Reinforced Platoon")
        assert not [m for _, m in errors(led) if "Lieutenant" in m or "Warlord" in m]
        _, unled, _ = validate(tmp_path, [squad, squad], "Warlords Reinforced Platoon")
        assert [c for c, m in errors(unled) if "Warlord" in m] == ["org.missing"]
