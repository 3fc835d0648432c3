"""Options a theatre list makes compulsory (an option's own least number set by a theatre selector).

Hand-checked against BA2 - Armies of Italy.cat (BSData/boltaction at d939efb), Tenente (First Lieutenant)
34d0d9dd-6fdb-3ff9-4c31-6556b4a40cc2: Regular 581bd29b-...: 75 pts, Veteran 3861920f-...: 90 pts (the X
Reggimento Arditi list fields him only as a Veteran). Its upgrade "X Arditi Officer"
(2679-4873-ac3f-581a, 3 pts) is hidden but in the "1942-43: X Reggimento Arditi" list, where a modifier
sets its least number (scope parent) to 1; likewise "Granatieri Officer" (01fb-c4ac-f69f-b7c0, 5 pts) in
"1943: Granatieri di Sardegna Platoon".
"""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

ARDITI = "italy-1942-43-x-reggimento-arditi"
GRANATIERI = "italy-1943-granatieri-di-sardegna-platoon"
TENENTE = "italy-tenente-first-lieutenant"


QUALITY = {ARDITI: "Veteran", GRANATIERI: "Regular", "italy-generic-reinforced-platoon": "Regular"}


def validate(tmp_path, army: str, options: list[str]) -> dict:
    path = tmp_path / "roster.yaml"
    path.write_text(
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\n"
        f"army: {army}\nname: Compulsory\npoints_limit: 1000\n"
        f"units:\n  - {{unit: {TENENTE}, quality: {QUALITY[army]}, options: {json.dumps(options)}}}\n"
    )
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_roster", str(path), "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def required(result: dict) -> list[str]:
    return [f["message"] for f in result["findings"] if f["code"] == "option.required"]


@pytest.mark.parametrize(
    ("army", "upgrade", "points"), [(ARDITI, "X Arditi Officer", 90), (GRANATIERI, "Granatieri Officer", 75)]
)
def test_a_lieutenant_without_his_theatres_upgrade_is_refused(tmp_path, army, upgrade, points):
    result = validate(tmp_path, army, [])
    assert result["points"] == points
    assert any(upgrade in message for message in required(result))


@pytest.mark.parametrize(
    ("army", "upgrade", "points"), [(ARDITI, "X Arditi Officer", 93), (GRANATIERI, "Granatieri Officer", 80)]
)
def test_the_lieutenant_with_it_pays_its_price_and_passes(tmp_path, army, upgrade, points):
    result = validate(tmp_path, army, [upgrade])
    assert result["points"] == points
    assert required(result) == []


def test_other_lists_do_not_ask_for_it(tmp_path):
    result = validate(tmp_path, "italy-generic-reinforced-platoon", [])
    assert result["points"] == 75 and required(result) == []
