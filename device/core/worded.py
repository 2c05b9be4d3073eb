"""Words that know how they were made: a text of the word tables (an app's `t`, `say`, a line
of the log) is a `Worded`, a str that keeps its language and how to say it again. A screen made
before the language was switched keeps the words it was made with (a menu's items, the views
of a result shown in steps); `again` says each of them in the language now when the view is
drawn, as gettext's lazy strings do. A text put together from words is one too when `joined`
puts it together; an f-string is a plain str, which its screen must make when drawn."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from itertools import repeat
from typing import Any, TypeVar

from cobi_companion.words import languages
from cobi_companion.words.languages import SOURCE

Saying = Callable[[str], str]          # the text again, in this language

V = TypeVar("V")


class Worded(str):
    """A text in `language`, and how to say it in another (`saying`)."""

    language: str
    saying: Saying

    def __new__(cls, text: str, language: str, saying: Saying) -> Worded:
        made = super().__new__(cls, text)
        made.language, made.saying = language, saying
        return made

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        """A copy (deepcopy, dataclasses.asdict, pickle) is the plain text: data to save."""
        return str, (str(self),)

    def upper(self) -> str:
        """In capitals, and said again in capitals (an outcome word, a side that won)."""
        return self._kept(str.upper)

    def capitalize(self) -> str:
        return self._kept(str.capitalize)

    def strip(self, chars: str | None = None) -> str:
        return self._kept(lambda text: text.strip(chars))

    def _kept(self, change: Callable[[str], str]) -> str:
        """`change` of the text, made again on the text said in another language."""
        return Worded(change(str(self)), self.language, lambda other: change(
            str(said_in(self, other))))


def said_in(value: object, language: str) -> object:
    """`value` in `language`: a Worded of another language said again, the texts of a
    dataclass (words.SideName) too, anything else as it is (the values of a template too: `t`
    says those again itself)."""
    if type(value) is str:          # most texts: a menu of 1,000 cards asks for each at a turn
        return value
    if isinstance(value, Worded):
        return value if value.language == language else value.saying(language)
    if _field_names(type(value)) is not None:
        return again(value, language)       # a side's name that agrees with its words
    return value


# The names of each dataclass's fields, by class (None for any other class): a frame's view is
# walked field by field at every draw, and dataclasses.fields and is_dataclass are slow.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    if kind not in _FIELDS:
        _FIELDS[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
    return _FIELDS[kind]


# The kinds of a view's values that `said_in` keeps as they are, most of a view's fields: a
# plain text, a number (an index, a round), None.
_AS_IS = {str, int, bool, float, type(None)}

# The kinds of texts a tuple of a view (a menu's items, a text's lines) holds when it is said
# already: see `_said`.
_TEXTS = {str, Worded}


def _said(items: tuple[object, ...], language: str) -> bool:
    """Whether every item of `items` is a plain text or a Worded of `language` (`said_in`
    keeps each as it is). Asked of a menu's items at every draw, most of them texts said
    already: the walk is made in C (map), not an item at a time in Python."""
    kinds = set(map(type, items))
    if kinds <= _TEXTS:
        return kinds == {str} or set(map(getattr, items, repeat("language"),
                                         repeat(language))) == {language}
    return False


def again(view: V, language: str) -> V:
    """`view` with every Worded text of another language in it said in `language`: its
    header's, its items' and lines' (tuples of texts), its other texts; the view itself when
    all are in `language` already."""
    names = _field_names(type(view))
    assert names is not None, f"{type(view).__name__} is not a dataclass"
    changed: dict[str, Any] = {}
    for name in names:
        value = getattr(view, name)
        if name == "language" and isinstance(value, str):
            if value != language:           # words.Listed's "and", in its words' language
                changed[name] = language
            continue
        kind = type(value)
        if kind in _AS_IS or (kind is Worded and value.language == language):
            continue                        # most of a view's fields, and words said now
        if isinstance(value, tuple):
            if _said(value, language):
                continue                    # a menu of plain texts, or of words said now
            new = tuple(said_in(item, language) for item in value)
            if any(a is not b for a, b in zip(new, value, strict=True)):
                changed[name] = new
        else:
            said = said_in(value, language)
            if said is not value:
                changed[name] = said
    return replace(view, **changed) if changed else view  # type: ignore[type-var]


def joined(separator: str, *parts: str) -> str:
    """`parts` put together with `separator` ("Tiger 1 · Axis"), said again in another
    language part by part (a Worded when a part is one)."""
    text = separator.join(parts)
    made = next((part for part in parts if isinstance(part, Worded)), None)
    if made is None:
        return text
    return Worded(text, made.language, lambda other: separator.join(
        str(said_in(part, other)) for part in parts))


def kept(text: str) -> str | dict[str, str]:
    """`text` as data to save: a Worded as its text in every language (by code: {code: text}),
    so that the box shows it in the language it speaks when it is read again (`read`)."""
    if not isinstance(text, Worded):
        return text
    return {language: str(said_in(text, language)) for language in languages.codes()}


def read(data: object) -> Any:
    """What `kept` saved: a text of every language as a Worded (of English), anything else
    as it is. A language the save does not have (one added since) says the English."""
    if not (isinstance(data, dict) and SOURCE in data and set(data) <= set(languages.codes())
            and all(isinstance(text, str) for text in data.values())):
        return data
    said = {language: str(text) for language, text in data.items()}
    return Worded(said[SOURCE], SOURCE, lambda language: said.get(language, said[SOURCE]))
