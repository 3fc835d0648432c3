"""Unit-card and organiser's-list PDFs.

Cards are laid out by us, not by the PDF engine's flow: each sheet is one
fixed block holding a grid of cards, so a card never splits across pages and
the cost grows linearly with the number of cards. A card's content is packed
into blocks whose height is estimated from its text; what does not fit
continues on a second card instead of overflowing.

The renderer fetches nothing: every URL it meets is refused, the stylesheet
is built once per process, and fonts come from the system (fontconfig).
Rendered PDFs are cached by the roster's content, the pack version and the
layout chosen.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from django.core.cache import cache as django_cache
from django.template.loader import render_to_string

from lists.fingerprint import fingerprint, pdf_cache_key
from lists.loading import GameData
from lists.pricing import unit_points
from lists.snapshot import RosterSnapshot, UnitChoice
from lists.verdict import Verdict

MM_PER_PT = 0.3528

CARD_SIZES = {"poker": (63.0, 88.0), "a6": (105.0, 148.0)}
PAPER_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
FONT_PT = {"poker": 6.2, "a6": 8.0}
CARD_PADDING_MM = 2.5
SHEET_MARGIN_MM = 8.0
CACHE_SECONDS = 60 * 60 * 24
LIST_VARIANT = "a4"  # the organiser's list has one layout


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


@cache
def _stylesheet():
    """Built once per process: parsing CSS and loading fonts is the slow part of a first render."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    css = CSS(string=render_to_string("cards/cards.css"), font_config=fonts, url_fetcher=_make_fetcher())
    return css, fonts


def warm_up() -> None:
    """Load fonts and parse the stylesheet ahead of the first PDF."""
    _stylesheet()


