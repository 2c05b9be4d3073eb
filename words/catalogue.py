"""The catalogues the box reads: each language's compiled `.mo` file (locale/<code>/
companion.mo, made by `python3 run.py catalogues` from the `.po` a translator edits), loaded
once on first use, and the language's plural rule from its own header (Plural-Forms).

A key is a message's context. A key may have forms a language needs for agreement (Polish
adjectives by a piece's gender: "say_destroyed|f"): `text` asks for the form first, then the
key. A key a language has no words for yet is said in English."""
from __future__ import annotations

import gettext
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from cobi_companion.words import languages
from cobi_companion.words.po import PoError, parse, read_mo

log = logging.getLogger("cobi-companion")

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "companion"


@dataclass(frozen=True)
class Words:
    """One language's catalogue: its messages by key, and its plural rule."""

    code: str
    messages: Mapping[str, str]
    nplurals: int
    plural: Callable[[int], int]

    def form(self, count: float) -> int:
        """The plural form of `count` by the catalogue's rule: a fraction (2,5) takes the
        form after the first (2,5 figurki, 2.5 figures), as Polish and English say it."""
        whole = int(count)
        if whole != count:
            return min(1, self.nplurals - 1)
        return self.plural(abs(whole))


def mo_path(code: str) -> Path:
    return LOCALE / code / f"{DOMAIN}.mo"


def rule(plural_forms: str) -> tuple[int, Callable[[int], int]]:
    """The count of forms and the rule of a Plural-Forms header field ("nplurals=3;
    plural=(n==1 ? 0 : ...);"), the rule compiled as the standard library's gettext compiles
    it for its own catalogues."""
    fields = dict(part.strip().split("=", 1) for part in plural_forms.split(";") if "=" in part)
    count = int(fields["nplurals"])
    return count, gettext.c2py(fields["plural"])


_LOADED: dict[str, Words] = {}


def install(code: str, messages: Mapping[str, str], plural_forms: str) -> Words:
    """A catalogue given as data (the tests' pseudo-language), in place of a file."""
    nplurals, plural = rule(plural_forms)
    words = Words(code, dict(messages), nplurals, plural)
    _LOADED[code] = words
    return words


def uninstall(code: str) -> None:
    _LOADED.pop(code, None)


ENGLISH_RULE = "nplurals=2; plural=(n != 1);"


def load(code: str) -> Words:
    """The catalogue of `code`, read from its .mo file on first use. A file that cannot be
    read is logged and the language says English; English itself is then read from its
    template (the .pot the .mo is made of)."""
    words = _LOADED.get(code)
    if words is None:
        languages.get(code)                 # a code of no language is refused by name
        try:
            header, messages = read_mo(mo_path(code).read_bytes())
            nplurals, plural = rule(header.get("Plural-Forms", ENGLISH_RULE))
        except (OSError, PoError, ValueError, KeyError) as error:
            log.error("the words of %r cannot be read (%s): %s", code, mo_path(code), error)
            messages = _english_from_template() if code == languages.SOURCE else {}
            nplurals, plural = rule(ENGLISH_RULE)
        words = _LOADED[code] = Words(code, messages, nplurals, plural)
    return words


def _english_from_template() -> dict[str, str]:
    template = parse((LOCALE / f"{DOMAIN}.pot").read_text(encoding="utf-8"))
    return {entry.context: entry.msgid for entry in template.entries}


def source() -> Words:
    return load(languages.SOURCE)


def has(key: str) -> bool:
    """Whether the box has words for `key` (in English, the source)."""
    return key in source().messages or key in _ADDED


# The words of games that bring their own (core/games.py), by key and language.
_ADDED: dict[str, dict[str, str]] = {}


def add(words: Mapping[str, Mapping[str, str]]) -> None:
    """Words given as data by key, each in its languages; English is needed. A key the
    catalogues have already, with other words, is refused."""
    for key, said in words.items():
        if languages.SOURCE not in said:
            raise ValueError(f"the word {key!r} has no English ({languages.SOURCE!r})")
        if key in source().messages or _ADDED.get(key, said) != said:
            raise ValueError(f"the word {key!r} is in the catalogues already")
    for key, said in words.items():
        _ADDED[key] = dict(said)


def text(code: str, key: str, form: str | None = None) -> str:
    """`key`'s template in the language `code`: its `form` where the language has one, else
    the key's own; the English where the language has none yet."""
    messages = load(code).messages
    if _ADDED and key in _ADDED:
        return _ADDED[key].get(code) or _ADDED[key][languages.SOURCE]
    if form is not None:
        found = messages.get(f"{key}|{form}")
        if found is not None:
            return found
    found = messages.get(key)
    if found is None:
        found = source().messages[key]
    return found


def every_key() -> list[str]:
    """Every key of the source catalogue (sorted, as its .mo file keeps them) and the words
    games added."""
    return [*source().messages, *_ADDED]
