"""Card and paper sizes, and what a card holds: its blocks, the cards and the groups of one unit."""

from __future__ import annotations

from dataclasses import dataclass, field

MM_PER_PT = 0.3528

CARD_SIZES = {"poker": (63.0, 88.0), "a6": (105.0, 148.0)}
PAPER_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
# Type and margins scale with the card: A6 is about 1.65 times a poker card each way, so it is set 1.6 times larger.
FONT_PT = {"poker": 6.2, "a6": 10.0}
PADDING_MM = {"poker": 2.5, "a6": 4.0}
SHEET_MARGIN_MM = 8.0
CACHE_SECONDS = 60 * 60 * 24
DEFAULT_PAPER = "a4"  # a cards download names its paper only when it is another
LIST_VARIANT = "a4"  # the organiser's list has one layout


@dataclass(frozen=True)
class Layout:
    card: str = "poker"
    paper: str = "a4"
    merge: bool = False
    notes: bool = False  # the organiser's list shows the units' notes only when asked (`?notes=1`)
    link: str = ""  # the roster's share link, printed as a QR code on the organiser's list and the first card

    def __post_init__(self):
        if self.card not in CARD_SIZES or self.paper not in PAPER_SIZES:
            raise ValueError(f"card size is one of {', '.join(CARD_SIZES)}; paper one of {', '.join(PAPER_SIZES)}")

    @property
    def variant(self) -> str:
        """The layout's part of a cached PDF's key."""
        return f"{self.card}-{self.paper}-{int(self.merge)}"

    @property
    def file_suffix(self) -> str:
        """The end of a cards download's name, which tells the sizes apart: "-cards-a6.pdf", "-cards-poker-letter.pdf"."""
        paper = f"-{self.paper}" if self.paper != DEFAULT_PAPER else ""
        return f"-cards-{self.card}{paper}.pdf"

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

    @property
    def em_mm(self) -> float:
        """The card's type size in mm: the cards' stylesheet sets its spaces in em, so they scale with it."""
        return self.font_pt * MM_PER_PT

    @property
    def padding_mm(self) -> float:
        return PADDING_MM[self.card]


# --- what goes on a card ------------------------------------------------------


@dataclass
class Block:
    """A piece of a card's content; its height (mm) is measured by laying it out once."""

    kind: str  # header, stats, models, weapons, profiles, reminder, rule
    data: dict = field(default_factory=dict)
    height: float = 0.0
    top: float = 0.0  # where the measuring pass laid it out, mm from the top of its page


@dataclass
class Card:
    title: str
    points: int | None
    count: int
    labels: list[str]
    blocks: list[Block]
    part: int = 1
    parts: int = 1
    # Laid out bare, without border or footer: the first pass's pages, drawn over a frame (`lists.cards.pdfs`).
    body: bool = False


@dataclass
class Group:
    """The cards of one unit (or of identical units merged, or of the rules reference)."""

    header: Block
    blocks: list[Block]
    meta: dict
