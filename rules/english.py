"""The rules' English: a refusal's or a note's template (written once, beside its code:
errors.py `ENGLISH` and each game's) filled with its values, as the command line and the
journal show it. The same template is the catalogues' English (words/locale/companion.pot);
there the box fills it in the player's language (device/core/reasons.py), here plainly:

- `{x}` and `{x:key}`: a name or a word as the rules write it ("Tiger 1", "armour_side"); a
  `Word` has English of its own for `{x}` ("side armour", "moved");
- `{n}` a number: a whole number as it is, any other as `g` writes it (30.5); `{n:+d}` signed;
- `{n:figure|figures}`: the number and its word, one or other as English counts;
- `{labels}` several names with commas, `{labels:and}` with "and" before the last; none is
  "none";
- `{source}` the file a card or table came from, in brackets after a space, or nothing.
"""
from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

# A value a refusal names: a label or a title, a number, a word the rules use (a card field,
# a facing, a side, an action...), or several labels or names. A `source` is the file a card or
# table came from ("" when it was built in code).
Value = str | int | float | tuple[str, ...]


class Word(str):
    """A word of the rules given as a refusal's value: the key the rules and the catalogues
    know it by (the str itself: "move", "armour_side"), with the English the rules' sentence
    says it in ("moved", "side armour"), for `{x}`; `{x:key}` is the key."""

    english: str

    def __new__(cls, key: str, english: str) -> Word:
        word = super().__new__(cls, key)
        word.english = english
        return word


def fill(template: str, values: Mapping[str, Value]) -> str:
    """`template` with its placeholders filled from `values`, in plain English."""
    return _ENGLISH.vformat(template, (), {name: _shown(name, value)
                                           for name, value in values.items()})


def _shown(name: str, value: Value) -> Value:
    if name == "source":                    # the file a card or table came from, if any
        return f" ({value})" if value else ""
    return value


def counted(value: float, forms: list[str]) -> str:
    """A count and its word, English's one or other: "1 figure", "3 figures", "2.5 cm"."""
    one, other = forms[0], forms[-1]
    return f"{number(value)} {one if value == 1 else other}"


def number(value: float, spec: str = "") -> str:
    return format(value, spec or ("d" if isinstance(value, int) else "g"))


def listed(names: tuple[str, ...], spec: str) -> str:
    if not names:
        return "none"
    if spec == "and" and len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]}"
    return ", ".join(names)


class _Formatter(string.Formatter):
    """str.format with the rules' own specs: `key`, `one|other`, `and`."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, tuple):
            return listed(value, format_spec)
        if isinstance(value, Word) and format_spec == "":
            return value.english
        if isinstance(value, bool) or not isinstance(value, int | float):
            return str(value) if format_spec in ("", "key") else format(value, format_spec)
        if "|" in format_spec:
            return counted(value, format_spec.split("|"))
        return number(value, format_spec)


_ENGLISH = _Formatter()
