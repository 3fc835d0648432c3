"""Unit-card and organiser's-list PDFs.

Each card is rendered once, as a page of its own size, and cached by its
content, the card size and the pack version; a cards PDF lays cached card
pages out on sheets of paper (pypdf), so an edit renders one card again and a
card is shared by every roster that has it. Cards not yet cached are rendered
together in one pass per render process (`lists.helpers` shares them out), as
the renderer's cost per document dominates; units alike but for their labels
share one body (all but the header), laid out once and drawn on each card.

A card's content is packed into blocks whose height is measured by laying them
out once; what does not fit continues on a second card instead of overflowing.
A card names its unit's rules with a one-line reminder; their full texts are
printed once, on the rules reference cards at the end.

The renderer fetches nothing: every URL it meets is refused, the stylesheet
is built once per process, and fonts come from the system (fontconfig).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from defusedxml import DefusedXmlException, ElementTree
from django.conf import settings
from django.core.cache import cache as django_cache
from django.template import loader
from django.template.loader import render_to_string

from lists import helpers
from lists.fingerprint import fingerprint, pdf_cache_key
from lists.loading import GameData
from lists.pricing import house_rule_lines, unit_points
from lists.snapshot import ModelLine, RosterSnapshot, RuleInfo, UnitChoice
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
            """The card template writes well-formed markup, which the XML parser (C, through defusedxml) reads in
            a fiftieth of the time of the HTML5 one (pure Python); markup it refuses, say a label holding a control
            character, goes to the HTML5 parser. (Sets what `HTML.__init__` of the pinned version sets.)"""
            try:
                root = ElementTree.fromstring(string)
            except (ElementTree.ParseError, DefusedXmlException):
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
        _templates_digest(kind)


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

    kind: str  # header, stats, models, weapons, profiles, reminder, rule
    data: dict = field(default_factory=dict)
    height: float = 0.0


@dataclass
class Card:
    title: str
    points: int | None
    count: int
    labels: list[str]
    blocks: list[Block]
    part: int = 1
    parts: int = 1
    body: bool = False  # a card's content below its header, without border or footer (`_first_pass`)


@dataclass
class Group:
    """The cards of one unit (or of identical units merged, or of the rules reference)."""

    header: Block
    blocks: list[Block]
    meta: dict


# Characters of a rule's name and reminder that fit one line of a card.
REMINDER_CHARS = {"poker": 62, "a6": 105}


def reminder(rule: RuleInfo, layout: Layout) -> str:
    """The rule's one-line reminder: the pack's own, else its summary's first sentence, shortened."""
    if rule.reminder:
        return rule.reminder
    first = re.split(r"(?<=[.;])\s", " ".join(rule.summary.split()), maxsplit=1)[0].rstrip(".;")
    budget = max(20, REMINDER_CHARS[layout.card] - len(rule.name))
    if len(first) <= budget:
        return first
    return first[:budget].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def applies(rule: RuleInfo, unit: UnitChoice) -> bool:
    """Whether a rule is printed on a unit's card: its `applies_to` scope, if it has one, matches the unit."""
    scope = rule.applies_to
    if scope is None:
        return True
    unit_type = unit.unit_type
    bought = {option.key for option, _ in unit.chosen_options}
    carried = {weapon.key for weapon in unit.weapons()}
    return (
        unit_type.kind in scope.get("kinds", ())
        or unit_type.category in scope.get("categories", ())
        or unit_type.key in scope.get("units", ())
        or bool(bought & set(scope.get("options", ())))
        or bool(carried & set(scope.get("weapons", ())))
    )


def unit_rules(roster: RosterSnapshot, data: GameData, unit: UnitChoice) -> list[RuleInfo]:
    """The rules a unit has: its weapons', its own and its army's, each once, where they apply to it."""
    system = roster.system
    keys = [key for weapon in unit.weapons() for key in sorted(weapon.rules)]
    keys += list(unit.unit_type.rules)
    army = next((a for a in data.armies.values() if a.key == roster.army_key), None)
    keys += list(army.rules if army else ())
    rules = [system.rules[key] for key in dict.fromkeys(keys) if key in system.rules]
    return [rule for rule in rules if applies(rule, unit)]


