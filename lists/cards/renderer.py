"""The renderer: WeasyPrint with system fonts, a stylesheet built once per process and no URL ever fetched.

It lays cards out one to a page of their size and measures their blocks.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path
from xml.etree import ElementTree

from django.template import loader
from django.template.loader import render_to_string

from lists.battlescribe.safe_xml import DTD_DECLARATION
from lists.cards.layout import Card, Layout


class BlockedURL(ValueError):
    """The renderer asked for a URL; it may fetch none."""


def _make_fetcher():
    from weasyprint.urls import URLFetcher

    class LockedURLFetcher(URLFetcher):
        """Refuses every URL: cards are built from inline CSS and system fonts only."""

        def __init__(self):
            super().__init__(allowed_protocols=set(), fail_on_errors=False)
            self.refused: list[str] = []

        def fetch(self, url, headers=None):
            self.refused.append(url)
            raise BlockedURL(f"the card renderer fetches no URL ({url[:80]})")

    return LockedURLFetcher()


# An array type sized by a number, as WeasyPrint's font subsetting names them ("hb_codepoint_t[812]").
SIZED_ARRAY = re.compile(r"(\w+)\[(\d+)\]")


@cache
def _arrays_typed_once() -> None:
    """Let cffi parse each array type of the font subsetting once, not once per length.

    Every PDF subsets each of its fonts with arrays typed by their length, and cffi parses each new type with
    pycparser (2-60 ms each, two per font per PDF: as long as laying out a card). An array of its items'
    length typed open ("hb_codepoint_t[]") is the same array, and its type is parsed once per process.
    """
    from weasyprint.text.ffi import ffi

    new = ffi.new

    def new_array(cdecl, init=None):
        sized = SIZED_ARRAY.fullmatch(cdecl) if isinstance(cdecl, str) and init is not None else None
        if sized and int(sized[2]) == len(init):
            return new(f"{sized[1]}[]", init)
        return new(cdecl, init)

    ffi.new = new_array


@cache
def _stylesheet():
    """Built once per process: parsing CSS and loading fonts is the slow part of a first render."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    _arrays_typed_once()

    fonts = FontConfiguration()
    css = CSS(string=render_to_string("cards/cards.css"), font_config=fonts, url_fetcher=_make_fetcher())
    return css, fonts


@cache
def _card_html_class():
    """WeasyPrint's HTML with a user-agent stylesheet of only what cards use, read by a faster parser.

    Matching the full HTML5 stylesheet against every element took more time than
    laying the cards out. (`_ua_stylesheets` is the hook WeasyPrint's own tests use;
    the version is pinned.)
    """
    import cssselect2
    from weasyprint import CSS, HTML

    sheet = CSS(string=render_to_string("cards/ua.css"), url_fetcher=_make_fetcher())

    class CardHTML(HTML):
        def __init__(self, string: str, url_fetcher):
            """The card template writes well-formed markup, which an XML parser (expat, in C) reads in a fiftieth
            of the time of the HTML5 one (pure Python); markup it refuses, say a label holding a control
            character, goes to the HTML5 parser. (Sets what `HTML.__init__` of the pinned version sets.)

            The tree is the standard library's, as WeasyPrint's own parser builds it: its SVG code copies an
            element's attributes as a dict, which lxml's are not. The markup is our template's, user text
            escaped in it; any DTD or entity declaration still sends it to the HTML5 parser."""
            markup = string.removeprefix("<!DOCTYPE html>")  # our template's doctype, which declares nothing
            try:
                if DTD_DECLARATION.search(markup.encode()):
                    raise ElementTree.ParseError("declares a DTD or entities")
                root = ElementTree.fromstring(markup)  # noqa: S314 - our own markup, no declaration in it (above)
            except ElementTree.ParseError:
                super().__init__(string=string, url_fetcher=url_fetcher)
                return
            self.base_url = None
            self.url_fetcher = url_fetcher
            self.media_type = "print"
            self.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
            self.etree_element = self.wrapper_element.etree_element

        def _ua_stylesheets(self, forms=False):
            return [sheet]

    return CardHTML


