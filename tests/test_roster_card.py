"""The roster card: the first card of a printed roster carries its name and its share link as a QR code.

No QR reader is installed, so a test reads the code's vector modules out of the PDF (each a filled rectangle one
module high, in the code's own units) and compares them with segno's matrix of the link: the same modules are
the same code, so any reader decodes the link.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import segno
from django.core.management import call_command
from django.test import Client
from pypdf import PdfReader
from pypdf.generic import ContentStream

from lists.models import Roster
from tests.test_battlescribe_pdf_delivery import flames_of_war, stored_roster  # noqa: F401 - the real data's fixture

ROOT = Path(__file__).resolve().parents[1]
GERMAN = (ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_text()

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def drawn_modules(reader: PdfReader, content, resources) -> set[tuple[int, int]]:
    """The (row, column) of each black module-high rectangle at whole-module places, in this content and the
    forms it draws."""
    modules: set[tuple[int, int]] = set()
    black = False
    for operands, operator in ContentStream(content, reader).operations:
        if operator == b"rg":
            black = [float(v) for v in operands] == [0, 0, 0]
        elif operator == b"re" and black:
            x, y, width, height = (float(v) for v in operands)
            if height == 1 and x.is_integer() and y.is_integer() and width.is_integer() and x >= 0 and y >= 0:
                modules |= {(int(y), int(x) + n) for n in range(int(width))}
        elif operator == b"Do":
            form = resources["/XObject"][operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                modules |= drawn_modules(reader, form, form.get("/Resources", resources))
    return modules


def qr_codes_on_first_page(pdf: bytes) -> set[tuple[int, int]]:
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[0]
    return drawn_modules(reader, page["/Contents"].get_object(), page["/Resources"])


def segno_modules(link: str) -> set[tuple[int, int]]:
    matrix = segno.make(link, error="m").matrix
    return {(row, column) for row, modules in enumerate(matrix) for column, dark in enumerate(modules) if dark}


def page_texts(pdf: bytes) -> list[str]:
    return ["".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def started(client: Client, name: str) -> Roster:
    edit = client.post("/rosters/import/", {"text": GERMAN})["Location"]
    roster = Roster.objects.order_by("-id").first()
    assert client.post(f"{edit}settings/", {"version": roster.version, "name": name}).status_code in (200, 302)
    roster.refresh_from_db()
    return roster


@pytest.mark.parametrize("query", ["", "?card=a6"])
def test_the_first_card_of_a_roster_s_cards_carries_its_name_and_share_link_as_a_qr_code(client, query):
    roster = started(client, "Normandy grenadiers")
    link = f"http://testserver/r/{roster.share_id}/"

    response = client.get(f"/r/{roster.share_id}/cards.pdf{query}")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    first = page_texts(response.content)[0]
    assert first.startswith("Normandygrenadiers")  # the roster card is the first card on the sheet
    assert "Scantoopenthisroster" in first and link in first
    assert qr_codes_on_first_page(response.content) == segno_modules(link)
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert "/Image" not in str(page["/Resources"])  # vector modules, no picture


def test_two_rosters_of_the_same_content_print_each_its_own_link(client):
    rosters = [started(client, "Twins"), started(client, "Twins")]

    printed = [qr_codes_on_first_page(client.get(f"/r/{one.share_id}/cards.pdf").content) for one in rosters]

    for one, modules in zip(rosters, printed, strict=True):
        assert modules == segno_modules(f"http://testserver/r/{one.share_id}/")
    assert printed[0] != printed[1]


def test_a_roster_file_printed_by_render_cards_has_no_roster_card(tmp_path):
    out = tmp_path / "cards.pdf"

    call_command("render_cards", str(ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml"), "-o", str(out))

    pdf = out.read_bytes()
    assert not any("Scantoopenthisroster" in text for text in page_texts(pdf))
    assert qr_codes_on_first_page(pdf) == set()


@pytest.mark.usefixtures("flames_of_war")
def test_a_data_set_roster_s_cards_open_with_its_roster_card(client):
    shared, _ = stored_roster("Bulge breakout")
    link = f"http://testserver/bs/r/{shared.share_id}/"

    response = client.get(f"/bs/r/{shared.share_id}/cards.pdf")

    assert response.status_code == 200
    texts = page_texts(response.content)
    assert texts[0].startswith("Bulgebreakout") and "Scantoopenthisroster" in texts[0] and link in texts[0]
    assert "Company" not in texts[0]  # the units' cards follow on pages of their own
    assert "M4Sherman(Late)TankCompany" in texts[1]
    assert qr_codes_on_first_page(response.content) == segno_modules(link)
