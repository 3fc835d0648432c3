"""Unit-card and organiser's-list PDFs: their text, their layout, their safety, their cache."""

import io
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from pypdf import PdfReader

from lists import cards
from lists.cards import Layout, cards_pdf, roster_cards
from lists.gamedata.loading import game_data, roster_snapshot
from lists.models import Roster
from lists.rosters.files import load_roster_file
from lists.rules.verdict import judge

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


def test_a_bolt_action_card_shows_the_full_weapon_profile_and_names_its_rules():
    roster, data = load(BA_MORTAR)

    made = roster_cards(roster, data, Layout())
    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Medium Mortar Team" in text and "60 pts" in text
    assert "Quality Regular, morale 9" in text and "Damage value 4+" in text
    # Columns empty for every weapon on the card (the mortar's direct range) are left out.
    assert "Weapon Indirect range Shots Pen Special rules" in text
    # Medium mortar: 12"-60" indirect, 1 shot, HE, its rules with the HE size.
    # (cells may wrap, so compare without spaces)
    assert 'Mediummortar12"–60"1HETeam,Fixed,IndirectFire,HE(2")' in text.replace(" ", "")
    # The card names each rule with a reminder; it fits one card now that the texts are on the reference.
    mortar = [card for card in made if card.title == "Medium Mortar Team"]
    assert len(mortar) == 1
    reminders = [block.data["name"] for block in mortar[0].blocks if block.kind == "reminder"]
    assert reminders == ["Fixed", "HE", "Indirect Fire", "Team"]


def test_the_full_rule_texts_are_printed_once_on_a_rules_reference_alphabetically_with_their_source():
    roster, data = load(BA_MORTAR)

    made = roster_cards(roster, data, Layout())

    reference = [card for card in made if card.title == "Rules reference"]
    assert made[-len(reference) :] == reference  # at the end of the PDF
    rules = [b.data["name"] for card in reference for b in card.blocks if b.kind == "rule"]
    names = [name for name in rules if not name.endswith("(continued)")]
    assert names == ["Assault", "Fixed", "HE", "Indirect Fire", "Team"]  # each once, alphabetical
    text = " ".join(pdf_pages(cards_pdf(roster, data)))
    assert "Team: Team weapon: needs two crew for full effect; with one crewman left it shoots at -1" in text
    assert "(Bolt Action 2nd edition rulebook, weapons chapter, Weapon special rules, Team Weapon)" in text
    assert text.count("with one crewman left it shoots at -1") == 1  # the full text once, not on every card


def test_an_officer_card_gives_his_rank_abilities():
    roster, data = load(BA_MORTAR)

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Lt. Smith" in text and "65 pts" in text
    assert 'Second Lieutenant: +1 morale to units within 6"; passes 1 extra order within 6"' in text


def test_team_and_fixed_are_not_printed_on_a_tank_whose_guns_are_mounted():
    """Bolt Action weapons chapter: Team and Fixed are rules of weapon teams; a tank's guns carry them in the chart."""
    roster, data = load("game: bolt-action-2e\narmy: generic\nunits:\n  - {unit: M4 Sherman 75MM, quality: Regular}\n")

    tank = roster_cards(roster, data, Layout())[0]

    reminders = {block.data["name"] for block in tank.blocks if block.kind == "reminder"}
    assert "Team" not in reminders and "Fixed" not in reminders
    assert "HE" in reminders


def test_the_models_carry_the_weapons_their_options_give_them():
    """BSData Regular Infantry Section: the NCO's SMG replaces his rifle; the LMG replaces a soldier's rifle."""
    roster, data = load(
        "game: bolt-action-2e\narmy: generic\nunits:\n"
        "  - {unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, size: 10,"
        " options: [NCO with SMG instead of rifle, Light machine gun]}\n"
    )

    section = roster_cards(roster, data, Layout())[0]

    models = next(block for block in section.blocks if block.kind == "models").data["rows"]
    assert [(row["count"], row["name"]) for row in models] == [(1, "NCO"), (9, "Soldier")]
    text = " ".join(pdf_pages(cards_pdf(roster, data)))
    assert "Weapons 8 × Rifle, 1 × LMG, NCO: SMG" in text  # who carries what, counted
    assert "Options NCO with SMG instead of rifle, Light machine gun" in text  # the whole line, not clipped


