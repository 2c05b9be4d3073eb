"""What the box says, typed like the battle log's lines: a `Spoken` is the key of a template in
the catalogues (words/locale: the keys "say_...") and the values it names, put into an
`Utterance` (device/ports/speech.py) in the language of the moment.

A template is cut at its values into phrases: each fixed piece of a template is one phrase, and
so is each value. A value has a kind, as the battle log's do (battle_log.WORDED): the values
named in `WORDED` are words of the rules (a side is "Axis" or "Oś"), said from the word tables;
a number is said in words; another `Spoken` is said in its own words; any other text is a
piece's label, said as a child says it ("Tiger 1" is "Tiger one", or the card's own spoken name,
its [speech] table). Every phrase is rendered once into the voice's cache, so the phrases a box
can ever say are known in advance (`every_part`): the templates' pieces (every gender form),
the numbers, and the names of the cards.
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping

from cobi_companion.cards import CardBook
from cobi_companion.device.core.battle_log import LogEntry
from cobi_companion.device.core.saying import Spoken as Spoken
from cobi_companion.device.core.saying import SpokenValue as SpokenValue
from cobi_companion.device.core.saying import outcome as outcome
from cobi_companion.device.core.saying import prompt as prompt
from cobi_companion.device.core.spoken_log import said_of
from cobi_companion.device.ports.speech import Utterance
from cobi_companion.rules.card import InfoCard
from cobi_companion.words import catalogue, languages

# The values that are words of the rules, and the prefix of their keys in the catalogues.
WORDED: dict[str, str] = {"side": "say_side_", "attacker": "say_side_",
                          "defender": "say_side_", "weather": "say_weather_"}


def of_log(line: LogEntry) -> Spoken | None:
    """What the box says of a line of the battle log: an outcome (a hit, a miss, the winner,
    a reload, a Cobra result), or None for a line that is no outcome (a move, a setting)."""
    return said_of(line)


def utterance(what: Spoken, language: str, book: CardBook | None = None) -> Utterance:
    """`what` in `language`, as the phrases the voice joins; `book` names the pieces."""
    return Utterance(language, parts(what, language, book), what.kind)


def parts(what: Spoken, language: str, book: CardBook | None = None) -> tuple[str, ...]:
    """The phrases of `what` in `language`: the template's fixed pieces and its values, in
    order; empty pieces (a value at the very start) are left out."""
    found: list[str] = []
    for literal, name in _pieces(_template_of(what, language, book)):
        if literal.strip():
            found.append(literal.strip())
        if name is not None:
            found.extend(_value_parts(name, what.values[name], language, book))
    return tuple(found)


def template(key: str, language: str, form: str | None = None) -> str:
    return catalogue.text(language, key, form)


# The value whose piece's grammatical gender picks a template's form ("say_destroyed|f",
# Polish "zniszczona"), where a catalogue gives forms by gender.
GENDER_OF = "target"


def _template_of(what: Spoken, language: str, book: CardBook | None) -> str:
    """The template of `what`: the form of the named piece's gender where its card gives one
    and the catalogue has that form, else the neutral form."""
    label = what.values.get(GENDER_OF)
    card = card_of(label, book) if isinstance(label, str) else None
    gender = card.speech.gender if card is not None and card.speech is not None else None
    return template(what.key, language, gender.value if gender is not None else None)


# A number said in words up to this one; digits past it.
MOST_SAID = 20


def number(n: int, language: str) -> str:
    """`n` in words as a child says it ("seven", "siedem"); digits past the table's end."""
    return catalogue.text(language, f"number_{n}") if 0 <= n <= MOST_SAID else str(n)


def _value_parts(name: str, value: SpokenValue, language: str,
                 book: CardBook | None) -> tuple[str, ...]:
    if isinstance(value, Spoken):
        return parts(value, language, book)
    if isinstance(value, bool):
        raise TypeError("a spoken value is a name, a number or a Spoken, not a bool")
    if isinstance(value, int):
        return (number(value, language),)
    if name in WORDED:
        return (template(WORDED[name] + value, language),)
    return (said_name(value, language, book),)


