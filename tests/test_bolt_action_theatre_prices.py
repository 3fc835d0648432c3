"""Prices a theatre list sets (BattleScribe points modifiers conditioned on a theatre selector).

Hand-checked against BA2 - Armies of Germany.cat (BSData/boltaction at d939efb):
- Panzer VI Ausf. H 'Tiger' (f7ff614f-04f2-a31b-fd9b-d37683a65c1e), Regular 534a73ae-1d99-3af1-bc5b-580c878d7b16:
  395 pts, set to 244 while "1945: Last Levy" (d256-0db4-5156-cf2a) is chosen; Veteran
  32a535c2-96b4-6442-6fbb-8dc629a95a72: 474, set to 427 there;
- Panzer V Panther, Inexperienced: 284, set to 256 in "1943: Operation Citadel" (599b-4ea7-8db4-6c5a)
  and in "1945: Last Levy".
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def points(tmp_path, army: str, unit: str, quality: str) -> int:
    path = tmp_path / "roster.yaml"
    path.write_text(
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        f'army: "{army}"\nname: Prices\npoints_limit: 1000\n'
        f"units:\n  - {{unit: {unit}, quality: {quality}}}\n"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())["points"]


@pytest.mark.parametrize(
    ("army", "unit", "quality", "expected"),
    [
        ("1945: Last Levy (Armies of Germany)", "germany-panzer-vi-ausf-h-tiger", "Regular", 244),
        ("1945: Last Levy (Armies of Germany)", "germany-panzer-vi-ausf-h-tiger", "Veteran", 427),
        ("1943: Operation Citadel (Armies of Germany)", "germany-panzer-v-panther", "Inexperienced", 256),
        ("1945: Last Levy (Armies of Germany)", "germany-panzer-v-panther", "Inexperienced", 256),
    ],
)
def test_a_theatre_list_prices_a_unit_as_its_selector_sets(tmp_path, army, unit, quality, expected):
    assert points(tmp_path, army, unit, quality) == expected


@pytest.mark.parametrize(
    ("army", "unit", "quality", "expected"),
    [
        ("1943: Operation Citadel (Armies of Germany)", "germany-panzer-vi-ausf-h-tiger", "Regular", 395),
        ("1944: Normandy (Armies of Germany)", "germany-panzer-v-panther", "Inexperienced", 284),
    ],
)
def test_other_theatre_lists_keep_the_entrys_own_price(tmp_path, army, unit, quality, expected):
    assert points(tmp_path, army, unit, quality) == expected


def test_a_price_the_data_sets_while_an_option_is_taken_is_that_options_price(tmp_path):
    """Panzer V Panther, Regular 0890e0c0-d0c8-50d5-70fa-bf5e6e7b824c: 355 pts, set to 380 while
    "IR Equipment" (1eed-45da-6522-846a) is taken, which "1945: Operation Spring Awakening" offers
    (BA2 - Armies of Germany.cat)."""
    path = tmp_path / "roster.yaml"
    path.write_text(
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        "army: germany-1945-operation-spring-awakening\nname: IR\npoints_limit: 1000\n"
        "units:\n  - {unit: germany-panzer-v-panther, quality: Regular, options: [IR Equipment]}\n"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    assert json.loads(out.getvalue())["points"] == 380


def test_the_partisans_captured_axis_vehicle_costs_what_the_player_sets(tmp_path):
    """BA2 - Partisans.cat, "Captured Axis Vehicle" e3cf-c520-f3bf-a979: no price of its own, a Rating of one
    entry "Inexperienced(set points)" e371-efa9-b791-f900 at 0, and "Points" 2a6e-ff4b-3eb1-9382 at 1 each,
    up to 300: the player pays the captured vehicle's own cost."""
    path = tmp_path / "roster.yaml"
    path.write_text(
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        "army: partisans-1942-45-liberation\nname: Captured\npoints_limit: 1000\n"
        "units:\n  - {unit: partisans-captured-axis-vehicle, quality: Inexperienced,"
        " options: [{option: Points, count: 135}]}\n"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    assert json.loads(out.getvalue())["points"] == 135
