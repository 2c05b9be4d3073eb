"""How the real eSpeak NG says the names the box speaks (words/locale/<code>/sounds.txt, applied
by `Espeak.render`): each respelled word's phonemes are the ones its table's line says, and not
the ones eSpeak gives the word as written; the sound rendered of the real spelling is the sound
of the respelling. Phonemes come from the library itself (espeak_TextToPhonemes, IPA)."""
from __future__ import annotations

import ctypes
import re
from collections.abc import Iterator

import pytest
from cobi_companion.cards import CardBook
from cobi_companion.device.ports.espeak import VOICES, Espeak, espeak_for
from cobi_companion.words import languages, sounds

IPA = 0x02                  # espeak_TextToPhonemes's phonememode: IPA, in UTF-8
TEXT_UTF8 = 1


@pytest.fixture(scope="module")
def espeak() -> Espeak:
    return espeak_for()


def phonemes(espeak: Espeak, text: str, language: str) -> str:
    """eSpeak's phonemes of `text` as written (no respelling), clause after clause."""
    library = espeak._lib
    library.espeak_TextToPhonemes.restype = ctypes.c_char_p
    library.espeak_TextToPhonemes.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                              ctypes.c_int]
    with espeak._lock:       # the library is one per process: the engine's lock, its voice
        library.espeak_SetVoiceByName(VOICES[language].encode())
        espeak._language = language
        pointer = ctypes.pointer(ctypes.c_char_p(text.encode()))
        said = []
        while pointer.contents.value:
            said.append((library.espeak_TextToPhonemes(pointer, TEXT_UTF8, IPA) or b"").decode())
    return " ".join(said)


def lines(code: str) -> Iterator[tuple[str, str, str, str]]:
    """Each respelling of `code`'s table: the word, its respelling, and the phonemes eSpeak's
    voice for `code` gave the word and gives the respelling (the line's comment: "voice
    [before] -> [after]", one for each voice it was heard with)."""
    for line in sounds.path_for(code).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        word, _, rest = line.partition("=")
        said, _, comment = rest.partition("#")
        heard = {voice: (before, after) for voice, before, after in
                 re.findall(r"([\w-]+) \[([^]]+)\] -> \[([^]]+)\]", comment)}
        assert VOICES[code] in heard, f"{code}: {line!r}: no [before] -> [after] for the " \
                                      f"voice {VOICES[code]}"
        yield word.strip(), said.strip(), *heard[VOICES[code]]


EVERY_LINE = [(code, *line) for code in languages.codes() for line in lines(code)]


@pytest.mark.parametrize(("code", "word", "said", "before", "after"), EVERY_LINE)
def test_each_respelling_is_said_as_its_line_says(espeak: Espeak, code: str, word: str,
                                                   said: str, before: str, after: str) -> None:
    assert phonemes(espeak, word, code) == before          # what the table fixes is still wrong
    assert phonemes(espeak, said, code) == after
    assert phonemes(espeak, sounds.respelled(word, code), code) == after


def test_leclerc_in_polish_has_no_ts_and_panzer_no_voiced_z(espeak: Espeak) -> None:
    assert "ts" in phonemes(espeak, "Leclerc", "pl")
    assert "ts" not in phonemes(espeak, sounds.respelled("Leclerc", "pl"), "pl")
    assert "k" in phonemes(espeak, sounds.respelled("Leclerc", "pl"), "pl")
    for code in languages.codes():
        said = phonemes(espeak, sounds.respelled("Panzer", code), code)
        assert "z" not in said and "ts" in said, (code, said)


def test_the_engine_renders_the_respelling(espeak: Espeak,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine says a word as its table spells it: here a table that says one word as
    four makes the sound four times as long (eSpeak's sound varies a little from one render
    to the next, so lengths are compared, not samples)."""
    once = len(espeak.render("Leclerc.", "pl"))
    monkeypatch.setattr(sounds, "table", lambda code: {"leclerc": "Leklerk " * 4})
    assert len(espeak.render("Leclerc.", "pl")) > 2.5 * once


def test_the_cache_of_sound_knows_the_tables(espeak: Espeak) -> None:
    """A changed respelling renders again: the engine's name (the cache's key) names the
    tables."""
    assert espeak.name.endswith(sounds.fingerprint(tuple(VOICES)))


def test_every_cards_spoken_name_is_said_with_letters_of_its_language(espeak: Espeak,
                                                                      book: CardBook) -> None:
    """No card's spoken name falls to another language's voice or to spelled-out letters of a
    word (eSpeak switches to English on a name it takes for one: "(en)" in its phonemes)."""
    for card in book.sorted():
        if card.speech is None:
            continue
        for code in languages.codes():
            name = card.speech.name(code)
            if name:
                said = phonemes(espeak, sounds.respelled(name, code), code)
                assert "(" not in said, (code, name, said)


@pytest.mark.parametrize("code", languages.codes())
def test_a_full_stop_alone_is_silent(espeak: Espeak, code: str) -> None:
    """A template may end "{target}." (Polish "Zniszczono: {target}."): its full stop is a
    phrase of its own, which eSpeak renders as (almost) nothing, not as a word."""
    samples = espeak.render(".", code)
    assert len(samples) / 2 / espeak.rate < 0.05
    assert len(espeak.render("!", "en")) / 2 / espeak.rate > 0.5     # "!" alone is a word
