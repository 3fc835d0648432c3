"""Unit cards and the organiser's list of rosters of every BattleScribe data set a user loads.

Each data set is loaded with `load_battlescribe` from ../shared (skipped where absent); a small roster is built with
the engine from the real data, as a player clicks it together (tests/test_battlescribe_data_rosters.py's recipes),
saved with the engine's `write_roster_xml`, and printed by `render_battlescribe_cards` / `_list`: what is checked is
what a player sees on the page (the data's column names, the points, a rule's publication and page, the fingerprint),
and that no text on any card runs past its edge (WeasyPrint's box tree, page by page).
"""

from __future__ import annotations

import io
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from lists.battlescribe.engine.info import shown_info
from lists.battlescribe.engine.queries import Context
from lists.battlescribe.engine.roster_files import read_roster_xml, write_roster_xml
from lists.cards import battlescribe_cards
from lists.models import BattleScribeDataSet
from lists.rosters.battlescribe_data_rosters import read_data_set_roster
from lists.rosters.battlescribe_fingerprint import battlescribe_fingerprint
from lists.rosters.format import RosterFileInvalid
from tests.test_battlescribe_data_rosters import DAK_ROSTER, GAMES, SHARED, built

pytestmark = pytest.mark.django_db

IDS = [folder.split("/")[1] for folder, *_ in GAMES]
TOLERANCE_PX = 0.5


@pytest.fixture(scope="module")
def data_sets(django_db_setup, django_db_blocker):
    """Every data set of ../shared the games need, loaded once for the module."""
    with django_db_blocker.unblock():
        loaded = {}
        for folder, *_ in GAMES:
            path = SHARED / folder
            if path.is_dir():
                call_command("load_battlescribe", str(path), stdout=StringIO())
                loaded[folder] = BattleScribeDataSet.objects.get(source_folder__endswith=path.name)
        yield loaded
        BattleScribeDataSet.objects.all().delete()


def game(data_sets, folder: str):
    """The data set and the engine-built roster (its .ros XML) of one game, or a skip without the data."""
    if folder not in data_sets:
        pytest.skip(f"no data at {SHARED / folder}")
    _, catalogue, force_entry, entries, _ = next(g for g in GAMES if g[0] == folder)
    data_set = data_sets[folder]
    roster = built(data_set, catalogue, force_entry, entries)
    roster.forces[0].selections[-1].custom_name = "Second unit, named by its player"
    roster.refresh()
    return data_set, roster, write_roster_xml(roster).encode()


def pdf_text(pdf: bytes) -> str:
    """The PDF's text with every run of white space made one space."""
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return " ".join(text.split())


def boxes(box, cell=None):
    """Every box under `box`, each with the table cell it stands in (or None)."""
    from weasyprint.formatting_structure.boxes import TableCellBox

    box = getattr(box, "_box", box)
    yield box, cell
    inner = box if isinstance(box, TableCellBox) else cell
    for child in getattr(box, "children", ()):
        yield from boxes(child, inner)


def escaping_text(document) -> list[str]:
    """Each text box that leaves its card (the page's content area, or the whole page for its header and footer)
    or its table cell: page number, text, and by how many px."""
    from weasyprint.formatting_structure.boxes import MarginBox, TextBox

    found = []
    for number, page in enumerate(document.pages, 1):
        root = page._page_box
        content = (root.content_box_x(), root.content_box_y())
        content_edges = (*content, content[0] + root.width, content[1] + root.height)
        page_edges = (0, 0, root.margin_width(), root.margin_height())
        for child in root.children:
            edges = page_edges if isinstance(child, MarginBox) else content_edges
            for box, cell in boxes(child):
                if not isinstance(box, TextBox) or not box.text.strip():
                    continue
                left, top = box.position_x, box.position_y
                right, bottom = left + box.width, top + box.height
                limits = [edges]
                if cell is not None:
                    limits.append((cell.border_box_x(), top, cell.border_box_x() + cell.border_width(), bottom))
                for x0, y0, x1, y1 in limits:
                    out = max(x0 - left, y0 - top, right - x1, bottom - y1)
                    if out > TOLERANCE_PX:
                        found.append(f"page {number}: {box.text!r} by {out:.1f}px")
    return found