_LABEL_NUMBER = re.compile(r"^(.*\D)\s*(\d+)$")


def said_name(name: str, language: str, book: CardBook | None = None) -> str:
    """A piece's label as a child says it: its number in words ("Tiger 1" → "Tiger one"),
    and the card's spoken name in `language` where its [speech] table gives one ("Tygrys
    jeden")."""
    match = _LABEL_NUMBER.match(name.strip())
    short, count = (match[1].strip(), int(match[2])) if match else (name.strip(), None)
    card = card_of(name, book)
    spoken = card.speech.name(language) if card is not None and card.speech else None
    said = spoken or short
    return said if count is None else f"{said} {number(count, language)}"


def card_of(label: str, book: CardBook | None) -> InfoCard | None:
    """The card of a piece labelled `label` ("Tiger 1": the card whose short name is
    "Tiger"), or None."""
    if book is None:
        return None
    match = _LABEL_NUMBER.match(label.strip())
    short = (match[1] if match else label).strip().lower()
    return _by_short(book).get(short)


# The cards of the book in use by their short names, made once per book: every name said
# looks its card up, on the event path (a book is replaced, never changed, on a reload). One
# reference, swapped whole, so the voice's thread and the main loop may both read it.
_index: tuple[CardBook, dict[str, InfoCard]] | None = None


def _by_short(book: CardBook) -> dict[str, InfoCard]:
    global _index
    kept = _index
    if kept is not None and kept[0] is book:
        return kept[1]
    index: dict[str, InfoCard] = {}
    for card in book.sorted():              # the first card of a short name, as before
        index.setdefault(card.short.lower(), card)
    for card in book.sorted():              # and in every other language (pieces added in it)
        for language in languages.codes():
            index.setdefault(card.short_in(language).lower(), card)
    _index = (book, index)
    return index


def _pieces(text: str) -> list[tuple[str, str | None]]:
    return [(literal, name) for literal, name, _, _ in string.Formatter().parse(text)]


def every_part(language: str, book: CardBook | None = None) -> set[str]:
    """Every phrase the box can say in `language`: each template's fixed pieces (every
    gender form), the numbers, and the names of `book`'s cards as its pieces are labelled (a
    label and a number)."""
    if language not in languages.codes():
        raise ValueError(f"unknown language {language!r}")
    found = {literal.strip() for text in _templates(language)
             for literal, _ in _pieces(text) if literal.strip()}
    found |= {number(n, language) for n in range(MOST_SAID + 1)}
    found |= {said_name(name, language, book) for name in _names(book)}
    return found


def _templates(language: str) -> Iterable[str]:
    """Every template the voice says in `language`, each form of each."""
    said = catalogue.load(language).messages
    yield from (template(key, language) for key in speech_keys())
    yield from (text for key, text in said.items()
                if "|" in key and key.split("|")[0].startswith("say_"))


def speech_keys() -> list[str]:
    """The keys of the voice's templates: "say_..." in the catalogues."""
    return [key for key in catalogue.every_key() if key.startswith("say_")]


# A battle numbers a card's pieces from 1 ("Tiger 1", "Tiger 2"); a roster holds no more.
MOST_OF_A_CARD = 9


def _names(book: CardBook | None) -> Iterable[str]:
    if book is None:
        return ()
    return (f"{short} {n}" for card in book.sorted()
            for short in dict.fromkeys(card.short_in(language) for language in languages.codes())
            for n in range(1, MOST_OF_A_CARD + 1))


def template_names(key: str) -> Mapping[str, tuple[str, ...]]:
    """The value names of `key`'s templates, by language (a test checks they agree)."""
    return {language: tuple(name for _, name in _pieces(template(key, language))
                            if name is not None) for language in languages.codes()}
