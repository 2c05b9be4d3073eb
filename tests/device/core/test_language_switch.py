"""A language switch redraws every screen at once in the new language: the settings (reached
from every screen by the menu of a long press) switch it, and the screen the players go back
to must not keep the words of the old one.

Every frame of the tour of the box (tour.py), in each language, is made again as the next
frame would be had the language been switched to the next one the moment before
(`Seen.switched`); that view must hold no word only the old language's word tables have
(i18n's strings, the refusals and Cobra's notes; a word both languages write alike, "OK",
"Menu", is in neither). The names
of the cards, the paths of the files the box reads and the system's own words are names: taken
out first, whole, as test_polish_screens.py takes them out.
"""
from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.core import i18n
from cobi_companion.words import catalogue
from tour import LANGUAGES, each_language, other

from ..conftest import EASY

WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


@cache
def table_words(language: str) -> frozenset[str]:
    """Every word of the word tables in `language` (placeholders' names are alike in both)."""
    return frozenset().union(*(words(catalogue.text(language, key)) for key in
                               catalogue.every_key() if not key.startswith(("say_", "number_"))))


@pytest.fixture(scope="module")
def polish_screens() -> Any:
    """test_polish_screens.py, for the names and paths it takes out of a text."""
    from . import test_polish_screens
    return test_polish_screens


def only_in(language: str) -> frozenset[str]:
    """The words of `language` the language the settings row steps to has not."""
    return table_words(language) - table_words(other(language))


@pytest.mark.parametrize("language", each_language(LANGUAGES))
def test_a_language_switch_leaves_no_word_of_the_old_language_on_any_screen(
        language: str, taken_tour: Mapping[str, Any], tour: Any, polish_screens: Any) -> None:
    taken = taken_tour[language]
    names, paths = polish_screens.names_and_paths(taken.said)
    old = only_in(language)
    stale: dict[str, str] = {}
    checked = 0
    # A text's words once the names and paths are out, each text once: the tour's frames
    # show the same texts thousands of times, and taking a few hundred names out is slow.
    bare: dict[str, set[str]] = {}
    for one in taken.seen:
        if one.language != language or one.switched is None:
            continue
        checked += 1
        for text in tour.view_texts(one.switched):
            if text not in bare:
                bare[text] = words(polish_screens.without(
                    names, polish_screens.without_paths(text, paths)))
            if kept := sorted(bare[text] & old):
                stale.setdefault(f"{type(one.view).__name__} {one.view.header.title!r}",
                                 f"{kept} in {text!r} ({one.journey})")
    assert checked > 1000
    assert not stale, "\n".join(f"{where}: {what}" for where, what in sorted(stale.items()))


def test_the_language_switched_in_a_battle_shows_the_battle_in_the_new_language_at_once(
        table_at: Any, tmp_path: Path) -> None:
    """An Easy battle at the Axis turn's menu: a long press, Settings, Language (English to
    Polish), a long press back: the turn's menu is drawn in Polish at once, as a box that
    speaks Polish draws it when it resumes that battle (its pieces keep the labels they were
    given); and back to English the same way."""
    keys = ["ok", "cw", "allies", "ccw", "allies", "cw", "cw", "cw", "axis", "axis", "ok",
            "axis", "allies"]                         # README's first battle, to its first turn
    table = table_at([5, 2], tmp_path / "switched", config=EASY)
    table.press(*keys)
    fresh = {}
    for language in ("pl", "en"):                     # the battle resumed by a box of each
        shutil.copytree(tmp_path / "switched", tmp_path / language)
        resumed = table_at([], tmp_path / language, config=EASY)
        resumed.box.app.settings.language = language    # (the store keeps the box's own)
        resumed.press("ok", "ok")        # Resume battle: its last outcome, then the turn
        fresh[language] = resumed.view
    for language in ("pl", "en"):
        table.press("back")                                       # the menu
        table.choose(i18n.text(table.box.app.settings.language, "settings"))
        table.choose(i18n.text(table.box.app.settings.language, "language"))
        while table.box.app.settings.language != language:       # Polski, Deutsch, English:
            table.press("ok")                                     # the row steps on
        table.press("back")                                       # back to the battle
        assert table.box.app.settings.language == language
        assert table.view == fresh[language]


def test_a_worded_text_is_said_again_in_the_language_of_the_moment() -> None:
    """A view's words made in English, drawn in Polish: each said again (a value in its
    template, in capitals, joined to a name); a name and a view already in Polish as they
    are."""
    from cobi_companion.device.core.views import BigWord, Header
    from cobi_companion.device.core.worded import Worded, again, joined, said_in

    def t(key: str, **values: object) -> Worded:        # as an English app's `t` makes it
        return Worded(i18n.text("en", key, **values), "en", lambda other: i18n.text(
            other, key, **{name: said_in(value, other) for name, value in values.items()}))
    side = t("axis")
    from cobi_companion.words.grammar import SideName

    winner = SideName(side.upper(), False, "axis")      # as games/battle.py's game_over
    view = BigWord(Header(t("game_over"), 3, "axis", side), t("WINS", side=winner),
                   joined(" · ", "Tiger 1", side))
    polish = again(view, "pl")
    assert polish == BigWord(Header("Koniec gry", 3, "axis", "Oś"), "WYGRYWA: OŚ", "Tiger 1 · Oś")
    assert again(polish, "pl") is polish and again(view, "en") is view


def test_a_battle_resumed_shows_its_last_outcome_in_the_language_the_box_speaks(
        table_at: Any, tmp_path: Path) -> None:
    """The last outcome is saved with the battle in every language: a battle played in
    English and resumed by a box that speaks Polish shows it in Polish, as a box that played
    it in Polish shows it; and the other way round."""
    keys = ["ok", "cw", "allies", "ccw", "allies", "cw", "cw", "cw", "axis", "axis", "ok",
            "axis", "allies"]                         # README's first battle, to its first turn
    shown: dict[tuple[str, str], Any] = {}
    for played in ("en", "pl"):
        table = table_at([5, 2], tmp_path / played, config=EASY)
        table.box.app.settings.language = played
        table.press(*keys)
        for speaks in ("en", "pl"):
            shutil.copytree(tmp_path / played, tmp_path / f"{played}-{speaks}")
            resumed = table_at([], tmp_path / f"{played}-{speaks}", config=EASY)
            resumed.box.app.settings.language = speaks
            resumed.press("ok")                   # Resume battle: its last outcome
            shown[played, speaks] = resumed.view
    assert shown["en", "pl"] == shown["pl", "pl"] != shown["en", "en"] == shown["pl", "en"]
