"""Unit cards and the organiser's list of a roster of any loaded BattleScribe data set, from the data's profiles.

Each unit (a top-level selection of a force) gets a card: its costs by the game's cost type names, what
was chosen under it, one table per profile type with the data's characteristic names as headers, and its
rules named with their publication and page (`lists.rosters.battlescribe_card_content` says what is left
out and why). A card is a page of the card's size; a unit whose content does not fit goes on to a second
page headed "continued", so nothing is cut off or drawn past the card's edge.

The card's size is chosen from the game's data: the widest profile type (its count of characteristics
printed) decides between A6 landscape and A5 landscape, and tables of more than `WIDE_COLUMNS` columns
are set in smaller type; table cells wrap (at spaces, hyphens, else anywhere), so a long value grows its
row downwards, never out of the card.

The renderer fetches nothing (the cards' locked URL fetcher and system fonts, as every card of ours).
A stored roster's PDFs are rendered in the background (`lists.pdfs.tasks`) and cached under
`battlescribe_pdf_key`: one PDF per roster version, data set and look of the templates.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from lists import models
from lists.cards.list_summary import share_code
from lists.cards.renderer import render_pdf, templates_digest
from lists.cards.roster_card import roster_card_context
from lists.cards.section_pages import DOCUMENT_END, sections_pdf
from lists.rosters.battlescribe_card_content import (
    SETTINGS_CARD,
    ShownInfo,
    UnitCard,
    force_units,
    listed_units,
    number,
    roster_cards,
    widest_profile,
)
from lists.rosters.battlescribe_data_rosters import DataSetRoster, read_data_set_roster
from lists.rosters.battlescribe_fingerprint import battlescribe_fingerprint

WIDE_COLUMNS = 6  # a table of more characteristics than this is set in smaller type
VERY_WIDE_COLUMNS = 10


@dataclass(frozen=True)
class CardFormat:
    """A card's page: its name, size (mm, landscape) and body type size (pt)."""

    name: str
    width_mm: float
    height_mm: float
    font_pt: float


A6_LANDSCAPE = CardFormat("A6 landscape", 148, 105, 7.5)
A5_LANDSCAPE = CardFormat("A5 landscape", 210, 148, 8)
# The card sizes a player may ask for (render_cards --card), as our packs' cards have them.
CARD_FORMATS = {"poker": CardFormat("poker", 63, 88, 5.5), "a6": A6_LANDSCAPE}


def card_format(data) -> CardFormat:
    """A6 landscape for games whose profiles are narrow, A5 landscape for wide ones (Flames of War's)."""
    return A5_LANDSCAPE if widest_profile(data) > WIDE_COLUMNS else A6_LANDSCAPE


def table_class(columns: int) -> str:
    if columns > VERY_WIDE_COLUMNS:
        return "very-wide"
    return "wide" if columns > WIDE_COLUMNS else ""


def css_string(text: str) -> str:
    """`text` as a CSS string: every character but letters, digits and a few marks escaped (a quote, a backslash
    or a `<` in a roster's or game's name never ends the string or the style sheet)."""
    kept = " .,()-·"  # an escape ends at the space after it, which CSS takes as part of it
    escaped = "".join(c if c.isalnum() or c in kept else f"\\{ord(c):x} " for c in text)
    return mark_safe(f'"{escaped}"')  # noqa: S308 - letters, digits, a few marks and CSS escapes: no markup


def document_head(found: DataSetRoster, page: CardFormat) -> str:
    """What opens the cards' document: the page's size, margins and footer (the game and data revision), the styles."""
    game = found.roster.data.game_system.name
    footer = f"{game} (data revision {found.data_set.revision})"
    return render_to_string("cards/battlescribe_cards.html", {"page": page, "game": game, "footer": css_string(footer)})


def card_sections(
    found: DataSetRoster, cards: list[UnitCard], link: str = "", page: CardFormat | None = None
) -> list[str]:
    """Each card as a section of the document, which starts a page; with a share `link`, the roster card first
    (the link as a QR code)."""
    page = page or card_format(found.roster.data)
    sections = []
    if link:  # the QR code 60% of the landscape page's height: room above and below it for the name and the link
        game = found.roster.data.game_system.name
        roster_card = roster_card_context(found.roster.name, game, link, page.height_mm * 0.6)
        sections.append(render_to_string("cards/_battlescribe_roster_card.html", {"roster_card": roster_card}))
    for card in cards:
        tables = [(table, table_class(len(table.columns))) for table in card.tables]
        sections.append(render_to_string("cards/_battlescribe_card.html", {"card": card, "tables": tables}))
    return sections


def cards_html(found: DataSetRoster, cards: list[UnitCard], link: str = "", page: CardFormat | None = None) -> str:
    """The cards as one document, each starting a page (as the renderer lays them out, a batch at a time)."""
    page = page or card_format(found.roster.data)
    return document_head(found, page) + "".join(card_sections(found, cards, link, page)) + DOCUMENT_END


def battlescribe_cards_pdf(
    found: DataSetRoster,
    summaries: dict[str, str] | None = None,
    link: str = "",
    card: str | None = None,
    merge: bool = False,
) -> bytes:
    """The unit cards of a roster read by the engine, one or more card pages per unit: of the size the game's
    data suits, or of `card` (a size of CARD_FORMATS); with `merge`, one card with a count for identical units;
    with a share `link`, the roster card first. Each card's pages are laid out once and kept (`section_pages`)."""
    cards = roster_cards(found.roster, summaries)
    page = CARD_FORMATS.get(card or "") or card_format(found.roster.data)
    sections = card_sections(found, merged(cards) if merge else cards, link, page)
    title = f"{found.roster.name}: unit cards" if found.roster.name else "Unit cards"
    return sections_pdf(document_head(found, page), sections, pdf_look("cards"), title)


