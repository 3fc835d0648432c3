"""The organiser's list and the plain-text roster: each unit in a line, force by force."""

from __future__ import annotations

from lists.gamedata.loading import GameData
from lists.gamedata.snapshot import RosterSnapshot
from lists.rosters.fingerprint import fingerprint
from lists.rosters.plain_names import plain_army_name, plain_unit_names
from lists.rosters.plain_text import DASH, NOTE_PREFIX, plain_unit_line
from lists.rosters.sharing import qr_svg
from lists.rosters.text_files import HOUSE_RULE_PREFIX, TOTAL_PREFIX, force_line, header_lines, unit_details, unit_line
from lists.rules.pricing import house_rule_lines
from lists.rules.verdict import Verdict


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
                # Bought for a unit, it is counted in that unit's points, not as a line of its own.
                "unit": bought.unit,
                "count": bought.count,
                "summary": bought.rule.summary,
                "source": bought.rule.source,
            }
        )
    return rows


def _count(line: dict) -> str:
    return f" ×{line['count']}" if line["count"] > 1 else ""


def list_context(roster: RosterSnapshot, data: GameData, verdict: Verdict, pack_versions, notes: bool = False) -> dict:
    """The organiser's list: each unit's line; its note (the player's own words) only when asked (`notes`)."""
    house_rules = house_rule_rows(roster)
    bought = {unit.index: [line for line in house_rules if line["unit"] == unit.index] for unit in roster.units}
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
                *(f"house rule {line['name']}{_count(line)} (+{line['points']} pts)" for line in bought[unit.index]),
            ]
            if d
        ]
        rows.append(
            {
                "unit": unit,
                "points": points,
                "details": "; ".join(details),
                "findings": verdict.unit_findings(unit.index),
                "note": unit.note if notes else "",
            }
        )
    return {
        "roster": roster,
        "verdict": verdict,
        "rows": rows,
        # The list prints the units force by force, each under its name and organisation.
        "forces": [(force, [row for row in rows if row["unit"].force == force.index]) for force in roster.forces],
        "house_rules": [line for line in house_rules if line["unit"] is None],  # a unit's are in its points
        "pack_versions": pack_versions,
        "fingerprint": fingerprint(roster, data),
    }


def roster_text(roster: RosterSnapshot, data: GameData, verdict: Verdict, keyed: bool = False) -> str:
    """The roster as a plain list, for pasting into a chat or a forum, or (`keyed`) with every unit's key
    for an exact round trip; lists/rosters/text_files.py reads both back."""
    context = list_context(roster, data, verdict, [])
    limit = f" / {verdict.points_limit}" if verdict.points_limit is not None else ""
    lines = _keyed_units(roster, context) if keyed else _plain_units(roster, data, verdict, context)
    lines.append("")
    dice = f", {verdict.order_dice} order dice" if verdict.order_dice is not None else ""
    lines.append(f"{TOTAL_PREFIX} {verdict.points}{limit} points{dice}")
    lines.append(
        "Legal" if verdict.valid else f"Not legal: {sum(f.severity == 'error' for f in verdict.findings)} problem(s)"
    )
    for finding in verdict.findings:
        lines.append(f"  - {finding.message} {finding.fix}")
    lines.append(f"Fingerprint: {context['fingerprint']}")
    return "\n".join(lines) + "\n"


def _keyed_units(roster: RosterSnapshot, context: dict) -> list[str]:
    """Header, forces and units with their keys, each unit's choices on a line of their own."""
    lines = header_lines(roster)
    for force, rows in context["forces"]:
        lines += ["", force_line(force)]
        for row in rows:
            lines.append(unit_line(row["unit"], row["points"]))
            details = unit_details(roster, row["unit"])
            if details:
                lines.append(f"           {details}")
            if row["unit"].note:
                lines.append(f"           {NOTE_PREFIX}{row['unit'].note}")
    if context["house_rules"]:
        lines.append("")
    for line in context["house_rules"]:
        lines.append(
            f"{line['points']:>5} pts  {HOUSE_RULE_PREFIX}{line['name']}"
            + (f" ({line['details']})" if line["details"] else "")
        )
    return lines


def _plain_units(roster: RosterSnapshot, data: GameData, verdict: Verdict, context: dict) -> list[str]:
    """Header, forces with their points and one line a unit, as players post lists: no keys."""
    names = {data.unit_types[unit_id].key: name for unit_id, name in plain_unit_names(data, roster.army_key).items()}
    bought = house_rule_rows(roster)
    army = next(a for a in data.armies.values() if a.key == roster.army_key)
    lines = header_lines(roster, points=verdict.points, army_name=plain_army_name(data, army))
    for force, rows in context["forces"]:
        lines += ["", f"{force_line(force)}{DASH}{sum(row['points'] for row in rows)} pts"]
        for row in rows:
            unit = row["unit"]
            own = [line for line in bought if line["unit"] == unit.index]
            lines.append(plain_unit_line(roster, unit, row["points"], names, own))
            if unit.note:
                lines.append(f"  {NOTE_PREFIX}{unit.note}")
    if context["house_rules"]:
        lines.append("")
    for line in context["house_rules"]:
        details = f" ({line['details']})" if line["details"] else ""
        lines.append(f"{HOUSE_RULE_PREFIX}{line['name']}{details}{DASH}{line['points']} pts")
    return lines


def share_code(link: str) -> dict:
    """What a printed list needs to carry its share link: the link and its QR code (inline SVG; none without)."""
    return {
        "share_link": link,
        "share_qr": qr_svg(link, "QR code of this roster's share link", scale=3) if link else "",
    }
