"""Order dice are a property of the game: every output shows them for Bolt Action and for no other game.

Bolt Action (quick reference sheet, orders): one order die per unit, the spotter riding with his team.
Action All Fronts and Heroes All activate units without order dice.
"""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from lists.models import Roster

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def every_output(client, example: str) -> dict[str, str]:
    """The roster's editor, share page, list PDF text, roster.txt and validate_roster's text and JSON."""
    path = ROOT / "examples" / f"{example}.yaml"
    response = client.post("/rosters/import/", {"text": path.read_text()})
    roster = Roster.objects.get()
    share = f"/r/{roster.share_id}/"
    pdf = client.get(f"{share}list.pdf").content
    outputs = {
        "editor": client.get(response["Location"]).content.decode(),
        "share page": client.get(share).content.decode(),
        "list.pdf": " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages),
        "roster.txt": client.get(f"{share}roster.txt").content.decode(),
    }
    for name, args in [("validate_roster", []), ("validate_roster --json", ["--json"])]:
        out = io.StringIO()
        with pytest.raises(SystemExit):
            call_command("validate_roster", str(path), *args, stdout=out, stderr=io.StringIO())
        outputs[name] = out.getvalue()
    return outputs


def test_bolt_action_outputs_show_one_order_die_per_unit(client):
    outputs = every_output(client, "bolt-action-2e")  # ten units, the mortar's spotter among them

    assert json.loads(outputs.pop("validate_roster --json"))["order_dice"] == 10
    for name, text in outputs.items():
        assert "10 order dice" in " ".join(text.split()), name


@pytest.mark.parametrize("example", ["action-all-fronts", "heroes-all", "rapid-fire-house-rules"])
def test_games_without_order_dice_show_none(client, example):
    outputs = every_output(client, example)

    assert json.loads(outputs.pop("validate_roster --json"))["order_dice"] is None
    for name, text in outputs.items():
        assert "order dice" not in text.lower(), name
