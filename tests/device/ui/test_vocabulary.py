"""A child's words on the main path: every word the box shows a family playing Easy and the
Tank Game (tour.py's `main_path`: the roster, the initiative, a piece and its action, the shot
before it is fired, its steps and outcome, the move's questions, squads' fire, the battle's
menu) is in the reviewed word list of its language, device/ui/vocabulary/<code>.txt (en, pl,
de): words an 8-year-old knows, Polish and German in the forms that occur. Numbers and signs
are not words; the cards' names and labels ("Tiger", "Rifle") are names, left aside as
test_polish_screens.py leaves them. The exact figures and the rules' terms ("hull down",
"66.7%") are on the details a parent opens, off the main path.

A language's candidates (every word its main path shows, to be read and kept or reworded):
    COBI_VOCABULARY_CANDIDATES=de .venv/bin/python -m pytest -p no:cacheprovider \
        tests/device/ui/test_vocabulary.py -k "childs and de"
writes device/ui/vocabulary/de.candidates.txt (`write_candidates`); a word kept goes into
de.txt, and the candidates file is not committed."""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.words import languages
from tour import each_language

VOCABULARY = Path(__file__).resolve().parents[3] / "device" / "ui" / "vocabulary"
WORD = re.compile(r"[^\W\d_]+")


def vocabulary(language: str) -> set[str]:
    """The reviewed list: a word a line, lower case; # starts a comment."""
    lines = (VOCABULARY / f"{language}.txt").read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines} - {""}


# The languages whose candidates to write rather than check (the module's docstring).
CANDIDATES = "COBI_VOCABULARY_CANDIDATES"


def write_candidates(language: str, words: set[str]) -> Path:
    """Every word of the main path in `language` not in its list yet, one a line, sorted:
    for a reviewer to keep (into <code>.txt) or to have reworded."""
    path = VOCABULARY / f"{language}.candidates.txt"
    path.write_text("".join(f"{word}\n" for word in sorted(words)), encoding="utf-8")
    return path


def test_every_language_has_a_word_list() -> None:
    assert sorted(path.stem for path in VOCABULARY.glob("??.txt")) == sorted(languages.codes())


def test_the_word_lists_are_sorted_and_in_lower_case() -> None:
    for language in languages.codes():
        words = [line.split("#")[0].strip() for line in
                 (VOCABULARY / f"{language}.txt").read_text(encoding="utf-8").splitlines()]
        words = [word for word in words if word]
        assert words == sorted(set(words)) and all(word == word.lower() for word in words)


@pytest.mark.parametrize("language", each_language())
def test_every_word_on_the_main_path_is_a_childs(language: str, taken_tour: Mapping[str, Any],
                                                  tour: Any) -> None:
    from ..core.test_polish_screens import names_and_paths, without

    taken = taken_tour[language]
    names, _ = names_and_paths(taken.said)
    known = vocabulary(language)
    main = tour.main_path([one for one in taken.seen if one.language == language])
    assert {one.journey for one in main} == set(tour.MAIN_PATH)
    strangers: dict[str, str] = {}
    # each text once, where it is first shown: the frames show the same texts many times
    shown: dict[str, Any] = {}
    for one in main:
        for text in tour.view_texts(one.view):
            shown.setdefault(text, one)
    for text, one in shown.items():
        for word in WORD.findall(without(names, text)):
            if word.isalpha() and word.lower() not in known:     # "¼" is a number
                strangers.setdefault(word.lower(), f"{one.journey}: {text!r}")
    if language in os.environ.get(CANDIDATES, "").split(","):
        pytest.skip(f"written: {write_candidates(language, set(strangers))}")
    assert strangers == {}, f"not in vocabulary/{language}.txt (its candidates: {CANDIDATES}, " \
        f"this module's docstring):\n" + "\n".join(f"{word}  ({where})" for word, where in
                                      sorted(strangers.items()))
