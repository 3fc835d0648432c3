"""A PDF made of sections that each start a page (a BattleScribe roster's cards), each section's pages laid out
once and cached, the sections laid out in batches shared over the render processes, as our packs' cards are.

A document of one section's pages costs no more than those pages inside a longer document, so a roster's
cards are laid out a batch a render process (`render_helpers`), each card's pages cached under the card's own
content (its HTML and the document's head, which sets the page's size and footer): an edit lays out the card
it changed, a card met in another roster of the same look is not laid out again. The PDF is then put together
from the cached pages (pypdf copies them, fonts and all, and renders nothing).
"""

from __future__ import annotations

import hashlib
import io

from django.conf import settings

from lists.cards import render_helpers
from lists.cards.pdfs import MIN_GROUPS_PER_BATCH, helpers_state, kept_batches
from lists.cards.renderer import _boxes, _card_html_class, _make_fetcher, _stylesheet

PAGES_CUT = 2  # how a section's pages are kept: a new way never reads an old entry
SECTION_TAG = "section"
DOCUMENT_END = "</body>\n</html>\n"  # after the sections: `head` opens the document and its body


def lay_out_batch(head: str, sections: list[str]) -> tuple[bytes, list[list[int]]]:
    """The sections as one document (`head` opens it: the page and its styles); its PDF and the pages of each
    section, by the section's position."""
    css, fonts = _stylesheet()
    html = _card_html_class()(string=head + "".join(sections) + DOCUMENT_END, url_fetcher=_make_fetcher())
    body = next(e for e in html.etree_element.iter() if str(e.tag).endswith("body"))
    order = {id(element): n for n, element in enumerate(e for e in body if str(e.tag).endswith(SECTION_TAG))}
    document = html.render(stylesheets=[css], font_config=fonts)
    pages: list[list[int]] = [[] for _ in sections]
    last = 0
    for number, page in enumerate(document.pages):
        # The page is the section's that starts or goes on on it: the first section a box of it stands for.
        found = next((order[id(box.element)] for box in _boxes(page._page_box) if id(box.element) in order), last)
        pages[found].append(number)
        last = found
    return document.write_pdf(), pages


def _key(look: str, head: str, section: str) -> str:
    """A section's pages depend on its HTML, the document's head, and the look (stylesheets, code) drawing them."""
    return "section:" + hashlib.sha256(f"{PAGES_CUT}\0{look}\0{head}\0{section}".encode()).hexdigest()


def _batches(sizes: list[int], count: int) -> list[list[int]]:
    """Positions split into at most `count` batches of about equal length, each kept in order, the longest
    section first to the lightest batch."""
    count = max(1, min(count, len(sizes) // MIN_GROUPS_PER_BATCH))
    batches: list[list[int]] = [[] for _ in range(count)]
    loads = [0] * count
    for position in sorted(range(len(sizes)), key=lambda p: -sizes[p]):
        lightest = loads.index(min(loads))
        batches[lightest].append(position)
        loads[lightest] += sizes[position]
    return [sorted(batch) for batch in batches if batch]


def sections_pdf(head: str, sections: list[str], look: str, title: str = "") -> bytes:
    """The PDF of `head` followed by `sections` (titled `title`), each section's pages from the cache or laid out
    now (and kept under `look`, the digest of what draws them: new templates never read old pages)."""
    from pypdf import PdfReader, PdfWriter

    keys = [_key(look, head, section) for section in sections]

    def lay_out(missing: list[int]):
        split = _batches([len(sections[n]) for n in missing], settings.PDF_RENDER_PROCESSES)
        calls = [(head, [sections[missing[p]] for p in batch]) for batch in split]
        results = render_helpers.map_shared(
            lay_out_batch, calls, settings.PDF_RENDER_PROCESSES - 1, state=helpers_state()
        )
        for batch, (pdf, pages) in zip(split, results, strict=True):
            yield pdf, dict(zip(batch, pages, strict=True))

    entries, batches = kept_batches(keys, lay_out, "sectionbatch:")
    readers = {name: PdfReader(io.BytesIO(pdf)) for name, pdf in batches.items()}
    writer = PdfWriter()
    for key in keys:
        for number in entries[key]["part"]:
            writer.add_page(readers[entries[key]["batch"]].pages[number])
    if title:
        writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
