"""What a subtree of entries adds to a unit while it is built (lists/battlescribe/units.py)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Part:
    """What a subtree of entries adds to a unit."""

    points: float = 0.0
    per_extra: float | None = None
    min_size: int | None = None
    max_size: int | None = None
    min_own_size: int | None = None  # the least men of its own, beside those its options add
    composition: list[dict] = field(default_factory=list)
    weapons: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    options: list[dict] = field(default_factory=list)
    qualities: dict[str, Part] = field(default_factory=dict)
    armies: list[str] = field(default_factory=list)  # a quality's own part: the army lists showing it, if not all
    army_changes: dict[str, float] = field(default_factory=dict)  # army key -> what its theatre adds to the cost
    # A quality's own cost set while an option is taken (a Panther with IR equipment): option entry id -> change.
    option_changes: dict[str, float] = field(default_factory=dict)
    # The unit's qualities an option's taking hides (a Highland Officer: Regular and Inexperienced): entry id -> them.
    hidden_by_options: dict[str, set[str]] = field(default_factory=dict)
    shared_limits: dict[str, dict] = field(default_factory=dict)  # a group's most, shared by its options
    # Men whose own price a quality sets (a Dog Mines team's NCO and handlers: 13, 18 or 23 by rating): by
    # quality, what the men the unit starts with add, and the price of one more man.
    men_by_quality: dict[str, float] = field(default_factory=dict)
    extra_by_quality: dict[str, float] = field(default_factory=dict)
