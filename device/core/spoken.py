"""What the box says, typed like the battle log's lines: a `Spoken` is the key of a template in
the catalogues (words/locale: the keys "say_...") and the values it names, put into an
`Utterance` (device/ports/speech.py) in the language of the moment.

A template is cut at its values into phrases (`Utterance.parts`): each fixed piece of a
template is one phrase, and so is each value. A value has a kind, as the battle log's do
(battle_log.WORDED): the values named in `WORDED` are words of the rules (a side is "Axis" or
"Oś"), said from the word tables; a number is said in words; another `Spoken` is said in its own
words; any other text is a piece's label, said as a child says it ("Tiger 1" is "Tiger one", or
the card's own spoken name, its [speech] table).

The voice says an utterance's phrases joined, as one sentence (`Utterance.text`), rendered whole
by the engine the first time it is said and kept in the voice's cache. Only the sentences with
no value in them ("Beach held.") are known in advance, and rendered at the install
(`fixed_sentences`): one with a piece, a die or a count has too many forms for that.
"""
from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping

from cobi_companion.cards import CardBook
from cobi_companion.device.core.battle_log import LogEntry
from cobi_companion.device.core.saying import Spoken as Spoken
from cobi_companion.device.core.saying import SpokenValue as SpokenValue
from cobi_companion.device.core.saying import item as item
from cobi_companion.device.core.saying import outcome as outcome
from cobi_companion.device.core.saying import prompt as prompt
from cobi_companion.device.core.spoken_log import said_of
from cobi_companion.device.ports.speech import Utterance
from cobi_companion.rules.card import InfoCard
from cobi_companion.words import catalogue, languages
from cobi_companion.words.grammar import counted, side_is_many

# The values that are words of the rules, and the prefix of their keys in the catalogues.
WORDED: dict[str, str] = {"side": "say_side_", "attacker": "say_side_",
                          "defender": "say_side_", "weather": "say_weather_",
                          "direction": "say_dir_"}


def of_log(line: LogEntry) -> Spoken | None:
    """What the box says of a line of the battle log: an outcome (a hit, a miss, the winner,
    a reload, a Cobra result), or None for a line that is no outcome (a move, a setting)."""
    return said_of(line)


def utterance(what: Spoken, language: str, book: CardBook | None = None) -> Utterance:
    """`what` in `language`, as the phrases the voice joins; `book` names the pieces."""
    return Utterance(language, sentence_case(parts(what, language, book)), what.kind)


# What ends a sentence: the phrase after it starts one.
SENTENCE_END = ".!?"


def sentence_case(found: tuple[str, ...]) -> tuple[str, ...]:
    """The phrases with each sentence's first letter a capital: a piece's spoken name may
    start one in small letters ("siedem T P dwa zniszczony.")."""
    out: list[str] = []
    for phrase in found:
        starts = not out or out[-1].rstrip()[-1:] in SENTENCE_END
        out.append(capitalized(phrase) if starts else phrase)
    return tuple(out)


