"""A player's roster locker over HTTP: three test clients are three devices (A and B the player's, C a stranger).

"My rosters" lives on the server: a join link (shown once, with its QR code) joins another device, rosters
started, renamed or removed on one show so on all, a roster deleted for good says so on its links, and a zip
holds every roster.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
import yaml
from django.core import signing
from django.test import Client, RequestFactory, override_settings
from pypdf import PdfReader

from lists.models import BattleScribeRoster, Locker, LockerDevice, LockerEntry, Roster
from lists.rosters import locker
from lists.rosters.sharing import hash_secret, qr_svg
from lists.web.devices import this_device
from tests.test_battlescribe_pdf_delivery import flames_of_war, stored_roster  # noqa: F401 - the real data's fixture

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "heroes-all.yaml").read_text()
JOIN = re.compile(r'id="join-url"[^>]*href="(http://testserver(/rosters/join/([^/"]+)/))"')

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def start(device: Client, name: str) -> tuple[Roster, str]:
    """A roster imported on `device`, renamed `name`: the roster and its edit link."""
    edit = device.post("/rosters/import/", {"text": EXAMPLE})["Location"]
    roster = Roster.objects.order_by("-id").first()
    renamed = device.post(f"{edit}settings/", {"version": roster.version, "name": name})
    assert renamed.status_code in (200, 302)
    roster.refresh_from_db()
    assert roster.name == name
    return roster, edit


def join_link(device: Client) -> tuple[str, str, str]:
    """The join link `device` makes on "my rosters": its address, path and secret."""
    page = device.post("/rosters/mine/link/").content.decode()
    return JOIN.search(page).groups()


def joined(device: Client, path: str) -> None:
    assert device.post(path).status_code == 302


def mine(device: Client, query: str = "") -> str:
    return device.get(f"/rosters/mine/{query}").content.decode()


@pytest.fixture
def devices():
    return Client(), Client(), Client()


def test_the_join_link_shows_once_with_its_qr_code_drawn_in_the_page(devices):
    a, _, _ = devices
    start(a, "Ardennes patrol")

    response = a.post("/rosters/mine/link/")

    page = response.content.decode()
    url, path, secret = JOIN.search(page).groups()
    assert re.search(r'<svg [^>]*class="qr"', page) and "<title>QR code of the join link</title>" in page
    assert qr_svg(url, "QR code of the join link") in page  # the code drawn is the link shown
    assert "no-store" in response["Cache-Control"]
    assert secret not in mine(a)  # shown once: "my rosters" never holds it
    assert Locker.objects.get().join_secret_hash == hash_secret(secret)  # kept as a hash only


def test_a_second_device_joins_lists_and_edits_the_first_device_s_rosters(devices):
    a, b, _ = devices
    first, first_edit = start(a, "Ardennes patrol")
    start(a, "Bastogne relief")
    _, path, _ = join_link(a)

    confirm = b.get(path)
    assert confirm.status_code == 200 and "This device will share" in confirm.content.decode()
    assert LockerDevice.objects.count() == 1 and "Ardennes patrol" not in mine(b)  # asking joins nothing
    joined(b, path)

    page = mine(b)
    assert "Ardennes patrol" in page and "Bastogne relief" in page
    assert first_edit in page
    editor = b.get(first_edit).content.decode()
    version = re.search(r'name="version" value="(\d+)"', editor).group(1)
    assert b.post(f"{first_edit}settings/", {"version": version, "name": "Ardennes raid"}).status_code in (200, 302)
    assert "Ardennes raid" in mine(a)  # B's edit shows on A


def test_a_roster_started_on_the_second_device_shows_on_the_first(devices):
    a, b, _ = devices
    start(a, "Ardennes patrol")
    _, path, _ = join_link(a)
    joined(b, path)

    start(b, "Phone list")

    assert "Phone list" in mine(a)


def test_a_device_with_rosters_of_its_own_brings_them_when_it_joins(devices):
    a, b, _ = devices
    start(a, "Ardennes patrol")
    start(b, "Phone list")
    _, path, _ = join_link(a)

    assert "The 1 roster this device has already" in b.get(path).content.decode()
    joined(b, path)

    assert "Phone list" in mine(a) and "Ardennes patrol" in mine(b)
    assert Locker.objects.count() == 1  # B's old locker, which no device opens any more, is gone


def test_a_roster_removed_on_one_device_leaves_every_list_and_its_links_keep_working(devices):
    a, b, _ = devices
    roster, edit = start(a, "Ardennes patrol")
    start(a, "Bastogne relief")
    _, path, _ = join_link(a)
    joined(b, path)

    assert b.post(f"/rosters/mine/ours/{roster.share_id}/remove/").status_code == 302

    assert "Ardennes patrol" not in mine(a) and "Ardennes patrol" not in mine(b)
    assert "Bastogne relief" in mine(a)
    assert a.get(f"/r/{roster.share_id}/").status_code == 200
    assert a.get(edit).status_code == 200


def test_a_wrong_or_replaced_join_secret_answers_404(devices):
    a, b, _ = devices
    start(a, "Ardennes patrol")
    _, old, _ = join_link(a)
    _, new, _ = join_link(a)  # a new link: the old one stops working

    assert b.get("/rosters/join/not-the-secret/").status_code == 404
    assert b.post("/rosters/join/not-the-secret/").status_code == 404
    assert b.get(old).status_code == 404 and b.post(old).status_code == 404
    assert "Ardennes patrol" not in mine(b)
    joined(b, new)
    assert "Ardennes patrol" in mine(b)


def test_no_share_page_holds_the_locker_s_or_a_device_s_secret(devices):
    a, b, c = devices
    roster, _ = start(a, "Ardennes patrol")
    _, path, secret = join_link(a)
    joined(b, path)
    device_secrets = [client.cookies["device"].value for client in (a, b)]

    for page in (c.get(f"/r/{roster.share_id}/"), a.get(f"/r/{roster.share_id}/"), a.get("/rosters/mine/kept/")):
        html = page.content.decode()
        assert page.status_code == 200
        assert secret not in html and "/rosters/join/" not in html
        assert not any(value in html or value.split(":")[0] in html for value in device_secrets)
    assert "/e/" not in a.get("/rosters/mine/kept/").content.decode()
    assert roster.share_id in a.get("/rosters/mine/kept/").content.decode()


def test_a_stranger_sees_none_of_the_rosters(devices):
    a, b, c = devices
    start(a, "Ardennes patrol")
    _, path, _ = join_link(a)
    joined(b, path)

    assert "Ardennes patrol" not in mine(c) and "None yet." in mine(c)
    assert c.get("/rosters/mine/devices/").status_code == 404
    assert c.get("/rosters/mine/rosters.zip").status_code == 404
    start(c, "Stranger's list")
    assert "Stranger's list" not in mine(a) and "Ardennes patrol" not in mine(c)


def test_a_dropped_device_no_longer_reaches_the_locker(devices):
    a, b, _ = devices
    start(a, "Ardennes patrol")
    _, path, _ = join_link(a)
    joined(b, path)
    page = a.get("/rosters/mine/devices/").content.decode()
    assert page.count('class="device"') == 2 and "(this device)" in page and "joined " in page
    b_device = LockerDevice.objects.exclude(pk=a.get("/rosters/mine/devices/").context["this"].pk).get()

    assert a.post(f"/rosters/mine/devices/{b_device.pk}/drop/").status_code == 302

    assert "Ardennes patrol" not in mine(b)
    assert "Ardennes patrol" in mine(a)
    a_device = LockerDevice.objects.get()
    assert a.post(f"/rosters/mine/devices/{a_device.pk}/drop/").status_code == 302  # the last device leaves
    assert "Ardennes patrol" not in mine(a) and not Locker.objects.exists()
    assert Roster.objects.filter(name="Ardennes patrol").exists()  # the roster and its links stay


def test_deleting_for_good_asks_first_then_its_links_say_it_was_deleted(devices):
    a, b, c = devices
    roster, edit = start(a, "Ardennes patrol")
    _, path, _ = join_link(a)
    joined(b, path)
    delete = f"/rosters/mine/ours/{roster.share_id}/delete/"

    confirm = b.get(delete)
    assert confirm.status_code == 200 and "Delete for good" in confirm.content.decode()
    assert Roster.objects.filter(pk=roster.pk).exists()  # asking deletes nothing
    assert c.post(delete).status_code == 404  # a stranger's device holds no such roster
    assert b.post(delete).status_code == 302

    for link in (f"/r/{roster.share_id}/", edit, f"/r/{roster.share_id}/roster.yaml"):
        gone = c.get(link)
        assert gone.status_code == 410, link
        assert "This roster was deleted" in gone.content.decode() and "Ardennes patrol" in gone.content.decode()
    assert "Ardennes patrol" not in mine(a)
    assert not LockerEntry.objects.exists()


def test_the_zip_holds_every_roster_of_the_locker_under_unique_names(devices):
    a, b, _ = devices
    start(a, "Ardennes patrol")
    start(a, "Ardennes patrol")
    _, path, _ = join_link(a)
    joined(b, path)
    start(b, "Phone list / 1000 pts")

    response = b.get("/rosters/mine/rosters.zip")

    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == ["ardennes-patrol-2.yaml", "ardennes-patrol.yaml", "phone-list-1000-pts.yaml"]
    names = {yaml.safe_load(archive.read(name))["name"] for name in archive.namelist()}
    assert names == {"Ardennes patrol", "Phone list / 1000 pts"}


def test_my_rosters_is_sorted_newest_change_first_and_searched_by_name(devices):
    a, _, _ = devices
    first, edit = start(a, "Ardennes patrol")
    start(a, "Bastogne relief")
    page = mine(a)
    assert page.index("Bastogne relief") < page.index("Ardennes patrol")
    a.post(f"{edit}settings/", {"version": Roster.objects.get(pk=first.pk).version, "name": "Ardennes raid"})

    page = mine(a)
    assert page.index("Ardennes raid") < page.index("Bastogne relief")
    found = mine(a, "?q=bastogne")
    assert "Bastogne relief" in found and "Ardennes raid" not in found
    assert "No roster's name holds “zzz”" in mine(a, "?q=zzz")


def test_hundreds_of_rosters_stay_in_the_locker(devices):
    a, _, _ = devices
    roster, _ = start(a, "Ardennes patrol")
    opened = _opened(a)
    for number in range(300):
        many = Roster.objects.create(
            share_id=f"many{number}",
            edit_secret_hash=hash_secret(f"secret-{number}"),
            system=roster.system,
            army=roster.army,
            name=f"List {number}",
        )
        locker.keep(opened, many, f"secret-{number}")

    page = mine(a)
    assert page.count('class="kept-roster"') == 301  # the old cookie kept 50 at most
    assert 'href="/e/secret-299/"' in page and "Ardennes patrol" in page


def _opened(device: Client) -> locker.Opened:
    """The locker the device's cookie opens, as a view sees it."""
    request = RequestFactory().get("/")
    request.COOKIES = {"device": device.cookies["device"].value}
    return this_device(request)


