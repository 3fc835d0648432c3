"""The roster card: the first card of a printed roster, carrying its share link as a QR code to scan.

The code is drawn as vector rectangles (one a run of dark modules in a row) in an inline SVG, so the
renderer fetches nothing and any printer keeps it sharp.
"""

from __future__ import annotations

import segno
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from lists.cards.layout import Layout
from lists.cards.renderer import render_pdf

QUIET_MODULES = 4  # the light border a QR reader needs around the code
QR_SHARE = 0.62  # of the card's width, quiet zone in: the code 31 mm on a poker card, 51 on A6 (at least 25 to scan)
CAPTION = "Scan to open this roster"


def qr_modules(link: str) -> tuple[int, list[tuple[int, int, int]]]:
    """The link's QR code (error correction M, as the list's): its modules across, and its dark modules as runs
    along its rows, (row, column, length)."""
    matrix = segno.make(link, error="m").matrix
    runs = []
    for row, modules in enumerate(matrix):
        column = 0
        while column < len(modules):
            start = column
            while column < len(modules) and modules[column]:
                column += 1
            if column > start:
                runs.append((row, start, column - start))
            column += 1
    return len(matrix), runs


def qr_rects_svg(link: str, size_mm: float, title: str = "QR code of this roster's share link") -> SafeString:
    """An inline SVG of the link's QR code, `size_mm` wide with its quiet zone, drawn as filled rectangles."""
    size, runs = qr_modules(link)
    width = size + 2 * QUIET_MODULES
    rects = format_html_join("", '<rect x="{}" y="{}" width="{}" height="1"/>', ((c, r, n) for r, c, n in runs))
    q = QUIET_MODULES
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="{q} {q} {w} {w}" width="{mm}mm" height="{mm}mm">'
        '<title>{title}</title><rect x="{q}" y="{q}" width="{w}" height="{w}" fill="#fff"/><g fill="#000">{rects}</g>'
        "</svg>",
        q=-q,
        w=width,
        mm=f"{size_mm:.1f}",
        title=title,
        rects=rects,
    )


def roster_card_context(name: str, subtitle: str, link: str, qr_mm: float) -> dict:
    """What a roster card prints: the roster's name, a line under it, the QR code of its link (`qr_mm` wide), the
    link."""
    return {
        "roster_name": name,
        "subtitle": subtitle,
        "share_link": link,
        "share_qr": qr_rects_svg(link, qr_mm),
        "caption": CAPTION,
    }


def roster_card_pdf(name: str, subtitle: str, link: str, layout: Layout) -> bytes:
    """The roster card of a cards PDF of ours, one page of the card's size (drawn first on the first sheet)."""
    (cw, ch), padding = layout.card_mm, layout.padding_mm
    context = roster_card_context(name, subtitle, link, cw * QR_SHARE) | {
        "card_w": cw,
        "card_h": ch,
        "font_pt": layout.font_pt,
        "padding": padding,
    }
    return render_pdf(render_to_string("cards/roster_card.html", context), cards=True)  # the cards' faster parser
