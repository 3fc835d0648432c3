"""Whether a roster's army has BattleScribe ids, for the share page's roster.ros/.rosz links."""

from django import template

from lists.rosters import battlescribe_ids

register = template.Library()


@register.filter
def has_battlescribe_ids(roster) -> bool:
    """A Bolt Action theatre list converted from the BattleScribe data (its units and forces then have ids too)."""
    return roster.system.key == battlescribe_ids.GAME_KEY and roster.army.key in battlescribe_ids.ids().get(
        "armies", {}
    )