def roster_rules(roster: RosterSnapshot, data: GameData) -> list[RuleInfo]:
    """Every rule on the roster's cards and every house rule bought, alphabetical: the rules reference."""
    found = {rule.key: rule for unit in roster.units for rule in unit_rules(roster, data, unit)}
    found.update({bought.rule.key: bought.rule for bought in roster.house_rules})
    return sorted(found.values(), key=lambda rule: rule.name.casefold())


def _gear(line: ModelLine) -> str:
    """What a model line carries: the source's own words where options left it untouched, else weapon names."""
    if line.equipment:
        return line.equipment
    counts = Counter(weapon.name for weapon in line.weapons)
    return ", ".join(f"{n}× {name}" if n > 1 else name for name, n in counts.items())


def unit_blocks(roster: RosterSnapshot, data: GameData, unit: UnitChoice, layout: Layout) -> list[Block]:
    """The card's content in reading order: stats, options, models, weapon profiles, then its rules by name."""
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
    if armour.get("front") is not None:
        stats.append(("Armour F/S/R", f"{armour['front']}/{armour['side']}/{armour['rear']}"))
    elif armour.get("armour_class"):
        stats.append(("Armour", armour["armour_class"]))
    if damage:
        stats.append(("Damage value", damage))
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
    if stats:
        blocks.append(Block("stats", {"rows": stats}))
    if unit.chosen_options:
        options = ", ".join(f"{o.name}" + (f" ×{n}" if n > 1 else "") for o, n in unit.chosen_options)
        blocks.append(Block("stats", {"rows": [("Options", options)]}))

    models = []
    for line in unit.armed_models():
        figures = " ".join(
            part
            for part in [
                f"Fs {line.fs}" if line.fs is not None else "",
                f"M {line.morale}" if line.morale is not None else "",
            ]
            if part
        )
        # A line of several figures says how many, unless its name does ("Team of 2").
        several = line.figures > 1 and str(line.figures) not in line.name.split()
        name = f"{line.name} ({line.figures} figures)" if several else line.name
        models.append({"count": line.count, "name": name, "figures": figures, "gear": _gear(line)})
    # Weapons an option gives the whole unit (a panzerfaust), not one figure.
    for option, _ in unit.chosen_options:
        if option.weapons and not option.replaces and not option.adds_models:
            models.append(
                {"count": "", "name": option.name, "figures": "", "gear": _gear(ModelLine(1, "", "", option.weapons))}
            )
    if models:
        blocks.append(Block("models", {"rows": models}))

    blocks.extend(_weapon_blocks(unit, data, system.config.get("weapon_columns", [])))

    blocks.extend(
        Block("reminder", {"name": rule.name, "text": reminder(rule, layout)})
        for rule in unit_rules(roster, data, unit)
    )
    if rank:
        blocks.append(
            Block(
                "reminder",
                {
                    "name": rank.name,
                    "text": f'+{rank.morale_bonus} morale to units within {rank.order_range}"; '
                    f"passes {rank.extra_orders} extra order{'s' if rank.extra_orders != 1 else ''} "
                    f'within {rank.order_range}"',
                },
            )
        )
    return blocks


def reference_blocks(rules: list[RuleInfo]) -> list[Block]:
    """The full text of each rule, with the source it comes from."""
    return [Block("rule", {"name": rule.name, "text": rule.summary, "source": rule.source}) for rule in rules]


# More profile columns than this do not fit across a card: each weapon then gets a line of its own.
MAX_TABLE_COLUMNS = 5


def _weapon_blocks(unit: UnitChoice, data: GameData, columns: list[dict]) -> list[Block]:
    """The profiles of the unit's weapons in the game's own columns.

    Columns empty for every weapon on the card are left out, and so are the
    notes: they record how the pack read its sources (see the game page's errata).
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
    rows = [{"name": names[key], "values": [profiles[key].get(label, "") for label in shown]} for key in names]
    if len(shown) <= MAX_TABLE_COLUMNS:
        return [Block("weapons", {"columns": shown, "rows": rows})]
    lines = [
        {
            "name": row["name"],
            "pairs": [(label, value) for label, value in zip(shown, row["values"], strict=True) if value],
        }
        for row in rows
    ]
    return [Block("profiles", {"rows": lines})]


def _line_mm(layout: Layout) -> float:
    return layout.font_pt * MM_PER_PT * 1.25


def _body_mm(layout: Layout) -> float:
    """Height inside a card's padding, less its footer line."""
    footer = layout.font_pt * 0.85 * MM_PER_PT * 1.25 + 1.2
    return layout.card_mm[1] - 2 * CARD_PADDING_MM - footer


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


