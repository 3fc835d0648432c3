"""The editor's unit controls on the Bolt Action packs: what a unit holds when it is added (its compulsory
weapons, its variant, its quality), one-of choices as one control, and the Men stepper counting every man."""

import re

import pytest

from lists.gamedata.loading import game_data
from lists.models import Army, Roster, RosterUnit
from lists.rosters.sharing import hash_secret

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def start(client, army_key: str) -> str:
    army = Army.objects.get(system__key="bolt-action-2e", key=army_key)
    response = client.post("/rosters/new/", {"army": army.id, "name": "Test list", "points_limit": "1000"})
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def roster_of(edit_url: str) -> Roster:
    return Roster.objects.get(edit_secret_hash=hash_secret(edit_url.strip("/").split("/")[-1]))


def add(client, edit_url: str, unit_key: str) -> RosterUnit:
    """Add a unit as the picker does; the unit saved."""
    roster = roster_of(edit_url)
    data = game_data(roster.system)
    unit_id = next(u for _, u in data.available_units(roster.army_id) if data.unit_types[u].key == unit_key)
    response = client.post(f"{edit_url}units/", {"unit_type": unit_id, "version": roster.version})
    assert response.status_code == 302, response.content.decode()[:2000]
    return roster.units.order_by("-id").first()


def unit_html(client, edit_url: str, unit: RosterUnit) -> str:
    page = client.get(f"{edit_url}?unit={unit.id}").content.decode()
    start_at = page.index(f'id="unit-{unit.id}"')
    return page[start_at : page.index("</article>", start_at)]


def taken(unit: RosterUnit) -> dict[str, int]:
    return {o.option.name: o.count for o in unit.chosen_options.select_related("option")}


def test_an_m3_half_track_arrives_armed_with_its_pintle_hmg_and_no_finding_asks_for_it(client):
    """BA2 - Armies of the United States.cat, M3 Half-track b5fa9965: Pintle-Mounted HMG (360) 0c920c1f, least 1
    in its Pintle mount group (0 points); Regular 99."""
    edit_url = start(client, "united-states-1944-normandy")
    half_track = add(client, edit_url, "united-states-m3-half-track")

    assert taken(half_track) == {"Pintle-Mounted HMG (360)": 1}
    assert half_track.quality.key == "regular"
    html = unit_html(client, edit_url, half_track)
    assert "99 pts" in html  # Regular 99, the HMG 0
    assert "must take" not in html and "HMG" not in " ".join(
        re.findall(r'<li class="finding[^"]*".*?</li>', html, re.S)
    )
    # The look-up's model line and weapons table, as the card prints them.
    assert "Pintle (360°) Heavy machine gun (HMG)" in " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert re.search(r'<th scope="row">Heavy machine gun \(HMG\)</th><td>36&quot;</td><td>3</td>', html)


def post_unit(client, edit_url: str, unit: RosterUnit, **values):
    roster = roster_of(edit_url)
    return client.post(f"{edit_url}units/{unit.id}/", {"label": unit.label, "version": roster.version, **values})


def test_unticking_a_compulsory_weapon_keeps_it_and_a_file_without_it_is_armed_too(client):
    edit_url = start(client, "united-states-1944-normandy")
    half_track = add(client, edit_url, "united-states-m3-half-track")

    response = post_unit(client, edit_url, half_track, quality="regular")  # no option ticked: the box is disabled

    assert response.status_code == 302
    assert taken(half_track) == {"Pintle-Mounted HMG (360)": 1}
    field = re.search(r'<input[^>]*name="option-pintle-mounted-hmg-360"[^>]*>', unit_html(client, edit_url, half_track))
    assert "checked" in field.group(0) and "disabled" in field.group(0)

    text = (
        "format: armybuilder-roster/1\ngame: Bolt Action (2nd edition)\narmy: united-states-1944-normandy\n"
        "name: Imported\npoints_limit: 1000\nforces:\n  - name: First Platoon\n    units:\n"
        "      - {unit: united-states-m3-half-track, quality: Regular}\n"
    )
    imported = client.post("/rosters/import/", {"text": text})
    assert imported.status_code == 302, imported.content.decode()[:1000]
    assert taken(roster_of(imported["Location"]).units.get()) == {"Pintle-Mounted HMG (360)": 1}


