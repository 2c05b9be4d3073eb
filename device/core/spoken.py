"""What the box says, typed like the battle log's lines: a `Spoken` is the key of a template in
the speech word tables (device/core/speech_words.py) and the values it names, put into an
`Utterance` (device/ports/speech.py) in the language of the moment.

A template is cut at its values into phrases: each fixed piece of a template is one phrase, and
so is each value (a name as a child says it, a number in words). Every phrase is rendered once
into the voice's cache, so the phrases a box can ever say are known in advance (`every_part`):
the templates' pieces, the numbers, and the names of the cards.
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from cobi_companion.cards import CardBook
from cobi_companion.device.core.battle_log import LogEntry
from cobi_companion.device.core.speech_words import NUMBERS, SPEECH_WORDS
from cobi_companion.device.ports.speech import LANGUAGES, Kind, Utterance

SpokenValue: TypeAlias = "str | int | Spoken"


@dataclass(frozen=True)
class Spoken:
    """Something to say: the template `key` and its values; an outcome or a prompt."""

    key: str
    values: Mapping[str, SpokenValue] = field(default_factory=dict)
    kind: Kind = "outcome"


def outcome(key: str, **values: SpokenValue) -> Spoken:
    return Spoken(key, values, "outcome")


def prompt(key: str, **values: SpokenValue) -> Spoken:
    return Spoken(key, values, "prompt")


def of_log(line: LogEntry) -> Spoken | None:
    """What the box says of a line of the battle log: an outcome (a hit, a miss, the winner,
    a reload, a Cobra result), or None for a line that is no outcome (a move, a setting)."""
    if line.key == "log_side":
        inner = line.values["line"]
        return of_log(inner) if isinstance(inner, LogEntry) else None
    if line.key == "log_fires_at":
        firer = str(line.values["firer"])
        return outcome("say_miss" if line.values["effect"] == "miss" else "say_hit", firer=firer)
    return None


def utterance(what: Spoken, language: str) -> Utterance:
    """`what` in `language`, as the phrases the voice joins."""
    return Utterance(language, parts(what, language), what.kind)


def parts(what: Spoken, language: str) -> tuple[str, ...]:
    """The phrases of `what` in `language`: the template's fixed pieces and its values, in
    order; empty pieces (a value at the very start) are left out."""
    found: list[str] = []
    for literal, name in _pieces(template(what.key, language)):
        if literal.strip():
            found.append(literal.strip())
        if name is not None:
            found.extend(_value_parts(what.values[name], language))
    return tuple(found)


def template(key: str, language: str) -> str:
    english, polish = SPEECH_WORDS[key]
    return polish if language == "pl" else english


def number(n: int, language: str) -> str:
    """`n` in words as a child says it ("seven", "siedem"); digits past the table's end."""
    words = NUMBERS[language]
    return words[n] if 0 <= n < len(words) else str(n)


def _value_parts(value: SpokenValue, language: str) -> tuple[str, ...]:
    if isinstance(value, Spoken):
        return parts(value, language)
    if isinstance(value, bool):
        raise TypeError("a spoken value is a name, a number or a Spoken, not a bool")
    if isinstance(value, int):
        return (number(value, language),)
    return (said_name(value, language),)


_LABEL_NUMBER = re.compile(r"^(.*\D)\s*(\d+)$")


def said_name(name: str, language: str) -> str:
    """A piece's label as a child says it: its number in words ("Tiger 1" → "Tiger one")."""
    match = _LABEL_NUMBER.match(name.strip())
    if match is None:
        return name.strip()
    return f"{match[1].strip()} {number(int(match[2]), language)}"


def _pieces(text: str) -> list[tuple[str, str | None]]:
    return [(literal, name) for literal, name, _, _ in string.Formatter().parse(text)]


def every_part(language: str, book: CardBook | None = None) -> set[str]:
    """Every phrase the box can say in `language`: each template's fixed pieces, the numbers,
    and the names of `book`'s cards as its pieces are labelled (a label and a number)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    found = {literal.strip() for english, polish in SPEECH_WORDS.values()
             for literal, _ in _pieces(polish if language == "pl" else english)
             if literal.strip()}
    found |= set(NUMBERS[language])
    found |= {said_name(name, language) for name in _names(book)}
    return found


# A battle numbers a card's pieces from 1 ("Tiger 1", "Tiger 2"); a roster holds no more.
MOST_OF_A_CARD = 9


def _names(book: CardBook | None) -> Iterable[str]:
    if book is None:
        return ()
    return (f"{card.short} {n}" for card in book.sorted()
            for n in range(1, MOST_OF_A_CARD + 1))


def template_names(key: str) -> Mapping[str, tuple[str, ...]]:
    """The value names of `key`'s templates, by language (a test checks they agree)."""
    return {language: tuple(name for _, name in _pieces(template(key, language))
                            if name is not None) for language in LANGUAGES}
