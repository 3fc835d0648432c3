"""Every roster, of our packs or of a loaded BattleScribe data set, goes through one path (lists.roster_kinds):
the same unit cap, the same rate limits on adds, edits and files, and its PDFs made of the stored roster.

Rosters of a data set are built by the engine from the Konflikt '47 data in ../shared (skipped where absent),
with entries as tests/test_battlescribe_games.py picks them; ours from the seed packs.
"""

from __future__ import annotations

import io
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from lxml import etree
from pypdf import PdfReader

from lists.battlescribe.engine import Roster
from lists.battlescribe.engine.roster_files import write_roster_xml
from lists.gamedata.battlescribe_cache import battlescribe_game_data
from lists.models import BattleScribeDataSet, BattleScribeRoster
from lists.models import Roster as OurRoster
from lists.roster_kinds import opened
from lists.roster_kinds.base import Change, ChangeRefused, StaleChange
from lists.rosters import battlescribe_data_editing as editing
from lists.rosters.battlescribe_writing import roster_rosz
from lists.rosters.format import MAX_FILE_BYTES, MAX_UNITS
from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id
from tests.test_battlescribe_data_rosters import SHARED
from tests.test_hostile_editing import imported, loaded  # noqa: F401 - `loaded` is a fixture

KONFLIKT = SHARED / "bsdata" / "konflikt47"
ARMY, FORCE, SQUAD = "Finland", "Reinforced Platoon", "Rifle Squad"
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture(scope="module")
def konflikt(django_db_setup, django_db_blocker):
    """The Konflikt '47 data set, loaded once for the module."""
    if not KONFLIKT.is_dir():
        pytest.skip(f"no data at {KONFLIKT}")
    with django_db_blocker.unblock():
        call_command("load_battlescribe", str(KONFLIKT), stdout=StringIO())
    yield
    with django_db_blocker.unblock():
        BattleScribeRoster.objects.all().delete()
        BattleScribeDataSet.objects.all().delete()


def squads(count: int) -> Roster:
    """A Finnish platoon of `count` units (what the data selects at the start, then rifle squads), built by the
    engine in one action."""
    data = battlescribe_game_data(BattleScribeDataSet.objects.get(source_folder__endswith=KONFLIKT.name))
    book = next(c for c in data.catalogues if c.name == ARMY)
    entry = next(f for f in [*data.game_system.force_entries, *book.force_entries] if f.name == FORCE)
    roster = Roster(data, f"{count} squads")
    with roster.action():
        force = roster.add_force(entry.id, book.id)
        option = next(o for o in force.options if o.name == SQUAD)
        for _ in range(count - len(force.selections)):
            roster.select(force, option)
    return roster


def bare_file(units: int) -> bytes:
    """A .rosz of `units` units as a hand-written file gives them: each squad one bare selection element."""
    root = etree.fromstring(write_roster_xml(squads(2), with_info=False).encode())
    held = root.find("{*}forces/{*}force/{*}selections")
    squad = next(node for node in held if node.get("name") == SQUAD)
    held.remove(squad)
    for number in range(units - len(held)):
        attributes = {"id": f"squad-{number}", "name": SQUAD, "entryId": squad.get("entryId"), "number": "1"}
        etree.SubElement(held, squad.tag, {**attributes, "type": "unit"})
    return roster_rosz(etree.tostring(root))


def stored(roster: Roster) -> tuple[BattleScribeRoster, str]:
    data_set = BattleScribeDataSet.objects.get(source_folder__endswith=KONFLIKT.name)
    secret = new_edit_secret()
    return editing.keep_new(data_set, roster, new_share_id(), hash_secret(secret)), secret


def add_squad(client, kept: BattleScribeRoster, secret: str):
    """The editor's add button of a rifle squad, posted without htmx."""
    force = editing.open_roster(kept).forces[0]
    option = next(o for o in force.options if o.name == SQUAD)
    return client.post(f"/bs/e/{secret}/change/", {"action": "add", "force": force.id, "entry": option.id})


@pytest.mark.usefixtures("konflikt", "one_rate_window")
@pytest.mark.timeout(300)
def test_the_121st_unit_added_in_a_minute_to_a_data_set_roster_is_refused_as_on_ours(client, settings):
    settings.UNIT_ADD_RATE = "120/m"
    kept, secret = stored(squads(2))
    answers = [add_squad(client, kept, secret).status_code for _ in range(121)]
    assert answers[:120] == [302] * 120
    assert answers[120] == 429
    kept.refresh_from_db()
    assert editing.unit_count(kept) == 122  # the refused add added nothing


@pytest.mark.usefixtures("konflikt")
@pytest.mark.timeout(300)
def test_a_data_set_roster_takes_no_unit_past_the_cap_our_rosters_have(client):
    kept, secret = stored(squads(MAX_UNITS - 1))
    assert add_squad(client, kept, secret).status_code == 302  # the 400th
    full = add_squad(client, kept, secret)
    assert full.status_code == 400
    assert f"A roster holds at most {MAX_UNITS} units; this one is full." in full.content.decode()
    kept.refresh_from_db()
    assert editing.unit_count(kept) == MAX_UNITS