def laid_out(html: str):
    """The document WeasyPrint lays out for the cards' HTML, with the cards' stylesheet and locked fetcher."""
    from weasyprint import HTML

    from lists.cards.renderer import _make_fetcher, _stylesheet

    css, fonts = _stylesheet()
    return HTML(string=html, url_fetcher=_make_fetcher()).render(stylesheets=[css], font_config=fonts)


@pytest.mark.parametrize("folder", [g[0] for g in GAMES], ids=IDS)
def test_every_games_cards_keep_their_text_inside_the_card(data_sets, folder):
    data_set, roster, xml = game(data_sets, folder)
    found = read_data_set_roster(xml, data_set)
    cards = battlescribe_cards.roster_cards(found.roster)
    document = laid_out(battlescribe_cards.cards_html(found, cards))

    assert escaping_text(document) == []
    page = document.pages[0]._page_box
    size = battlescribe_cards.card_format(roster.data)
    assert round(page.margin_width() * 25.4 / 96) == size.width_mm
    settings = [card for card in cards if card.name == "Roster settings"]
    assert len(document.pages) >= len(cards) == battlescribe_cards.card_units(found) + len(settings)
    text = pdf_text(battlescribe_cards.render_battlescribe_cards(xml, data_set))
    assert "Second unit, named by its player" in text
    assert data_set.name in text


def test_a_roster_the_community_wrote_prints_a_card_per_unit_and_its_996_points(data_sets):
    if "community-data/ba3-afrika-korps" not in data_sets or not DAK_ROSTER.is_file():
        pytest.skip(f"no roster at {DAK_ROSTER}")
    data_set = data_sets["community-data/ba3-afrika-korps"]
    found = read_data_set_roster(DAK_ROSTER.read_bytes(), data_set)
    cards = battlescribe_cards.roster_cards(found.roster)
    document = laid_out(battlescribe_cards.cards_html(found, cards))

    assert len(cards) == 10 and escaping_text(document) == []
    listed = pdf_text(battlescribe_cards.battlescribe_list_pdf(found))
    assert "Total: 10 units 996 / 1000" in listed  # "DAK Starter Army - 996pts"


def test_the_check_finds_text_running_past_a_card():
    html = (
        "<html><head><style>@page { size: 148mm 105mm; margin: 5mm }</style></head><body>"
        '<p style="white-space: nowrap">' + "Cross Country Dash " * 12 + "</p>"
        '<table style="width: 40mm; table-layout: fixed"><tr><td style="width: 10mm">Counterattack</td><td>x</td></tr>'
        "</table></body></html>"
    )
    found = escaping_text(laid_out(html))
    assert any("Cross Country Dash" in line for line in found)
    assert any("Counterattack" in line for line in found)


def test_wide_profiles_are_printed_on_a_wider_card_in_smaller_type(data_sets):
    flames = game(data_sets, "bsdata/flamesofwar")[1].data
    konflikt = game(data_sets, "bsdata/konflikt47")[1].data
    assert battlescribe_cards.card_format(flames) == battlescribe_cards.A5_LANDSCAPE
    assert battlescribe_cards.card_format(konflikt) == battlescribe_cards.A6_LANDSCAPE
    assert battlescribe_cards.table_class(12) == "very-wide" and battlescribe_cards.table_class(4) == ""


