"""House-rule overlays are played per roster: off until chosen, then offered; a unit's points include its purchases."""

import re
from pathlib import Path

import pytest

from lists.models import GameSystem, Roster, RosterHouseRule, SpecialRule

ROOT = Path(__file__).resolve().parents[1]
RADIO = "Battalion support weapons (radio)"

pytestmark = [pytest.mark.usefixtures("real_packs"), pytest.mark.django_db]


def version(page: str) -> str:
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def unit_points(page: str, unit_id: int) -> int:
    return int(re.search(rf'id="unit-{unit_id}-points">\s*<span class="points">(\d+) pts', page).group(1))


def total(page: str) -> int:
    """The editor's total, in its sticky summary."""
    return int(re.search(r'<span class="points(?: over)?">(\d+) / ', page).group(1))


def settings(page: str, **more) -> dict:
    return {"name": "Rangers lead the way", "points_limit": "1000", "setting-max-order-dice": "12"} | {
        "version": version(page),
        **more,
    }


@pytest.fixture
def bolt_action(client):
    response = client.post("/rosters/import/", {"text": (ROOT / "examples" / "bolt-action-2e.yaml").read_text()})
    return response["Location"]


def test_a_roster_plays_no_overlay_until_it_chooses_one(client, bolt_action):
    page = client.get(bolt_action).content.decode()
    overlay = GameSystem.objects.get(key="rapid-fire-house-rules")
    assert "house_rule-" not in page and RADIO not in page
    assert f'name="overlays" value="{overlay.id}"' in page  # the choice is offered, unticked
    assert Roster.objects.get().overlays.count() == 0

    client.post(f"{bolt_action}settings/", settings(page, overlays=overlay.id))
    page = client.get(bolt_action).content.decode()

    assert RADIO in page and "(+15 pts, Molesly house rules)" in page
    assert re.search(rf'name="overlays" value="{overlay.id}"[^>]*checked', page)
    assert "Field telephones" in page.split('id="settings"')[1].split("</details>")[0]


def test_a_house_rule_bought_for_a_unit_is_in_its_points_and_the_total(client, bolt_action):
    overlay = GameSystem.objects.get(key="rapid-fire-house-rules")
    page = client.get(bolt_action).content.decode()
    client.post(f"{bolt_action}settings/", settings(page, overlays=overlay.id))
    page = client.get(bolt_action).content.decode()
    roster = Roster.objects.get()
    harris = roster.units.get(label="Lt. Harris")
    radio = SpecialRule.objects.get(key="battalion-radio")
    before, before_total = unit_points(page, harris.id), total(page)

    client.post(
        f"{bolt_action}units/{harris.id}/",
        {"label": "Lt. Harris", "quality": "regular", "version": version(page), f"house_rule-{radio.id}": "1"},
    )
    page = client.get(bolt_action).content.decode()

    assert RosterHouseRule.objects.filter(unit=harris, rule=radio).exists()
    assert unit_points(page, harris.id) == before + 15
    assert total(page) == before_total + 15
    text = client.get(f"/r/{roster.share_id}/roster.txt").content.decode()
    assert re.search(rf"^Lt\. Harris \(.*: .*house rule {re.escape(RADIO)} — {before + 15} pts$", text, re.M), text
    assert f"Total: {before_total + 15} / 1000 points" in text
    share = client.get(f"/r/{roster.share_id}/").content.decode()
    assert f'<h2>Lt. Harris</h2><p class="points">{before + 15} pts</p>' in share


def test_switching_an_overlay_off_with_its_house_rules_bought_is_refused_and_loses_nothing(client, bolt_action):
    overlay = GameSystem.objects.get(key="rapid-fire-house-rules")
    telephone = SpecialRule.objects.get(key="field-telephone")
    page = client.get(bolt_action).content.decode()
    client.post(f"{bolt_action}settings/", settings(page, overlays=overlay.id))
    page = client.get(bolt_action).content.decode()
    client.post(f"{bolt_action}settings/", settings(page, overlays=overlay.id, **{f"house_rule-{telephone.id}": "2"}))
    page = client.get(bolt_action).content.decode()

    # Unticked, with the telephones still bought in the form (as the browser sends it).
    refused = client.post(f"{bolt_action}settings/", settings(page, **{f"house_rule-{telephone.id}": "2"}))

    assert refused.status_code == 400
    assert "Molesly house rules stays on: this roster buys Field telephones" in refused.content.decode()
    roster = Roster.objects.get()
    assert list(roster.overlays.all()) == [overlay]
    assert RosterHouseRule.objects.get(roster=roster, rule=telephone).count == 2

    page = client.get(bolt_action).content.decode()
    client.post(f"{bolt_action}settings/", settings(page, overlays=overlay.id, **{f"house_rule-{telephone.id}": "0"}))
    page = client.get(bolt_action).content.decode()
    assert client.post(f"{bolt_action}settings/", settings(page)).status_code == 302
    assert roster.overlays.count() == 0
    assert "house_rule-" not in client.get(bolt_action).content.decode()


def test_a_roster_file_buying_house_rules_plays_their_overlay(client):
    text = (ROOT / "examples" / "rapid-fire-house-rules.yaml").read_text()
    edit_url = client.post("/rosters/import/", {"text": text})["Location"]
    roster = Roster.objects.get()
    assert [overlay.key for overlay in roster.overlays.all()] == ["rapid-fire-house-rules"]
    assert "house_rule-" in client.get(edit_url).content.decode()
    exported = client.get(f"/r/{roster.share_id}/roster.yaml").content.decode()
    assert "overlays:\n- 'Rapid Fire: Molesly Club House Rules'" in exported
    assert (
        "Plays: Rapid Fire: Molesly Club House Rules" in client.get(f"/r/{roster.share_id}/roster.txt").content.decode()
    )


def test_a_roster_file_may_play_an_overlay_without_buying_from_it(client):
    text = (ROOT / "examples" / "bolt-action-2e.yaml").read_text() + "overlays: [Molesly house rules]\n"
    edit_url = client.post("/rosters/import/", {"text": text})["Location"]
    assert RADIO in client.get(edit_url).content.decode()
    bad = client.post("/rosters/import/", {"text": text.replace("[Molesly house rules]", "[Moseley rules]")})
    assert bad.status_code == 400
    assert "unknown house-rule overlay &#x27;Moseley rules&#x27;" in bad.content.decode()