def warm_up() -> None:
    """Load fonts and parse the stylesheets ahead of the first PDF."""
    _stylesheet()
    _card_html_class()
    for kind in PDF_TEMPLATES:
        templates_digest(kind)


def render_pdf(html: str, *, cards: bool = False) -> bytes:
    """A PDF of the HTML, with the app's fonts and stylesheet, fetching nothing from outside."""
    from weasyprint import HTML

    css, fonts = _stylesheet()
    document = (_card_html_class() if cards else HTML)(string=html, url_fetcher=_make_fetcher())
    return document.write_pdf(stylesheets=[css], font_config=fonts)


# Height of the page each card is rendered at the top of: room to measure a group's whole content.
PAGE_MM = 5000


def cards_html(cards: list[Card], layout: Layout, page_mm: float = PAGE_MM) -> str:
    """The cards as HTML, one card at the top of each page (what the renderer prints)."""
    (cw, ch), padding = layout.card_mm, layout.padding_mm
    return render_to_string(
        "cards/cards.html",
        {"cards": cards, "card_w": cw, "card_h": ch, "page_h": page_mm, "font_pt": layout.font_pt, "padding": padding},
    )


@cache
def templates_digest(kind: str) -> str:
    """Changes whenever the templates of this kind of PDF, or the code that fills them, do, so cached cards and
    PDFs never outlive their look."""
    sources = [loader.get_template(name).template.source for name in PDF_TEMPLATES[kind]]
    return hashlib.sha256("\0".join([*sources, _code_digest()]).encode()).hexdigest()[:16]


@cache
def _code_digest() -> str:
    """The card-building modules' digest: a deploy changing what a card says (its subtitle, its blocks), not only
    its templates, renders anew."""
    modules = sorted(Path(__file__).parent.glob("*.py"))
    return hashlib.sha256(b"".join(module.read_bytes() for module in modules)).hexdigest()


# Everything that decides how each kind of PDF looks (the list is printed with the cards' stylesheet too).
PDF_TEMPLATES = {
    "cards": (
        "cards/ua.css",
        "cards/cards.css",
        "cards/cards.html",
        "cards/_block.html",
        "cards/roster_card.html",
        "cards/_roster_card.html",
    ),
    "list": ("cards/cards.css", "cards/list.html"),
    "battlescribe-cards": (
        "cards/ua.css",
        "cards/cards.css",
        "cards/battlescribe_cards.html",
        "cards/_battlescribe_card.html",
        "cards/_battlescribe_roster_card.html",
        "cards/_roster_card.html",
    ),
    "battlescribe-list": ("cards/cards.css", "cards/battlescribe_list.html"),
}


def _lay_out(cards: list[Card], layout: Layout):
    """Lay cards out, one to a page of their size (WeasyPrint's document, not yet written)."""
    css, fonts = _stylesheet()
    html = _card_html_class()(string=cards_html(cards, layout), url_fetcher=_make_fetcher())
    return html.render(stylesheets=[css], font_config=fonts)


def _boxes(box):
    box = getattr(box, "_box", box)  # an absolutely placed box sits behind a placeholder
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


MM_PER_PX = 25.4 / 96


def _block_places(page) -> list[tuple[float, float]]:
    """Where each block on a laid-out card is (mm from the page's top) and its height (mm), in order, overflowing
    ones included."""
    places: dict[int, tuple[float, float]] = {}
    for box in _boxes(page._page_box):
        element = getattr(box, "element", None)
        if element is not None and "blk" in element.get("class", "").split():
            top, height = box.position_y * MM_PER_PX, box.margin_height() * MM_PER_PX
            known = places.get(id(element))
            places[id(element)] = (min(known[0], top), max(known[1], height)) if known else (top, height)
    return list(places.values())