def test_a_flames_of_war_card_heads_its_tables_with_the_datas_characteristics_and_shows_the_points(data_sets):
    data_set, roster, xml = game(data_sets, "bsdata/flamesofwar")
    headquarters = roster.forces[0].selections[-2].children[0]  # the company's HQ, its first card
    shown = {}
    for selection in headquarters.walk():
        for profile in shown_info(roster.data, selection.option.sources, Context.of_selection(roster, selection))[0]:
            shown.setdefault(profile.type_name, [c[0] for c in profile.characteristics])
    points = int(sum(s.costs[roster.data.cost_types[0].id] for s in headquarters.walk()))
    assert {"Tank Unit", "Weapon"} <= set(shown) and points > 0

    found = read_data_set_roster(xml, data_set)
    document = laid_out(battlescribe_cards.cards_html(found, battlescribe_cards.roster_cards(found.roster)))
    first_card = [" ".join(b.text for b, _ in boxes(p._page_box) if hasattr(b, "text")) for p in document.pages][0]
    headers = header_texts(document.pages[0])

    assert f"{points} pts" in first_card
    assert headquarters.name in first_card
    for type_name, characteristics in shown.items():
        assert [squeeze(name) for name in (type_name, *characteristics)] in headers


def test_a_flames_of_war_company_prints_its_hq_and_each_platoon_on_a_card_of_its_own(data_sets):
    data_set, roster, xml = game(data_sets, "bsdata/flamesofwar")
    company = roster.forces[0].selections[0]
    parts = [(part.name, [child.name for child in part.children]) for part in company.children]
    assert [name for name, _ in parts] == [
        "M4 Sherman (Late) Tank Company HQ (LU181)",
        "M4 Sherman (Late) Tank Platoon (LU182)",
        "M4 Sherman (Late) Tank Platoon (LU182)",
    ]  # the company as the engine builds it from the data: its HQ and its two compulsory platoons
    found = read_data_set_roster(xml, data_set)

    cards = battlescribe_cards.roster_cards(found.roster)[:3]

    assert [(card.name, card.chosen) for card in cards] == parts  # "2x M4 Sherman (late 75mm)", "3x ..." each
    assert {card.formation for card in cards} == {company.name}
    assert all(card.tables and card.references for card in cards)
    points = roster.data.cost_types[0].id
    assert [dict(card.costs)["pts"] for card in cards] == [
        sum(s.costs.get(points, 0) for s in part.walk()) for part in company.children
    ]
    listed = pdf_text(battlescribe_cards.battlescribe_list_pdf(found))
    assert f"{company.name} (formation: the units under it)" in listed
    assert "M4 Sherman (Late) Tank Company HQ (LU181)" in listed and "Total: 6 units" in listed  # 3 + 3 of the M18s


def test_a_setting_is_on_the_settings_card_and_never_counted_as_a_unit(data_sets):
    data_set, roster, xml = game(data_sets, "community-data/ba3-soviet-union")
    setting = roster.forces[0].selections[0]
    assert (setting.name, setting.type, [c.name for c in setting.children]) == ("Configuration", "upgrade", ["Late"])
    found = read_data_set_roster(xml, data_set)

    cards = battlescribe_cards.roster_cards(found.roster)

    assert cards[0].name == "Roster settings" and cards[0].chosen == ["Configuration: Late"]
    assert [card.name for card in cards[1:]] == ["Platoon Commander", "Second unit, named by its player"]
    assert battlescribe_cards.card_units(found) == 2
    listed = pdf_text(battlescribe_cards.battlescribe_list_pdf(found))
    assert "Total: 2 units" in listed and "Configuration" not in listed


def header_texts(page) -> list[list[str]]:
    """Each table's header cells on a page, without white space (a header wrapped over lines, at a space or within
    a word, is one name again)."""
    from weasyprint.formatting_structure.boxes import TableCellBox, TableRowGroupBox, TextBox

    rows = []
    for group, _ in boxes(page._page_box):
        if isinstance(group, TableRowGroupBox) and group.element_tag == "thead":
            for row in group.children:
                cells = [cell for cell in row.children if isinstance(cell, TableCellBox)]
                rows.append(["".join(b.text for b, _ in boxes(cell) if isinstance(b, TextBox)) for cell in cells])
    return [[squeeze(name) for name in row] for row in rows]


