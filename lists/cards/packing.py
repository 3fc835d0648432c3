"""Cards packed from measured blocks: each unit's group of cards, and the first pass that measures them."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass

from lists.cards.blocks import reference_blocks, roster_rules, unit_blocks
from lists.cards.layout import Block, Card, Group, Layout
from lists.cards.renderer import _block_places, _lay_out
from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import RosterSnapshot, UnitChoice
from lists.rules.pricing import fielded_points


def _line_mm(layout: Layout) -> float:
    return layout.em_mm * 1.25


def _body_mm(layout: Layout) -> float:
    """Height inside a card's padding, less its footer line (its text, rule and a little room above)."""
    footer = layout.em_mm * (0.85 * 1.25 + 0.55)
    return layout.card_mm[1] - 2 * layout.padding_mm - footer


def _body_key(group: Group) -> str:
    return json.dumps([(b.kind, b.data) for b in group.blocks], sort_keys=True, ensure_ascii=False)


@dataclass
class FirstPass:
    """The first pass's document: a page for each group, then the bodies (the content below the header) that
    groups alike but for their headers share, each once. A group with a body of its own is laid out whole on
    its page; a group sharing one has only its header there. Pages are laid out bare (no border, no footer) and
    as tall as a group's whole content: its cards are cut from them (`lists.cards.pdfs`)."""

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
    # Laid out bare (no border, no footer): each card is drawn from these pages over a frame of its own.
    own = [
        Card(blocks=[group.header] if body is not None else [group.header, *group.blocks], body=True, **group.meta)
        for group, body in zip(groups, pages, strict=True)
    ]
    shared = [Card(blocks=owner.blocks, body=True, **owner.meta) for owner in owners]
    document = _lay_out(own + shared, layout)
    for group, page, body in zip(groups, document.pages[: len(groups)], pages, strict=True):
        measured = _block_places(page) + (_block_places(document.pages[body]) if body is not None else [])
        for block, (top, height) in zip([group.header, *group.blocks], measured, strict=True):
            block.top, block.height = top, height
    packed = [pack_cards(group.header, group.blocks, layout, group.meta) for group in groups]
    return FirstPass(document, packed, pages)


RULE_MARGIN_EM = 0.36  # a rule paragraph's top and bottom padding (cards.css)


SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")


def _cut_words(text: str, budget: int, whole_sentences: bool) -> tuple[str, str] | None:
    """The longest head of `text` within `budget` characters, and the rest: whole sentences where one fits (so the
    next card starts a sentence, never holds half of one), else whole words, the head then ending in " …"."""
    pieces = SENTENCE_END.split(text) if whole_sentences else text.split()
    taken: list[str] = []
    for piece in pieces:
        if len(" ".join([*taken, piece])) > budget:
            break
        taken.append(piece)
    if not taken or len(taken) == len(pieces) or (not whole_sentences and len(taken) < 4):
        return None
    head, tail = " ".join(taken), " ".join(pieces[len(taken) :])
    return (head, tail) if whole_sentences else (head + " …", tail)


def _split_rule(block: Block, room: float, layout: Layout, whole_sentences: bool = True) -> tuple[Block, Block] | None:
    """Cut a rule so its first part fits `room` mm; the rest continues on the next card.

    The cut comes from the paragraph's measured density (characters per line);
    each part's height is estimated from it with a spare line, so no part overflows.
    """
    line, margin = _line_mm(layout), RULE_MARGIN_EM * layout.em_mm
    name, text, source = block.data["name"], block.data["text"], block.data.get("source", "")
    lines = max(1, round((block.height - margin) / line))
    source_chars = len(source) + 3 if source else 0  # the source follows the text, on the last part
    per_line = (len(name) + 2 + len(text) + source_chars) / lines
    fits = int((room - margin) / line) - 1  # keep a line in hand
    cut = _cut_words(text, int(fits * per_line) - len(name) - 4, whole_sentences)
    if cut is None:
        return None
    tail_name = name if name.endswith("(continued)") else f"{name} (continued)"
    head_text, tail_text = cut

    def height(label: str, body: str, extra: int = 0) -> float:
        return (math.ceil((len(label) + 2 + len(body) + extra) / per_line) + 1) * line + margin

    return (
        Block("rule", {"name": name, "text": head_text}, min(height(name, head_text), room)),
        Block(
            "rule",
            {"name": tail_name, "text": tail_text, "source": source},
            height(tail_name, tail_text, source_chars),
        ),
    )


def _fit_rule(block: Block, room: float, layout: Layout, whole_card: bool = False) -> tuple[Block, Block] | None:
    """A rule split at a sentence's end to fill the room left; one longer than a whole card with no sentence end
    in reach is cut between words (nothing else would keep it on the cards)."""
    if room < 4 * _line_mm(layout):
        return None
    return _split_rule(block, room, layout) or (_split_rule(block, room, layout, False) if whole_card else None)


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
            queue.insert(0, block)  # on the new card: split there if longer than a whole card
            continue
        elif block.height > room_per_card and block.kind == "rule":
            # A rule longer than a whole card: split it even on an empty card.
            parts = _fit_rule(block, room_per_card, layout, whole_card=True)
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
        unit.force,  # the card names its platoon
    )


def _subtitle(roster: RosterSnapshot, unit: UnitChoice, kind: str) -> str:
    """What the unit is, its army, its platoon (force) and the unit carrying it, if any."""
    force = roster.force_of(unit)
    parts = [kind, roster.army_title or roster.army_name, force.title if force else ""]
    if unit.transport is not None and unit.transport < len(roster.units):
        parts.append(f"rides in {roster.units[unit.transport].label}")
    return " · ".join(part for part in parts if part)


def _title_room(points_text: str) -> str:
    """How far (in the title's em) the title keeps from the right edge, clear of the points beside it."""
    # DejaVu Sans Bold averages under 0.7 em a character; the points are 1.2 em against the title's 1.45.
    return f"{len(points_text) * 0.7 * 1.2 / 1.45 + 0.4:.2f}"


def card_groups(roster: RosterSnapshot, data: GameData, layout: Layout) -> list[Group]:
    """What goes on the cards: one group per unit (or per set of identical units), then the rules reference."""
    by_unit: dict[tuple, list[UnitChoice]] = {}
    for unit in roster.units:
        # Units merge on one card only at the same points (a house rule bought for one of them parts them).
        key = (*_signature(unit), fielded_points(roster, unit)) if layout.merge else (unit.index,)
        by_unit.setdefault(key, []).append(unit)
    groups = []
    for units in by_unit.values():
        unit = units[0]
        unit_type = unit.unit_type
        title = unit.label if len(units) == 1 else unit_type.name
        kind = unit_type.name if title != unit_type.name else unit_type.category_name
        meta = {
            "title": title,
            "points": fielded_points(roster, unit),
            "count": len(units),
            "labels": [u.label for u in units],
        }
        points_text = f"{meta['points']} pts" + (" each" if len(units) > 1 else "")
        header = Block(
            "header", {**meta, "subtitle": _subtitle(roster, unit, kind), "points_em": _title_room(points_text)}
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
