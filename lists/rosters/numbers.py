"""Numbers a visitor or a file gives (counts, points limits, numbers of models, revisions, cost limits), read strictly.

`str.isdigit()` takes superscripts and other scripts' digits ("²", "٣") that `int()` then refuses, and
`float()` takes "inf" and "nan", which no count or limit means and no JSON may hold. Every such number
is read here: ASCII digits only, short enough for any column, always finite; anything else is None,
for the caller to refuse with its own message.
"""

from __future__ import annotations

import math
import re

from lists.rosters.format import MAX_DIGITS

WHOLE_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
SIGNED_WHOLE_NUMBER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
DECIMAL = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}(\.[0-9]{{1,{MAX_DIGITS}}})?")


def whole_number(value, *, signed: bool = False, most: int | None = None) -> int | None:
    """`value` (text, or a number's text) as a whole number of ASCII digits (with a sign if `signed`), at most
    `most` where given; else None."""
    text = str(value).strip() if value is not None else ""
    if not (SIGNED_WHOLE_NUMBER if signed else WHOLE_NUMBER).fullmatch(text):
        return None
    number = int(text)
    return None if most is not None and number > most else number


def decimal_number(value) -> float | None:
    """A decimal a file writes (a cost limit "1000.0", "-1" for none) of ASCII digits: finite; else None."""
    text = str(value).strip() if value is not None else ""
    return float(text) if DECIMAL.fullmatch(text) else None


def finite(value) -> float | None:
    """A number a parsed file holds (JSON or YAML: an int or float, not a boolean) when finite; else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and abs(number) < 10**MAX_DIGITS else None