def test_a_heroes_all_card_shows_the_cards_own_fields_and_no_transcription_notes():
    """Heroes All CODEX card Panzer IV (Early): Value 10, Crew 4, Speed 5/3, Armour Medium;
    defence values of armoured vehicles, Medium: front 17/15, side 13/11, rear 11/9 (Brew/Damage)."""
    roster, data = load("game: heroes-all\narmy: German\nunits:\n  - unit: Panzer IV (Early)\n")

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Panzer IV (Early)" in text and "10 pts" in text
    assert "Armour Medium" in text and "Move 5/3" in text and "4 × Crew" in text
    assert "front 17/15; side 13/11; rear 11/9 (Brew/Damage)" in text
    # Too many columns for a table on a poker card: one line per weapon, label and value.
    assert (
        "75mm L24 · S 12 · E 24 · L 48 · Shots per bound 1 · Attack S +11 · Attack E +8 · Attack L +1 · HE effect C"
        in text
    )
    assert "Hull or turret mantle mounted:" in text
    for note in ("see errata", "Main gun of the Panzer IV", "weapons table", "CODEX card"):
        assert note not in text


def test_an_action_all_fronts_card_shows_range_power_and_type():
    roster, data = load("game: action-all-fronts\narmy: british\nyear: 1944\nunits:\n  - unit: Rifle Squad\n")

    text = " ".join(pdf_pages(cards_pdf(roster, data)))

    assert "Weapon Range Power Type" in text
    assert "Rifle 24 3 Rifle1" in text
    assert "For the Regiment:" in text  # the national rule
    assert "1 × NCO Fs 3 M 7: Rifle" in text
    assert "1 × LMG team (2 figures)" in text  # Action All Fronts 4.4: a light machine gun has two crew


def reminders_by_title(text: str) -> dict[str, set[str]]:
    roster, data = load(text)
    return {
        card.title: {block.data["name"] for block in card.blocks if block.kind == "reminder"}
        for card in roster_cards(roster, data, Layout())
    }


def test_a_national_rule_is_only_on_the_units_it_applies_to():
    """Action All Fronts, British and Commonwealth Army: For the Regiment is about units near an officer;
    a bombardment or a truck has no use for it."""
    cards_rules = reminders_by_title((ROOT / "examples" / "action-all-fronts.yaml").read_text())

    assert "For the Regiment" in cards_rules["1 Section"]
    assert "For the Regiment" in cards_rules["Sherman Firefly"]
    assert "For the Regiment" not in cards_rules["Light artillery bombardment"]
    assert "For the Regiment" not in cards_rules["Truck"]
    assert all("Lend-Lease" not in names for names in cards_rules.values())  # a list-building rule


def test_a_bought_options_rule_is_only_where_it_is_bought():
    """Action All Fronts, German Army: Panzer Attack and the Panzerfaust are bought per unit."""
    cards_rules = reminders_by_title(
        "game: action-all-fronts\narmy: german\nyear: 1944\nunits:\n"
        "  - {unit: Panzer Grenadier squad, label: Bought, options: [Panzerfaust, Panzer Attack]}\n"
        "  - {unit: Panzer Grenadier squad, label: Plain}\n"
        "  - {unit: Light mortar team}\n"
    )

    assert {"Panzer Attack", "Panzerfaust"} <= cards_rules["Bought"]
    assert not {"Panzer Attack", "Panzerfaust"} & cards_rules["Plain"]
    assert not {"Panzer Attack", "Panzerfaust"} & cards_rules["Light mortar team"]


