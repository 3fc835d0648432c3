"""Unit-card and organiser's-list PDFs.

Each card is rendered once, as a page of its own size, and cached by its
content, the card size and the pack version; a cards PDF lays cached card
pages out on sheets of paper (pypdf), so an edit renders one card again and a
card is shared by every roster that has it. Cards not yet cached are rendered
together in one pass per render process (`lists.cards.render_helpers` shares them out), as
the renderer's cost per document dominates; units alike but for their labels
share one body (all but the header), laid out once and drawn on each card. That
pass lays each unit out once, bare and whole: its cards are cut from that page
(header, then each card's blocks) and drawn over frames (border and footer),
which a process lays out once; only a rule split between cards is laid out again.

A card's content is packed into blocks whose height is measured by laying them
out once; what does not fit continues on a second card instead of overflowing.
A card names its unit's rules with a one-line reminder; their full texts are
printed once, on the rules reference cards at the end.

The renderer fetches nothing: every URL it meets is refused, the stylesheet
is built once per process, and fonts come from the system (fontconfig).

The package is split by what it draws: `layout` (sizes, blocks, cards),
`blocks` (what a unit's card says), `vehicles` and `squads` (a vehicle's move
and mounted weapons, a squad's weapons by who carries them), `packing` (cards
filled from measured blocks), `renderer` (WeasyPrint, locked), `pdfs` (batches,
cache, sheets), `list_summary` (the organiser's list and plain text) and `roster_card` (the first card of a
printed roster: its name and share link as a QR code);
`battlescribe_cards` prints the cards and list of a roster of any loaded BattleScribe data set
from the data's profiles (a page per card, sized from the game's widest profile).

May import: `lists.rosters`, `lists.rules`, `lists.gamedata`, `lists.models`, and of `lists.battlescribe`
the one safe XML parser (`safe_xml`) the renderer reads its markup with (never `lists.pdfs`, `lists.events`
or `lists.web`).
"""

from lists.cards.blocks import applies, reference_blocks, reminder, roster_rules, unit_blocks, unit_rules
from lists.cards.layout import CARD_SIZES, PAPER_SIZES, Block, Card, Group, Layout
from lists.cards.list_summary import house_rule_rows, list_context, roster_text
from lists.cards.packing import _body_mm, _first_pass, card_groups, pack_cards, roster_cards
from lists.cards.pdfs import (
    _batches,
    assemble,
    card_pages,
    cards_pdf,
    list_pdf,
    pdf_key,
    sheets,
    start_render_helpers,
    warm_up,
)
from lists.cards.renderer import (
    BlockedURL,
    _boxes,
    _lay_out,
    _make_fetcher,
    cards_html,
    render_pdf,
    templates_digest,
)

__all__ = [
    "CARD_SIZES",
    "PAPER_SIZES",
    "Block",
    "BlockedURL",
    "Card",
    "Group",
    "Layout",
    "applies",
    "assemble",
    "card_groups",
    "card_pages",
    "cards_html",
    "cards_pdf",
    "house_rule_rows",
    "list_context",
    "list_pdf",
    "pack_cards",
    "pdf_key",
    "reference_blocks",
    "reminder",
    "roster_cards",
    "roster_rules",
    "roster_text",
    "sheets",
    "start_render_helpers",
    "unit_blocks",
    "unit_rules",
    "warm_up",
    "_batches",
    "_body_mm",
    "_boxes",
    "_first_pass",
    "_lay_out",
    "_make_fetcher",
    "render_pdf",
    "templates_digest",
]
