"""Priced house rules (the Rapid Fire club rules, source 003): what they cost, where they apply, one meaning everywhere.

Figures come from the house rules (section 3 Communications, 6 Aircraft, 8 Anti-Tank fire) and the
Action All Fronts British army list (Anti-tank gun section: two guns, the 6pdr costs 372).
"""

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.gamedata.loading import roster_snapshot
from lists.models import Roster, RosterHouseRule, SpecialRule
from lists.rosters.files import RosterFileInvalid, dump_yaml, export_roster, load_roster_file
from lists.rules.pricing import house_rule_lines, roster_points

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


GUN_SECTION = "{unit: Anti-tank gun section, label: Guns, options: [%s]}"


def roster_text(house_rules: str, *units: str, year: str = "year: 1944\n", army: str = "british") -> str:
    lines = "".join(f"\n  - {unit}" for unit in units) or " []"
    return f"game: action-all-fronts\narmy: {army}\n{year}house_rules: {house_rules}\nunits:{lines}\n"


def verdict(text: str, tmp_path: Path) -> dict:
    path = tmp_path / "roster.yaml"
    path.write_text(text)
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def codes(result: dict) -> list[str]:
    """The house-rule findings (an empty roster also misses its compulsory units; that is not tested here)."""
    return [finding["code"] for finding in result["findings"] if finding["code"].startswith("house_rule.")]


def test_apds_costs_ten_points_for_each_6pdr_gun(tmp_path):
    """Section 8, British 6pdr: APDS adds 10 points; the British Anti-tank gun section has two 6pdr guns (372)."""
    bought = verdict(roster_text("[{house_rule: British 6pdr (APDS), unit: Guns}]", GUN_SECTION % "6pdr"), tmp_path)
    without = verdict(roster_text("[]", GUN_SECTION % "6pdr"), tmp_path)

    assert without["points"] == 372
    assert bought["points"] == 372 + 2 * 10
    assert codes(bought) == []


def test_apds_is_only_for_a_british_6pdr(tmp_path):
    """Section 8: APDS is for the British 6pdr anti-tank gun; a section armed with the 2pdr cannot buy it."""
    result = verdict(roster_text("[{house_rule: British 6pdr (APDS), unit: Guns}]", GUN_SECTION % "2pdr"), tmp_path)

    assert "house_rule.not_applicable" in codes(result)


def test_apds_is_only_from_june_1944(tmp_path):
    """Section 8: from June 1944 onwards; a 1943 roster cannot buy it, nor one that gives no date."""
    text = roster_text("[{house_rule: British 6pdr (APDS), unit: Guns}]", GUN_SECTION % "6pdr", year="year: 1943\n")
    undated = roster_text("[{house_rule: British 6pdr (APDS), unit: Guns}]", GUN_SECTION % "6pdr", year="")

    assert "house_rule.not_applicable" in codes(verdict(text, tmp_path))
    finding = next(f for f in verdict(undated, tmp_path)["findings"] if f["code"] == "house_rule.not_applicable")
    assert "no year or period" in finding["message"]


def test_apds_bought_for_an_army_without_the_gun_gets_a_finding(tmp_path):
    """A house rule bought for an army or unit it cannot apply to gets a finding (a German rifle squad)."""
    text = roster_text(
        "[{house_rule: British 6pdr (APDS), unit: 1}]", "{unit: Infantry Squad up to 1943}", army="german"
    )

    assert "house_rule.not_applicable" in codes(verdict(text, tmp_path))


def test_a_per_unit_house_rule_must_name_its_unit_and_a_roster_one_must_not():
    with pytest.raises(RosterFileInvalid, match="British 6pdr \\(APDS\\) is bought for a unit"):
        load_roster_file(roster_text("[British 6pdr (APDS)]", GUN_SECTION % "6pdr").encode(), "r.yaml")
    with pytest.raises(RosterFileInvalid, match="bought for the roster, not for a unit"):
        load_roster_file(
            roster_text("[{house_rule: Field telephones, unit: Guns}]", GUN_SECTION % "6pdr").encode(), "r.yaml"
        )


def test_a_spotter_plane_with_its_radio_costs_65(tmp_path):
    """Section 6, Spotter planes: 50 points plus 15 for a radio/FO, which can be bought."""
    result = verdict(roster_text("[Spotter planes, Spotter plane radio/FO]"), tmp_path)

    assert result["points"] == 65
    assert codes(result) == []


def test_a_radio_without_its_plane_gets_a_finding(tmp_path):
    alone = verdict(roster_text("[Spotter plane radio/FO]"), tmp_path)
    two_for_one = verdict(roster_text("[Spotter planes, {house_rule: Spotter plane radio/FO, count: 2}]"), tmp_path)

    assert codes(alone) == ["house_rule.not_applicable"]
    assert codes(two_for_one) == ["house_rule.not_applicable"]


def test_the_battalion_radio_is_bought_by_an_hq(tmp_path):
    """Section 3, Battalion support weapons: the HQ pays 15 points for a radio."""
    hq = verdict(roster_text("[{house_rule: battalion-radio, unit: 1}]", "{unit: Company HQ}"), tmp_path)
    squad = verdict(roster_text("[{house_rule: battalion-radio, unit: 1}]", "{unit: Rifle Squad}"), tmp_path)

    assert hq["points"] == 134 + 15
    assert "house_rule.not_applicable" not in codes(hq)
    assert "house_rule.not_applicable" in codes(squad)


