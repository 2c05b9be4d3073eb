"""In Polish the box shows no English: the tour of every kind of screen (tour.py), played in
Polish through the mock pins, and every word of every view checked against the words the box
put there from its word tables.

What a view may show, word by word (letters only; numbers, signs and punctuation are free):
- the words of the Polish templates the screens asked for (`app.t`), and the refusals and Cobra
  notes said in Polish (`app.say`, from device/core/reasons.py);
- the cards' names and labels, as the card files write them (a model's name, "Tiger I", is a
  proper noun; a label, "Rifle", is what the players read on their own roster);
- paths of the files the box reads (settings, card folders: shown on "Files in use");
- the cells of the owner's Cobra tables ("1/2", "e"), written as on the printed chart.
Every value a template was filled with must itself be such words: an English word slipped into
a Polish template fails too. Words compare without case (a side's name in capitals is the
table's word). The battle log's lines are checked like every other text: the tour reads the
log of an Easy battle, a Tank Game and a Cobra game, each line put into words from its typed
entry.
"""
from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

from cobi_companion.device.core import i18n
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from polish_tour import Tour, texts

WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


def template_words(key: str) -> set[str]:
    """The words of the Polish template of `key`, without its placeholders."""
    polish = i18n.STRINGS[key][1]
    literal = "".join(text for text, _, _, _ in string.Formatter().parse(polish))
    return words(literal)


class Said:
    """Everything the box said through its word tables during the tour."""

    def __init__(self) -> None:
        self.words: set[str] = set()
        self.values: list[tuple[str, str]] = []      # (key, a value it was filled with)
        self.refusals: list[str] = []
        self.apps: list[Any] = []

    def watch(self, table: Any) -> None:
        app = table.box.app
        self.apps.append(app)
        t, say = app.t, app.say

        def recorded_t(key: str, **values: object) -> str:
            self.words |= template_words(key)
            self.values += [(key, str(value)) for value in values.values()]
            text: str = t(key, **values)
            return text

        def recorded_say(said: Any) -> str:
            text: str = say(said)
            self.words |= words(text)
            self.refusals.append(text)
            return text
        app.t, app.say = recorded_t, recorded_say

    def data(self) -> tuple[list[str], list[str]]:
        """The names and labels of the cards and the cells of the owner's Cobra tables, and
        the paths of the files the boxes read."""
        names: set[str] = set()
        paths: list[str] = []
        for app in self.apps:
            names |= {text for card in app.book.sorted() for text in (card.name, card.short)}
            if app.cobra_tables is not None:
                names |= {cell for cells in app.cobra_tables.crt.values() for cell in cells}
            paths += [str(path).lower() for path in (
                *app.sources.files, *app.sources.card_folders, *(app.card_folders or []))]
        return sorted(names, key=len, reverse=True), paths


def test_in_polish_every_word_on_the_panel_comes_from_the_word_tables(table_at,
                                                                     tmp_path: Path) -> None:
    said = Said()
    seen = Tour(table_at, "pl", tmp_path, ready=said.watch).run()
    names, paths = said.data()

    def strangers(text: str) -> list[str]:
        return sorted(words(without(names, without_paths(text, paths))) - said.words)
    wrong = [f"{item.step}: {strangers(text)} in {text!r} ({type(item.view).__name__})"
             for item in seen for text in texts(item.view) if strangers(text)]
    assert wrong == [], "\n".join(wrong)
    filled = [f"{key}: {value!r}" for key, value in said.values if strangers(value)]
    assert filled == []
    # and the tour went everywhere it says
    assert {type(item.view) for item in seen} == {Menu, Roll, BigWord, Lines}
    assert said.refusals, "no refusal was said"
    titles = {item.view.header.title for item in seen}
    for key in ("dial_face", "dice_stats", "status_board", "battle_log", "not_possible",
                "run_over", "files_in_use", "victory_level", "match", "check_distance"):
        assert i18n.text("pl", key) in titles, key


def without(names: list[str], text: str) -> str:
    """`text` without the names in it, each a whole name (longest first): the letters of a
    name count only where the whole name is shown."""
    for name in names:
        if name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text, flags=re.IGNORECASE)
    return text


def without_paths(text: str, paths: list[str]) -> str:
    """`text` without the paths in it; a line that is part of a path (a long one, wrapped
    over lines) is no words at all."""
    lowered = text.lower()
    if lowered.strip() and any(lowered.strip() in path for path in paths):
        return ""
    for path in paths:
        lowered = lowered.replace(path, " ")
    return lowered