def _block_heights(page) -> list[float]:
    """The height (mm) of each block on a laid-out card, in order, overflowing ones included."""
    heights: dict[int, float] = {}
    for box in _boxes(page._page_box):
        element = getattr(box, "element", None)
        if element is not None and "blk" in element.get("class", "").split():
            heights[id(element)] = max(heights.get(id(element), 0.0), box.margin_height() * 25.4 / 96)
    return list(heights.values())


def _body_key(group: Group) -> str:
    return json.dumps([(b.kind, b.data) for b in group.blocks], sort_keys=True, ensure_ascii=False)


@dataclass
class FirstPass:
    """The first pass's document: a page for each group, then the bodies (the content below the header) that
    groups alike but for their headers share, each once. A group with a body of its own is laid out whole on
    its page; a group sharing one has only its frame (border, header, footer) there."""

    document: object
    packed: list[list[Card]]  # each group's cards
    bodies: list[int | None]  # the page of each group's shared body, None for a group laid out whole


def _first_pass(groups: list[Group], layout: Layout) -> FirstPass | None:
    """Lay out each group (or its frame, and the body it shares, once), which measures their blocks; then pack
    each group into as many cards as it needs.

    Most units fit one card: the first pass's page is then the finished card, or its frame with the shared
    body drawn below the header.
    """
    if not groups:  # nothing to lay out (an empty page would stand for no group)
        return None
    keys = [_body_key(group) for group in groups]
    alike = Counter(keys)
    bodies: dict[str, int] = {}  # each shared body's page, after the groups'
    owners: list[Group] = []  # the first group with each shared body
    for group, key in zip(groups, keys, strict=True):
        if alike[key] > 1 and key not in bodies:
            bodies[key] = len(groups) + len(owners)
            owners.append(group)
    pages = [bodies.get(key) for key in keys]
    own = [
        Card(blocks=[group.header] if body is not None else [group.header, *group.blocks], **group.meta)
        for group, body in zip(groups, pages, strict=True)
    ]
    shared = [Card(blocks=owner.blocks, body=True, **owner.meta) for owner in owners]
    document = _lay_out(own + shared, layout)
    for group, page, body in zip(groups, document.pages[: len(groups)], pages, strict=True):
        measured = _block_heights(page) + (_block_heights(document.pages[body]) if body is not None else [])
        for block, height in zip([group.header, *group.blocks], measured, strict=True):
            block.height = height
    packed = [pack_cards(group.header, group.blocks, layout, group.meta) for group in groups]
    return FirstPass(document, packed, pages)


RULE_MARGIN_MM = 0.8  # a rule paragraph's top and bottom margins


