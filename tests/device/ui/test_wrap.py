"""The word wrap measures each letter once per text (device/ui/wrap.py); it breaks every text
where measuring each row anew with text_width breaks it, and its work grows in step with the
text, however long its words."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from cobi_companion.device.core import i18n
from cobi_companion.device.ui import glyphs
from cobi_companion.device.ui import wrap as wrap_module
from cobi_companion.device.ui.glyphs import FreeFont, font, text_width
from cobi_companion.device.ui.wrap import BREAKS, _kept_wrap, fits, wrap
from cobi_companion.words import languages
from hypothesis import given, settings
from hypothesis import strategies as st

FONTS = [font("Medium", 11), font("Medium", 10), font("Medium", 9), font("SemiBold", 11)]


def _longest_start(word: str, fnt: FreeFont, width: int) -> int:
    """How many characters of a too long `word` go on a row, measured prefix by prefix (the
    wrap's own rule, as it was written before it walked the word once)."""
    cut = len(word) - 1
    while cut > 1 and text_width(word[:cut], fnt) > width:
        cut -= 1
    for signs in BREAKS:
        after = max(word.rfind(sign, 0, cut) for sign in signs) + 1
        if after > cut // 2:
            return after
    return cut


def measured_anew(text: str, fnt: FreeFont, width: int) -> tuple[str, ...]:
    """The wrap as it reads: each row tried measured whole by text_width."""
    rows: list[str] = []
    row = ""
    for word in text.split(" "):
        joined = f"{row} {word}" if row else word
        if not row or text_width(joined, fnt) <= width:
            row = joined
        else:
            rows.append(row.rstrip())
            row = word
        while text_width(row, fnt) > width and len(row) > 1:
            cut = _longest_start(row, fnt, width)
            rows.append(row[:cut])
            row = row[cut:]
    return (*rows, row.rstrip()) if row.strip() or not rows else tuple(rows)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab cdWijl  mn/o_p-q.r:s,ŁóźiW…", max_size=90),
       st.sampled_from(FONTS), st.integers(min_value=1, max_value=130))
def test_any_text_breaks_as_measured_row_by_row(text: str, fnt: FreeFont, width: int) -> None:
    _kept_wrap.cache_clear()
    assert wrap(text, fnt, width) == measured_anew(text, fnt, width)


def test_every_text_of_the_box_breaks_as_measured_row_by_row() -> None:
    for language in (row.code for row in languages.LANGUAGES):
        for text in i18n.every_text(language):
            for fnt in FONTS:
                for width in (40, 86, 118, 126):
                    assert wrap(text, fnt, width) == measured_anew(text, fnt, width), text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abWil/_-.", min_size=1, max_size=400), st.sampled_from(FONTS),
       st.integers(min_value=1, max_value=130))
def test_long_words_break_as_measured_row_by_row(word: str, fnt: FreeFont, width: int) -> None:
    _kept_wrap.cache_clear()
    assert wrap(word, fnt, width) == measured_anew(word, fnt, width)


def _measured_letters(monkeypatch: pytest.MonkeyPatch, work: Callable[[], object]) -> int:
    """How many letters `work` measures (those handed to glyphs.char_advance and
    glyphs.advances, which every width is summed from), with nothing kept from before."""
    counted = 0
    one, each = glyphs.char_advance, getattr(glyphs, "advances", None)

    def counting(char: str, fnt: FreeFont) -> float:
        nonlocal counted
        counted += 1
        return one(char, fnt)

    def counting_each(text: str, fnt: FreeFont) -> list[float]:
        nonlocal counted
        counted += len(text)
        assert each is not None
        return [one(char, fnt) for char in text]
    _kept_wrap.cache_clear()
    glyphs._kept_width.cache_clear()
    with monkeypatch.context() as patch:
        for module in (glyphs, wrap_module):
            patch.setattr(module, "char_advance", counting, raising=False)
            if each is not None:
                patch.setattr(module, "advances", counting_each, raising=False)
        work()
    return counted


# Texts of n letters: one word (a key in a problem message), a path broken at its folders,
# words of a row each, and words just too long for one.
LONG_TEXTS: dict[str, Callable[[int], str]] = {
    "one word": lambda n: "k" * n,
    "path": lambda n: ("folder/" * n)[:n],
    "words": lambda n: ("word " * n)[:n],
    "wide words": lambda n: ("W" * 30 + " ") * (n // 31) + "W" * (n % 31),
}


@pytest.mark.parametrize("shape", list(LONG_TEXTS))
@pytest.mark.parametrize("width", [20, 118])
def test_wrap_measures_in_step_with_the_text(monkeypatch: pytest.MonkeyPatch, shape: str,
                                             width: int) -> None:
    # 6,000 letters of one word hung the box: each row tried every shorter start of the word
    # anew, measuring it letter by letter.
    fnt = font("Medium", 11)
    small, large = (LONG_TEXTS[shape](n) for n in (300, 1200))
    few = _measured_letters(monkeypatch, lambda: (wrap(small, fnt, width),
                                                  fits(small, fnt, width)))
    many = _measured_letters(monkeypatch, lambda: (wrap(large, fnt, width),
                                                   fits(large, fnt, width)))
    assert few >= 300
    assert many <= 4 * few * 1.25, (few, many)


def test_a_key_of_200000_letters_is_wrapped_whole() -> None:
    key = "k" * 199_999 + "/"
    rows = wrap(key, font("Medium", 11), 118)
    assert "".join(rows) == key
    assert all(fits(row, font("Medium", 11), 118) for row in rows)