def test_a_long_title_wraps_beside_the_points_never_under_them():
    text = (
        "game: bolt-action-2e\narmy: generic\nunits:\n"
        "  - {unit: Medium Mortar Team, quality: Regular, label: A very long name for a mortar team of the reserve}\n"
    )
    roster, data = load(text)
    header = roster_cards(roster, data, Layout())[0].blocks[0]

    page = cards._lay_out([cards.Card(blocks=[header], title="", points=1, count=1, labels=[])], Layout()).pages[0]

    boxes = list(cards._boxes(page._page_box))
    title = next(box for box in boxes if box.element_tag == "h1")
    points = next(box for box in boxes if (box.element.get("class") if box.element is not None else "") == "pts")
    lines = [box for box in title.children]
    assert len(lines) >= 2  # it wraps
    for line in lines:
        assert line.position_x + line.width <= points.position_x  # every line stays clear of the points


def test_cards_never_split_across_pages_and_a_long_reference_continues_on_another_card():
    roster, data = load(BA_MORTAR)

    layout = Layout()
    made = roster_cards(roster, data, layout)

    reference = [card for card in made if card.title == "Rules reference"]
    assert len(reference) >= 2
    assert [card.part for card in reference] == list(range(1, len(reference) + 1))
    body = cards._body_mm(layout)
    for card in made:
        # Every card's content (header included) fits inside it.
        assert sum(block.height for block in card.blocks) <= body + 0.01, card.title
    text = " ".join(pdf_pages(cards_pdf(roster, data)))
    assert "card 1 of" in text and "(continued)" in text


def example_rosters():
    return sorted((ROOT / "examples").glob("*.yaml"))


@pytest.mark.parametrize("card", ["poker", "a6"])
@pytest.mark.parametrize("path", example_rosters(), ids=lambda p: p.stem)
def test_everything_put_on_a_card_is_in_the_pdf(path, card):
    """Nothing is clipped: every weapon, profile value and rule name on a card is in the PDF's text."""
    roster, data = load(path.read_text())
    layout = Layout(card=card)
    made = roster_cards(roster, data, layout)

    text = "".join(pdf_pages(cards_pdf(roster, data, layout))).replace(" ", "")

    expected = []
    for made_card in made:
        expected.append(made_card.title)
        for block in made_card.blocks:
            if block.kind == "weapons":
                expected += [row["name"] for row in block.data["rows"]]
                expected += [value for row in block.data["rows"] for value in row["values"]]
            elif block.kind == "profiles":
                expected += [row["name"] for row in block.data["rows"]]
                expected += [value for row in block.data["rows"] for _, value in row["pairs"]]
            elif block.kind in {"reminder", "rule"}:
                expected += [block.data["name"], block.data["text"].split()[-1]]
            elif block.kind == "models":
                expected += [row["gear"] for row in block.data["rows"]]
    missing = [item for item in expected if item and item.replace(" ", "") not in text]
    assert missing == []
    body = cards._body_mm(layout)
    assert all(sum(block.height for block in c.blocks) <= body + 0.01 for c in made)


@pytest.mark.parametrize("path", example_rosters(), ids=lambda p: p.stem)
def test_every_example_needs_at_most_1_15_poker_cards_a_unit(path):
    roster, data = load(path.read_text())

    made = roster_cards(roster, data, Layout())

    unit_cards = [card for card in made if card.title != "Rules reference"]
    assert len(unit_cards) / len(roster.units) <= 1.15


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

    monkeypatch.setattr(cards.renderer, "_make_fetcher", spy)
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


def count_laid_out(monkeypatch, bodies: list[int] | None = None) -> list[int]:
    """Spy on the renderer: how many groups (a unit's cards, or the rules reference) each render lays out,
    and into `bodies`, how many bodies units alike share."""
    counts = []
    original = cards._first_pass

    def spy(groups, layout):
        counts.append(len(groups))
        first = original(groups, layout)
        if bodies is not None:
            bodies.append(len({page for page in first.bodies if page is not None}))
        return first

    monkeypatch.setattr(cards.pdfs, "_first_pass", spy)
    return counts


def test_a_repeated_download_is_served_from_the_cache(monkeypatch):
    roster, data = load(BA_MORTAR)
    first = cards_pdf(roster, data)
    counts = count_laid_out(monkeypatch)

    again = cards_pdf(roster, data)
    other_layout = cards_pdf(roster, data, Layout(card="a6"))

    assert again == first
    assert counts == [3]  # a new card size is new cards: two units and the rules reference
    assert other_layout != first