def test_field_telephones_listed_twice_are_two_telephones_everywhere(client, tmp_path):
    """Section 3, Field telephones: 15 points for each line laid; two listed are 30 in every output."""
    text = roster_text("[Field telephones, Field telephones]")

    assert verdict(text, tmp_path)["points"] == 30
    client.post("/rosters/import/", {"text": text})
    roster = Roster.objects.get()
    assert roster_points(roster_snapshot(roster)) == 30
    assert [(b.rule.key, b.count) for b in RosterHouseRule.objects.filter(roster=roster)] == [("field-telephone", 2)]
    exported = client.get(f"/r/{roster.share_id}/roster.yaml").content
    again = load_roster_file(exported, "roster.yaml").snapshot()
    assert roster_points(again) == 30
    assert export_roster(again) == export_roster(roster_snapshot(roster))
    assert export_roster(again)["house_rules"] == [{"house_rule": "Field telephones", "count": 2}]


def test_an_export_with_house_rules_for_units_reimports_to_the_same_points(client):
    """The example buys APDS for its gun section: saved, exported and re-imported, it keeps its 1170 points."""
    example = (ROOT / "examples" / "rapid-fire-house-rules.yaml").read_text()
    first = load_roster_file(example.encode(), "example.yaml").snapshot()
    client.post("/rosters/import/", {"text": example})
    saved = roster_snapshot(Roster.objects.get())
    again = load_roster_file(dump_yaml(export_roster(saved)).encode(), "again.yaml").snapshot()

    # 2 Platoon HQ 1944+ 74, 4 Rifle Squads 86, Heavy Mortar 72, Company HQ 134, 6pdr section 372;
    # field telephone 15, spotter plane 50 + radio/FO 15, APDS 2 guns x 10.
    expected = 2 * 74 + 4 * 86 + 72 + 134 + 372 + 15 + 50 + 15 + 20
    assert roster_points(first) == roster_points(saved) == roster_points(again) == expected
    assert export_roster(again) == export_roster(saved) == export_roster(first)


def test_house_rule_lines_add_up_to_the_roster_total():
    example = (ROOT / "examples" / "rapid-fire-house-rules.yaml").read_bytes()
    snapshot = load_roster_file(example, "example.yaml").snapshot()

    lines = [(bought.rule.name, points) for bought, points in house_rule_lines(snapshot)]

    assert lines == [
        ("Field telephones", 15),
        ("Spotter planes", 50),
        ("Spotter plane radio/FO", 15),
        ("British 6pdr (APDS)", 20),
    ]
    assert roster_points(snapshot) == 1070 + sum(points for _, points in lines)


def test_an_old_roster_file_with_a_plain_list_still_imports(tmp_path):
    assert verdict(roster_text("[Field telephones]"), tmp_path)["points"] == 15


def _version(page: str) -> str:
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def test_the_editor_buys_house_rules_with_counts_and_for_the_units_they_fit(client):
    response = client.post("/rosters/import/", {"text": roster_text("[]", GUN_SECTION % "6pdr", "{unit: Rifle Squad}")})
    edit_url = response["Location"]
    roster = Roster.objects.get()
    page = client.get(edit_url).content.decode()
    telephone = SpecialRule.objects.get(key="field-telephone")
    apds = SpecialRule.objects.get(key="british-6pdr-apds")
    assert "house_rule-" not in page  # the overlay is off until the roster plays it
    client.post(
        f"{edit_url}settings/",
        {"name": roster.name, "year": "1944", "version": _version(page), "overlays": telephone.system_id},
    )
    page = client.get(edit_url).content.decode()
    guns, squad = roster.units.order_by("position")
    gun_form = page.split(f'id="unit-{guns.id}"')[1].split("</article>")[0]
    squad_form = page.split(f'id="unit-{squad.id}"')[1].split("</article>")[0]
    assert f'name="house_rule-{apds.id}"' in gun_form
    assert f'name="house_rule-{apds.id}"' not in squad_form

    client.post(
        f"{edit_url}settings/",
        {
            "name": roster.name,
            "year": "1944",
            "version": _version(page),
            "overlays": telephone.system_id,
            f"house_rule-{telephone.id}": "2",
        },
    )
    page = client.get(edit_url).content.decode()
    client.post(
        f"{edit_url}units/{guns.id}/",
        {"label": "Guns", "option-6pdr": "1", "version": _version(page), f"house_rule-{apds.id}": "1"},
    )

    snapshot = roster_snapshot(roster)
    assert roster_points(snapshot) == 372 + 86 + 2 * 15 + 2 * 10
    assert export_roster(snapshot)["house_rules"] == [
        {"house_rule": "Field telephones", "count": 2},
        {"house_rule": "British 6pdr (APDS)", "unit": "Guns"},
    ]
    assert "house_rule-" not in client.get(f"/r/{roster.share_id}/").content.decode()
