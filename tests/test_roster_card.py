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

from lists.cards import Layout, cards_pdf, pdfs
from lists.models import Roster
from lists.rosters.files import load_roster_file
from tests.test_battlescribe_pdf_delivery import flames_of_war, stored_roster  # noqa: F401 - the real data's fixture

ROOT = Path(__file__).resolve().parents[1]
GERMAN = (ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml").read_text()

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs", "empty_cache")]


def times(m, ctm):
    """The PDF's `cm`: the matrix `m` then the current one."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = ctm
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def drawn_modules(reader: PdfReader, content, resources, ctm=(1, 0, 0, 1, 0, 0)) -> dict[tuple[int, int], float]:
    """Each black module-high rectangle at a whole-module place, in this content and the forms it draws: its
    (row, column) and the module's width on paper (mm)."""
    modules: dict[tuple[int, int], float] = {}
    black, saved = False, []
    for operands, operator in ContentStream(content, reader).operations:
        if operator == b"q":
            saved.append(ctm)
        elif operator == b"Q":
            ctm = saved.pop()
        elif operator == b"cm":
            ctm = times([float(v) for v in operands], ctm)
        elif operator == b"rg":
            black = [float(v) for v in operands] == [0, 0, 0]
        elif operator == b"re" and black:
            x, y, width, height = (float(v) for v in operands)
            if height == 1 and x.is_integer() and y.is_integer() and width.is_integer() and x >= 0 and y >= 0:
                module_mm = abs(ctm[0]) * 25.4 / 72
                modules |= {(int(y), int(x) + n): module_mm for n in range(int(width))}
        elif operator == b"Do":
            form = resources["/XObject"][operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                modules |= drawn_modules(reader, form, form.get("/Resources", resources), ctm)
    return modules


def qr_code_on_first_page(pdf: bytes) -> tuple[set[tuple[int, int]], float]:
    """The modules of the QR code drawn on the first page, and the code's width on paper (mm, quiet zone out)."""
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[0]
    modules = drawn_modules(reader, page["/Contents"].get_object(), page["/Resources"])
    across = max((column for _, column in modules), default=-1) + 1
    return set(modules), across * max(modules.values(), default=0)


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
    modules, width_mm = qr_code_on_first_page(response.content)
    assert modules == segno_modules(link)
    assert width_mm >= 25  # large enough for a phone to read at arm's length
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert "/Image" not in str(page["/Resources"])  # vector modules, no picture


def test_two_rosters_of_the_same_content_print_each_its_own_link(client):
    rosters = [started(client, "Twins"), started(client, "Twins")]

    printed = [qr_code_on_first_page(client.get(f"/r/{one.share_id}/cards.pdf").content)[0] for one in rosters]

    for one, modules in zip(rosters, printed, strict=True):
        assert modules == segno_modules(f"http://testserver/r/{one.share_id}/")
    assert printed[0] != printed[1]


def test_a_roster_file_printed_by_render_cards_has_no_roster_card(tmp_path):
    out = tmp_path / "cards.pdf"

    call_command("render_cards", str(ROOT / "examples" / "bolt-action-2e-germany-normandy.yaml"), "-o", str(out))

    pdf = out.read_bytes()
    assert not any("Scantoopenthisroster" in text for text in page_texts(pdf))
    assert qr_code_on_first_page(pdf)[0] == set()


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
    modules, width_mm = qr_code_on_first_page(response.content)
    assert modules == segno_modules(link) and width_mm >= 25


def test_the_roster_card_prints_the_roster_s_name_as_text_not_markup(client):
    roster = started(client, "<b>Grenadiers</b> & co")

    first = page_texts(client.get(f"/r/{roster.share_id}/cards.pdf").content)[0]

    assert first.startswith("<b>Grenadiers</b>&co")


def test_rosters_of_the_same_content_share_their_unit_cards_but_not_their_roster_card(monkeypatch):
    resolved = load_roster_file(GERMAN.encode(), "roster.yaml")
    roster, data = resolved.snapshot(), resolved.data
    first = cards_pdf(roster, data, Layout(link="http://testserver/r/first/"))
    laid_out = []
    original = pdfs._first_pass
    monkeypatch.setattr(pdfs, "_first_pass", lambda groups, layout: laid_out.append(groups) or original(groups, layout))

    second = cards_pdf(roster, data, Layout(link="http://testserver/r/second/"))

    assert laid_out == []  # every unit's card came from the cache
    assert second != first
    assert qr_code_on_first_page(second)[0] == segno_modules("http://testserver/r/second/")
    assert "http://testserver/r/second/" in page_texts(second)[0]
