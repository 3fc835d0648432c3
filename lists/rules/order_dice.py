"""A tournament's limit on order dice (a roster setting)."""

from lists.gamedata.snapshot import RosterSnapshot
from lists.rules.finding import Finding, counted, error
from lists.rules.pricing import order_dice

SETTING = "max-order-dice"


def order_dice_findings(roster: RosterSnapshot) -> list[Finding]:
    limit = roster.setting(SETTING)
    if limit is None:
        return []
    dice = order_dice(roster)
    if dice is None or dice <= limit:
        return []
    return [
        error(
            "order_dice.over_limit",
            f"The roster draws {dice} order dice; the tournament allows {limit}.",
            f"Remove {counted(dice - limit, 'unit')}, or merge men into fewer, larger units.",
            rule=SETTING,
            rule_name="Order dice limit",
        )
    ]
