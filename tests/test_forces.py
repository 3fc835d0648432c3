"""Several forces (platoons) in one roster: files, checks, the editor and what is printed."""

import io
import json
import re
from pathlib import Path

import pytest
import yaml
from django.core.cache import cache
from django.core.management import call_command
from pypdf import PdfReader

from lists.cards import cards_pdf, list_pdf
from lists.gamedata.loading import game_data, roster_snapshot
from lists.gamedata.snapshot import ForceInfo, UnitChoice
from lists.models import Force, Roster, RosterUnit
from lists.rosters.files import RosterFileInvalid, dump_yaml, export_roster, load_roster_file
from lists.rosters.fingerprint import fingerprint
from lists.rules import check_roster
from lists.rules.verdict import judge
from tests.builders import LIEUTENANT, SQUAD, codes, organisation, roster, slot

ROOT = Path(__file__).resolve().parents[1]
TWO_PLATOONS = ROOT / "examples" / "bolt-action-2e-germany-normandy-two-platoons.yaml"

# The Generic army's Generic Reinforced Platoon: one Lieutenant and at least two infantry squads.
GENERIC = """
game: bolt-action-2e
army: generic
name: Two generic platoons
points_limit: 1000
forces:
  - name: First Platoon
    units:
      - {unit: Second Lieutenant, quality: Regular, label: Lt. Able}
      - {unit: infantry-section, quality: Regular, label: Section 1}
      - {unit: infantry-section, quality: Regular, label: Section 2}
  - name: Second Platoon
    units:
      - {unit: infantry-section, quality: Regular, label: Section 3}
      - {unit: infantry-section, quality: Regular, label: Section 4}
"""


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def validate_json(path: Path) -> tuple[int, dict]:
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return exit_info.value.code, json.loads(out.getvalue())


# --- the rules, on in-memory rosters ----------------------------------------------

PLATOON = organisation(
    slot("lieutenant", ["hq"], name="Lieutenant", min=1, max=1),
    slot("squads", ["squad"], name="Infantry squads", min=2, max=3),
)


def two_platoons(first, second):
    """A roster whose units are `first` in Platoon 1 and `second` in Platoon 2, both of PLATOON."""
    units = [
        UnitChoice(index=i, label=f"{unit.name} {i + 1}", unit_type=unit, force=0 if i < len(first) else 1)
        for i, unit in enumerate([*first, *second])
    ]
    return roster(*units, forces=[ForceInfo(0, "Platoon 1", PLATOON), ForceInfo(1, "Platoon 2", PLATOON)])


def test_each_platoon_fills_its_own_slots():
    """Two Lieutenants and four squads are legal as two platoons, each with its officer and two squads."""
    assert codes(check_roster(two_platoons([LIEUTENANT, SQUAD, SQUAD], [LIEUTENANT, SQUAD, SQUAD]))) == []


def test_a_second_platoon_without_an_officer_is_missing_one_and_the_finding_names_it():
    findings = check_roster(two_platoons([LIEUTENANT, SQUAD, SQUAD], [SQUAD, SQUAD]))
    assert codes(findings) == ["org.missing"]
    assert findings[0].message.startswith("Platoon 2 (Test Platoon) needs at least 1 Lieutenant; Platoon 2 has 0.")
    assert findings[0].unit == "Squad 4"  # points at a unit of that platoon, where the editor shows it


def test_a_platoons_maximum_counts_only_its_own_units():
    """Both officers in one platoon: that platoon has one too many, the other misses its own."""
    findings = check_roster(two_platoons([LIEUTENANT, LIEUTENANT, SQUAD, SQUAD], [SQUAD, SQUAD]))
    assert sorted(codes(findings)) == ["org.missing", "org.too_many"]
    too_many = next(f for f in findings if f.code == "org.too_many")
    assert "Platoon 1 has 2, Platoon 1 (Test Platoon) allows 1." in too_many.message  # not "allows 1 (1)"