def test_rosters_kept_in_the_old_cookie_come_into_the_locker_the_first_time_the_device_is_seen(devices):
    a, _, _ = devices
    roster, edit = start(a, "Ardennes patrol")
    secret = edit.strip("/").split("/")[-1]
    LockerEntry.objects.all().delete()
    old = Client()
    old.cookies["my_rosters"] = signing.get_cookie_signer(salt="my_rosters").sign(json.dumps([secret]))

    response = old.get("/rosters/mine/")

    assert edit in response.content.decode()
    assert response.cookies["my_rosters"].value == ""  # the old cookie is dropped, its rosters kept on the server
    assert "device" in response.cookies
    assert edit in mine(old)


@override_settings(JOIN_RATE="3/m")
@pytest.mark.usefixtures("one_rate_window")
def test_join_attempts_are_limited_per_client(devices):
    _, b, _ = devices
    for _ in range(3):
        assert b.get("/rosters/join/a-guess/").status_code == 404
    assert b.get("/rosters/join/a-guess/").status_code == 429


def test_the_locker_s_forms_are_refused_without_a_csrf_token(devices):
    a, _, _ = devices
    roster, _ = start(a, "Ardennes patrol")
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = a.cookies

    assert strict.post("/rosters/mine/link/").status_code == 403
    assert strict.post(f"/rosters/mine/ours/{roster.share_id}/remove/").status_code == 403
    assert strict.post(f"/rosters/mine/ours/{roster.share_id}/delete/").status_code == 403
    assert "Ardennes patrol" in mine(a)