def test_an_edit_renders_one_card_again_and_a_card_is_shared_by_every_roster_that_has_it(monkeypatch):
    roster, data = load(BA_MORTAR)
    cards_pdf(roster, data)
    counts = count_laid_out(monkeypatch)

    edited, _ = load(BA_MORTAR.replace("label: Lt. Smith", "label: Lt. Jones"))
    text = " ".join(pdf_pages(cards_pdf(edited, data)))
    other, _ = load(BA_MORTAR.replace("name: Mortar test", "name: Another roster"))
    cards_pdf(other, data)

    assert counts[0] == 1  # only the edited officer's card
    assert "Lt. Jones" in text and "Lt. Smith" not in text and "Medium Mortar Team" in text
    assert counts[1:] == [1]  # the other roster shares both unit cards; only its rules reference is new


def test_new_cards_rendered_on_two_cores_are_the_cards_one_core_renders(settings):
    """Many new cards are shared out over the cores (forked renderers); the sheets are the same either way."""
    officers = "".join(f"  - {{unit: Second Lieutenant, quality: Veteran, label: Lt. No {n}}}\n" for n in range(12))
    roster, data = load(BA_MORTAR + officers)
    groups = cards.card_groups(roster, data, Layout())

    settings.PDF_RENDER_PROCESSES = 1
    one_core = pdf_pages(cards_pdf(roster, data))
    cache.clear()
    settings.PDF_RENDER_PROCESSES = 2
    two_cores = pdf_pages(cards_pdf(roster, data))

    batches = cards._batches(groups, 2)
    assert len(batches) == 2 and sorted(sum(batches, [])) == list(range(15))  # 14 units and the rules reference
    assert two_cores == one_core
    assert "Lt. No 11" in two_cores[1] and "Rules reference" in two_cores[-1]


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
    assert (
        "1st Section (Regular Infantry Section (Mid-/ Late-War)) (Regular, 10 men): Light machine gun — 120 pts" in text
    )
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


EVERY_KIND_OF_COST = """
game: action-all-fronts
army: german
name: Every kind of cost
year: 1944
house_rules: [{house_rule: Field telephones, count: 2}]
units:
  - {unit: Panzer Grenadier squad, options: [Panzerfaust, Panzer Attack], hero_points: 1}
  - {unit: Pz IVC}
  - {unit: Platoon HQ, options: [Panzerfaust]}
"""


def imported(client, text: str) -> Roster:
    response = client.post("/rosters/import/", {"text": text})
    assert response.status_code == 302
    return Roster.objects.latest("pk")


def numbers(pattern: str, text: str) -> list[int]:
    return [int(found) for found in re.findall(pattern, text)]


@pytest.mark.parametrize(
    "text",
    [*(path.read_text() for path in example_rosters()), EVERY_KIND_OF_COST],
    ids=[*(path.stem for path in example_rosters()), "every-kind-of-cost"],
)
def test_the_lines_of_every_output_add_up_to_its_printed_total(client, text):
    """Options, hero points, period changes, percentage costs and house rules all have a line of their own."""
    roster = imported(client, text)
    share = f"/r/{roster.share_id}/"
    snapshot = roster_snapshot(roster)
    verdict = judge(snapshot)

    plain = client.get(f"{share}roster.txt").content.decode()
    listed = render_to_string("cards/list.html", cards.list_context(snapshot, game_data(roster.system), verdict, []))
    page = client.get(share).content.decode()

    blocks = [block.splitlines() for block in plain.split("\nTotal:")[0].split("\n\n")[1:]]
    priced = [[int(n) for line in block for n in numbers(r" — (\d+) pts$", line)] for block in blocks]
    forces = [block for block, lines in zip(priced, blocks, strict=True) if not lines[0].startswith("House rule")]
    assert all(force[0] == sum(force[1:]) for force in forces)  # each force's line adds up its units
    text_lines = [points for force in forces for points in force[1:]] + sum(priced[len(forces) :], [])
    assert sum(text_lines) == numbers(r"Total: (\d+)", plain)[0] == verdict.points
    list_lines = numbers(r'<td class="num">(\d+)</td>', listed.split('class="total"')[0])
    assert sum(list_lines) == numbers(r'<td class="num">(\d+)', listed.split('class="total"')[1])[0]
    assert sum(numbers(r'<p class="points">(\d+) pts</p>', page)) == numbers(r'<p class="totals">(\d+)', page)[0]
    for bought in snapshot.house_rules:
        # One bought for a unit is in that unit's points and named on its line.
        line = f"House rule: {bought.rule.name}" if bought.unit is None else f"house rule {bought.rule.name}"
        assert line in plain and line in listed and f"House rule: {bought.rule.name}" in page