# --- roster files -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_the_two_platoon_normandy_list_is_legal_at_the_costs_the_data_gives(tmp_path):
    """BA2 - Armies of Germany.cat, at the pack's costs:
    Leutnant (Second Lieutenant) 504cf8bb-37fd-e1ba-cf18-e751f6c9713b, Regular 50;
    Heer Grenadier Squad (compulsory) 4141d85d-3ff9-7772-accf-6c3ecb7d5364, Regular 50 for 5 men
    and 10 per man more: 10 men = 100, LMG +20, NCO SMG +3;
    Medium Machine Gun Team 90f2b4cd-4c55-383a-06b7-8621558e9256, Regular 50;
    Panzer IV AUSF G, H, J fffa1ec5-f461-4991-c9cb-1c7cfaa87a87, Regular 235;
    SdKfz 251/1 Half-Track 'Hanomag' 8d19e410-cab2-6a68-4d74-e7510fe5474b, Regular 89.
    1. Zug: 50 + 2 x (100 + 20 + 3) + 50 + 235 = 581; 2. Zug: 50 + 2 x (100 + 20) + 89 = 379; 960 in all.
    """
    code, verdict = validate_json(TWO_PLATOONS)
    assert (code, verdict["findings"]) == (0, [])
    assert verdict["points"] == 50 + 2 * (100 + 20 + 3) + 50 + 235 + 50 + 2 * (100 + 20) + 89
    assert [(f["name"], f["organisation"], f["points"]) for f in verdict["forces"]] == [
        ("1. Zug", "Reinforced Platoon", 50 + 2 * (100 + 20 + 3) + 50 + 235),
        ("2. Zug", "Reinforced Platoon", 50 + 2 * (100 + 20) + 89),
    ]


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_the_two_platoon_list_prints_cards_and_a_list_grouped_by_platoon():
    resolved = load_roster_file(TWO_PLATOONS.read_bytes(), TWO_PLATOONS.name)
    snapshot, data = resolved.snapshot(), resolved.data
    cache.clear()

    cards = pdf_text(cards_pdf(snapshot, data))
    listing = pdf_text(list_pdf(snapshot, data, judge(snapshot), [("bolt-action-2e", "1")]))

    assert "Leutnant Brandt" in cards and "Hanomag" in cards
    assert listing.index("1. Zug (Reinforced Platoon)") < listing.index("Panzer IV")
    assert listing.index("2. Zug (Reinforced Platoon)") < listing.index("Leutnant Brandt")
    assert "Total 9 units, 9 order dice 960 / 1000" in listing


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_a_file_whose_second_platoon_has_no_officer_is_not_legal_and_says_which_platoon(tmp_path):
    path = tmp_path / "roster.yaml"
    path.write_text(GENERIC)
    code, verdict = validate_json(path)
    assert code == 1
    assert [f["code"] for f in verdict["findings"]] == ["org.missing"]
    assert verdict["findings"][0]["message"].startswith("Second Platoon (Generic Reinforced Platoon) needs at least 1")
    assert verdict["findings"][0]["unit"] == "Section 3"


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_an_older_file_imports_as_one_force_with_its_organisation_and_every_unit(client):
    client.post("/rosters/import/", {"text": (ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_text()})
    [force] = Force.objects.filter(roster=Roster.objects.get())
    assert (force.name, force.organisation.name) == ("Platoon 1", "Reinforced Platoon")
    assert force.units.count() == RosterUnit.objects.count() == 8


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_two_forces_export_and_import_again_unchanged():
    resolved = load_roster_file(TWO_PLATOONS.read_bytes(), TWO_PLATOONS.name)
    document = export_roster(resolved.snapshot())
    again = export_roster(load_roster_file(dump_yaml(document).encode(), "roster.yaml").snapshot())
    assert again == document
    assert [len(force["units"]) for force in document["forces"]] == [5, 4]
    assert document["forces"][1]["units"][1]["transport"] == "Hanomag"  # rides its platoon's half-track


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (lambda d: d.update(units=[{"unit": "Second Lieutenant"}]), "", "give either forces"),
        (lambda d: d["forces"][1].update(organisation="Armoured Company"), "forces.1.organisation", "unknown"),
        (lambda d: d["forces"][1].update(name="First Platoon"), "forces.1.name", "already called"),
        (lambda d: d.update(forces=[]), "forces", "from 1 to 20 forces"),
    ],
)
def test_a_file_with_forces_it_cannot_have_is_refused_with_the_field(change, path, message):
    document = yaml.safe_load(GENERIC)
    change(document)
    with pytest.raises(RosterFileInvalid) as invalid:
        load_roster_file(json.dumps(document).encode(), "roster.json")
    assert any(p.path == path and message in p.message for p in invalid.value.problems), invalid.value.problems


# --- the editor ---------------------------------------------------------------------


def version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


@pytest.fixture
def generic_edit_url(client, real_packs, db) -> str:
    """A generic Bolt Action roster of one platoon (Lieutenant and two sections), opened for editing."""
    text = "\n".join(GENERIC.splitlines()[:11]).replace("Two generic platoons", "One platoon")
    response = client.post("/rosters/import/", {"text": text})
    assert response.status_code == 302
    return response["Location"]


def test_a_player_adds_a_second_platoon_and_units_to_it_without_javascript(client, generic_edit_url):
    page = client.get(generic_edit_url).content.decode()
    response = client.post(f"{generic_edit_url}forces/", {"version": version(page), "name": ""})
    assert response.status_code == 302
    second = Force.objects.get(name="Platoon 2")
    assert second.organisation.name == "Generic Reinforced Platoon"

    page = client.get(f"{generic_edit_url}?force={second.id}").content.decode()
    assert "Add a unit to Platoon 2" in page
    # The picker counts the slots of the platoon it adds to: Platoon 2 has no sections yet.
    assert re.search(r"Infantry squads[^<]*<span class=\"usage\"[^>]*>0 of 2–5<", page)
    name = re.escape("Regular Infantry Section (Mid-/ Late-War)")
    section = re.search(rf'name="unit_type" value="(\d+)"[^>]*>\s*<span class="name">{name}<', page).group(1)
    response = client.post(
        f"{generic_edit_url}units/", {"version": version(page), "unit_type": section, "force": second.id}
    )
    assert response["Location"].startswith(f"{generic_edit_url}?force={second.id}#unit-")
    assert second.units.get().label.startswith("Regular Infantry Section")

    page = client.get(generic_edit_url).content.decode()
    assert "Platoon 2 (Generic Reinforced Platoon) needs at least 1 Lieutenant" in page


