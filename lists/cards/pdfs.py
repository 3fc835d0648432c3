"""Cards rendered in batches over the render processes, cached one group at a time, and laid out on sheets."""

from __future__ import annotations

import hashlib
import io
import json
import math

from django.conf import settings
from django.core.cache import cache as django_cache
from django.template.loader import render_to_string

from lists.cards import render_helpers, renderer
from lists.cards.layout import CACHE_SECONDS, CARD_SIZES, LIST_VARIANT, Block, Card, Group, Layout
from lists.cards.list_summary import list_context, share_code
from lists.cards.packing import _body_key, _first_pass, card_groups
from lists.cards.renderer import _lay_out, render_pdf, templates_digest
from lists.cards.roster_card import roster_card_pdf
from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import RosterSnapshot
from lists.rosters.fingerprint import pdf_cache_key
from lists.rules.verdict import Verdict


def sheets(count: int, layout: Layout) -> list[dict]:
    """Where `count` cards sit on sheets of paper (mm from the top left), and the cut marks around them."""
    cols, rows = layout.grid
    (cw, ch), (pw, ph) = layout.card_mm, layout.paper_mm
    left = (pw - cols * cw) / 2
    top = (ph - rows * ch) / 2
    per_sheet = cols * rows
    result = []
    for start in range(0, count, per_sheet):
        on_sheet = min(per_sheet, count - start)
        places = [(left + (i % cols) * cw, top + (i // cols) * ch) for i in range(on_sheet)]
        used_rows = math.ceil(on_sheet / cols)
        used_cols = min(cols, on_sheet)
        xs = [left + c * cw for c in range(used_cols + 1)]
        ys = [top + r * ch for r in range(used_rows + 1)]
        marks = (
            [(x, top - 6, x, top - 2) for x in xs]
            + [(x, top + used_rows * ch + 2, x, top + used_rows * ch + 6) for x in xs]
            + [(left - 6, y, left - 2, y) for y in ys]
            + [(left + used_cols * cw + 2, y, left + used_cols * cw + 6, y) for y in ys]
        )
        result.append({"places": places, "marks": marks})
    return result


def pdf_key(kind: str, roster: RosterSnapshot, data: GameData, layout: Layout) -> str:
    """The cache key of this roster's whole PDF of this kind in this layout, as its templates now are."""
    variant = layout.variant if kind == "cards" else LIST_VARIANT + ("-notes" if layout.notes else "")
    if layout.link:  # the printed QR code (the list's, the roster card's): a roster's content no longer names its PDF
        variant += "-" + hashlib.sha256(layout.link.encode()).hexdigest()[:16]
    return pdf_cache_key(kind, variant, templates_digest(kind), roster, data)


CARDS_CUT = 3  # how cached cards are drawn from their pages (CardLayers): a new way never reads an old entry


def _group_key(group: Group, layout: Layout, data: GameData) -> str:
    """A group's cards depend on its content, the card size and the pack (and the templates)."""
    content = json.dumps(
        [
            CARDS_CUT,
            templates_digest("cards"),
            layout.card,
            data.content_hash,
            group.header.data,
            [(b.kind, b.data) for b in group.blocks],
        ],
        sort_keys=True,
        ensure_ascii=False,
    )
    return "card:" + hashlib.sha256(content.encode()).hexdigest()


# A card as it is drawn: layers of rendered pages, each (page, mm it is moved down on the card, mm of the page
# from its top where the layer starts, mm of it shown: None for down to the card's foot).
CardLayers = list[tuple[int, float, float, float | None]]


# A frame's footer: (units it stands for, their labels, part, parts).
FrameKey = tuple[int, tuple[str, ...], int, int]

# Frames laid out in this process (pages of WeasyPrint's, drawn into any later render's PDF), by card size,
# templates and footer: most cards' frames are alike ("card 1 of 2"), so a render lays out none. Frames naming
# merged units' labels are not kept (as many as rosters).
_frames: dict[tuple[str, str, FrameKey], object] = {}


def _frame_key(card: Card) -> FrameKey:
    """A card's frame: its border and footer (the units it stands for, "card 2 of 3"), nothing inside."""
    return card.count, tuple(card.labels) if card.count > 1 else (), card.part, card.parts


def _frame_pages(keys: list[FrameKey], layout: Layout) -> dict[FrameKey, object]:
    """The laid-out page of each frame, from this process's frames or laid out now (in one document)."""
    digest = templates_digest("cards")
    missing = [key for key in dict.fromkeys(keys) if (layout.card, digest, key) not in _frames]
    laid_out = {}
    if missing:
        frames = [Card("", None, count, list(labels), [], part, parts) for count, labels, part, parts in missing]
        laid_out = dict(zip(missing, _lay_out(frames, layout).pages, strict=True))
        _frames.update({(layout.card, digest, key): page for key, page in laid_out.items() if not key[1]})
    return {key: laid_out.get(key) or _frames[(layout.card, digest, key)] for key in keys}


def _cut(cards: list[Card], group: Group) -> bool:
    """Whether the group's cards can be cut from its measured page: each holds whole blocks of the group, in order
    (a rule split over two cards is laid out again, as two new blocks)."""
    own = {id(block) for block in group.blocks}
    return all(id(block) in own for card in cards for block in card.blocks[1:])


def _render_groups(groups: list[Group], layout: Layout) -> tuple[bytes, dict[int, list[CardLayers]]]:
    """Render groups (at least one) in as few passes as possible, into one PDF (the renderer's cost per
    document and per page dominates).

    Each group is laid out once, bare and whole (`_first_pass`, which measures it); each of its cards is then a
    frame (border and footer, the same for most cards: laid out once per process, `_frame_pages`) with the header
    and that card's blocks cut from the measured page drawn over it. Only cards holding part of a rule split between two cards are
    laid out again. Returns the PDF with the cards of each group, by the group's position in `groups`.
    """
    first = _first_pass(groups, layout)
    document, card_h = first.document, layout.card_mm[1]
    second: list[Card] = []  # cards laid out again
    drawn: dict[int, list[list[tuple[object, float, float, float | None]]]] = {}  # layers: (page or frame, ...)
    for i, (group, cards) in enumerate(zip(groups, first.packed, strict=True)):
        if not _cut(cards, group):  # laid out again, whole, one card to a page
            drawn[i] = [[(("second", len(second) + n), 0.0, 0.0, None)] for n in range(len(cards))]
            second += cards
            continue
        body = first.bodies[i] if first.bodies[i] is not None else i
        header_end = group.header.top + group.header.height
        drawn[i] = []
        for card in cards:
            layers = [(("frame", _frame_key(card)), 0.0, 0.0, None)]
            blocks = card.blocks[1:]
            end = blocks[-1].top + blocks[-1].height if blocks else header_end
            if not blocks or (body == i and blocks[0] is group.blocks[0]):  # the header (and blocks) as laid out
                layers.append((("first", i), 0.0, 0.0, min(end, card_h)))
            else:  # the header, and the card's blocks moved up below it
                shown = min(end - blocks[0].top, card_h - header_end)
                layers += [(("first", i), 0.0, 0.0, header_end), (("first", body), header_end, blocks[0].top, shown)]
            drawn[i].append(layers)
    used = list(dict.fromkeys(source for layers in drawn.values() for card in layers for source, *_ in card))
    frames = _frame_pages([key for kind, key in used if kind == "frame"], layout)
    pages = {("first", n): page for n, page in enumerate(document.pages)}
    pages |= {("second", n): page for n, page in enumerate(_lay_out(second, layout).pages if second else [])}
    pages |= {("frame", key): page for key, page in frames.items()}
    number = {source: n for n, source in enumerate(used)}
    cards = {
        i: [[(number[source], down, top, shown) for source, down, top, shown in card] for card in layers]
        for i, layers in drawn.items()
    }
    return document.copy([pages[source] for source in used]).write_pdf(), cards


# Fewer groups than this are not made a batch of their own: a batch is a document, with a few ms of its own
# (and fonts of its own in the PDF: more batches than processes made renders no faster, only PDFs larger).
MIN_GROUPS_PER_BATCH = 3


# A frame (border, header, footer) weighs about as much as this many characters of a body.
FRAME_WORK = 160


def _batches(groups: list[Group], count: int) -> list[list[int]]:
    """Positions of the groups split into at most `count` batches of about equal work, the heaviest batch first.

    Groups with the same body go to the same batch, which lays that body out once. A body's work is the
    length of its text (the rules reference, laid out twice, measured then cut into cards, costs about as much
    as units of as much text, with their tables and headers).
    """
    count = max(1, min(count, len(groups) // MIN_GROUPS_PER_BATCH))
    alike: dict[str, list[int]] = {}
    for i, group in enumerate(groups):
        alike.setdefault(_body_key(group), []).append(i)
    work = [len(key) + FRAME_WORK * len(cluster) for key, cluster in alike.items()]
    clusters = list(alike.values())
    batches: list[list[int]] = [[] for _ in range(count)]
    loads = [0] * count
    for c in sorted(range(len(clusters)), key=lambda c: -work[c]):  # heaviest first, each to the lightest batch
        lightest = loads.index(min(loads))
        batches[lightest].extend(clusters[c])
        loads[lightest] += work[c]
    return [sorted(batches[b]) for b in sorted(range(count), key=lambda b: -loads[b]) if batches[b]]


def helpers_state() -> str:
    """What render helpers are forked with: the look of every card they lay out (ours, and other games')."""
    return templates_digest("cards") + templates_digest("battlescribe-cards")


def start_render_helpers() -> None:
    """Fork the render helpers ahead of a render, unless they run (the RQ worker, before each job's process)."""
    render_helpers.start(settings.PDF_RENDER_PROCESSES - 1, state=helpers_state())


def _render_in_processes(groups: list[Group], layout: Layout) -> list[tuple[bytes, dict[int, list[CardLayers]]]]:
    """`_render_groups`, shared out over PDF_RENDER_PROCESSES cores: this process and render helpers
    (`lists.cards.render_helpers`, forked copies with fonts and stylesheets loaded, kept warm) take a batch each."""
    processes = settings.PDF_RENDER_PROCESSES
    batches = _batches(groups, processes)
    calls = [([groups[i] for i in batch], layout) for batch in batches]
    # Helpers forked before the templates changed (a deploy, a test) are replaced before they render.
    results = render_helpers.map_shared(_render_groups, calls, processes - 1, state=helpers_state())
    # Each batch numbers its groups from 0: back to their positions in `groups`.
    return [
        (pdf, {batch[position]: cards for position, cards in placed.items()})
        for batch, (pdf, placed) in zip(batches, results, strict=True)
    ]


# A card on a sheet: layers of rendered pages, each (batch PDF's key, and as in CardLayers).
PlacedCard = list[tuple[str, int, float, float, float | None]]


def kept_batches(keys: list[str], lay_out, prefix: str) -> tuple[dict[str, dict], dict[str, bytes]]:
    """Each key's entry (`batch`: the key of the batch PDF holding it, `part`: where in that PDF) and those PDFs:
    from the cache, else laid out now and kept. `lay_out(positions)` lays out the keys at those positions (the
    first of each key not kept: alike ones once) and yields (batch PDF, {index into positions: part})."""
    entries = django_cache.get_many(keys)
    batches = django_cache.get_many({entry["batch"] for entry in entries.values()})
    first_of: dict[str, int] = {}
    for n, key in enumerate(keys):
        if key not in entries or entries[key]["batch"] not in batches:
            first_of.setdefault(key, n)
    missing = list(first_of.values())
    if missing:
        fresh: dict[str, object] = {}
        for pdf, parts in lay_out(missing):
            batch = prefix + hashlib.sha256(pdf).hexdigest()
            batches[batch] = fresh[batch] = pdf
            for index, part in parts.items():
                entries[keys[missing[index]]] = fresh[keys[missing[index]]] = {"batch": batch, "part": part}
        django_cache.set_many(fresh, CACHE_SECONDS)
    return entries, {batch: batches[batch] for batch in {entries[key]["batch"] for key in keys}}


def card_pages(groups: list[Group], layout: Layout, data: GameData) -> tuple[list[PlacedCard], dict[str, bytes]]:
    """Each card's rendered layers, with the batch PDFs holding them.

    Groups rendered before (by this roster or any other) come from the cache;
    the rest are rendered together and cached, one entry per group.
    """
    keys = [_group_key(group, layout, data) for group in groups]
    entries, batches = kept_batches(
        keys, lambda missing: _render_in_processes([groups[i] for i in missing], layout), "cardbatch:"
    )
    placed = [[(entries[key]["batch"], *layer) for layer in layers] for key in keys for layers in entries[key]["part"]]
    return placed, batches


PT_PER_MM = 72 / 25.4


def assemble(placed: list[PlacedCard], batches: dict[str, bytes], layout: Layout) -> bytes:
    """Lay the rendered card pages out on sheets of paper, with cut marks, without rendering them again.

    Each rendered page is a form XObject, and each layer of a card draws the band of it the layer covers at
    the card's place on the sheet (a frame; the header; the card's blocks moved up below it), so the cards keep
    their fonts and vector text and nothing is laid out twice.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    writer = PdfWriter()
    readers = {batch: PdfReader(io.BytesIO(pdf)) for batch, pdf in batches.items()}
    (cw, ch), (pw, ph) = layout.card_mm, layout.paper_mm
    card_w, card_h = cw * PT_PER_MM, ch * PT_PER_MM
    forms: dict[tuple[str, int], tuple[object, float]] = {}

    def form(batch: str, number: int) -> tuple[object, float]:
        """A rendered page as a form XObject (once, however many layers draw parts of it), and its height."""
        if (batch, number) not in forms:
            page = readers[batch].pages[number]
            # WeasyPrint writes one content stream a page: it becomes the form, clipped where it is drawn.
            stream = page["/Contents"].get_object().clone(writer, force_duplicate=True)
            stream.update(
                {
                    NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Form"),
                    NameObject("/BBox"): ArrayObject(FloatObject(v) for v in page.mediabox),
                    NameObject("/Resources"): page["/Resources"].clone(writer),
                }
            )
            forms[(batch, number)] = writer._add_object(stream), float(page.mediabox.top)  # pypdf's way to add one
        return forms[(batch, number)]

    index = 0
    for sheet in sheets(len(placed), layout):
        page = writer.add_blank_page(width=pw * PT_PER_MM, height=ph * PT_PER_MM)
        xobjects = DictionaryObject()
        names: dict[tuple[str, int], str] = {}
        ops = ["0.57 w 0 G"]
        for x1, y1, x2, y2 in sheet["marks"]:
            ops.append(
                f"{x1 * PT_PER_MM:.2f} {(ph - y1) * PT_PER_MM:.2f} m {x2 * PT_PER_MM:.2f} {(ph - y2) * PT_PER_MM:.2f} l S"
            )
        for x, y in sheet["places"]:
            for batch, number, down_mm, top_mm, shown_mm in placed[index]:
                drawn, page_top = form(batch, number)
                if (batch, number) not in names:
                    names[(batch, number)] = f"/Card{len(xobjects)}"
                    xobjects[NameObject(names[(batch, number)])] = drawn
                down = down_mm * PT_PER_MM
                shown = card_h - down if shown_mm is None else min(shown_mm * PT_PER_MM, card_h - down)
                # On the card's place: clipped to the band the layer covers, the page's part from `top_mm` down
                # moved to `down_mm` below the card's top.
                ops.append(
                    f"q 1 0 0 1 {x * PT_PER_MM:.3f} {(ph - y - ch) * PT_PER_MM:.3f} cm "
                    f"0 {card_h - down - shown:.3f} {card_w:.3f} {shown:.3f} re W n "
                    f"1 0 0 1 0 {card_h - down - page_top + top_mm * PT_PER_MM:.3f} cm {names[(batch, number)]} Do Q"
                )
            index += 1
        contents = DecodedStreamObject()
        contents.set_data("\n".join(ops).encode())
        page[NameObject("/Contents")] = writer._add_object(contents)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
    if not placed:  # a roster without units still prints, as one blank sheet
        writer.add_blank_page(width=pw * PT_PER_MM, height=ph * PT_PER_MM)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _cached(kind: str, roster: RosterSnapshot, data: GameData, layout: Layout, build) -> bytes:
    key = pdf_key(kind, roster, data, layout)
    pdf = django_cache.get(key)
    if pdf is None:
        pdf = build()
        django_cache.set(key, pdf, CACHE_SECONDS)
    return pdf


DEFAULT_LAYOUT = Layout()  # poker cards on A4


ROSTER_CARD = "roster-card"  # the roster card's PDF among the batches a cards PDF draws from


def cards_pdf(roster: RosterSnapshot, data: GameData, layout: Layout = DEFAULT_LAYOUT) -> bytes:
    """The roster's unit cards on sheets of paper, the rules reference last; cached, and built from cached cards.
    With a share `link` (`layout.link`), the roster card comes first: its name and the link as a QR code."""

    def build() -> bytes:
        placed, batches = card_pages(card_groups(roster, data, layout), layout, data)
        if layout.link:  # not cached apart: it is the roster's own, as the whole PDF is
            name = roster.name or roster.army_title or roster.army_name
            subtitle = (roster.army_title or roster.army_name) if roster.name else ""
            batches[ROSTER_CARD] = roster_card_pdf(name, subtitle, layout.link, layout)
            placed = [[(ROSTER_CARD, 0, 0.0, 0.0, None)], *placed]
        return assemble(placed, batches, layout)

    return _cached("cards", roster, data, layout, build)


def list_pdf(
    roster: RosterSnapshot,
    data: GameData,
    verdict: Verdict,
    pack_versions: list[tuple[str, str]],
    notes: bool = False,
    link: str = "",
) -> bytes:
    """The organiser's list; the units' notes on it only when asked (`notes`), its share `link` as a QR code."""

    def build() -> bytes:
        context = list_context(roster, data, verdict, pack_versions, notes=notes) | share_code(link)
        return render_pdf(render_to_string("cards/list.html", context))

    return _cached("list", roster, data, Layout(notes=notes, link=link), build)


def _sample_group() -> Group:
    """A unit card with a block of every kind, in bold and italic too, long enough for two cards."""
    meta = {"title": "Warm-up", "points": 10, "count": 2, "labels": ["A", "B"]}
    header = Block("header", {**meta, "subtitle": "Infantry · Sample", "points_em": "3.0"})
    text = "A sample rule to lay out, long enough to wrap over several lines of a card. " * 3
    blocks = [
        Block("stats", {"rows": [("Move", '6"'), ("Men", "10")]}),
        Block("models", {"rows": [{"count": 1, "name": "NCO", "figures": "Veteran", "gear": "rifle"}]}),
        Block("weapons", {"columns": ["Range", "Shots"], "rows": [{"name": "Rifle", "values": ['24"', "1"]}]}),
        Block("profiles", {"rows": [{"name": "Pistol", "pairs": [("Range", '6"')]}]}),
        *[Block("reminder", {"name": f"Rule {n}", "text": text}) for n in range(12)],
        Block("rule", {"name": "Sample", "text": text * 6, "source": "sample"}),
    ]
    return Group(header, blocks, meta)


def warm_up() -> None:
    """Make a PDF worker ready before its first job: fonts and stylesheets loaded (`renderer.warm_up`), then a
    sample card of every kind of block, cut and assembled on a sheet, and a sample organiser's list rendered,
    so the renderer's font, text and style caches, the templates and every import are warm (the first render
    of a process otherwise pays for them). Render helpers forked afterwards start warm too."""
    renderer.warm_up()
    layout = DEFAULT_LAYOUT
    for card in CARD_SIZES:  # the frames most cards have: a whole card, and each of a unit's two or three cards
        _frame_pages([(1, (), part, parts) for parts in (1, 2, 3) for part in range(1, parts + 1)], Layout(card))
    pdf, cards = _render_groups([_sample_group()], layout)
    assemble([[("sample", *layer) for layer in layers] for layers in cards[0]], {"sample": pdf}, layout)
    render_pdf("<h1>Warm-up</h1><table><tr><th>Unit</th><td><b>10</b> <i>pts</i></td></tr></table>")
