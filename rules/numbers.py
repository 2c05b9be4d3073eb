"""Numbers a person types: ASCII digits only, finite, and inside the range the caller allows.

Python's own readers take more than a person means: `str.isdigit()` is true of '²' and '٣'
(which `int()` then refuses, or reads as 3), `int()` reads '1_000' and refuses 4,300 digits
and more with an error of its own, and `float()` reads 'nan', 'inf' and '1e999'. What the
command line and a script give is read here instead: an optional sign, the digits 0-9 and, for
a decimal, one point; nothing else.
"""
from __future__ import annotations

import re

# The patterns are compiled when first used (the re module keeps them): a command compiles only
# those of the numbers it reads.
_WHOLE = r"[+-]?[0-9]+"          # [0-9] is these ten characters, never '²'
_DIGITS = r"[0-9]+"
_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
# More digits before the point than any range here needs: such a number is out of range, and
# is not read at all (int() of thousands of digits is slow, and past 4,300 refused).
_MOST_DIGITS = 15
_ECHO = 40           # the characters of a bad value a message repeats
_PLAIN = rf"[+-]?[0-9.]{{1,{_ECHO}}}"     # a number, repeated without quotes


def _trimmed(text: str) -> str | None:
    """A number's text without its leading zeros (they are no size), or None when it has more
    digits before the point than _MOST_DIGITS."""
    sign = text[0] if text[0] in "+-" else ""
    body = text.lstrip("+-").lstrip("0")
    if not body or body.startswith("."):
        body = "0" + body
    return sign + body if len(body.split(".")[0]) <= _MOST_DIGITS else None


def digits(text: str) -> bool:
    """Whether `text` is one or more of the digits 0-9 and nothing else (unlike
    str.isdigit(), never '²' or '٣', which int() refuses or reads otherwise)."""
    return re.fullmatch(_DIGITS, text) is not None


def whole(text: str, low: int, high: int) -> int | None:
    """The whole number `text` writes, if it is from `low` to `high`; else None."""
    text = text.strip()
    trimmed = _trimmed(text) if re.fullmatch(_WHOLE, text) else None
    if trimmed is None:
        return None
    value = int(trimmed)
    return value if low <= value <= high else None


def decimal(text: str, low: float, high: float) -> float | None:
    """The number `text` writes (like 12, 12.5 or .5), if it is from `low` to `high`; else
    None. Never nan or an infinity, nor an exponent (1e3)."""
    text = text.strip()
    trimmed = _trimmed(text) if re.fullmatch(_DECIMAL, text) else None
    if trimmed is None:
        return None
    value = float(trimmed)
    return value if low <= value <= high else None


def shortened(text: str) -> str:
    """What a player typed as a refusal names it: cut after a few characters (a refusal of
    5,000 digits stays a short line), odd characters escaped (one line stays one line)."""
    cut, more = text[:_ECHO], "…" if len(text) > _ECHO else ""
    return (cut if cut.isprintable() else repr(cut)[1:-1]) + more


def echo(text: str) -> str:
    """A value as a message repeats it: a short number as typed (7, -1), anything else quoted
    with its odd characters escaped ('nan', '²'), and cut after a few characters (a refusal
    of 5,000 digits stays a short line)."""
    cut, more = text[:_ECHO], "…" if len(text) > _ECHO else ""
    return (cut if re.fullmatch(_PLAIN, cut) else repr(cut)) + more
