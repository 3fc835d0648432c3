"""Profiles and rules as a roster shows them: gathered through info groups and info links, then modified."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .limits import MAX_DEPTH, DataLimitExceeded
from .model import Entry, InfoGroup, InfoLink, Modifier, Profile, Rule
from .modifiers import apply_modifiers, bool_change, number_change, text_change
from .queries import Context

if TYPE_CHECKING:
    from .gamedata import GameData


@dataclass(slots=True)
class ShownProfile:
    """A profile with its modifiers applied."""

    name: str
    type_id: str
    type_name: str
    hidden: bool
    page: str | None
    publication_id: str | None
    characteristics: list[list[str]] = field(default_factory=list)

    def apply(self, modifier: Modifier, times: int) -> None:
        """Apply a modifier to the profile's name, hidden flag or a characteristic."""
        if modifier.field == "name":
            self.name = text_change(modifier, self.name, times)
        elif modifier.field == "hidden":
            self.hidden = bool_change(modifier, self.hidden)
        else:
            for characteristic in self.characteristics:
                if modifier.field in (characteristic[1], characteristic[0]):
                    characteristic[2] = change_characteristic(modifier, characteristic[2], times)


@dataclass(slots=True)
class ShownRule:
    """A rule with its modifiers applied."""

    name: str
    description: str
    hidden: bool
    page: str | None
    publication_id: str | None

    def apply(self, modifier: Modifier, times: int) -> None:
        """Apply a modifier to the rule's name, description or hidden flag."""
        if modifier.field == "name":
            self.name = text_change(modifier, self.name, times)
        elif modifier.field == "description":
            self.description = text_change(modifier, self.description, times)
        elif modifier.field == "hidden":
            self.hidden = bool_change(modifier, self.hidden)


def change_characteristic(modifier: Modifier, value: str, times: int) -> str:
    """A characteristic after a modifier: numbers add up, text is set or appended."""
    if modifier.type in ("increment", "decrement"):
        try:
            current = float(value)
        except ValueError:
            return value
        changed = number_change(modifier, current, times)
        return str(int(changed)) if changed.is_integer() else str(changed)
    return text_change(modifier, value, times)


@dataclass(slots=True)
class Override:
    """What an info link sets over the item it links to."""

    name: str | None = None
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    modifiers: list[InfoLink] = field(default_factory=list)


def shown_info(
    data: GameData, sources: tuple[Entry, ...], context: Context
) -> tuple[list[ShownProfile], list[ShownRule]]:
    """The profiles and rules of an entry (and its link), modified in a context."""
    profiles: list[ShownProfile] = []
    rules: list[ShownRule] = []
    for source in sources:
        gather(data, source.profiles, source.rules, source.info_groups, source.info_links, context, profiles, rules)
    return profiles, rules


def gather(
    data: GameData,
    profiles: list[Profile],
    rules: list[Rule],
    groups: list[InfoGroup],
    links: list[InfoLink],
    context: Context,
    shown_profiles: list[ShownProfile],
    shown_rules: list[ShownRule],
    hidden: bool = False,
    depth: int = 0,
) -> None:
    """Add profiles and rules, those in info groups and those info links point at."""
    for profile in profiles:
        shown_profiles.append(show_profile(profile, context, None, hidden))
    for rule in rules:
        shown_rules.append(show_rule(rule, context, None, hidden))
    for link in links:
        if link.type == "profile" and link.target_id in data.profiles:
            shown_profiles.append(show_profile(data.profiles[link.target_id], context, link, hidden))
        elif link.type == "rule" and link.target_id in data.rules:
            shown_rules.append(show_rule(data.rules[link.target_id], context, link, hidden))
        elif link.type == "infoGroup" and link.target_id in data.info_groups:
            group = data.info_groups[link.target_id]
            add_group(data, group, context, shown_profiles, shown_rules, link, hidden, depth)
    for group in groups:
        add_group(data, group, context, shown_profiles, shown_rules, None, hidden, depth)


def add_group(
    data: GameData,
    group: InfoGroup,
    context: Context,
    shown_profiles: list[ShownProfile],
    shown_rules: list[ShownRule],
    link: InfoLink | None,
    hidden: bool,
    depth: int = 0,
) -> None:
    """An info group's contents (hidden with it when it is hidden)."""
    if depth >= MAX_DEPTH:
        raise DataLimitExceeded(
            f"info group {group.id} ({group.name}) is nested more than {MAX_DEPTH} deep (a cycle of info links?): "
            "the data set must be corrected and loaded again"
        )
    state = ShownRule(group.name, "", group.hidden or hidden or bool(link and link.hidden), None, None)
    apply_modifiers(group.modifiers, group.modifier_groups, context, state.apply)
    if link is not None:
        apply_modifiers(link.modifiers, link.modifier_groups, context, state.apply)
    gather(
        data,
        group.profiles,
        group.rules,
        group.info_groups,
        group.info_links,
        context,
        shown_profiles,
        shown_rules,
        state.hidden,
        depth + 1,
    )


def show_profile(profile: Profile, context: Context, link: InfoLink | None, hidden: bool) -> ShownProfile:
    """A profile as shown, through an info link or directly."""
    shown = ShownProfile(
        profile.name,
        profile.type_id,
        profile.type_name,
        profile.hidden or hidden,
        profile.page,
        profile.publication_id,
        [[c.name, c.type_id, c.value] for c in profile.characteristics],
    )
    if link is not None:
        shown.name = link.name or shown.name
        shown.hidden = shown.hidden or link.hidden
        shown.page = shown.page or link.page
        shown.publication_id = shown.publication_id or link.publication_id
    apply_modifiers(profile.modifiers, profile.modifier_groups, context, shown.apply)
    if link is not None:
        apply_modifiers(link.modifiers, link.modifier_groups, context, shown.apply)
    return shown


def show_rule(rule: Rule, context: Context, link: InfoLink | None, hidden: bool) -> ShownRule:
    """A rule as shown, through an info link or directly."""
    shown = ShownRule(rule.name, rule.description, rule.hidden or hidden, rule.page, rule.publication_id)
    if link is not None:
        shown.name = link.name or shown.name
        shown.hidden = shown.hidden or link.hidden
        shown.page = shown.page or link.page
        shown.publication_id = shown.publication_id or link.publication_id
    apply_modifiers(rule.modifiers, rule.modifier_groups, context, shown.apply)
    if link is not None:
        apply_modifiers(link.modifiers, link.modifier_groups, context, shown.apply)
    return shown
