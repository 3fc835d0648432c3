"""The home page's army choice: grouped by game and nation, no two nations' theatre lists alike."""

import re

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def army_choice(client) -> dict[str, list[str]]:
    page = client.get("/").content.decode()
    select = page[page.index('<select name="army"') : page.index("</select>", page.index('<select name="army"'))]
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select)
    return {label: re.findall(r"<option [^>]*>([^<]+)</option>", body) for label, body in groups}


def test_each_nation_has_its_own_group_with_its_theatre_lists(client):
    groups = army_choice(client)
    britain = groups["Bolt Action (2nd edition): Armies of Great Britain"]
    assert britain[0] == "Armies of Great Britain"  # the nation's own army first
    assert "1944: Normandy (Armies of Great Britain)" in britain


def test_no_two_armies_of_a_game_read_alike(client):
    names = [name for label, armies in army_choice(client).items() if label.startswith("Bolt") for name in armies]
    assert len(names) == len(set(names)) == 25 + 242 + 1  # nations, theatre lists and the generic army
    assert "1944: Normandy (Armies of the United States)" in names


def test_the_army_search_box_comes_with_its_script(client):
    page = client.get("/").content.decode()
    assert 'id="army-filter"' in page and "js/army-filter.js" in page


def unit_counts(html: str, system_key: str) -> dict[str, str]:
    """Each army's "N units" beside its link to the army page."""
    found = re.findall(
        rf'<a href="/games/{system_key}/armies/([^/]+)/">[^<]*</a> <span class="meta">(\d+) units?</span>', html
    )
    return dict(found)


def test_the_home_page_counts_a_theatre_lists_units_as_the_game_page_does(client):
    """A theatre list's units are borrowed from its nation: counting only its own gave "0 units"."""
    home = unit_counts(client.get("/").content.decode(), "bolt-action-2e")
    game = unit_counts(client.get("/games/bolt-action-2e/").content.decode(), "bolt-action-2e")

    assert int(home["great-britain-1944-normandy"]) > 10
    assert home == game
