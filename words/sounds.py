"""How the voice spells a word for eSpeak NG where eSpeak says it wrong: a table for each
language (locale/<code>/sounds.txt), one word a line, `Leclerc = Leklerk`. Applied by the speech
engine (device/ports/espeak.py) to the text just before eSpeak renders it, so every sentence the
box shows or writes (the panel, the --speech-dir .txt, docs/sentences-<code>.md) keeps the real
spelling. Whole words only: "Panzer" is respelled, "Panzerung" is not. The word's case is kept
(a word in capitals stays in capitals, a capital first letter stays one).

A line is `word = respelling`; `#` starts a comment. A table's word is one word (letters,
digits), written once; a broken line is refused by its file and line (logged; a test reads the
shipped tables)."""
from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from cobi_companion.words.catalogue import LOCALE

FILE = "sounds.txt"
log = logging.getLogger("cobi-companion")
_WORD = re.compile(r"\w+")


class BadSounds(ValueError):
    """A line of a sounds table that is not `word = respelling`."""


def path_for(code: str) -> Path:
    return LOCALE / code / FILE


@cache
def table(code: str) -> Mapping[str, str]:
    """The respellings of `code` by their word in lower case; none where it has no table, or
    a table that cannot be read (logged: the voice then says the words as written, never
    stops for it)."""
    path = path_for(code)
    try:
        return parse(path.read_text(encoding="utf-8"), str(path)) if path.exists() else {}
    except (OSError, UnicodeDecodeError, BadSounds) as exc:
        log.warning("respellings not used: %s", exc)
        return {}


def parse(text: str, source: str = FILE) -> dict[str, str]:
    """The respellings of a table's text; BadSounds names the line of a broken one."""
    found: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, equals, said = (part.strip() for part in line.partition("="))
        if not equals or not said or _WORD.fullmatch(word) is None:
            raise BadSounds(f"{source}:{number}: write one word, '=', then how eSpeak should "
                            f"spell it, not {line!r}")
        if word.lower() in found:
            raise BadSounds(f"{source}:{number}: {word!r} is respelled twice")
        found[word.lower()] = said
    return found


def respelled(text: str, code: str) -> str:
    """`text` with each word of `code`'s table in its respelling (one look-up a word: linear
    in the text's length)."""
    said = table(code)
    if not said:
        return text

    def one(match: re.Match[str]) -> str:
        word = match[0]
        respelling = said.get(word.lower())
        return word if respelling is None else in_case_of(word, respelling)
    return _WORD.sub(one, text)


def in_case_of(word: str, respelling: str) -> str:
    """`respelling` in the case `word` is written in: capitals (a word of two letters or more),
    a capital first letter, or small letters."""
    if len(word) > 1 and word.isupper():
        return respelling.upper()
    if word[0].isupper():
        return respelling[0].upper() + respelling[1:]
    return respelling[0].lower() + respelling[1:]


def fingerprint(codes: tuple[str, ...]) -> str:
    """A short digest of the tables of `codes`: what a cache of rendered sound keys its files
    by, so that a changed respelling is rendered again."""
    digest = hashlib.sha256()
    for code in codes:
        for word, said in sorted(table(code).items()):
            digest.update(f"{code}\0{word}\0{said}\n".encode())
    return digest.hexdigest()[:12]