def capitalized(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


def parts(what: Spoken, language: str, book: CardBook | None = None) -> tuple[str, ...]:
    """The phrases of `what` in `language`: the template's fixed pieces and its values, in
    order; empty pieces (a value at the very start) are left out. The words that agree with a
    value ({side:wygrywa|wygrywają}, {vp:m:punkt|punkty|punktów}) are fixed pieces too, once
    the value has picked them."""
    return phrases(_template_of(what, language, book), what.values, language, book)


def phrases(text: str, values: Mapping[str, SpokenValue], language: str,
            book: CardBook | None = None) -> tuple[str, ...]:
    """The phrases of the template `text` in `language`, filled with `values`."""
    found: list[str] = []
    for literal, name, spec in _pieces(resolved(text, values, language)):
        if literal.strip():     # punctuation alone (", "): joined to the word before (text)
            found.append(literal.strip())
        if name is not None:
            found.extend(_value_parts(name, spec, values[name], language, book))
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
    gender = card.speech.gender_in(language) if card is not None and card.speech else None
    return template(what.key, language, gender.value if gender is not None else None)


# A number said in words up to this one; digits past it.
MOST_SAID = 20


def number(n: int, language: str, form: str = "") -> str:
    """`n` in words as a child says it ("seven", "siedem"); digits past the table's end.
    `form` is the form its template asks for ({guns:n} "jedno", {of:f-gen} "jednej"): a
    gender (m, f, n), a case (gen, acc) or both ("f-gen"); the catalogue's "number_1|f-gen" is
    looked for, then the case's ("number_1|gen"), then the gender's ("number_1|f"), then the
    number's own: a language writes only the forms that differ."""
    if not 0 <= n <= MOST_SAID:
        return str(n)
    key = f"number_{n}"
    said = catalogue.load(language).messages
    for each in number_forms(form):
        if f"{key}|{each}" in said:
            return said[f"{key}|{each}"]
    return catalogue.text(language, key)


def number_forms(form: str) -> tuple[str, ...]:
    """The forms a number in `form` is looked up by, first to last ("f-gen": f-gen, gen,
    f)."""
    if not form:
        return ()
    gender, _, case = form.partition("-")
    return tuple(dict.fromkeys(each for each in (form, case, gender) if each))


# The value names that are a side, said from the catalogue's "say_side_..." words.
SIDES = frozenset(name for name, prefix in WORDED.items() if prefix == "say_side_")


def resolved(text: str, values: Mapping[str, SpokenValue], language: str) -> str:
    """`text` with each word that agrees with a value put in its place: a side's
    ({side:wygrywa|wygrywają}: one side, or many), a counted word after a number
    ({vp:m:punkt|punkty|punktów}: by the catalogue's plural rule; the number keeps its form,
    {vp:m}). Those words are the template's own, so the voice's cache has each of them."""
    counts = {name: len(spec.rpartition(":")[2].split("|")) for _, name, spec in _pieces(text)
              if name is not None and "|" in spec}

    def pick(name: str) -> int:
        value = values[name]
        if name in SIDES and isinstance(value, str):
            return min(1, counts[name] - 1) if side_is_many(value) else 0
        if isinstance(value, int) and not isinstance(value, bool):
            return min(catalogue.load(language).form(value), counts[name] - 1)
        raise TypeError(f"{{{name}:...}}: only a side or a number has forms, not {value!r}")
    return _rewritten(text, pick)


def _rewritten(text: str, pick: Callable[[str], int]) -> str:
    """`text` with each field of forms replaced by the form `pick` chooses (by the value's
    name): a side's field by the word alone, a number's by the number (in its form) and the
    word after it."""
    out: list[str] = []
    for literal, name, spec in _pieces(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is None:
            continue
        if "|" not in spec:
            out.append(f"{{{name}:{spec}}}" if spec else f"{{{name}}}")
            continue
        form, _, words = spec.rpartition(":")
        chosen = words.split("|")[pick(name)]
        if name in SIDES:
            out.append(chosen.replace("{", "{{").replace("}", "}}"))
        else:
            field = (f"{{{name}:{form}}}" if form else f"{{{name}}}")
            out.append(counted(field, chosen.replace("{", "{{").replace("}", "}}")))
    return "".join(out)


def _value_parts(name: str, spec: str, value: SpokenValue, language: str,
                 book: CardBook | None) -> tuple[str, ...]:
    if isinstance(value, Spoken):
        return parts(value, language, book)
    if isinstance(value, bool):
        raise TypeError("a spoken value is a name, a number or a Spoken, not a bool")
    if isinstance(value, int):
        return (number(value, language, spec),)
    if name in WORDED:
        # {side:the}: the word's own form where the catalogue writes one ("say_side_axis|the",
        # German "Die Achse" as a sentence's subject), else the word
        return (template(WORDED[name] + value, language, spec or None),)
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


def _pieces(text: str) -> list[tuple[str, str | None, str]]:
    """A template cut at its values: each fixed piece, then the value's name and its spec."""
    return [(literal, name, spec or "") for literal, name, spec, _ in
            string.Formatter().parse(text)]


def speech_keys() -> list[str]:
    """The keys of the voice's templates: "say_..." in the catalogues."""
    return [key for key in catalogue.every_key() if key.startswith("say_")]


def template_names(key: str) -> Mapping[str, tuple[str, ...]]:
    """The value names of `key`'s templates, by language, each once (a test checks they
    agree): a name may come again for the words that agree with it ({side:wygrywa|...})."""
    return {language: tuple(dict.fromkeys(name for _, name, _ in _pieces(template(key, language))
                                           if name is not None))
            for language in languages.codes()}


def fixed_sentences(language: str) -> list[str]:
    """The sentences the voice says in `language` with no value in them ("Beach held."), as
    said: the ones the box can render before they are said (a sentence with a piece, a die
    or a count in it has too many forms for that)."""
    return sorted({utterance(outcome(key), language).text for key in speech_keys()
                   if "{" not in template(key, language)})
