"""The one roster interface every page, event, PDF and file goes through, whoever judges the roster.

A kind of roster (`RosterKind`) opens its rosters by their links; an opened roster (`OpenRoster`) answers with
its verdict, its files, its fingerprint, its PDFs, a copy of itself, and takes one change at a time (`apply`). Rosters of our packs
(`lists.roster_kinds.packs`) and of loaded BattleScribe data sets (`lists.roster_kinds.data_sets`) are its two
implementations; `lists.roster_kinds` picks one. A third kind of roster is a third implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from django.db import models

from lists.cards import Layout
from lists.rosters.battlescribe_writing import roster_rosz
from lists.rosters.files import battlescribe_text
from lists.rosters.format import MAX_UNITS

# What a change that would take a roster of any kind past the unit cap is answered.
UNIT_CAP = f"A roster holds at most {MAX_UNITS} units; this one is full."


@dataclass(frozen=True)
class RosterFile:
    """One download of a roster: its bytes, their content type and the file name's ending."""

    content: bytes
    content_type: str
    suffix: str


@dataclass(frozen=True)
class RosterXml:
    """A BattleScribe roster as a file gives it (and an event takes it): the .ros XML, or the zipped .rosz."""

    raw: bytes


# The files written from a roster's .ros XML, whichever kind wrote the XML: the XML itself, zipped, and the text
# BattleScribe and New Recruit export (plain and markdown), the form players paste.
BATTLESCRIBE_FORMATS = ("ros", "rosz", "bs-txt", "bs-md")


def battlescribe_file(fmt: str, xml: bytes) -> RosterFile:
    """The roster's file of `fmt` (one of BATTLESCRIBE_FORMATS) from its .ros XML."""
    if fmt == "rosz":
        return RosterFile(roster_rosz(xml), "application/zip", ".rosz")
    if fmt in {"bs-txt", "bs-md"}:
        markdown = fmt == "bs-md"
        body = battlescribe_text(xml, markdown=markdown).encode()
        return RosterFile(body, "text/plain; charset=utf-8", "-battlescribe.md" if markdown else "-battlescribe.txt")
    return RosterFile(xml, "application/xml; charset=utf-8", ".ros")


@dataclass(frozen=True)
class Change:
    """One change to a roster, as its editor posts it: the action and fields a data-set roster's editor sends
    (one engine action), or, for a roster of our packs, the function making it on the roster as a file's
    mapping (`lists.rosters.edits.Draft`). `apply` takes either; each kind reads what it is made of."""

    action: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)
    on_draft: Callable | None = None


class ChangeRefused(Exception):
    """A change the roster cannot take (a forged post, a full roster, a file check failed); nothing was saved.
    `problems` are the messages shown to the player, each saying why and what to do instead."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


class StaleChange(Exception):
    """The roster was saved since the version the page showed: nothing was saved."""


class FileUnavailable(Exception):
    """A file format this roster cannot be written in (a roster of a pack without BattleScribe ids has no .ros)."""


@dataclass
class StoredRoster:
    """What an opened roster of every kind is named and linked by: its stored row's share id and version."""

    row: models.Model

    @property
    def share_id(self) -> str:
        return self.row.share_id

    @property
    def version(self) -> int:
        return self.row.version


class OpenRoster(Protocol):
    """One stored roster, opened by its share id or edit secret."""

    kind: str  # the name the registry knows its kind by
    row: models.Model  # the stored roster (names the downloads, goes into the device's locker)
    editor: str  # the URL name of its editor

    @property
    def share_id(self) -> str: ...

    @property
    def version(self) -> int: ...

    def share_url(self) -> str:
        """The path of its read-only share page."""

    def game_line(self) -> str:
        """Its game and army in a few words, as "my rosters" lists it."""

    def unit_count(self) -> int:
        """How many units it holds (what the unit cap counts and a PDF's waiting page says)."""

    def card_count(self) -> int:
        """How many units get a card (what the cards PDF's cap counts)."""

    def verdict(self) -> dict:
        """validate_roster's JSON of it: valid, points, points_limit, order_dice, findings (and costs per type)."""

    def fingerprint(self) -> str:
        """The fingerprint its organiser's list and text print (issued, so /verify/ knows it)."""

    def export(self, fmt: str) -> RosterFile:
        """The roster as a file of `fmt` (`json`, `yaml`, `txt`, `keyed-txt`, `ros`, `rosz`, `bs-txt`, `bs-md`); FileUnavailable if
        it has none of that format."""

    def apply(self, change: Change, version: int | None):
        """Make one change and save it over `version`, in one transaction, through the kind's checks and the
        unit cap; what it made (our roster's saved draft, the engine's roster). ChangeRefused says why nothing
        was saved, StaleChange that the roster was saved since `version`."""

    def listing(self) -> dict | RosterXml:
        """What an event takes of it as it stands now: our roster file's mapping, or its .ros (`RosterXml`)."""

    def copy(self, secret_hash: str) -> models.Model:
        """A new stored roster of the same content under a new share id and this edit secret's hash;
        RosterFileInvalid says why a roster saved before today's checks cannot be copied."""

    def pdf_key(self, what: str, layout: Layout) -> str:
        """The cache key its `cards` or `list` PDF in this layout is kept under."""

    def pdf_suffix(self, what: str, layout: Layout) -> str:
        """How its `cards` or `list` PDF's file name ends (after the roster's name)."""

    def render_pdf(self, what: str, layout: Layout, version: int) -> bytes:
        """Its `cards` or `list` PDF, rendered and cached under `pdf_key` (asked for at `version`); RenderRefused
        says why it cannot be made."""


class RenderRefused(Exception):
    """A PDF that cannot be made of this roster now; its message is shown to the visitor."""


class RosterKind(Protocol):
    """A kind of roster: how its rosters are opened by their links."""

    name: str

    def open_shared(self, share_id: str) -> OpenRoster:
        """The roster this share id opens (read only); Http404 (or RosterDeleted) for none."""

    def open_for_edit(self, secret: str) -> OpenRoster:
        """The roster this edit secret opens; Http404 (or RosterDeleted) for a wrong secret."""
