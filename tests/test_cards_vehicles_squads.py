"""Unit cards of Bolt Action vehicles and squads converted from BattleScribe: a vehicle's move and weapon
mounts, a squad's weapons by who carries them, the platoon and transport, the rules reference's citations."""

import io

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from lists.battlescribe.carriers import name_carriers
from lists.battlescribe.mounts import mount_of, movement_of
from lists.cards import cards_pdf
from lists.rosters.files import load_roster_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

HEADER = """format: armybuilder-roster/1
game: Bolt Action (2nd edition)
army: "1944: Normandy (Armies of Germany)"
name: Card check
forces:
  - name: 1. Zug
    organisation: Reinforced Platoon
    units:
"""


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def card_text(*units: str) -> str:
    """The text of the cards PDF of a German Normandy roster of these units (one platoon)."""
    resolved = load_roster_file((HEADER + "".join(f"      - {unit}\n" for unit in units)).encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_panzer_iv_card_shows_its_tracked_move_and_its_gun_in_the_turret_without_infantry_rules():
    """Quick reference sheet, Movement: tracked vehicle Advance 9", Run 18". BSData Panzer IV AUSF G, H, J
    (fffa1ec5-f461-4991-c9cb-1c7cfaa87a87): Turret-mounted heavy AT gun, Coaxial MMG, Forward facing hull
    mounted MMG."""
    text = card_text("{unit: germany-panzer-iv-ausf-g-h-j, label: Panzer IV, quality: Regular}")

    assert 'Move advance 9", run 18"' in text
    assert "Turret (360°): Heavy AT gun" in text
    assert "Coaxial (with the main gun): Medium machine gun (MMG)" in text
    assert "Hull (forward facing): Medium machine gun (MMG)" in text
    # Team and Fixed are rules of weapon teams and guns, not of a tank's mounted weapons.
    assert "Team" not in text and "Fixed" not in text
    assert '72" 1 +6 HE (2")' in text  # the gun's own rule stays


def test_a_hanomag_card_shows_its_half_tracked_move_and_its_pintle_mounts():
    """Quick reference sheet, Movement: half-tracked vehicle Advance 9", Run 18". BSData SdKfz 251/1
    (8d19e410-cab2-6a68-4d74-e7510fe5474b): Pintle-Mounted MMG (Forward Arc), option Pintle-mounted MMG (Rear Arc)."""
    plain = card_text("{unit: germany-sdkfz-251-1-half-track-hanomag, label: Hanomag, quality: Regular}")
    armed = card_text(
        "{unit: germany-sdkfz-251-1-half-track-hanomag, label: Hanomag, quality: Regular,"
        " options: [Pintle-mounted MMG (Rear Arc)(15pts)]}"
    )

    assert 'Move advance 9", run 18"' in plain and "Carries 12" in plain
    assert "Pintle (front): Medium machine gun (MMG)" in plain and "Pintle (rear)" not in plain
    assert "Pintle (front): Medium machine gun (MMG) Pintle (rear): Medium machine gun (MMG)" in armed
    assert "Team" not in armed and "Fixed" not in armed


def test_a_grenadier_squad_card_counts_who_carries_what():
    """BSData Heer Grenadier Squad (4141d85d-3ff9-7772-accf-6c3ecb7d5364): 10 men, two panzerfausts (carried
    beside a rifle: One-shot), two assault rifles and an LMG in the soldiers' hands, the NCO's SMG in his."""
    text = card_text(
        "{unit: germany-heer-grenadier-squad, label: 1. Gruppe, quality: Regular, size: 10,"
        " options: [{option: Panzerfaust, count: 2}, {option: Assault rifle, count: 2}, NCO SMG, LMG]}"
    )

    assert "Weapons 6 × Rifle, 2 × Assault rifle, 2 × Panzerfaust, 1 × LMG, NCO: SMG" in text
    assert "1 × Regular NCO 9 × Regular Soldier" in text
    assert "Panzerfaust: Panzerfaust" not in text  # no longer a line of its own, uncounted


def test_a_squad_without_options_keeps_its_rifles():
    text = card_text("{unit: germany-heer-grenadier-squad, label: 2. Gruppe, quality: Regular, size: 5}")

    assert "Weapons 4 × Rifle, NCO: Rifle" in text


def test_a_card_names_its_platoon_and_the_transport_carrying_it():
    text = card_text(
        "{unit: germany-heer-grenadier-squad, label: 3. Gruppe, quality: Regular, size: 10, transport: Hanomag}",
        "{unit: germany-sdkfz-251-1-half-track-hanomag, label: Hanomag, quality: Regular}",
    )

    assert "1. Zug (Reinforced Platoon) · rides in Hanomag" in text
    hanomag = text[text.index("Pintle (front)") :]
    assert "1. Zug (Reinforced Platoon)" in hanomag and "rides in" not in hanomag  # the carrier rides in nothing


def test_the_rules_reference_of_a_german_unit_cites_the_german_catalogue():
    """Open Topped is read first from the Australian catalogue; a German half-track's reference cites its own."""
    text = card_text("{unit: germany-sdkfz-251-1-half-track-hanomag, label: Hanomag, quality: Regular}")

    assert "Open Topped: " in text
    assert "(BSData/boltaction community data, BA2 - Armies of Germany.cat)" in text
    assert "Australia" not in text


@pytest.mark.parametrize(
    ("entry", "mount"),
    [
        ("Turret-mounted light howitzer", "turret"),
        ("Coaxial MMG", "coaxial"),
        ("Forward facing hull mounted MMG", "hull"),
        ("Casement-mounted forward facing heavy AT gun", "casemate"),
        ("Turret-mounted rear-facing MMG", "turret-rear"),
        ("Pintle-mounted MMG (Rear Arc)(15pts)", "pintle-rear"),
        ("Pintle-Mounted MMG (Forward Arc)", "pintle-front"),
        ("Pintle-mounted HMG (360°)", "pintle"),
        ("Platform-mounted forward facing Light Howitzer", "platform-forward"),
        ("Forward facing light howitzer", "forward"),
        ("Light howitzer", None),
    ],
)
def test_the_converter_reads_a_weapon_s_mount_from_its_entry_name(entry, mount):
    assert mount_of(entry) == mount


@pytest.mark.parametrize(
    ("vehicle_type", "movement"),
    [
        ("Tracked Vehicle", "tracked"),
        ("Half-tracked Vehicle", "half-tracked"),
        ("Half-traked Vehicle", "half-tracked"),
        ("WHeeled Vehicle", "wheeled"),
        ("Wheelled vehicle", "wheeled"),
        ("Boat (tracked vehicle)", None),
        ("Animal", None),
    ],
)
def test_the_converter_reads_a_vehicle_s_movement_from_its_type(vehicle_type, movement):
    assert movement_of(vehicle_type) == movement


def test_an_option_named_after_the_nco_arms_his_model_line():
    unit = {
        "composition": [
            {"count": 1, "role": "nco", "name": "Regular NCO", "weapons": ["rifle"]},
            {"count": 4, "role": "soldier", "name": "Regular Soldier", "weapons": ["rifle"]},
        ],
        "options": [
            {"key": "nco-smg", "name": "NCO SMG", "points": 3, "weapons": ["smg"]},
            {"key": "smg", "name": "SMG", "points": 3, "weapons": ["smg"]},
        ],
    }

    name_carriers(unit)

    assert unit["options"][0]["model"] == "Regular NCO"
    assert "model" not in unit["options"][1]


def test_an_upgrade_taken_prints_its_rule_on_the_card():
    """BSData Bolt Action 2.gst, Command vehicle fb5c-db81-7065-21ff (25 points) links the Command Vehicle rule
    f3b7-7c2b-d71f-b029; BA2 - Armies of Germany.cat, Heer Veteran Grenadier Squad (its Infantry link): its Anti-tank Grenades link Tank
    Hunters."""
    header = HEADER.replace("Reinforced Platoon", "Armoured Platoon")
    tank = "{unit: germany-panzer-iv-ausf-g-h-j-2, label: Befehlspanzer, quality: Regular, options: [Command Vehicle]}"
    resolved = load_roster_file((header + f"      - {tank}\n").encode(), "roster.yaml")
    pdf = cards_pdf(resolved.snapshot(), resolved.data)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Options Command Vehicle" in text
    assert 'Command Vehicle: +1 morale to itself and armour within 12"' in text
    plain = card_text("{unit: germany-heer-veteran-grenadier-squad-2, quality: Veteran}")
    grenades = card_text(
        "{unit: germany-heer-veteran-grenadier-squad-2, quality: Veteran, options: [Anti-tank Grenades]}"
    )
    assert "Tank Hunters" not in plain and "Tank Hunters" in grenades