@dataclass(frozen=True)
class Layout:
    card: str = "poker"
    paper: str = "a4"
    merge: bool = False

    def __post_init__(self):
        if self.card not in CARD_SIZES or self.paper not in PAPER_SIZES:
            raise ValueError(f"card size is one of {', '.join(CARD_SIZES)}; paper one of {', '.join(PAPER_SIZES)}")

    @property
    def variant(self) -> str:
        """The layout's part of a cached PDF's key."""
        return f"{self.card}-{self.paper}-{int(self.merge)}"

    @property
    def card_mm(self) -> tuple[float, float]:
        return CARD_SIZES[self.card]

    @property
    def paper_mm(self) -> tuple[float, float]:
        return PAPER_SIZES[self.paper]

    @property
    def grid(self) -> tuple[int, int]:
        """Cards across and down a sheet: with a margin for cut marks, unless dropping it fits more."""
        (cw, ch), (pw, ph) = self.card_mm, self.paper_mm

        def fit(margin: float) -> tuple[int, int]:
            return max(1, int((pw - 2 * margin) // cw)), max(1, int((ph - 2 * margin + 1) // ch))

        with_marks, edge_to_edge = fit(SHEET_MARGIN_MM), fit(0)
        return edge_to_edge if edge_to_edge[0] * edge_to_edge[1] > with_marks[0] * with_marks[1] else with_marks

    @property
    def font_pt(self) -> float:
        return FONT_PT[self.card]


# --- what goes on a card ------------------------------------------------------


@dataclass
class Block:
    """A piece of a card's content; its height (mm) is measured by laying it out once."""

    kind: str  # header, stats, models, weapons, rule
    data: dict = field(default_factory=dict)
    height: float = 0.0

    def html(self) -> str:
        return render_to_string("cards/_block.html", {"block": self})


@dataclass
class Card:
    title: str
    points: int
    count: int
    labels: list[str]
    blocks: list[Block]
    part: int = 1
    parts: int = 1


def unit_blocks(roster: RosterSnapshot, data: GameData, unit: UnitChoice) -> list[Block]:
    """The card's content in reading order: stats, models, weapons, then the text of every rule."""
    system = roster.system
    unit_type = unit.unit_type
    blocks: list[Block] = []

    stats = []
    quality = system.qualities.get(unit.quality) if unit.quality else None
    if quality:
        stats.append(("Quality", f"{quality.name}" + (f", morale {quality.morale}" if quality.morale else "")))
    armour = unit_type.armour or {}
    damage = None
    if armour.get("damage_value"):
        row = data.references.get("damage_values", {}).get(armour["damage_value"])
        damage = row["value"] if row else None
    elif quality and quality.damage_value and unit_type.kind not in {"vehicle", "transport"}:
        damage = quality.damage_value
    if damage:
        stats.append(("Damage value", damage))
    if armour.get("front") is not None:
        stats.append(("Armour F/S/R", f"{armour['front']}/{armour['side']}/{armour['rear']}"))
    elif armour.get("armour_class") and not damage:
        stats.append(("Armour", armour["armour_class"]))
    if unit_type.constitution is not None:
        stats.append(("Constitution", str(unit_type.constitution)))
    movement = data.references.get("movement", {}).get(unit_type.kind)
    if unit_type.speed:
        stats.append(("Move", unit_type.speed))
    elif movement:
        stats.append(("Move", ", ".join(f"{k} {v}" for k, v in movement["values"].items())))
    if unit_type.transport_capacity is not None:
        stats.append(("Carries", str(unit_type.transport_capacity)))
    rank = system.ranks.get(unit.rank) if unit.rank else None
    if rank:
        stats.append(("Rank", rank.name))
    if unit.hero_points:
        stats.append(("Hero points", str(unit.hero_points)))
    if unit.chosen_options:
        stats.append(("Options", ", ".join(f"{o.name}" + (f" ×{n}" if n > 1 else "") for o, n in unit.chosen_options)))
    if stats:
        blocks.append(Block("stats", {"rows": stats}))

    models = []
    for line in unit.models():
        gear = line.equipment or ", ".join(
            f"{times}× {name}" if times > 1 else name for name, times in Counter(w.name for w in line.weapons).items()
        )
        figures = " ".join(
            part
            for part in [
                f"Fs {line.fs}" if line.fs is not None else "",
                f"M {line.morale}" if line.morale is not None else "",
            ]
            if part
        )
        models.append({"count": line.count, "name": line.name, "role": line.role, "figures": figures, "gear": gear})
    if models:
        blocks.append(Block("models", {"rows": models}))

    blocks.extend(_weapon_blocks(unit, data, system.config.get("weapon_columns", [])))

    rule_texts: dict[str, str] = {}
    for weapon in unit.weapons():
        for key in sorted(weapon.rules):
            if key in system.rules:
                rule_texts.setdefault(system.rules[key].name, system.rules[key].summary)
    for key in unit_type.rules:
        if key in system.rules:
            rule_texts.setdefault(system.rules[key].name, system.rules[key].summary)
    army = next((a for a in data.armies.values() if a.key == roster.army_key), None)
    for key in army.rules if army else ():
        if key in system.rules:
            rule_texts.setdefault(system.rules[key].name, system.rules[key].summary)
    if rank:
        rule_texts.setdefault(
            rank.name,
            f'Adds +{rank.morale_bonus} to the morale of units within {rank.order_range}" and may pass '
            f'{rank.extra_orders} extra order{"s" if rank.extra_orders != 1 else ""} to units within {rank.order_range}".',
        )
    blocks.extend(Block("rule", {"name": name, "text": text}) for name, text in rule_texts.items())
    return blocks


# More profile columns than this do not fit across a card: each weapon then gets a line of its own.
MAX_TABLE_COLUMNS = 5


def _weapon_blocks(unit: UnitChoice, data: GameData, columns: list[dict]) -> list[Block]:
    """The profiles of the unit's weapons as the game prints them, with any notes after them.

    Columns empty for every weapon on the card are left out; the notes column
    becomes paragraphs, as a narrow table cell cannot hold them.
    """
    names = {weapon.key: weapon.name for weapon in unit.weapons()}
    if not names or not columns:
        return []
    # A model carrying a weapon more than once (2x hull MG) shows how many.
    most = Counter()
    for line in unit.models():
        most |= Counter(weapon.key for weapon in line.weapons)
    names = {key: f"{most[key]}× {name}" if most[key] > 1 else name for key, name in names.items()}
    profiles = {key: dict(data.weapon_profiles.get(key, [])) for key in names}
    shown = [c["label"] for c in columns if c["field"] != "notes" and any(profiles[k].get(c["label"]) for k in names)]
    notes_label = next((c["label"] for c in columns if c["field"] == "notes"), None)
    rows = [{"name": names[key], "values": [profiles[key].get(label, "") for label in shown]} for key in names]
    blocks = []
    if len(shown) <= MAX_TABLE_COLUMNS:
        blocks.append(Block("weapons", {"columns": shown, "rows": rows}))
    else:
        lines = [
            {
                "name": row["name"],
                "pairs": [(label, value) for label, value in zip(shown, row["values"], strict=True) if value],
            }
            for row in rows
        ]
        blocks.append(Block("profiles", {"rows": lines}))
    if notes_label:
        blocks.extend(
            Block("rule", {"name": names[key], "text": profiles[key][notes_label]})
            for key in names
            if profiles[key].get(notes_label)
        )
    return blocks


def _line_mm(layout: Layout) -> float:
    return layout.font_pt * MM_PER_PT * 1.25


def _body_mm(layout: Layout) -> float:
    """Height inside a card's padding, less its footer line."""
    footer = layout.font_pt * 0.85 * MM_PER_PT * 1.25 + 1.2
    return layout.card_mm[1] - 2 * CARD_PADDING_MM - footer


def measure(blocks: list[Block], layout: Layout) -> None:
    """Set every block's height by laying all of them out once, at the card's inner width.

    Identical blocks (the same rule on many cards) are laid out once.
    """
    from weasyprint import HTML

    pending = [block for block in blocks if not block.height]
    unique = list(dict.fromkeys(block.html() for block in pending))
    if not unique:
        return
    index = {html: number for number, html in enumerate(unique)}
    body = (
        '<div class="card measure">'
        + "".join(f'<div class="blk" id="m{number}">{html}</div>' for number, html in enumerate(unique))
        + "</div>"
    )
    css, fonts = _stylesheet()
    document = HTML(string=_measure_page(body, layout), url_fetcher=_make_fetcher()).render(
        stylesheets=[css], font_config=fonts
    )
    heights: dict[str, float] = {}
    for page in document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and box.element_tag == "div" and (ident := element.get("id") or "").startswith("m"):
                heights[ident] = heights.get(ident, 0.0) + box.margin_height() * 25.4 / 96
    for block in pending:
        block.height = heights.get(f"m{index[block.html()]}", _line_mm(layout) * 3)


def _measure_page(body: str, layout: Layout) -> str:
    """One tall page holding a card as wide as the real ones, so text wraps exactly as on the cards."""
    width, _ = layout.card_mm
    return (
        f"<style>@page {{ size: {width + 10}mm 5000mm; margin: 0 }} "
        f".card.measure {{ position: static; height: auto; overflow: visible; width: {width}mm; "
        f"padding: {CARD_PADDING_MM}mm; font-size: {layout.font_pt}pt; line-height: 1.25 }}</style>{body}"
    )


RULE_MARGIN_MM = 0.8  # a rule paragraph's top and bottom margins


def _split_rule(block: Block, room: float, layout: Layout) -> tuple[Block, Block] | None:
    """Cut a rule so its first part fits `room` mm; the rest continues on the next card.

    The cut comes from the paragraph's measured density (characters per line);
    each part's height is estimated from it with a spare line, so no part overflows.
    """
    line = _line_mm(layout)
    name, text = block.data["name"], block.data["text"]
    lines = max(1, round((block.height - RULE_MARGIN_MM) / line))
    per_line = (len(name) + 2 + len(text)) / lines
    fits = int((room - RULE_MARGIN_MM) / line) - 1  # keep a line in hand
    budget = int(fits * per_line) - len(name) - 4
    words = text.split()
    taken: list[str] = []
    for word in words:
        if len(" ".join([*taken, word])) > budget:
            break
        taken.append(word)
    if len(taken) < 4 or len(taken) == len(words):
        return None
    tail_name = name if name.endswith("(continued)") else f"{name} (continued)"
    head_text, tail_text = " ".join(taken) + " …", " ".join(words[len(taken) :])

    def height(label: str, body: str) -> float:
        return (math.ceil((len(label) + 2 + len(body)) / per_line) + 1) * line + RULE_MARGIN_MM

    return (
        Block("rule", {"name": name, "text": head_text}, min(height(name, head_text), room)),
        Block("rule", {"name": tail_name, "text": tail_text}, height(tail_name, tail_text)),
    )


def _fit_rule(block: Block, room: float, layout: Layout) -> tuple[Block, Block] | None:
    return _split_rule(block, room, layout) if room >= 4 * _line_mm(layout) else None


def pack_cards(header: Block, blocks: list[Block], layout: Layout, meta: dict) -> list[Card]:
    """Fill cards with blocks in order; a rule that does not fit is split, anything else starts a new card."""
    room_per_card = _body_mm(layout) - header.height
    cards = [Card(blocks=[], **meta)]
    used = 0.0
    queue = list(blocks)
    while queue:
        block = queue.pop(0)
        room = room_per_card - used
        if block.height > room and cards[-1].blocks:
            parts = _fit_rule(block, room, layout) if block.kind == "rule" else None
            if parts is not None:
                cards[-1].blocks.append(parts[0])
                queue.insert(0, parts[1])
                used = room_per_card
                continue
            cards.append(Card(blocks=[], **meta))
            used = 0.0
        elif block.height > room_per_card and block.kind == "rule":
            # A rule longer than a whole card: split it even on an empty card.
            parts = _fit_rule(block, room_per_card, layout)
            if parts is not None:
                cards[-1].blocks.append(parts[0])
                queue.insert(0, parts[1])
                used = room_per_card
                continue
        cards[-1].blocks.append(block)
        used += block.height
    for number, card in enumerate(cards, start=1):
        card.part, card.parts = number, len(cards)
        card.blocks.insert(0, header)
    return cards


def _signature(unit: UnitChoice) -> tuple:
    return (
        unit.unit_type.key,
        unit.quality,
        unit.size,
        tuple(sorted(unit.options.items())),
        unit.rank,
        unit.hero_points,
        unit.transport,
    )


def roster_cards(roster: RosterSnapshot, data: GameData, layout: Layout) -> list[Card]:
    groups: dict[tuple, list[UnitChoice]] = {}
    for unit in roster.units:
        key = _signature(unit) if layout.merge else (unit.index,)
        groups.setdefault(key, []).append(unit)
    prepared = []
    for units in groups.values():
        unit = units[0]
        unit_type = unit.unit_type
        title = unit.label if len(units) == 1 else unit_type.name
        kind = unit_type.name if title != unit_type.name else unit_type.category_name
        meta = {
            "title": title,
            "points": unit_points(roster, unit),
            "count": len(units),
            "labels": [u.label for u in units],
        }
        header = Block("header", {**meta, "subtitle": f"{kind} · {roster.army_name}"})
        prepared.append((header, unit_blocks(roster, data, unit), meta))
    measure([block for header, blocks, _ in prepared for block in (header, *blocks)], layout)
    return [card for header, blocks, meta in prepared for card in pack_cards(header, blocks, layout, meta)]


# --- sheets and PDFs ----------------------------------------------------------


def sheets(cards: list[Card], layout: Layout) -> list[dict]:
    cols, rows = layout.grid
    (cw, ch), (pw, ph) = layout.card_mm, layout.paper_mm
    left = (pw - cols * cw) / 2
    top = (ph - rows * ch) / 2
    per_sheet = cols * rows
    result = []
    for start in range(0, len(cards), per_sheet):
        chunk = cards[start : start + per_sheet]
        placed = [
            {"card": card, "x": left + (i % cols) * cw, "y": top + (i // cols) * ch} for i, card in enumerate(chunk)
        ]
        used_rows = math.ceil(len(chunk) / cols)
        used_cols = min(cols, len(chunk))
        xs = [left + c * cw for c in range(used_cols + 1)]
        ys = [top + r * ch for r in range(used_rows + 1)]
        marks = (
            [{"x": x, "y": top - 6, "w": 0, "h": 4} for x in xs]
            + [{"x": x, "y": top + used_rows * ch + 2, "w": 0, "h": 4} for x in xs]
            + [{"x": left - 6, "y": y, "w": 4, "h": 0} for y in ys]
            + [{"x": left + used_cols * cw + 2, "y": y, "w": 4, "h": 0} for y in ys]
        )
        result.append({"cards": placed, "marks": marks})
    return result


def _render(html: str) -> bytes:
    from weasyprint import HTML

    css, fonts = _stylesheet()
    return HTML(string=html, url_fetcher=_make_fetcher()).write_pdf(stylesheets=[css], font_config=fonts)


def _cached(kind: str, roster: RosterSnapshot, data: GameData, extra: str, build) -> bytes:
    key = pdf_cache_key(kind, extra, roster, data)
    pdf = django_cache.get(key)
    if pdf is None:
        pdf = build()
        django_cache.set(key, pdf, CACHE_SECONDS)
    return pdf


def cards_pdf(roster: RosterSnapshot, data: GameData, layout: Layout = Layout()) -> bytes:
    def build() -> bytes:
        cards = roster_cards(roster, data, layout)
        (cw, ch), (pw, ph) = layout.card_mm, layout.paper_mm
        html = render_to_string(
            "cards/cards.html",
            {
                "roster": roster,
                "sheets": sheets(cards, layout),
                "layout": layout,
                "card_w": cw,
                "card_h": ch,
                "paper_w": pw,
                "paper_h": ph,
                "font_pt": layout.font_pt,
                "padding": CARD_PADDING_MM,
            },
        )
        return _render(html)

    return _cached("cards", roster, data, layout.variant, build)


def list_pdf(roster: RosterSnapshot, data: GameData, verdict: Verdict, pack_versions: list[tuple[str, str]]) -> bytes:
    def build() -> bytes:
        html = render_to_string("cards/list.html", list_context(roster, data, verdict, pack_versions))
        return _render(html)

    return _cached("list", roster, data, LIST_VARIANT, build)


def list_context(roster: RosterSnapshot, data: GameData, verdict: Verdict, pack_versions) -> dict:
    rows = []
    for unit, points in zip(roster.units, verdict.unit_points, strict=True):
        quality = roster.system.qualities.get(unit.quality) if unit.quality else None
        rank = roster.system.ranks.get(unit.rank) if unit.rank else None
        details = [
            d
            for d in [
                quality.name if quality else "",
                (f"{unit.men} man" if unit.men == 1 else f"{unit.men} men")
                if unit.unit_type.kind not in {"vehicle", "transport", "artillery"}
                else "",
                rank.name if rank and rank.key != unit.unit_type.officer_rank else "",
                ", ".join(o.name + (f" ×{n}" if n > 1 else "") for o, n in unit.chosen_options),
                f"{unit.hero_points} hero points" if unit.hero_points else "",
                f"rides in {roster.units[unit.transport].label}" if unit.transport is not None else "",
            ]
            if d
        ]
        rows.append(
            {
                "unit": unit,
                "points": points,
                "details": "; ".join(details),
                "findings": verdict.unit_findings(unit.index),
            }
        )
    return {
        "roster": roster,
        "verdict": verdict,
        "rows": rows,
        "pack_versions": pack_versions,
        "fingerprint": fingerprint(roster, data),
    }


def roster_text(roster: RosterSnapshot, data: GameData, verdict: Verdict) -> str:
    """The roster as plain text, for pasting into a chat or a forum."""
    context = list_context(roster, data, verdict, [])
    limit = f" / {verdict.points_limit}" if verdict.points_limit is not None else ""
    lines = [roster.name, f"{roster.system.name} · {roster.army_name}"]
    if roster.organisation:
        lines.append(roster.organisation.name)
    lines.append("")
    for row in context["rows"]:
        lines.append(
            f"{row['points']:>5}  {row['unit'].label}"
            + (f" ({row['unit'].unit_type.name})" if row["unit"].label != row["unit"].unit_type.name else "")
        )
        if row["details"]:
            lines.append(f"       {row['details']}")
    lines.append("")
    dice = f", {verdict.order_dice} order dice" if verdict.order_dice is not None else ""
    lines.append(f"Total: {verdict.points}{limit} points{dice}")
    lines.append(
        "Legal" if verdict.valid else f"Not legal: {sum(f.severity == 'error' for f in verdict.findings)} problem(s)"
    )
    for finding in verdict.findings:
        lines.append(f"  - {finding.message} {finding.fix}")
    lines.append(f"Fingerprint: {context['fingerprint']}")
    return "\n".join(lines) + "\n"