def merged(cards: list[UnitCard]) -> list[UnitCard]:
    """Identical cards (the same entry, name, choices and costs each) as one, its count the sum of theirs."""
    found: dict[tuple, UnitCard] = {}
    for card in cards:
        same = (
            card.name,
            card.entry_name,
            card.force,
            card.category,
            card.formation,
            tuple(card.costs),
            tuple(card.chosen),
            card.notes,
        )
        if same in found and card.name != SETTINGS_CARD:
            kept = found[same]
            costs = [(name, number(value + dict(card.costs).get(name, 0))) for name, value in kept.costs]
            found[same] = replace(kept, number=kept.number + card.number, costs=costs)
        else:
            found.setdefault(same if card.name != SETTINGS_CARD else (id(card),), card)
    return list(found.values())


def list_context(found: DataSetRoster) -> dict:
    """What the organiser's list prints: the roster, its game and data revision, units with costs, verdict."""
    roster, data = found.roster, found.roster.data
    document = found.verdict()
    forces = []
    cost_names: list[str] = []
    info = ShownInfo(roster)
    for force, summary in zip(roster.all_forces(), document["forces"], strict=True):
        rows = []
        for unit in listed_units(roster, force, info):
            cost_names += [name for name in unit.costs if name not in cost_names]
            rows.append(vars(unit) | {"label": unit.name})
        catalogue = f"{force.catalogue.name} (revision {force.catalogue.revision})"
        forces.append(
            {"name": summary["name"], "organisation": summary["organisation"], "catalogue": catalogue, "rows": rows}
        )
    ordered = [c.name for c in data.cost_types if c.name in cost_names]
    for force in forces:
        for row in force["rows"]:
            row["cost_values"] = [row["costs"].get(name, 0) for name in ordered]
    totals = {c.name: number(found.roster.totals.get(c.id, 0.0)) for c in data.cost_types}
    return {
        "roster_name": roster.name,
        "game": data.game_system.name,
        "data_set": found.data_set,
        "forces": forces,
        "cost_names": ordered,
        "totals": [totals.get(name, 0) for name in ordered],
        "points_limit": document["points_limit"],
        "unit_count": sum(not row["formation"] for force in forces for row in force["rows"]),
        "valid": document["valid"],
        "findings": document["findings"],
        "fingerprint": battlescribe_fingerprint(roster, found.data_set.digest),
    }


def battlescribe_list_pdf(found: DataSetRoster, title: str = "", fingerprint: str = "", link: str = "") -> bytes:
    """The organiser's list of a roster read by the engine (A4), with its fingerprint and its share `link` as a
    QR code. An event's pack heads it with the player's name (`title`) and prints the fingerprint the list was
    submitted with."""
    context = list_context(found) | share_code(link)
    context["roster_name"] = title or context["roster_name"]
    context["fingerprint"] = fingerprint or context["fingerprint"]
    return render_pdf(render_to_string("cards/battlescribe_list.html", context))


def render_battlescribe_cards(roster_xml: bytes, data_set: models.BattleScribeDataSet) -> bytes:
    """The unit cards (PDF) of a .ros/.rosz roster of `data_set`; RosterFileInvalid says why a file cannot be read."""
    return battlescribe_cards_pdf(read_data_set_roster(roster_xml, data_set))


def render_battlescribe_list(roster_xml: bytes, data_set: models.BattleScribeDataSet) -> bytes:
    """The organiser's list (PDF) of a .ros/.rosz roster of `data_set`."""
    return battlescribe_list_pdf(read_data_set_roster(roster_xml, data_set))


# The look of each BattleScribe PDF, as lists.cards.renderer.PDF_TEMPLATES names it.
PDF_LOOKS = {"cards": "battlescribe-cards", "list": "battlescribe-list"}


def pdf_look(kind: str) -> str:
    """A digest of the templates a `cards` or `list` PDF is drawn with: a new look is a new cache key."""
    return templates_digest(PDF_LOOKS[kind])


def battlescribe_pdf_key(kind: str, kept: models.BattleScribeRoster, link: str = "") -> str:
    """The cache key of a stored roster's `cards` or `list` PDF: every saved edit raises the roster's version, and
    new templates change their digest, so a cached PDF is never older than the roster or the look it shows."""
    look = pdf_look(kind)
    printed = hashlib.sha256(link.encode()).hexdigest()[:16] if link else "-"  # the QR code of its link
    return f"pdf:bs-{kind}:{look}:{kept.data_set.digest}:{kept.share_id}:{kept.version}:{printed}"


def card_units(found: DataSetRoster) -> int:
    """How many units get a card (the units `roster_cards` prints, nested ones too; the settings' card aside)."""
    info = ShownInfo(found.roster)
    return sum(len(force_units(force, info)[0]) for force in found.roster.all_forces())


def battlescribe_pdf(kind: str, found: DataSetRoster, link: str = "") -> bytes:
    """The roster's unit cards (`cards`) or organiser's list (`list`), each carrying its share `link` as a QR code."""
    if kind == "cards":
        return battlescribe_cards_pdf(found, link=link)
    return battlescribe_list_pdf(found, link=link)
