"""A refusal of the rules in the box's words: a template in the catalogues for every code
(`Refusal`, and each game's own: `EasyRefusal`, `TankRefusal`, `CobraRefusal`; key
"refusal_<code>"), filled with the refusal's values; the same for Cobra's notes (`Why`, key
"note_<code>"). The English of each is the rules' own (their `ENGLISH`, extracted into the
catalogues' template by `python3 run.py catalogues`); the command line and the journal show it
as the rules fill it (`str(exc)`), the box as the catalogue of the player's language says it.

The values are said as the language says them: numbers with its decimal mark and plural
forms (`words.Number`), several names in a list (`words.Listed`), and the values that are words
of the rules (a card field, a weapon, a side, an action...) in the language's own words, from
the i18n table (`WORDED`). Labels, card titles and what a player typed are names: as they are.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from cobi_companion.device.core import i18n
from cobi_companion.rules.cobra.notes import Note
from cobi_companion.rules.errors import RulesError, Value
from cobi_companion.words import catalogue
from cobi_companion.words.extract import key_of
from cobi_companion.words.grammar import Listed, Number

# The values that are words, and the prefix of their keys in i18n (a side is its own key).
WORDED = {"field": "field_", "weapon": "weapon_", "weapons": "weapon_", "side": "",
          "playing": "", "nation": "cobra_", "said": "cobra_", "action": "action_",
          "kind": "kind_", "quantity": "quantity_", "situation": "sit_", "role": "role_",
          "modifier": "mod_", "shift_kind": "shiftkind_", "question": "q_",
          "start": "levelname_", "weather": "weather_", "rule": "house_",
          "army": "army_", "paid": "army_", "vp_source": "vp_", "step_kind": "stepkind_",
          "landing": "landing_", "direction": "dir_"}
# Puts a word's key into words: the i18n table's in one language (an app's `t`, watched by
# tests, or `i18n.text` with its language).
Translate = Callable[[str], str]

@dataclass(frozen=True)
class Word:
    """A value that is a word of the rules: {field} in the language's words, {field:key} as
    the rules (and the files) write it."""

    key: str
    said: str

    def __format__(self, spec: str) -> str:
        return self.key if spec == "key" else self.said

    def __str__(self) -> str:
        return self.said


def word(name: str, value: str, t: Translate, worded: Mapping[str, str] = WORDED) -> str:
    """A value that is a word of the rules (its name is in `worded`, with the prefix of its
    keys) in the words `t` gives; a name as it is."""
    prefix = worded.get(name)
    if prefix is None:
        return value
    key = prefix + (value.lower() if name.startswith("weapon") else value)
    return t(key) if i18n.has(key) else value


def value(name: str, given: Value, language: str, t: Translate,
          worded: Mapping[str, str] = WORDED, names: Mapping[str, str] | None = None) -> object:
    """A value named `name` for a template of `language`: a word, a name (a card's title or
    name in the language's words, from `names`), a number or a list of them."""
    if isinstance(given, tuple):
        return Listed(tuple(word(name, v, t, worded) for v in given), language)
    if name == "source":              # the file a card or table came from, if any
        return f" ({given})" if given else ""
    if isinstance(given, str):
        return Word(given, (names or {}).get(given) or word(name, given, t, worded))
    return Number(given, language)


# What a screen says in the box's words: a refusal of the rules (any exception) or a game's note.
Said = BaseException | Note


def say(language: str, said: Said, names: Mapping[str, str] | None = None) -> str:
    """A refusal of the rules or a Cobra note in the language's words, from its code and
    values (the cards' titles and names the rules give as `names` has them in the
    language); any other exception as its own message."""
    if isinstance(said, Note):
        return _filled(language, key_of(said.why), said.values, names)
    if isinstance(said, RulesError):
        return _filled(language, key_of(said.code), said.values, names)
    return str(said)


def _filled(language: str, key: str, values: Mapping[str, Value],
            names: Mapping[str, str] | None = None) -> str:
    template = catalogue.text(language, key)
    t = partial(i18n.text, language)
    return template.format(**{name: value(name, said, language, t, names=names)
                              for name, said in values.items()})