def test_bought_house_rules_are_priced_lines_of_the_list_pdf_and_on_the_rules_reference(client):
    """Rapid Fire house rules, 3. Communications: field telephones cost 15 points."""
    roster = imported(client, (ROOT / "examples" / "rapid-fire-house-rules.yaml").read_text())
    share = f"/r/{roster.share_id}/"

    listing = " ".join(pdf_pages(client.get(f"{share}list.pdf").content))
    reference = " ".join(pdf_pages(client.get(f"{share}cards.pdf").content))

    assert "House rule: Field telephones" in listing and "15" in listing.split("House rule: Field telephones")[1]
    assert "Field telephones: For 15 points a telephone line joins" in reference


def test_downloads_are_named_after_the_roster_and_cards_after_their_size(client):
    roster = imported(client, (ROOT / "examples" / "action-all-fronts.yaml").read_text())
    share = f"/r/{roster.share_id}/"

    names = {
        path: client.get(f"{share}{path}")["Content-Disposition"]
        for path in (
            "cards.pdf",
            "cards.pdf?card=a6",
            "cards.pdf?card=poker&paper=letter",
            "list.pdf",
            "roster.txt",
            "roster.yaml",
            "roster.json",
        )
    }

    assert names == {
        "cards.pdf": 'attachment; filename="normandy-june-1944-cards-poker.pdf"',
        "cards.pdf?card=a6": 'attachment; filename="normandy-june-1944-cards-a6.pdf"',
        "cards.pdf?card=poker&paper=letter": 'attachment; filename="normandy-june-1944-cards-poker-letter.pdf"',
        "list.pdf": 'attachment; filename="normandy-june-1944-list.pdf"',
        "roster.txt": 'attachment; filename="normandy-june-1944.txt"',
        "roster.yaml": 'attachment; filename="normandy-june-1944.yaml"',
        "roster.json": 'attachment; filename="normandy-june-1944.json"',
    }


@pytest.mark.timeout(480)  # every unit of every pack with every option bought, laid out
@pytest.mark.parametrize("game", ["action-all-fronts", "bolt-action-2e", "heroes-all"])
def test_every_unit_with_every_option_bought_fits_its_cards(game):
    """Nothing is ever clipped: a unit too long for one card continues on another, for every unit of every pack."""
    from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
    from lists.models import GameSystem

    data = game_data(GameSystem.objects.get(key=game))
    layout = Layout()
    body = cards._body_mm(layout)
    for army in data.armies.values():
        units = [
            UnitChoice(
                index=index,
                label=data.unit_types[unit_id].name,
                unit_type=data.unit_types[unit_id],
                quality=next(iter(data.unit_types[unit_id].quality_prices), None),
                options=dict.fromkeys(data.unit_types[unit_id].options, 1),
            )
            for index, unit_id in enumerate(army.unit_type_ids)
        ]
        roster = RosterSnapshot(system=data.system, army_key=army.key, army_name=army.name, name="All", units=units)

        made = roster_cards(roster, data, layout)

        overflowing = [card.title for card in made if sum(block.height for block in card.blocks) > body + 0.01]
        assert overflowing == [], army.key
        assert {card.title for card in made} >= {unit.label for unit in units}


