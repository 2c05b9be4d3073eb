"""The languages the box speaks: one row each. The settings row, the config file's choices, the
command line's choices, the voice's eSpeak voices, the decimal mark and the cards' names in
each language are all read from here; the words themselves are the language's catalogue
(locale/<code>/companion.po). Adding a language is a catalogue and a row (docs/translating.md).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """A language of the box: its code (ISO 639-1, the catalogue's folder), its name as the
    settings show it (in its own words), eSpeak NG's voice for it, and the mark between a
    number's whole part and its fraction."""

    code: str
    name: str
    voice: str
    decimal_mark: str = "."


# In the order the settings row steps through them. English is the source: its words are the
# catalogues' msgid, and a word no other catalogue has yet is said in English.
LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", voice="en-us", decimal_mark="."),
    Language("pl", "Polski", voice="pl", decimal_mark=","),
    Language("de", "Deutsch", voice="de", decimal_mark=","),
)

SOURCE = "en"

# The rows added while the box runs (a test's pseudo-language): see `register`.
_ADDED: list[Language] = []


def every() -> tuple[Language, ...]:
    return LANGUAGES + tuple(_ADDED)


def codes() -> tuple[str, ...]:
    """The codes of every language, in the settings row's order."""
    return tuple(language.code for language in every())


def get(code: str) -> Language:
    for language in every():
        if language.code == code:
            return language
    raise KeyError(f"no language {code[:20]!r} (the box speaks {', '.join(codes())})")


def register(language: Language) -> None:
    """A language that is no row here (the tests' pseudo-language): its catalogue is given to
    `catalogue.install`."""
    if language.code in codes():
        raise ValueError(f"the language {language.code!r} is there already")
    _ADDED.append(language)


def unregister(code: str) -> None:
    _ADDED[:] = [language for language in _ADDED if language.code != code]
