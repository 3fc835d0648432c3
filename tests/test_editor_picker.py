"""The editor's "Add a unit" list as a Bolt Action player uses it: the price on a unit's button is what its
button adds, and the picker stays on the force the player adds to."""

import re

import pytest

from lists.models import Army, Roster, RosterUnit, UnitType
from lists.rosters.sharing import hash_secret

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]

NORMANDY = "great-britain-1944-normandy"


def start(client, army: str = NORMANDY) -> str:
    started = client.post(
        "/rosters/new/",
        {"army": Army.objects.get(key=army).id, "name": "Picker", "points_limit": "1000", "year": "1944"},
    )
    assert started.status_code == 302, started.content.decode()[:500]
    return started["Location"]


def picker(html: str) -> str:
    return html[html.index('id="picker"') : html.index("</form>", html.index('id="picker"'))]


def button(html: str, name: str) -> tuple[str, int, str]:
    """The unit type id, points and quality the picker's button for `name` shows."""
    found = re.search(
        r'value="(\d+)" class="pick"[^>]*>\s*<span class="name">' + re.escape(name) + r"</span>.*?"
        r'<span class="pts">(\d+) pts(?: \(([^)]*)\))?</span>',
        picker(html),
        re.S,
    )
    assert found, f"{name} is not in the picker"
    return found.group(1), int(found.group(2)), found.group(3) or ""


def roster_of(edit_url: str) -> Roster:
    return Roster.objects.get(edit_secret_hash=hash_secret(edit_url.strip("/").split("/")[-1]))


@pytest.mark.parametrize("name", ["Second Lieutenant", "Medium Machine Gun Team"])
def test_the_price_on_a_units_button_is_the_price_of_the_unit_it_adds(client, name):
    """BA2 - Armies of Great Britain.cat: the Second Lieutenant is 35 points Inexperienced and more as Regular,
    the quality a unit is added at; the button showed the first and added the second."""
    edit_url = start(client)
    unit_type, shown, quality = button(client.get(edit_url).content.decode(), name)
    assert UnitType.objects.get(id=unit_type).name == name

    client.post(f"{edit_url}units/", {"unit_type": unit_type, "version": roster_of(edit_url).version})

    added = RosterUnit.objects.get(roster=roster_of(edit_url))
    html = client.get(edit_url).content.decode()
    card = html[html.index(f'id="unit-{added.id}"') :]
    assert quality == "Regular"
    assert re.search(r'<span class="quality">([^<]*)</span>', card).group(1) == quality
    assert re.search(r'<span class="points">(\d+) pts</span>', card).group(1) == str(shown)


def heading(html: str) -> str:
    return re.search(r'<h2 id="picker-heading">([^<]*)</h2>', html).group(1)


def test_after_a_reload_the_picker_adds_to_the_force_the_player_last_added_to(client):
    """Six units added to the second platoon, a reload, and the seventh went to Platoon 1."""
    edit_url = start(client)
    version = roster_of(edit_url).version
    client.post(f"{edit_url}forces/", {"name": "2nd Platoon", "version": version})
    second = roster_of(edit_url).forces.get(name="2nd Platoon")
    lieutenant = button(client.get(edit_url).content.decode(), "Second Lieutenant")[0]

    added = client.post(
        f"{edit_url}units/",
        {"unit_type": lieutenant, "force": second.id, "version": roster_of(edit_url).version},
        HTTP_HX_REQUEST="true",
    )

    assert added.status_code == 200
    assert added["HX-Replace-Url"] == f"{edit_url}?force={second.id}"  # the address a reload opens
    assert heading(client.get(added["HX-Replace-Url"]).content.decode()) == "Add a unit to 2nd Platoon"
    # The editor opened again without the force in its address: where the last unit went.
    reopened = client.get(edit_url).content.decode()
    assert heading(reopened) == "Add a unit to 2nd Platoon"
    assert f'<input type="hidden" name="force" value="{second.id}">' in picker(reopened)
