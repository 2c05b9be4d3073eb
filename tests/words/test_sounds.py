"""The respelling tables (words/sounds.py, locale/<code>/sounds.txt): whole words only, the
word's case kept, a broken line refused by its file and line, each language's own table."""
from __future__ import annotations

import pytest
from cobi_companion.words import languages, sounds


def test_a_word_of_the_table_is_respelled_in_its_own_case() -> None:
    assert sounds.respelled("Bunt! Leclerc rusza na Paryż.", "pl") == \
        "Bunt! Leklerk rusza na Paryż."
    assert sounds.respelled("LECLERC leclerc", "pl") == "LEKLERK leklerk"


def test_only_whole_words_are_respelled() -> None:
    assert sounds.respelled("Panzerung Panzer, Panzers", "en") == "Panzerung Pantser, Panzers"
    assert sounds.respelled("Panzer czwórka jeden", "pl") == "Pancer czwórka jeden"


def test_each_language_has_its_own_table() -> None:
    assert sounds.respelled("Panzer vier", "de") == "Panzer vier"     # German says it right
    assert sounds.respelled("Die Achse gewinnt!", "de") == "Die Akße gewinnt!"
    assert sounds.respelled("Die Achse gewinnt!", "pl") == "Die Achse gewinnt!"


def test_a_language_with_no_table_says_its_text_as_written() -> None:
    assert sounds.table("xx") == {}
    assert sounds.respelled("Leclerc", "xx") == "Leclerc"


def test_the_time_is_linear_one_look_up_a_word() -> None:
    text = "Leclerc rusza. " * 20_000
    assert sounds.respelled(text, "pl") == "Leklerk rusza. " * 20_000


@pytest.mark.parametrize(("line", "why"), [
    ("Leclerc Leklerk", "'='"), ("Le Clerc = Leklerk", "one word"), ("Leclerc =", "one word"),
    ("= Leklerk", "one word")])
def test_a_broken_line_is_refused_by_its_file_and_line(line: str, why: str) -> None:
    with pytest.raises(sounds.BadSounds, match=rf"pl.txt:2: .*{why}"):
        sounds.parse(f"# a comment\n{line}\n", "pl.txt")


def test_a_word_respelled_twice_is_refused() -> None:
    with pytest.raises(sounds.BadSounds, match="twice"):
        sounds.parse("Panzer = Pancer\npanzer = Pantser\n")


def test_every_shipped_table_reads() -> None:
    for code in languages.codes():
        path = sounds.path_for(code)
        assert sounds.parse(path.read_text(encoding="utf-8"), str(path)) == sounds.table(code)
    assert sounds.table("pl")["leclerc"] == "Leklerk"


def test_a_broken_table_is_logged_and_the_words_said_as_written(
        tmp_path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / sounds.FILE).write_text("Leclerc Leklerk\n", encoding="utf-8")
    monkeypatch.setattr(sounds, "path_for", lambda code: tmp_path / code / sounds.FILE)
    sounds.table.cache_clear()
    try:
        assert sounds.respelled("Leclerc", "xx") == "Leclerc"
    finally:
        sounds.table.cache_clear()
    assert "respellings not used" in caplog.text and "sounds.txt:1" in caplog.text


def test_the_fingerprint_changes_with_a_table() -> None:
    before = sounds.fingerprint(("pl",))
    assert before == sounds.fingerprint(("pl",))
    assert before != sounds.fingerprint(("pl", "de"))
