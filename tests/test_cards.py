"""Unit-card and organiser's-list PDFs: their text, their layout, their safety, their cache."""

import io
from pathlib import Path

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from lists import cards
from lists.cards import Layout, cards_pdf, roster_cards
from lists.models import Roster
from lists.roster_files import load_roster_file

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def pdf_pages(pdf: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def load(text: str):
    resolved = load_roster_file(text.encode(), "roster.yaml")
    return resolved.snapshot(), resolved.data


BA_MORTAR = """
game: bolt-action-2e
army: generic
name: Mortar test
units:
  - {unit: Medium Mortar Team, quality: Regular, options: [Spotter]}
  - {unit: Second Lieutenant, quality: Veteran, label: Lt. Smith}
"""


def test_a_bolt_action_card_shows_the_full_weapon_profile_and_rule_texts():
    roster, data = load(BA_MORTAR)

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Medium Mortar Team" in text and "60 pts" in text
    assert "Quality Regular, morale 9" in text and "Damage value 4+" in text
    # Columns empty for every weapon on the card (the mortar's direct range) are left out.
    assert "Weapon Indirect range Shots Pen Special rules" in text
    # Medium mortar: 12"-60" indirect, 1 shot, HE, its rules with the HE size.
    # (cells may wrap, so compare without spaces)
    assert 'Mediummortar12"–60"1HETeam,Fixed,IndirectFire,HE(2")' in text.replace(" ", "")
    for rule in ("Team:", "Fixed:", "Indirect Fire:", "HE:"):
        assert rule in text
    assert "Mortar test" in text  # the roster's name on every card


def test_an_officer_card_gives_his_rank_abilities():
    roster, data = load(BA_MORTAR)

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Lt. Smith" in text and "65 pts" in text
    assert 'Second Lieutenant: Adds +1 to the morale of units within 6" and may pass 1 extra order' in text


def test_a_heroes_all_card_shows_range_bands_and_attack_values():
    roster, data = load("game: heroes-all\narmy: German\nunits:\n  - unit: Panzer IV (Early)\n")

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Panzer IV (Early)" in text
    # Too many columns for a table on a poker card: one line per weapon, label and value.
    assert (
        "75mm L24 · S 12 · E 24 · L 48 · Shots per bound 1 · Attack S +11 · Attack E +8 · Attack L +1 · HE effect C"
        in text
    )
    assert "Hull or turret mantle mounted:" in text


def test_an_action_all_fronts_card_shows_range_power_and_type():
    roster, data = load("game: action-all-fronts\narmy: british\nyear: 1944\nunits:\n  - unit: Rifle Squad\n")

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Weapon Range Power Type" in text
    assert "Rifle 24 3 Rifle1" in text
    assert "For the Regiment:" in text  # the national rule's text
    assert "NCO Fs 3 M 7 Rifle" in text


def test_cards_never_split_across_pages_and_long_rules_continue_on_another_card():
    roster, data = load(BA_MORTAR)

    layout = Layout()
    made = roster_cards(roster, data, layout)

    mortar = [card for card in made if card.title == "Medium Mortar Team"]
    assert len(mortar) >= 2
    assert [card.part for card in mortar] == list(range(1, len(mortar) + 1))
    body = cards._body_mm(layout)
    for card in made:
        # Every card's content (header included) fits inside it.
        assert sum(block.height for block in card.blocks) <= body + 0.01, card.title
    text = " ".join(pdf_pages(cards_pdf(roster, data)))
    assert "card 1 of" in text and "(continued)" in text


def test_poker_cards_sit_nine_to_an_a4_sheet_and_a6_four():
    assert Layout("poker", "a4").grid == (3, 3)
    assert Layout("a6", "a4").grid == (2, 2)
    assert Layout("poker", "letter").grid == (3, 3)


def test_identical_units_can_share_one_card_with_a_count():
    text = "game: heroes-all\narmy: American\nunits:\n  - {unit: Bazooka, label: Able}\n  - {unit: Bazooka, label: Baker}\n"
    roster, data = load(text)

    separate = roster_cards(roster, data, Layout())
    merged = roster_cards(roster, data, Layout(merge=True))

    assert [c.title for c in separate] == ["Able", "Baker"]
    assert [(c.title, c.count) for c in merged] == [("Bazooka", 2)]
    assert "Bazooka ×2" in " ".join(pdf_pages(cards_pdf(roster, data, Layout(merge=True))))


def test_the_pdf_text_is_real_selectable_text_on_a4_pages():
    roster, data = load(BA_MORTAR)

    reader = PdfReader(io.BytesIO(cards_pdf(roster, data)))

    width_mm = float(reader.pages[0].mediabox.width) * 25.4 / 72
    height_mm = float(reader.pages[0].mediabox.height) * 25.4 / 72
    assert (round(width_mm), round(height_mm)) == (210, 297)
    assert len(reader.pages[0].extract_text()) > 200


def test_user_text_is_escaped_and_the_renderer_fetches_nothing(monkeypatch):
    fetched = []
    original = cards._make_fetcher

    def spy():
        fetcher = original()
        real = fetcher.fetch

        def fetch(url, headers=None):
            fetched.append(url)
            return real(url, headers)

        fetcher.fetch = fetch
        return fetcher

    monkeypatch.setattr(cards, "_make_fetcher", spy)
    text = BA_MORTAR.replace(
        "name: Mortar test",
        "name: '<img src=\"file:///etc/passwd\"> <style>@import url(http://example.com/x.css)</style>'",
    )
    text = text.replace("label: Lt. Smith", "label: 'url(http://example.com/a.png) <b>bold</b>'")
    roster, data = load(text)

    pages = pdf_pages(cards_pdf(roster, data))

    joined = " ".join(pages)
    assert '<img src="file:///etc/passwd">' in joined  # shown as text, not fetched
    # The long title may wrap after a slash: compare without spaces.
    assert "url(http://example.com/a.png)<b>bold</b>" in joined.replace(" ", "")
    assert "root:x:0:0" not in joined
    assert fetched == []


def test_the_locked_fetcher_refuses_files_and_the_network():
    fetcher = cards._make_fetcher()

    for url in ("file:///etc/passwd", "http://example.com/x.css", "https://example.com/", "data:text/plain,hi"):
        with pytest.raises(cards.BlockedURL):
            fetcher.fetch(url)


def test_a_repeated_download_is_served_from_the_cache(monkeypatch):
    roster, data = load(BA_MORTAR)
    first = cards_pdf(roster, data)
    calls = []
    monkeypatch.setattr(cards, "_render", lambda html: calls.append(html) or b"rendered again")

    again = cards_pdf(roster, data)
    other_layout = cards_pdf(roster, data, Layout(card="a6"))

    assert again == first
    assert calls and other_layout == b"rendered again"  # a new layout is a new cache entry


def test_the_share_links_serve_cards_list_and_text(client):
    client.post("/rosters/import/", {"text": (ROOT / "examples" / "bolt-action-2e.yaml").read_text()})
    roster = Roster.objects.get()
    share = f"/r/{roster.share_id}/"

    cards_response = client.get(f"{share}cards.pdf?card=a6&paper=letter&merge=1")
    list_response = client.get(f"{share}list.pdf")
    text_response = client.get(f"{share}roster.txt")
    page = client.get(share).content.decode()

    assert cards_response.status_code == 200 and cards_response["Content-Type"] == "application/pdf"
    assert cards_response["X-Robots-Tag"] == "noindex, nofollow"
    letter = PdfReader(io.BytesIO(cards_response.content)).pages[0].mediabox
    assert round(float(letter.width) / 72, 1) == 8.5
    listing = " ".join(pdf_pages(list_response.content))
    assert "Rangers lead the way" in listing
    assert "Total 10 units, 10 order dice 793 / 1000" in listing
    assert "Legal" in listing and "bolt-action-2e 1.0.0" in listing
    fingerprint = listing.split("Fingerprint: ")[1].split()[0]
    assert fingerprint in page  # the share page shows the same fingerprint
    text = text_response.content.decode()
    assert text_response["Content-Type"] == "text/plain; charset=utf-8"
    assert "  120  1st Section (Regular Infantry Section (Mid-/ Late-War))" in text
    assert "Total: 793 / 1000 points, 10 order dice" in text
    assert f"Fingerprint: {fingerprint}" in text


def test_changing_the_roster_changes_its_fingerprint(client):
    client.post("/rosters/import/", {"text": (ROOT / "examples" / "heroes-all.yaml").read_text()})
    roster = Roster.objects.get()
    before = client.get(f"/r/{roster.share_id}/roster.txt").content.decode().split("Fingerprint: ")[1]
    roster.units.filter(label="Tank hunters").update(label="Hunters")

    after = client.get(f"/r/{roster.share_id}/roster.txt").content.decode().split("Fingerprint: ")[1]

    assert before != after


def test_bad_card_settings_get_a_400(client):
    client.post("/rosters/import/", {"text": (ROOT / "examples" / "heroes-all.yaml").read_text()})
    roster = Roster.objects.get()

    assert client.get(f"/r/{roster.share_id}/cards.pdf?card=huge").status_code == 400


def test_render_cards_writes_the_pdf_of_a_roster_file(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "cards.pdf"
    call_command("render_cards", str(ROOT / "examples" / "action-all-fronts.yaml"), "-o", str(out), "--card", "a6")

    text = " ".join(pdf_pages(out.read_bytes()))
    assert "Sherman Firefly" in text and "424 pts" in text
    assert "17pdr" in text
