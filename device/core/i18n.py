"""Every word the box shows, from the languages' catalogues (words/locale: one per language,
a translator's gettext file); `text` fills a key's template with its values."""
from __future__ import annotations

from collections.abc import Mapping

from cobi_companion.words import catalogue
from cobi_companion.words.grammar import Number, SideName, side_is_many


def text(language: str, key: str, **values: object) -> str:
    """The words for `key` in `language`, with {values} filled in."""
    chosen = catalogue.text(language, key)
    if not values:
        return chosen
    # a number is written with the language's decimal mark, and may take its counted word's
    # form ({n:figurka|figurki|figurek})
    return chosen.format(**{name: _numbered(value, language) for name, value in values.items()})


def _numbered(value: object, language: str) -> object:
    """A number as a `Number` of the language (not a bool: a kind of its own here)."""
    return Number(value, language) if type(value) is int or type(value) is float else value


def has(key: str) -> bool:
    """Whether the box has words for `key`."""
    return catalogue.has(key)


def add_words(words: Mapping[str, Mapping[str, str]]) -> None:
    """A game's own words by key, each by language code ({code: text}, English needed; a
    language it does not give says the English) (core/games.py: a game registered with them). A key
    the catalogues have with other words is refused: a game never changes another's."""
    catalogue.add(words)


OUTCOMES = ("HIT", "MISS", "DESTROYED", "WEAKENED", "GUN LOST", "IMMOBILIZED", "NO EFFECT",
            "RELOADED", "UNLOADED", "DOWN", "HIDDEN", "MOVED", "DRAW", "IN COVER", "OFF MAP",
            "SAFE", "TIE")


# The catalogues' keys of words said in sentences of their own modules: the rules' refusals and
# Cobra's notes (core/reasons.py) and the voice's (core/spoken.py).
NOT_SHOWN_HERE = ("refusal_", "note_", "say_", "number_")


def panel_keys() -> list[str]:
    """The keys of the panel's words: its screens', the rules' values' and the battle log's."""
    return [key for key in catalogue.every_key() if not key.startswith(NOT_SHOWN_HERE)]


def every_text(language: str) -> list[str]:
    """Every string of the panel in the language, placeholders and all: the letters the box
    can show."""
    return [catalogue.text(language, key) for key in panel_keys()]


def outcome_words(language: str) -> list[str]:
    """The big words of the outcome screens, the winners' included."""
    sides = [SideName(text(language, side).upper(), side_is_many(side), side)
             for side in ("axis", "allies")]
    calls = ("call_yes", "call_no", "call_too_close")
    teams = [text(language, team).upper() for team in ("team_1", "team_2")]
    return [text(language, key) for key in (*OUTCOMES, *calls)] + [
        text(language, "WINS", side=side) for side in sides] + [
        text(language, "TEAM_WINS", team=team) for team in teams]