@pytest.mark.usefixtures("konflikt")
@pytest.mark.timeout(300)
def test_a_count_of_100_cannot_take_a_data_set_roster_past_the_cap(client):
    kept, secret = stored(squads(MAX_UNITS - 50))
    force = editing.open_roster(kept).forces[0]
    officers = next(o for o in force.options if o.name == "Officer")
    fields = {"action": "count", "count": "100", "force": force.id, "entry": officers.id}
    refused = client.post(f"/bs/e/{secret}/change/", fields)
    assert refused.status_code == 400
    assert f"A roster holds at most {MAX_UNITS} units; this one is full." in refused.content.decode()
    kept.refresh_from_db()
    assert editing.unit_count(kept) == MAX_UNITS - 50


@pytest.mark.usefixtures("konflikt")
@pytest.mark.timeout(300)
def test_a_data_set_roster_file_over_the_cap_is_refused_on_import_and_nothing_is_saved(client):
    upload = SimpleUploadedFile("big.rosz", bare_file(MAX_UNITS + 1))
    response = client.post("/rosters/import/", {"file": upload})
    assert response.status_code == 400
    assert f"a roster holds at most {MAX_UNITS} units" in response.content.decode()
    assert not BattleScribeRoster.objects.exists()


@pytest.mark.usefixtures("konflikt", "one_rate_window")
@pytest.mark.parametrize("name", ["roster.txt", "roster.json", "roster.yaml", "roster.ros"])
def test_a_data_set_rosters_files_are_rate_limited_per_client(client, settings, name):
    settings.PAGE_RATE = "3/m"
    kept, _ = stored(squads(2))
    answers = [client.get(f"/bs/r/{kept.share_id}/{name}").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


@pytest.mark.usefixtures("one_rate_window")
@pytest.mark.parametrize("name", ["roster.txt", "roster.json", "roster.yaml"])
@pytest.mark.usefixtures("loaded")
def test_our_rosters_files_are_rate_limited_per_client(client, settings, name):
    imported(client, 2)
    settings.PAGE_RATE = "3/m"
    roster = OurRoster.objects.get()
    answers = [client.get(f"/r/{roster.share_id}/{name}").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


@pytest.mark.usefixtures("konflikt")
@pytest.mark.timeout(300)
def test_the_cards_of_a_data_set_roster_bigger_than_an_upload_are_made_from_the_stored_roster(client):
    kept, _ = stored(squads(130))
    assert len(editing.export_xml(kept).encode()) > MAX_FILE_BYTES  # its .ros could not be uploaded
    response = client.get(f"/bs/r/{kept.share_id}/cards.pdf")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert text.count(SQUAD) >= 129  # every squad has its card
    # The roster card (its share link as a QR code) and then a card per squad: 131 pages, each naming the game.
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert "Scan to open this roster" in pages[0].extract_text()
    assert len(pages) == 131
    assert pages[-1].extract_text().endswith("Konflikt_47 (data revision 3)")


def squad_added(kept: BattleScribeRoster) -> Change:
    """The data-set editor's add of a rifle squad to the first force, as the change it posts."""
    force = editing.open_roster(kept).forces[0]
    option = next(o for o in force.options if o.name == SQUAD)
    return Change("add", {"action": "add", "force": force.id, "entry": option.id})


def our_squad_added(draft) -> None:
    draft.forces()[0]["units"].append({"unit": "rifle-squad", "label": "Third squad"})


@pytest.mark.usefixtures("konflikt")
def test_one_change_applied_to_a_data_set_roster_is_saved_and_priced_by_the_engine():
    kept, _ = stored(squads(2))
    before = opened(kept).verdict()["points"]

    opened(kept).apply(squad_added(kept), kept.version)

    kept.refresh_from_db()
    after = opened(kept).verdict()["points"]
    assert editing.unit_count(kept) == 3
    assert after > before
    assert kept.points == after


@pytest.mark.usefixtures("loaded")
def test_one_change_applied_to_our_roster_is_saved_and_priced_by_the_pack(client):
    imported(client, 2)
    row = OurRoster.objects.get()
    before = opened(row).verdict()["points"]

    opened(row).apply(Change(on_draft=our_squad_added), row.version)

    row.refresh_from_db()
    assert row.units.count() == 3
    assert opened(row).verdict()["points"] > before


@pytest.mark.usefixtures("konflikt")
def test_a_stale_or_forged_change_to_a_data_set_roster_is_refused_and_nothing_is_saved():
    kept, _ = stored(squads(2))
    forged = Change("add", {"action": "add", "force": editing.open_roster(kept).forces[0].id, "entry": "no-such-id"})

    with pytest.raises(StaleChange):
        opened(kept).apply(squad_added(kept), kept.version - 1)
    with pytest.raises(ChangeRefused, match="offers no entry no-such-id"):
        opened(kept).apply(forged, kept.version)

    kept.refresh_from_db()
    assert editing.unit_count(kept) == 2


@pytest.mark.usefixtures("loaded")
def test_a_stale_or_unknown_change_to_our_roster_is_refused_and_nothing_is_saved(client):
    imported(client, 2)
    row = OurRoster.objects.get()

    def unknown(draft) -> None:
        draft.forces()[0]["units"].append({"unit": "no-such-unit"})

    with pytest.raises(StaleChange):
        opened(row).apply(Change(on_draft=our_squad_added), row.version - 1)
    with pytest.raises(ChangeRefused) as refused:
        opened(row).apply(Change(on_draft=unknown), row.version)

    assert any("no-such-unit" in problem for problem in refused.value.problems)
    row.refresh_from_db()
    assert row.units.count() == 2
