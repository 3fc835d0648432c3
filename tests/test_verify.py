"""The fingerprint an organiser checks (issue 12, item 3): long enough that no one can make two
rosters share one, readable in groups, and looked up at /verify/<fingerprint>/."""

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from lists.models import Roster
from lists.rosters.files import load_roster_file
from lists.rosters.fingerprint import content_digest, fingerprint, normalise, pdf_cache_key

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "bolt-action-2e.yaml").read_text()
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def printed_fingerprint(client, share: str) -> str:
    pdf = client.get(f"{share}list.pdf").content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.search(r"Fingerprint: (\S+)", text).group(1)


def test_the_fingerprint_is_160_bits_in_eight_groups_of_four():
    resolved = load_roster_file(EXAMPLE.encode())
    printed = fingerprint(resolved.snapshot(), resolved.data)

    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){7}", printed)  # 32 base-32 characters = 160 bits


def test_pdf_cache_keys_hold_the_whole_sha256_digest():
    """The old key was 48 bits, found to collide in a minute; the key is now all 256 bits."""
    resolved = load_roster_file(EXAMPLE.encode())
    snapshot = resolved.snapshot()

    key = pdf_cache_key("list", "a4", "templates", snapshot, resolved.data)

    assert key == f"pdf:list:a4:templates:{content_digest(snapshot, resolved.data)}"
    assert re.fullmatch(r"pdf:list:a4:templates:[0-9a-f]{64}", key)


def test_two_rosters_differing_only_in_name_never_share_a_list_pdf(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    client.post("/rosters/import/", {"text": EXAMPLE.replace("name: Rangers lead the way", "name: Rangers lead")})
    first, second = Roster.objects.order_by("id")

    one = printed_fingerprint(client, f"/r/{first.share_id}/")
    other = printed_fingerprint(client, f"/r/{second.share_id}/")

    assert one != other
    assert "Rangers lead" in client.get(f"/verify/{other}/").content.decode()


def test_an_organiser_checks_a_printed_fingerprint(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    roster = Roster.objects.get()
    printed = printed_fingerprint(client, f"/r/{roster.share_id}/")

    response = client.get(f"/verify/{printed}/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Rangers lead the way" in html
    assert "Bolt Action (2nd edition) · Generic army" in html
    assert "793 / 1000 pts" in html and "Legal" in html
    assert "the list this fingerprint stands for" in html
    assert roster.share_id not in html  # whoever reproduces a list must not learn the share link of another's
    assert "Lt. Harris (Second Lieutenant)" in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_a_fingerprint_still_shows_what_it_stood_for_after_an_edit(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    roster = Roster.objects.get()
    printed = printed_fingerprint(client, f"/r/{roster.share_id}/")
    roster.units.filter(label="Lt. Harris").delete()

    html = client.get(f"/verify/{printed}/").content.decode()

    assert "the list this fingerprint stands for" in html
    assert "Lt. Harris" in html  # the list as it was printed
    assert "793 / 1000 pts" in html


def test_the_share_page_fingerprint_can_be_checked_too(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    roster = Roster.objects.get()
    page = client.get(f"/r/{roster.share_id}/").content.decode()
    shown = re.search(r'class="fingerprint">([^<]+)<', page).group(1)

    assert client.get(f"/verify/{shown}/").status_code == 200


def test_a_fingerprint_typed_loosely_is_read_and_an_unknown_one_is_a_404(client):
    client.post("/rosters/import/", {"text": EXAMPLE})
    printed = printed_fingerprint(client, f"/r/{Roster.objects.get().share_id}/")
    typed = printed.replace("-", " ").lower()

    redirect = client.get("/verify/", {"fingerprint": typed})
    unknown = client.get("/verify/AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA/")

    assert redirect.status_code == 302 and redirect["Location"] == f"/verify/{printed}/"
    assert unknown.status_code == 404
    assert "No roster on this site has the fingerprint" in unknown.content.decode()
    assert client.get("/verify/not-a-fingerprint/").status_code == 404
    assert client.get("/verify/").status_code == 200


def test_normalise_accepts_spaces_case_and_refuses_other_letters():
    assert normalise("abcd efgh ijkl mnop qrst uvwx yz23 4567") == "ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567"
    assert normalise("ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4561") is None  # 1 is not base 32
    assert normalise("ABCD-EFGH") is None


@pytest.mark.usefixtures("one_rate_window")
def test_verifying_is_rate_limited_per_client(client, settings):
    settings.VERIFY_RATE = "3/m"
    client.post("/rosters/import/", {"text": EXAMPLE})
    printed = printed_fingerprint(client, f"/r/{Roster.objects.get().share_id}/")

    statuses = [client.get(f"/verify/{printed}/").status_code for _ in range(5)]

    assert statuses == [200, 200, 200, 429, 429]
