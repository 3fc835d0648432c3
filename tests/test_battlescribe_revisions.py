"""A roster stays on the data revision it was built with; a newer revision loaded shows what it would change.

The data is Konflikt '47's BSData folder from ../shared (skipped where absent), copied into a temporary
folder, loaded, and then edited as a data author would before loading it again as the next revision:
the Finnish Officer's Leutnant costs 50 points as a Regular in the data (Finland.cat, the modifier on
entry 0fed-033b-a77c-7e5d); the edit makes it 60.
"""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from lists.models import BattleScribeDataSet, BattleScribeRoster
from tests.test_battlescribe_games import Player, html, start, text

SHARED = Path(__file__).resolve().parents[2] / "shared"
SOURCE = SHARED / "bsdata" / "konflikt47"
LEUTNANT = b'id="0fed-033b-a77c-7e5d"'
OFFICER_ID = b"3929-41ac-3eb8-11ab"  # the Finnish Officer unit's entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def folder(tmp_path) -> Path:
    if not SOURCE.is_dir():
        pytest.skip(f"no data at {SOURCE}")
    copy = tmp_path / "konflikt47"
    shutil.copytree(SOURCE, copy)
    return copy


def load(folder: Path) -> BattleScribeDataSet:
    call_command("load_battlescribe", str(folder), stdout=StringIO())
    return BattleScribeDataSet.objects.order_by("-revision", "-pk").first()


def next_revision(folder: Path, change_finland) -> None:
    """The folder as the next revision: the game system's revision raised and Finland.cat changed."""
    system = folder / "Konflikt_47.gst"
    system.write_bytes(system.read_bytes().replace(b'revision="3"', b'revision="4"', 1))
    finland = folder / "Finland.cat"
    finland.write_bytes(change_finland(finland.read_bytes()))


def dearer_leutnant(content: bytes) -> bytes:
    head, tail = content.split(LEUTNANT, 1)
    assert b'value="50.0"' in tail[:1500]
    return head + LEUTNANT + tail.replace(b'value="50.0"', b'value="60.0"', 1)


def officer_reissued(content: bytes) -> bytes:
    """The Officer entry given a new id, as when an author recreates it: the roster's Officer is gone."""
    assert content.count(OFFICER_ID) > 1
    return content.replace(OFFICER_ID, b"9999-41ac-3eb8-11ab")


def finnish_roster(client, data_set: BattleScribeDataSet) -> Player:
    player = start(client, data_set, "Finland", "Reinforced Platoon", 1000)
    player.add("Officer")
    player.add("Rifle Squad")
    return player


def test_a_dearer_unit_in_a_newer_revision_is_shown_and_only_priced_so_after_moving(client, folder):
    first = load(folder)
    player = finnish_roster(client, first)
    built = BattleScribeRoster.objects.get()
    assert first.revision == 3 and "Officer [50]" in client.get(f"/bs/r/{built.share_id}/roster.txt").content.decode()

    next_revision(folder, dearer_leutnant)
    second = load(folder)
    assert (second.revision, BattleScribeDataSet.objects.count()) == (4, 2)

    page = html(client.get(player.edit_url))
    notice = page.xpath("//*[@id='newer-data']")[0]
    assert text(notice.xpath("h2")[0]) == f"Newer data loaded: {second.name} revision 4 (was 3)"
    changes = [text(li) for li in notice.xpath(".//ul[@id='revision-changes']/li")]
    assert changes == ["Officer (Reinforced Platoon): 50 → 60 points"]
    assert text(notice.xpath(".//*[@id='newer-points']")[0]) == f"{built.points + 10:g} points"
    # Not re-priced: the page and the kept roster keep revision 3's points until the player moves.
    assert text(page.xpath("//*[@id='bs-totals']")[0]).startswith(f"{built.points:g} / 1000 points")
    shared = html(client.get(f"/bs/r/{built.share_id}/"))
    assert [text(li) for li in shared.xpath("//ul[@id='revision-changes']/li")] == changes
    assert not shared.xpath("//*[@id='move-form']")  # read-only: it says where the move is made
    assert "Whoever holds its edit link can move it." in text(shared.xpath("//*[@id='newer-data']")[0])
    kept = BattleScribeRoster.objects.get()
    assert (kept.data_set_id, kept.points) == (first.pk, built.points)

    form = page.xpath("//form[@id='move-form']")[0]
    assert text(form.xpath("button")[0]) == "Move to revision 4"
    fields = {i.get("name"): i.get("value") for i in form.xpath(".//input[@name]")}
    moved = client.post(form.get("action"), fields)
    assert moved.status_code == 302 and moved["Location"] == player.edit_url

    kept = BattleScribeRoster.objects.get()
    assert (kept.data_set_id, kept.points, kept.version) == (second.pk, built.points + 10, built.version + 1)
    page = html(client.get(player.edit_url))
    assert not page.xpath("//*[@id='newer-data']")
    assert text(page.xpath("//*[@id='bs-totals']")[0]).startswith(f"{built.points + 10:g} / 1000 points")
    assert "Officer [60]" in client.get(f"/bs/r/{kept.share_id}/roster.txt").content.decode()


def test_a_unit_the_newer_revision_no_longer_has_is_reported_and_the_move_refused(client, folder):
    first = load(folder)
    player = finnish_roster(client, first)
    built = BattleScribeRoster.objects.get()
    next_revision(folder, officer_reissued)
    second = load(folder)

    page = html(client.get(player.edit_url))
    changes = [text(li) for li in page.xpath("//ul[@id='revision-changes']/li")]
    assert changes == ["Officer (Reinforced Platoon): no longer in the data"]
    assert text(page.xpath("//*[@id='move-blocked']")[0]).startswith(
        "It cannot move while it holds entries revision 4 no longer has"
    )
    assert not page.xpath("//form[@id='move-form']")
    found = [text(li) for li in page.xpath("//*[@id='newer-data']//li[@class='finding error']")]
    assert "must have 1 more selections of Headquarters (minimum 1)" in found

    # A move posted anyway (an older page, a script) is refused, naming the unit, and nothing changes.
    refused = client.post(player.edit_url + "move/", {"data_set": second.pk, "version": built.version})
    assert refused.status_code == 400
    assert "Revision 4 no longer has: Officer. Remove these from the roster first" in refused.content.decode()
    kept = BattleScribeRoster.objects.get()
    assert (kept.data_set_id, kept.points, kept.ros_xml) == (first.pk, built.points, built.ros_xml)


def test_a_move_from_a_page_older_than_the_roster_is_not_made(client, folder):
    first = load(folder)
    player = finnish_roster(client, first)
    next_revision(folder, dearer_leutnant)
    second = load(folder)
    form = html(client.get(player.edit_url)).xpath("//form[@id='move-form']")[0]
    fields = {i.get("name"): i.get("value") for i in form.xpath(".//input[@name]")}
    player.add("Rifle Squad")  # changed in another tab after the page with the button was shown
    changed = BattleScribeRoster.objects.get()

    stale = client.post(form.get("action"), fields)
    assert stale.status_code == 400
    assert "This roster was changed elsewhere since you opened the page" in stale.content.decode()
    kept = BattleScribeRoster.objects.get()
    assert (kept.data_set_id, kept.points, kept.version) == (first.pk, changed.points, changed.version)
    assert second.rosters.count() == 0