@pytest.mark.usefixtures("flames_of_war")
def test_a_battlescribe_data_roster_joins_the_locker_and_the_zip_as_ros(devices):
    a, b, _ = devices
    shared, _ = stored_roster()
    a.post(f"/bs/r/{shared.share_id}/copy/")  # a copy of the visitor's own, in their locker
    own = BattleScribeRoster.objects.get(name="Copy of Bulge breakout")
    _, path, _ = join_link(a)
    joined(b, path)

    assert "Copy of Bulge breakout" in mine(b) and "/bs/e/" in mine(b)
    archive = zipfile.ZipFile(io.BytesIO(b.get("/rosters/mine/rosters.zip").content))
    assert archive.namelist() == ["copy-of-bulge-breakout.ros"]
    assert b"<roster " in archive.read("copy-of-bulge-breakout.ros")
    assert b.post(f"/rosters/mine/data/{own.share_id}/delete/").status_code == 302
    gone = Client().get(f"/bs/r/{own.share_id}/")
    assert gone.status_code == 410 and "Copy of Bulge breakout" in gone.content.decode()


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_organiser_s_list_carries_the_share_link_as_a_qr_code(devices):
    a, _, _ = devices
    roster, _ = start(a, "Ardennes patrol")
    other, _ = start(a, "Ardennes patrol")  # the same content, another roster: its own link on its own list

    pdfs = [a.get(f"/r/{one.share_id}/list.pdf") for one in (roster, other)]

    for one, response in zip((roster, other), pdfs, strict=True):
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        text = pdf_text(response.content)
        assert "Scan to open this roster" in text
        assert f"http://testserver/r/{one.share_id}/".replace(" ", "") in text.replace(" ", "")
    page = PdfReader(io.BytesIO(pdfs[0].content)).pages[0]
    assert "/Image" not in str(page["/Resources"].get("/XObject", {}))


@pytest.mark.usefixtures("flames_of_war")
def test_a_battlescribe_data_roster_s_organiser_s_list_carries_its_share_link(devices):
    a, _, _ = devices
    shared, _ = stored_roster()

    response = a.get(f"/bs/r/{shared.share_id}/list.pdf")

    assert response.status_code == 200
    text = pdf_text(response.content).replace(" ", "")
    assert "Scantoopenthisroster" in text and f"http://testserver/bs/r/{shared.share_id}/" in text


def test_logs_never_hold_a_join_secret():
    from armybuilder.middleware import mask_edit_secrets

    assert mask_edit_secrets("GET /rosters/join/s3cret-Join_link/ HTTP/1.1") == "GET /rosters/join/[secret]/ HTTP/1.1"