def test_an_sdkfz_222_gets_its_default_variant_shown_as_one_choice(client):
    """BA2 - Armies of Germany.cat, SdKfz 222 3e9fa184: Variant group 3500ec1b, default Sdkfz 222 78f86b68 (0)."""
    edit_url = start(client, "germany-1944-normandy")
    armoured_car = add(client, edit_url, "germany-sdkfz-222-light-armoured-car")

    assert taken(armoured_car) == {"Sdkfz 222": 1}
    html = unit_html(client, edit_url, armoured_car)
    assert re.search(r"<legend>Variant</legend>", html)
    assert re.search(r'<input type="radio" name="choice-variant" value="sdkfz-222"[^>]*checked>', html)


def test_a_lieutenants_weapon_is_one_choice_of_radios_and_two_posted_are_refused(client):
    edit_url = start(client, "germany-1944-normandy")
    lieutenant = add(client, edit_url, "germany-leutnant-second-lieutenant")
    html = unit_html(client, edit_url, lieutenant)

    radios = re.findall(r'<input type="radio" name="choice-weapon" value="([^"]*)"', html)
    assert radios == ["", "smg", "rifle", "assault-rifle"]
    assert 'name="option-smg"' not in html and 'type="checkbox" name="option-rifle"' not in html
    assert re.search(r"As listed</label>", html)

    chosen = post_unit(client, edit_url, lieutenant, quality="regular", **{"choice-weapon": "smg"})
    assert chosen.status_code == 302
    assert taken(lieutenant) == {"SMG": 1}

    roster = roster_of(edit_url)
    both = client.post(
        f"{edit_url}units/{lieutenant.id}/",
        {"label": lieutenant.label, "version": roster.version, "quality": "regular", "choice-weapon": ["smg", "rifle"]},
    )
    assert both.status_code == 400
    assert "Choose one weapon: SMG and Rifle were both chosen." in both.content.decode()
    assert taken(lieutenant) == {"SMG": 1}


def test_a_new_mmg_team_starts_regular(client):
    edit_url = start(client, "united-states-1944-normandy")
    team = add(client, edit_url, "united-states-medium-machine-gun-team")
    assert team.quality.key == "regular"


def test_a_us_squad_with_a_bar_can_be_seven_men_from_the_men_stepper(client):
    """BA2 - Armies of the United States.cat, Infantry Squad (Early/Mid- War) 28809a19: Regular 60 for an NCO and
    five soldiers (10 each more); Regular Soldier with Bar M1918A2 14d7-2b35-f44b-2aa1, 15, one of the squad's
    men. Seven men with the BAR: the NCO, five riflemen and the gunner, 60 + 15 = 75."""
    edit_url = start(client, "united-states-1944-normandy")
    squad = add(client, edit_url, "united-states-infantry-squad-early-mid-war")
    bar = "option-regular-soldier-with-bar-m1918a2"

    ticked = post_unit(client, edit_url, squad, quality="regular", size="6", **{bar: "on"})
    assert ticked.status_code == 302
    squad.refresh_from_db()
    html = unit_html(client, edit_url, squad)
    assert re.search(r'name="size"[^>]*value="6"', html) and "6 men" in html  # the gunner is one of the six
    assert "65 pts" in html

    stepped = post_unit(client, edit_url, squad, quality="regular", size="7", **{bar: "on"})  # one "+"
    assert stepped.status_code == 302
    squad.refresh_from_db()
    html = unit_html(client, edit_url, squad)
    assert squad.size == 6  # its own men; the gunner comes on top
    assert re.search(r'name="size"[^>]*value="7"', html) and "7 men" in html
    assert "75 pts" in html
    assert "Not legal" not in html


def test_fewer_men_than_the_options_add_is_refused_on_the_men_field(client):
    edit_url = start(client, "united-states-1944-normandy")
    squad = add(client, edit_url, "united-states-infantry-squad-early-mid-war")
    response = post_unit(
        client, edit_url, squad, quality="regular", size="1", **{"option-regular-soldier-with-bar-m1918a2": "on"}
    )
    assert response.status_code == 400
    assert "Men count the 1 its options add: give at least 2." in response.content.decode()