def test_a_roster_without_units_prints_one_blank_sheet():
    roster, data = load("game: bolt-action-2e\narmy: generic\nunits: []\n")

    pages = PdfReader(io.BytesIO(cards_pdf(roster, data))).pages

    assert len(pages) == 1 and pages[0].extract_text() == ""


def test_the_sheets_hold_nine_poker_cards_each_in_reading_order():
    roster, data = load((ROOT / "examples" / "bolt-action-2e.yaml").read_text())
    made = roster_cards(roster, data, Layout())

    pages = PdfReader(io.BytesIO(cards_pdf(roster, data))).pages

    def places(page) -> set[str]:
        """Where cards are drawn on the sheet (a card's frame, header and body are drawn at the same place)."""
        return set(re.findall(rb"q 1 0 0 1 ([\d.]+ [\d.]+) cm [^Q]*/Card\d+ Do Q", page.get_contents().get_data()))

    assert len(pages) == -(-len(made) // 9)
    assert [len(places(page)) for page in pages] == [min(9, len(made) - 9 * n) for n in range(len(pages))]
    first = " ".join(pages[0].extract_text().split())
    assert first.index("Lt. Harris") < first.index("1st Section") < first.index("PIAT Team")


def test_a_rule_without_text_is_printed_as_its_name_alone_never_a_name_and_a_colon():
    """A rule imported by name only has no summary: the card, the reference and the look-up print just its name."""
    reminder = cards.Block("reminder", {"name": "Blitz Drill", "text": ""})
    reference = cards.Block("rule", {"name": "Blitz Drill", "text": "", "source": "BSData/boltaction"})

    on_card = " ".join(render_to_string("cards/_block.html", {"block": reminder}).split())
    on_reference = " ".join(render_to_string("cards/_block.html", {"block": reference}).split())
    looked_up = " ".join(render_to_string("lists/_lookup.html", {"blocks": [reminder]}).split())

    assert '<p class="blk reminder"><b>Blitz Drill</b></p>' in on_card
    assert '<p class="blk rule"><b>Blitz Drill</b> <i class="source">(BSData/boltaction)</i></p>' in on_reference
    assert "<strong>Blitz Drill</strong></p>" in looked_up
    assert "Blitz Drill:" not in on_card + on_reference + looked_up


@pytest.mark.parametrize("title", ["Lt. O'Neil & <Co>", "Bell\x07 Section"])
def test_a_card_prints_its_title_whichever_parser_reads_its_markup(title):
    """Cards are read by the XML parser; a label it refuses (a control character) goes to the HTML5 parser."""
    header = cards.Block("header", {"title": title, "points": 40, "count": 1, "subtitle": "Infantry"})
    card = cards.Card(title=title, points=40, count=1, labels=[], blocks=[header])

    pdf = cards.render_pdf(cards.cards_html([card], Layout()), cards=True)

    # (The control character prints as the font's blank glyph, and makes the text come out in two-byte codes.)
    printed = re.sub(r"[\x00-\x1f]+", "", pdf_pages(pdf)[0])
    assert all(word in printed for word in re.sub(r"[\x00-\x1f]+", "", title).split())


def test_units_alike_but_for_their_labels_share_one_body_laid_out_once(monkeypatch, settings):
    """A card is its frame (border, title, points) and its body (profiles, rules); twelve officers alike but
    for their names lay out twelve frames and one body, and every card prints its own name."""
    officers = "".join(f"  - {{unit: Second Lieutenant, quality: Veteran, label: Lt. No {n}}}\n" for n in range(12))
    roster, data = load(BA_MORTAR + officers)
    settings.PDF_RENDER_PROCESSES = 1  # the spy sees this process's passes
    bodies: list[int] = []
    counts = count_laid_out(monkeypatch, bodies)

    pages = pdf_pages(cards_pdf(roster, data))

    assert counts[0] == 15  # 14 units and the rules reference...
    assert bodies[0] == 1  # ...and the body the 13 officers share (Lt. Smith's too), laid out once
    text = " ".join(pages)
    assert all(f"Lt. No {n}" in text for n in range(12))
    assert text.count("Quality Veteran") == 13  # the shared body is drawn on every officer's card