def _split_rule(block: Block, room: float, layout: Layout) -> tuple[Block, Block] | None:
    """Cut a rule so its first part fits `room` mm; the rest continues on the next card.

    The cut comes from the paragraph's measured density (characters per line);
    each part's height is estimated from it with a spare line, so no part overflows.
    """
    line = _line_mm(layout)
    name, text, source = block.data["name"], block.data["text"], block.data.get("source", "")
    lines = max(1, round((block.height - RULE_MARGIN_MM) / line))
    source_chars = len(source) + 3 if source else 0  # the source follows the text, on the last part
    per_line = (len(name) + 2 + len(text) + source_chars) / lines
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

    def height(label: str, body: str, extra: int = 0) -> float:
        return (math.ceil((len(label) + 2 + len(body) + extra) / per_line) + 1) * line + RULE_MARGIN_MM

    return (
        Block("rule", {"name": name, "text": head_text}, min(height(name, head_text), room)),
        Block(
            "rule",
            {"name": tail_name, "text": tail_text, "source": source},
            height(tail_name, tail_text, source_chars),
        ),
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


def _title_room(points_text: str) -> str:
    """How far (in the title's em) the title keeps from the right edge, clear of the points beside it."""
    # DejaVu Sans Bold averages under 0.7 em a character; the points are 1.2 em against the title's 1.45.
    return f"{len(points_text) * 0.7 * 1.2 / 1.45 + 0.4:.2f}"


def card_groups(roster: RosterSnapshot, data: GameData, layout: Layout) -> list[Group]:
    """What goes on the cards: one group per unit (or per set of identical units), then the rules reference."""
    by_unit: dict[tuple, list[UnitChoice]] = {}
    for unit in roster.units:
        key = _signature(unit) if layout.merge else (unit.index,)
        by_unit.setdefault(key, []).append(unit)
    groups = []
    for units in by_unit.values():
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
        points_text = f"{meta['points']} pts" + (" each" if len(units) > 1 else "")
        header = Block(
            "header", {**meta, "subtitle": f"{kind} · {roster.army_name}", "points_em": _title_room(points_text)}
        )
        groups.append(Group(header, unit_blocks(roster, data, unit, layout), meta))
    rules = roster_rules(roster, data)
    if rules:
        meta = {"title": "Rules reference", "points": None, "count": 1, "labels": []}
        subtitle = f"{roster.name} · {roster.system.name}" if roster.name else roster.system.name
        groups.append(Group(Block("header", {**meta, "subtitle": subtitle}), reference_blocks(rules), meta))
    return groups


def roster_cards(roster: RosterSnapshot, data: GameData, layout: Layout) -> list[Card]:
    """Every card of the roster in order, the rules reference last."""
    first = _first_pass(card_groups(roster, data, layout), layout)
    return [card for cards in first.packed for card in cards] if first else []


# --- sheets and PDFs ----------------------------------------------------------


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


def _render(html: str, *, cards: bool = False) -> bytes:
    from weasyprint import HTML

    css, fonts = _stylesheet()
    document = (_card_html_class() if cards else HTML)(string=html, url_fetcher=_make_fetcher())
    return document.write_pdf(stylesheets=[css], font_config=fonts)


# Height of the page each card is rendered at the top of: room to measure a group's whole content.
PAGE_MM = 5000


def cards_html(cards: list[Card], layout: Layout, page_mm: float = PAGE_MM) -> str:
    """The cards as HTML, one card at the top of each page (what the renderer prints)."""
    (cw, ch), padding = layout.card_mm, CARD_PADDING_MM
    return render_to_string(
        "cards/cards.html",
        {"cards": cards, "card_w": cw, "card_h": ch, "page_h": page_mm, "font_pt": layout.font_pt, "padding": padding},
    )


@cache
def _templates_digest(kind: str) -> str:
    """Changes whenever the templates of this kind of PDF do, so cached cards and PDFs never outlive their look."""
    sources = [loader.get_template(name).template.source for name in PDF_TEMPLATES[kind]]
    return hashlib.sha256("\0".join(sources).encode()).hexdigest()[:16]


# Everything that decides how each kind of PDF looks (the list is printed with the cards' stylesheet too).
PDF_TEMPLATES = {
    "cards": ("cards/ua.css", "cards/cards.css", "cards/cards.html", "cards/_block.html"),
    "list": ("cards/cards.css", "cards/list.html"),
}


def pdf_key(kind: str, roster: RosterSnapshot, data: GameData, layout: Layout) -> str:
    """The cache key of this roster's whole PDF of this kind in this layout, as its templates now are."""
    variant = layout.variant if kind == "cards" else LIST_VARIANT
    return pdf_cache_key(kind, variant, _templates_digest(kind), roster, data)


def _group_key(group: Group, layout: Layout, data: GameData) -> str:
    """A group's cards depend on its content, the card size and the pack (and the templates)."""
    content = json.dumps(
        [
            _templates_digest("cards"),
            layout.card,
            data.content_hash,
            group.header.data,
            [(b.kind, b.data) for b in group.blocks],
        ],
        sort_keys=True,
        ensure_ascii=False,
    )
    return "card:" + hashlib.sha256(content.encode()).hexdigest()


# A card as it is drawn: layers of rendered pages, each (page, mm it is moved down on the card).
CardLayers = list[tuple[int, float]]


def _render_groups(groups: list[Group], layout: Layout) -> tuple[bytes, dict[int, list[CardLayers]]]:
    """Render groups (at least one) in as few passes as possible, into one PDF (the renderer's cost per
    document dominates).

    Returns the PDF with the cards of each group, by the group's position in `groups`.
    """
    first = _first_pass(groups, layout)
    packed, document = first.packed, first.document
    single = [i for i, cards in enumerate(packed) if len(cards) == 1]
    several = [i for i, cards in enumerate(packed) if len(cards) > 1]
    # A single card is its first-pass page, with the body it shares (if it does) drawn below the header.
    kept = sorted({*single, *(first.bodies[i] for i in single if first.bodies[i] is not None)})
    number = {page: n for n, page in enumerate(kept)}
    cards = {i: [[(number[i], 0.0)]] for i in single}
    for i in single:
        if first.bodies[i] is not None:
            cards[i][0].append((number[first.bodies[i]], groups[i].header.height))
    pages = [document.pages[page] for page in kept]
    if several:  # laid out again, cut into cards; their pages follow in the same PDF
        second = _lay_out([card for i in several for card in packed[i]], layout)
        numbers = iter(range(len(pages), len(pages) + len(second.pages)))
        for i in several:
            cards[i] = [[(next(numbers), 0.0)] for _ in packed[i]]
        pages += second.pages
    return document.copy(pages).write_pdf(), cards


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


def start_render_helpers() -> None:
    """Fork the render helpers ahead of a render, unless they run (the RQ worker, before each job's process)."""
    helpers.start(settings.PDF_RENDER_PROCESSES - 1, state=_templates_digest("cards"))


def _render_in_processes(groups: list[Group], layout: Layout) -> list[tuple[bytes, dict[int, list[CardLayers]]]]:
    """`_render_groups`, shared out over PDF_RENDER_PROCESSES cores: this process and render helpers
    (`lists.helpers`, forked copies with fonts and stylesheets loaded, kept warm) take a batch each."""
    processes = settings.PDF_RENDER_PROCESSES
    batches = _batches(groups, processes)
    calls = [([groups[i] for i in batch], layout) for batch in batches]
    # Helpers forked before the templates changed (a deploy, a test) are replaced before they render.
    results = helpers.map_shared(_render_groups, calls, processes - 1, state=_templates_digest("cards"))
    # Each batch numbers its groups from 0: back to their positions in `groups`.
    return [
        (pdf, {batch[position]: cards for position, cards in placed.items()})
        for batch, (pdf, placed) in zip(batches, results, strict=True)
    ]


# A card on a sheet: layers of rendered pages, each (batch PDF's key, page, mm it is moved down on the card).
PlacedCard = list[tuple[str, int, float]]


def card_pages(groups: list[Group], layout: Layout, data: GameData) -> tuple[list[PlacedCard], dict[str, bytes]]:
    """Each card's rendered layers, with the batch PDFs holding them.

    Groups rendered before (by this roster or any other) come from the cache;
    the rest are rendered together and cached, one entry per group.
    """
    keys = [_group_key(group, layout, data) for group in groups]
    entries = django_cache.get_many(keys)
    batches = django_cache.get_many({entry["batch"] for entry in entries.values()})
    missing = [i for i, key in enumerate(keys) if key not in entries or entries[key]["batch"] not in batches]
    if missing:
        fresh: dict[str, object] = {}
        for pdf, placed in _render_in_processes([groups[i] for i in missing], layout):
            batch = "cardbatch:" + hashlib.sha256(pdf).hexdigest()
            batches[batch] = fresh[batch] = pdf
            for position, group_cards in placed.items():
                entries[keys[missing[position]]] = fresh[keys[missing[position]]] = {
                    "batch": batch,
                    "cards": group_cards,
                }
        django_cache.set_many(fresh, CACHE_SECONDS)
    placed = [
        [(entries[key]["batch"], page, down) for page, down in layers]
        for key in keys
        for layers in entries[key]["cards"]
    ]
    return placed, {batch: batches[batch] for batch in {entries[key]["batch"] for key in keys}}


PT_PER_MM = 72 / 25.4


def assemble(placed: list[PlacedCard], batches: dict[str, bytes], layout: Layout) -> bytes:
    """Lay the rendered card pages out on sheets of paper, with cut marks, without rendering them again.

    Each layer of a card is a rendered page drawn as a form XObject at the card's place on the sheet
    (a body moved down below its header, and cut at the card's foot), so the cards keep their fonts and
    vector text and nothing is laid out twice.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    writer = PdfWriter()
    readers = {batch: PdfReader(io.BytesIO(pdf)) for batch, pdf in batches.items()}
    (cw, ch), (pw, ph) = layout.card_mm, layout.paper_mm
    card_w, card_h = cw * PT_PER_MM, ch * PT_PER_MM
    forms: dict[tuple[str, int, float], object] = {}

    def form(batch: str, number: int, down_mm: float):
        if (batch, number, down_mm) not in forms:
            page = readers[batch].pages[number]
            # WeasyPrint writes one content stream a page; a copy of its own for each place it is drawn at.
            stream = page["/Contents"].get_object().clone(writer, force_duplicate=True)
            top, down = float(page.mediabox.top), down_mm * PT_PER_MM
            stream.update(
                {
                    NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Form"),
                    # What shows is the top of the page, as much of it as fits on the card below `down`;
                    # the form is moved onto the card's place below.
                    NameObject("/BBox"): ArrayObject(FloatObject(v) for v in (0, top - card_h + down, card_w, top)),
                    NameObject("/Matrix"): ArrayObject(FloatObject(v) for v in (1, 0, 0, 1, 0, card_h - top - down)),
                    NameObject("/Resources"): page["/Resources"].clone(writer),
                }
            )
            forms[(batch, number, down_mm)] = writer._add_object(stream)  # pypdf's way to add an indirect object
        return forms[(batch, number, down_mm)]

    index = 0
    for sheet in sheets(len(placed), layout):
        page = writer.add_blank_page(width=pw * PT_PER_MM, height=ph * PT_PER_MM)
        xobjects = DictionaryObject()
        ops = ["0.57 w 0 G"]
        for x1, y1, x2, y2 in sheet["marks"]:
            ops.append(
                f"{x1 * PT_PER_MM:.2f} {(ph - y1) * PT_PER_MM:.2f} m {x2 * PT_PER_MM:.2f} {(ph - y2) * PT_PER_MM:.2f} l S"
            )
        for x, y in sheet["places"]:
            for layer in placed[index]:
                name = f"/Card{len(xobjects)}"
                xobjects[NameObject(name)] = form(*layer)
                ops.append(f"q 1 0 0 1 {x * PT_PER_MM:.3f} {(ph - y - ch) * PT_PER_MM:.3f} cm {name} Do Q")
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


def cards_pdf(roster: RosterSnapshot, data: GameData, layout: Layout = Layout()) -> bytes:
    """The roster's unit cards on sheets of paper, the rules reference last; cached, and built from cached cards."""

    def build() -> bytes:
        placed, batches = card_pages(card_groups(roster, data, layout), layout, data)
        return assemble(placed, batches, layout)

    return _cached("cards", roster, data, layout, build)


def list_pdf(roster: RosterSnapshot, data: GameData, verdict: Verdict, pack_versions: list[tuple[str, str]]) -> bytes:
    def build() -> bytes:
        html = render_to_string("cards/list.html", list_context(roster, data, verdict, pack_versions))
        return _render(html)

    return _cached("list", roster, data, Layout(), build)


def house_rule_rows(roster: RosterSnapshot) -> list[dict]:
    """The priced lines of the house rules bought, as every output prints them beside the units."""
    rows = []
    for bought, points in house_rule_lines(roster):
        details = [f"×{bought.count}" if bought.count > 1 else ""]
        if bought.unit is not None:
            details.append(f"for {roster.units[bought.unit].label}")
        rows.append(
            {
                "name": bought.rule.name,
                "details": " ".join(d for d in details if d),
                "points": points,
                "summary": bought.rule.summary,
                "source": bought.rule.source,
            }
        )
    return rows


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
        # The list prints the units force by force, each under its name and organisation.
        "forces": [(force, [row for row in rows if row["unit"].force == force.index]) for force in roster.forces],
        "house_rules": house_rule_rows(roster),
        "pack_versions": pack_versions,
        "fingerprint": fingerprint(roster, data),
    }


def roster_text(roster: RosterSnapshot, data: GameData, verdict: Verdict) -> str:
    """The roster as plain text, for pasting into a chat or a forum."""
    context = list_context(roster, data, verdict, [])
    limit = f" / {verdict.points_limit}" if verdict.points_limit is not None else ""
    lines = [roster.name, f"{roster.system.name} · {roster.army_name}", ""]
    for force, rows in context["forces"]:
        lines.append(force.title)
        for row in rows:
            lines.append(
                f"{row['points']:>5}  {row['unit'].label}"
                + (f" ({row['unit'].unit_type.name})" if row["unit"].label != row["unit"].unit_type.name else "")
            )
            if row["details"]:
                lines.append(f"       {row['details']}")
    for line in context["house_rules"]:
        lines.append(
            f"{line['points']:>5}  House rule: {line['name']}" + (f" ({line['details']})" if line["details"] else "")
        )
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
