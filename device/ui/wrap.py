"""Text broken into rows that fit the panel: the one word wrap of the screens, used by the
renderer and by the screens that scroll its rows.

Every text costs time in step with its length, however long its words: a settings or card file
can hold a key of 200,000 letters, and the problem shown names it."""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from math import ceil

from cobi_companion.device.ui.glyphs import (
    KEPT_LENGTH,
    FreeFont,
    advances,
    text_width,
    tracking,
)

# How far a width summed from the running sums may be off the width summed letter by letter
# (the rounding of a few hundred thousand additions): within it, the row is measured exactly.
SLACK = 1e-3


def wrap(text: str, fnt: FreeFont, width: int) -> tuple[str, ...]:
    """`text` in rows at most `width` pixels wide in `fnt`, broken between words, and inside a
    word only where the word alone is wider than a row. No character is left out but the
    spaces a row is broken at; empty text is one empty row."""
    # Longer texts are wrapped afresh each time (glyphs.KEPT_LENGTH).
    return _kept_wrap(text, fnt, width) if len(text) <= KEPT_LENGTH else _wrap(text, fnt, width)


@lru_cache(maxsize=1024)
def _kept_wrap(text: str, fnt: FreeFont, width: int) -> tuple[str, ...]:
    return _wrap(text, fnt, width)


class _Widths:
    """The widths of the pieces text[start:end] of one text, each letter measured once.

    A piece's width is text_width's: its letters' advances summed one by one, with the
    tracking. The running sums give it at once but for the rounding; where that could decide
    whether the piece fits, the piece is summed as text_width sums it, so that every row is the
    one text_width would choose, and only rows about a row wide are ever summed."""

    def __init__(self, text: str, fnt: FreeFont, width: int) -> None:
        self.advances = advances(text, fnt)
        self.track = tracking(fnt)
        self.room = width - 1                       # text_width adds a pixel to the advance
        self.sums = [0.0, *accumulate(advance + self.track for advance in self.advances)]

    def fits(self, start: int, end: int) -> bool:
        """Whether text_width(text[start:end]) <= width."""
        guess = self.sums[end] - self.sums[start]
        if abs(guess - self.room) > SLACK:
            return guess < self.room
        return ceil(sum(self.advances[start:end]) + self.track * (end - start)) <= self.room

    def longest(self, start: int, end: int) -> int:
        """The most letters from `start` (fewer than end - start, at least one) that fit."""
        cut = bisect_right(self.sums, self.sums[start] + self.room + SLACK) - 1 - start
        cut = max(min(cut, end - start - 1), 1)
        while cut > 1 and not self.fits(start, start + cut):
            cut -= 1
        return cut


def _wrap(text: str, fnt: FreeFont, width: int) -> tuple[str, ...]:
    widths = _Widths(text, fnt, width)
    rows: list[str] = []
    start = end = at = 0                        # the row so far is text[start:end]
    for word in text.split(" "):
        after = at + len(word)                  # the word is text[at:after]
        if start == end:
            start, end = at, after
        elif widths.fits(start, after):
            end = after
        else:
            rows.append(text[start:end].rstrip())
            start, end = at, after
        while end - start > 1 and not widths.fits(start, end):   # a word longer than a row
            cut = _break(text, start, widths.longest(start, end))
            rows.append(text[start:start + cut])
            start += cut
        at = after + 1
    row = text[start:end]
    return (*rows, row.rstrip()) if row.strip() or not rows else tuple(rows)


# Where a word too long for a row (a path, a device name) breaks best: after a folder, else
# after another sign it is read in parts at.
BREAKS = ("/\\", "_-.:,;")


def _break(text: str, start: int, cut: int) -> int:
    """How many of the `cut` letters of a too long word from `start` that fit a row go on it:
    all, or up to a sign of BREAKS in the second half of them."""
    for signs in BREAKS:
        after = max(text.rfind(sign, start, start + cut) for sign in signs) + 1 - start
        if after > cut // 2:
            return after
    return cut


def fits(text: str, fnt: FreeFont, width: int) -> bool:
    """Whether `text` fits one row of `width` pixels in `fnt`."""
    return text_width(text, fnt) <= width