def test_a_unit_moves_to_another_platoon_and_the_fingerprint_changes(client, generic_edit_url):
    roster = Roster.objects.get()
    page = client.get(generic_edit_url).content.decode()
    client.post(f"{generic_edit_url}forces/", {"version": version(page), "name": "Reserve"})
    reserve = Force.objects.get(name="Reserve")
    before = fingerprint(roster_snapshot(roster), game_data(roster.system))
    unit = RosterUnit.objects.get(label="Section 2")

    page = client.get(generic_edit_url).content.decode()
    posted = {"version": version(page), "label": "Section 2", "quality": "regular", "force": reserve.id}
    assert client.post(f"{generic_edit_url}units/{unit.id}/", posted).status_code == 302

    assert RosterUnit.objects.get(label="Section 2").force == reserve
    assert fingerprint(roster_snapshot(roster), game_data(roster.system)) != before


def test_a_platoon_is_renamed_and_only_an_empty_one_is_removed(client, generic_edit_url):
    page = client.get(generic_edit_url).content.decode()
    client.post(f"{generic_edit_url}forces/", {"version": version(page)})
    first, second = Force.objects.order_by("position")

    page = client.get(generic_edit_url).content.decode()
    client.post(f"{generic_edit_url}forces/{first.id}/", {"version": version(page), "name": "Kampfgruppe"})
    assert Force.objects.order_by("position").first().name == "Kampfgruppe"

    page = client.get(generic_edit_url).content.decode()
    kept = Force.objects.order_by("position").first()
    response = client.post(f"{generic_edit_url}forces/{kept.id}/remove/", {"version": version(page)})
    assert response.status_code == 400 and "before removing the force" in response.content.decode()

    empty = Force.objects.get(name="Platoon 2")
    response = client.post(f"{generic_edit_url}forces/{empty.id}/remove/", {"version": version(page)})
    assert response.status_code == 302
    assert list(Force.objects.values_list("name", flat=True)) == ["Kampfgruppe"]
    assert RosterUnit.objects.count() == 3


def test_a_force_of_another_roster_is_not_found(client, generic_edit_url):
    mine = Roster.objects.get()
    other = Roster.objects.create(share_id="o", edit_secret_hash="o", system=mine.system, army=mine.army, name="O")
    theirs = Force.objects.create(roster=other, name="Their platoon")
    page = client.get(generic_edit_url).content.decode()
    for action in ("", "remove/"):
        response = client.post(f"{generic_edit_url}forces/{theirs.id}/{action}", {"version": version(page)})
        assert response.status_code == 404
    assert Force.objects.get(pk=theirs.pk).name == "Their platoon"


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_the_share_page_and_text_group_units_under_their_platoon(client):
    client.post("/rosters/import/", {"text": TWO_PLATOONS.read_text()})
    share = f"/r/{Roster.objects.get().share_id}/"

    page = client.get(share).content.decode()
    text = client.get(f"{share}roster.txt").content.decode()

    assert page.index("2. Zug") < page.index("Leutnant Brandt") < page.index("3. Gruppe")
    assert page.index("1. Zug") < page.index("Leutnant Adler") < page.index("2. Zug")
    lines = text.splitlines()
    assert lines.index("2. Zug (Reinforced Platoon) — 379 pts") < lines.index(
        "Leutnant Brandt (Leutnant (Second Lieutenant)) (Regular, 1 man) — 50 pts"
    )


def test_with_htmx_a_moved_unit_comes_back_under_its_new_platoon(client, generic_edit_url):
    page = client.get(generic_edit_url).content.decode()
    client.post(f"{generic_edit_url}forces/", {"version": version(page), "name": "Reserve"}, HTTP_HX_REQUEST="true")
    reserve = Force.objects.get(name="Reserve")
    unit = RosterUnit.objects.get(label="Section 1")
    page = client.get(generic_edit_url).content.decode()

    posted = {"version": version(page), "label": "Section 1", "quality": "regular", "force": reserve.id}
    response = client.post(f"{generic_edit_url}units/{unit.id}/", posted, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response["HX-Retarget"] == "#roster"  # the whole roster: the unit changed place
    assert html.index('id="force-2"') < html.index(f'id="unit-{unit.id}"')
    assert "First Platoon (Generic Reinforced Platoon) needs at least 2" in html
