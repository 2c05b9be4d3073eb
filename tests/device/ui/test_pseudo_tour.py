"""A longer translation cuts no text: the tour of the box (tour.py) taken in the pseudo-language
(pseudo.py: every message accented and 40% longer than its English), and every view it drew
checked as test_words_fit.py checks the shipped languages' (`cut`): no text leaves its box,
nothing is left out or cut short, an outcome word stays big. The pseudo-language is a language
of the registry only while its tour is taken, on its own worker (xdist group "tour-xx")."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pseudo
import pytest
import tour
from cobi_companion.device import config_check
from cobi_companion.device.core import i18n
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, Roll, View
from cobi_companion.device.ui import renderer
from cobi_companion.device.ui.renderer import overflow
from cobi_companion.words import languages

from ..conftest import take_tour
from .test_glyphs import FONTS, has
from .test_words_fit import distinct, left_out, too_small


def cut(view: View) -> list[str]:
    """Every way a text of `view` does not fit: out of its box (the renderer's `overflow`),
    not shown whole, or an outcome word made small."""
    return [*overflow(view), *left_out(view), *too_small(view)]


@pytest.fixture
def speaking_pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The pseudo-language a language of the box, its boxes' settings files saying it: the
    config's check knows the registry's rows, so a file of "xx" is checked as one of English
    and then says "xx" (the settings row and the screens ask the registry)."""
    checked = config_check.checked

    def pseudo_checked(data: Any) -> Any:
        game = data.get("game", {}) if isinstance(data, Mapping) else {}
        if game.get("language") != pseudo.CODE:
            return checked(data)
        plain = checked({**data, "game": {**game, "language": languages.SOURCE}})
        plain["game"]["language"] = pseudo.CODE
        return plain
    monkeypatch.setattr(config_check, "checked", pseudo_checked)
    with pseudo.speaking() as code:
        yield code


def test_the_pseudo_language_keeps_placeholders_and_is_longer() -> None:
    assert pseudo.pseudo("Roll the dice") == "Röll thë díćë lörëm"
    assert pseudo.pseudo("{n:figure|figures} left") == "{n:fígürë|fígürëś} lëft lörëm íps"
    assert pseudo.pseudo("{side} {side:gives|give} up").startswith(
        "{side} {side:gívëś|gívë} üp ")
    assert pseudo.pseudo("{x:key} {n:+d} {{a}}") == "{x:key} {n:+d} {{á}} lörëm í"
    assert pseudo.pseudo("MISSED") == "MIŚŚÉD LÖ"
    messages = pseudo.messages()
    assert all(len(text) >= 1.4 * len(english) - 1 for english, text in
               ((i18n.text(languages.SOURCE, key), text) for key, text in messages.items()))


def test_every_letter_of_the_pseudo_language_is_in_the_font() -> None:
    letters = sorted({char for text in pseudo.messages().values() for char in text})
    assert "ë" in letters and "Ü" in letters
    lacked = {(char, face) for face in FONTS for char in letters
              if not has(char, pseudo_font(face))}
    assert not lacked, sorted(lacked)


def pseudo_font(face: tuple[str, int]) -> Any:
    from cobi_companion.device.ui.glyphs import font
    return font(*face)


def made_views(code: str) -> list[View]:
    """A screen of each kind with texts of a fixed place in `code`: the outcome words big, a
    roll's caption and need, a menu's items and a Lines view's rows."""
    t = i18n.text
    views: list[View] = [BigWord(Header(t(code, "fire")), word, t(code, "ok_next"))
                         for word in i18n.outcome_words(code)]
    views += [Roll(Header(t(code, "damage")), (4, 2), t(code, "damage"), t(code, "needs", n=5),
                   "= 6"),
              Menu(Header(t(code, "settings")), (t(code, "sound"), t(code, "language")), 0,
                   t(code, "ok_choose")),
              Lines(Header(t(code, "battle_log")), (t(code, "resume"), t(code, "new")), 0,
                    t(code, "ok_back"))]
    return views


def test_the_pseudo_language_s_fixed_places_fit(speaking_pseudo: str) -> None:
    problems = [problem for view in made_views(speaking_pseudo) for problem in cut(view)]
    assert problems == []


def test_a_pseudo_text_too_long_for_its_place_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check finds an outcome word far longer than its place holds (a single word too
    wide even narrowed): the pseudo tour would fail for a translation that does not fit. A
    menu's row far longer than the menu is no such text: it is shown in turns, whole."""
    long_word = "DËŚTRÖÝËDDËŚTRÖÝËD"
    long_row = " ".join(["Śöüñd"] * 40)
    with pseudo.speaking(changed={"DESTROYED": long_word, "sound": long_row}) as code:
        views = made_views(code)
        problems = [problem for view in views for problem in cut(view)]
        menu = next(view for view in views if isinstance(view, Menu))
        turns = renderer.pages(menu)
    assert any(long_word in problem for problem in problems), problems
    assert not any("Śöüñd" in problem for problem in problems), problems
    assert turns > 1


@pytest.mark.long
@tour.in_language(pseudo.CODE)
def test_the_tour_in_the_pseudo_language_cuts_no_text(
        speaking_pseudo: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    taken = take_tour(tmp_path_factory, speaking_pseudo)
    views = distinct([one for one in taken.seen if one.language == speaking_pseudo])
    shown = [text for view in views for text in tour.view_texts(view)]
    assert len(views) > 1000 and sum("ë" in text for text in shown) > 1000   # in the language
    problems = {f"{type(view).__name__} {view.header.title!r}: {problem}"
                for view in views for problem in cut(view)}
    assert not problems, "\n".join(sorted(problems))
