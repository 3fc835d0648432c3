"""A roster's fingerprint: what the share page shows, the organiser's list prints, and /verify/ looks up.

The content digest is SHA-256 over the roster file's mapping and the content of
the pack it was checked against; cache keys use all of it. The printed
fingerprint is its first 160 bits in base 32 (A-Z, 2-7), in eight groups of
four, so two rosters with the same fingerprint cannot be made on purpose.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re

from lists import models
from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import RosterSnapshot
from lists.rosters.files import export_roster
from lists.rules.verdict import Verdict

FINGERPRINT_BITS = 160
GROUP = 4
# Eight groups of four base-32 letters and digits, as printed; the verify page accepts any case and spacing.
FINGERPRINT_PATTERN = re.compile(r"^[A-Z2-7]{4}(-[A-Z2-7]{4}){7}$")


def content_digest(roster: RosterSnapshot, data: GameData) -> str:
    """The full SHA-256 (hex) of the roster's content and its pack: the key of everything cached for it."""
    content = json.dumps(export_roster(roster), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(f"{data.system.key}:{data.content_hash}:{content}".encode()).hexdigest()


def fingerprint(roster: RosterSnapshot, data: GameData) -> str:
    """The printed fingerprint: 160 bits of the content digest, readable in groups (ABCD-EFGH-...)."""
    return printed(content_digest(roster, data))


def printed(hex_digest: str) -> str:
    """A SHA-256 digest (hex) as a fingerprint is printed: its first 160 bits in base 32, in groups of four."""
    digest = bytes.fromhex(hex_digest)[: FINGERPRINT_BITS // 8]
    letters = base64.b32encode(digest).decode()
    return "-".join(letters[i : i + GROUP] for i in range(0, len(letters), GROUP))


def normalise(text: str) -> str | None:
    """A fingerprint as typed by an organiser (any case, spaces or dashes) in its printed form, or None."""
    letters = re.sub(r"[\s-]", "", text).upper()
    printed = "-".join(letters[i : i + GROUP] for i in range(0, len(letters), GROUP))
    return printed if FINGERPRINT_PATTERN.match(printed) else None


def pdf_cache_key(kind: str, variant: str, templates: str, roster: RosterSnapshot, data: GameData) -> str:
    """Where a whole PDF of this roster is cached: its kind, layout, templates' digest and full content digest.

    The templates' digest keeps a deploy that changes how PDFs look from serving PDFs made before it.
    """
    return f"pdf:{kind}:{variant}:{templates}:{content_digest(roster, data)}"


def issue(roster: models.Roster, snapshot: RosterSnapshot, data: GameData, verdict: Verdict) -> str:
    """The roster's fingerprint, recorded with what it stands for so /verify/ can find it later."""
    printed = fingerprint(snapshot, data)
    if not models.IssuedFingerprint.objects.filter(fingerprint=printed).exists():
        models.IssuedFingerprint.objects.get_or_create(
            fingerprint=printed,
            defaults={"roster": roster, "document": export_roster(snapshot), "verdict": verdict.to_dict()},
        )
    return printed