def squeeze(text: str) -> str:
    """Text without white space or the hyphens WeasyPrint adds where it breaks a word (U+2010)."""
    return "".join(text.replace("\u2010", "").split())


def words_of(text: str, count: int = 12) -> str:
    """A run of `count` words from the middle of a text (the length tests/test_copied_text.py looks for)."""
    words = text.split()
    start = max(0, (len(words) - count) // 2)
    return " ".join(words[start : start + count])


def test_a_konflikt_47_card_prints_its_rules_text_from_the_loaded_data_with_publication_and_page(data_sets):
    data_set, roster, xml = game(data_sets, "bsdata/konflikt47")
    officer = next(s for s in roster.forces[0].selections if s.name == "Officer")
    rules = [
        rule
        for selection in officer.walk()
        for rule in shown_info(roster.data, selection.option.sources, Context.of_selection(roster, selection))[1]
        if rule.page and rule.publication_id and len(rule.description.split()) >= 24
    ]
    assert rules, "the Officer has a rule with a page, a publication and a description in the data"
    rule = rules[0]
    publication = roster.data.publications[rule.publication_id].name

    text = pdf_text(battlescribe_cards.render_battlescribe_cards(xml, data_set))

    printed = squeeze(text)
    assert squeeze(f"{rule.name}: {rule.description}") in printed  # the data's whole text, as loaded
    assert squeeze(f"{publication}, p. {rule.page}") in printed  # e.g. Konflikt 47: Resurgence, p. 29
    assert "read it in" not in text  # every rule of the data has its text


def test_a_rule_the_data_gives_no_text_names_the_publication_to_read_or_our_own_line(data_sets):
    data_set, roster, xml = game(data_sets, "bsdata/konflikt47")
    found = read_data_set_roster(xml, data_set)
    officer = next(card for card in battlescribe_cards.roster_cards(found.roster) if card.name == "Officer")
    rule = next(r for r in officer.references if r.kind == "rule" and r.publication and r.page)
    without_text = replace(rule, text="")
    officer.references = [without_text, replace(without_text, name="Reminder", summary="our own one-line reminder")]

    text = pdf_text(render(found, [officer]))

    assert f"{rule.name} read it in {rule.publication}, p. {rule.page}" in text
    assert f"Reminder: our own one-line reminder {rule.publication}, p. {rule.page}" in text


def render(found, cards) -> bytes:
    from lists.cards.renderer import render_pdf

    return render_pdf(battlescribe_cards.cards_html(found, cards))


def test_prose_in_a_profile_is_printed_as_text_and_a_profile_of_prose_only_like_a_rule(data_sets):
    data_set, roster, xml = game(data_sets, "community-data/ba3-afrika-korps")
    squad = roster.forces[0].selections[-1]
    profiles = [
        profile
        for selection in squad.walk()
        for profile in shown_info(roster.data, selection.option.sources, Context.of_selection(roster, selection))[0]
    ]
    # The community data's free-text characteristics (up to 295 words a value across the data set).
    prose = [(p, c) for p in profiles for c in p.characteristics if c[0] in ("Rules and options", "Description")]
    prose_only = [p for p in profiles if p.type_name == "Special Rule"]
    assert prose and prose_only

    text = pdf_text(battlescribe_cards.render_battlescribe_cards(xml, data_set))

    assert "Army Book Unit Period" in text  # the table keeps its other columns
    for profile, (name, _, value) in prose:
        kind = profile.type_name if profile.type_name == "Special Rule" else f"{profile.type_name}: {name}"
        assert squeeze(f"{profile.name} ({kind}): {value}") in squeeze(text)
    for profile in prose_only:
        assert f"{profile.name} (Special Rule)" in text


def test_a_squads_weapons_are_counted_once_per_man_who_carries_one(data_sets):
    data_set, roster, xml = game(data_sets, "community-data/ba3-soviet-union")
    squad = roster.forces[0].selections[-1]
    men = {s.name: s.number for s in squad.children if s.type == "model"}
    assert men == {"NCO": 1, "Rifleman": 4}  # the Rifle Squad as the data first makes it

    text = pdf_text(battlescribe_cards.render_battlescribe_cards(xml, data_set))

    assert "4× Rifleman, 5× Rifle" in text
    assert "Weapon Range Shots Pen Special Rules Rifle ×5 24" in text


def test_the_organisers_list_shows_the_units_total_verdict_and_a_fingerprint_that_survives_a_new_save(data_sets):
    data_set, roster, xml = game(data_sets, "bsdata/battlegroup")
    found = read_data_set_roster(xml, data_set)
    printed = battlescribe_fingerprint(found.roster, data_set.digest)
    points = found.verdict()["points"]

    text = pdf_text(battlescribe_cards.render_battlescribe_list(xml, data_set))

    assert f"Fingerprint: {printed}" in text
    assert f"Total: 3 units {points}" in text and points > 0
    assert ("Legal" if found.verdict()["valid"] else "Not legal") in text
    assert f"{data_set.name} revision {data_set.revision}" in text
    assert "Second unit, named by its player" in text
    # Saved again (new instance ids), it keeps its fingerprint; a changed count or another data set changes it.
    again = read_roster_xml(roster.data, write_roster_xml(read_roster_xml(roster.data, xml)))
    assert battlescribe_fingerprint(again, data_set.digest) == printed
    assert battlescribe_fingerprint(again, "0" * 64) != printed
    again.forces[0].selections[-1].custom_name = "Renamed"
    assert battlescribe_fingerprint(again, data_set.digest) != printed


def test_a_roster_of_another_game_is_refused_naming_both(data_sets):
    flames = game(data_sets, "bsdata/flamesofwar")[0]
    _, _, xml = game(data_sets, "bsdata/konflikt47")
    with pytest.raises(RosterFileInvalid) as refused:
        battlescribe_cards.render_battlescribe_cards(xml, flames)
    assert "not Flames of War v4" in str(refused.value.problems[0].message)


def test_the_command_writes_the_cards_and_the_list_beside_the_roster(data_sets, tmp_path):
    _, _, xml = game(data_sets, "bsdata/team-yankee")
    roster = tmp_path / "abrams.ros"
    roster.write_bytes(
        xml.replace(b'name="Team Yankee', b'name="&lt;img src=&quot;http://example.com/x.png&quot;&gt; Team Yankee', 1)
    )
    call_command("battlescribe_cards", str(roster), stdout=StringIO())
    call_command("battlescribe_cards", str(roster), "--list", stdout=StringIO())

    cards = pdf_text((tmp_path / "abrams-cards.pdf").read_bytes())
    listed = pdf_text((tmp_path / "abrams-list.pdf").read_bytes())
    assert "M1A1 Abrams Combat Team" in cards and "Fingerprint:" in listed
    assert '<img src="http://example.com/x.png">' in listed  # printed as text: nothing is fetched


def test_a_card_names_its_units_category_as_the_data_names_the_category(data_sets):
    # NATO - America.cat links its teams to "Combat Formation" through links its editor labelled "New CategoryLink".
    data_set, roster, xml = game(data_sets, "bsdata/team-yankee")
    cards = battlescribe_cards.roster_cards(read_data_set_roster(xml, data_set).roster)
    assert {card.category for card in cards} == {"Combat Formation"}
    text = pdf_text(battlescribe_cards.render_battlescribe_cards(xml, data_set))
    assert "Combat Formation · M1A1 Abrams Combat Team · NATO - America" in text  # the HQ, in its formation


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def test_each_card_starts_a_page_and_a_card_running_on_names_its_unit_on_the_next(data_sets):
    data_set, _, xml = game(data_sets, "bsdata/flamesofwar")
    found = read_data_set_roster(xml, data_set)
    cards = battlescribe_cards.roster_cards(found.roster)

    pages = page_texts(battlescribe_cards.render_battlescribe_cards(xml, data_set))

    went_on = [n for n, text in enumerate(pages) if "(continued)" in text.split(" pts")[0]]
    assert went_on, "a Flames of War card with its weapons and rules runs on to a second page"
    assert len(pages) == len(cards) + len(went_on)
    card = -1
    for number, text in enumerate(pages):
        if number in went_on:  # headed by the unit of the page before
            assert f"{cards[card].name} (continued)" in text
        else:  # a new card, headed by its own name, not "continued"
            card += 1
            assert cards[card].name in text and f"{cards[card].name} (continued)" not in text
        assert text.endswith(f"{data_set.name} (data revision {data_set.revision})")


def test_a_renamed_unit_prints_its_new_name_and_every_other_card_as_before(data_sets):
    data_set, roster, _ = game(data_sets, "bsdata/flamesofwar")
    before = page_texts(battlescribe_cards.render_battlescribe_cards(write_roster_xml(roster).encode(), data_set))
    unit = roster.forces[0].selections[0].children[1]  # the company's first platoon: a card of its own
    unit.custom_name = "First platoon, renamed"
    roster.refresh()

    after = page_texts(battlescribe_cards.render_battlescribe_cards(write_roster_xml(roster).encode(), data_set))

    assert len(after) == len(before)
    changed = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert changed and all("First platoon, renamed" in after[n] for n in changed)


def test_a_name_with_quotes_and_markup_is_printed_as_written_in_a_cards_margin():
    from lists.cards.renderer import render_pdf

    name = 'A "quoted" \\ back: </style><b>bold</b> · 1st'
    css = f"@page {{ size: 100mm 60mm; @bottom-left {{ content: {battlescribe_cards.css_string(name)}; }} }}"
    pdf = render_pdf(f"<!DOCTYPE html><html><head><style>{css}</style></head><body><p>x</p></body></html>", cards=True)
    assert name in page_texts(pdf)[0]


def test_cards_are_laid_out_once_and_again_only_for_a_new_look(data_sets, settings, monkeypatch):
    from lists.cards import section_pages

    settings.PDF_RENDER_PROCESSES = 1  # laid out in this process, where the count sees it
    data_set, roster, _ = game(data_sets, "bsdata/konflikt47")
    roster.name = "Laid out once"  # a roster of its own: no other test's cards are kept for it
    roster.forces[0].selections[0].custom_name = "Officer laid out once"
    roster.refresh()
    xml = write_roster_xml(roster).encode()
    laid_out_sections = []
    real = section_pages.lay_out_batch

    def counted(head, sections):
        laid_out_sections.extend(sections)
        return real(head, sections)

    monkeypatch.setattr(section_pages, "lay_out_batch", counted)

    first = battlescribe_cards.render_battlescribe_cards(xml, data_set)
    assert any("Officer laid out once" in section for section in laid_out_sections)
    laid = len(laid_out_sections)
    again = battlescribe_cards.render_battlescribe_cards(xml, data_set)
    assert len(laid_out_sections) == laid and page_texts(again) == page_texts(first)  # every card kept

    found = read_data_set_roster(xml, data_set)
    cards = set(battlescribe_cards.card_sections(found, battlescribe_cards.roster_cards(found.roster)))
    monkeypatch.setattr(battlescribe_cards, "pdf_look", lambda kind: "a new look of the templates")
    battlescribe_cards.render_battlescribe_cards(xml, data_set)
    anew = laid_out_sections[laid:]
    assert set(anew) == cards and len(anew) == len(cards)  # a deploy's new look lays every card out anew, once
