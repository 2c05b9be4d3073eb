"""Text broken into rows that fit the panel: the one word wrap of the screens, used by the
renderer and by the screens that scroll its rows."""
from __future__ import annotations

from functools import lru_cache
from math import ceil

from cobi_companion.device.ui.glyphs import FreeFont, char_advance, text_width, tracking


@lru_cache(maxsize=1024)
def wrap(text: str, fnt: FreeFont, width: int) -> tuple[str, ...]:
    """`text` in rows at most `width` pixels wide in `fnt`, broken between words, and inside a
    word only where the word alone is wider than a row. No character is left out but the
    spaces a row is broken at; empty text is one empty row."""
    # Every row tried is a piece text[start:end] of the text, and its width is text_width's
    # sum over its letters' advances, measured once here: measuring each longer row anew made
    # a line of n words cost n² letters (a log page: most of its frame).
    advances = [char_advance(char, fnt) for char in text]
    track = tracking(fnt)

    def wide(start: int, end: int) -> int:      # text_width(text[start:end], fnt)
        return ceil(sum(advances[start:end]) + track * (end - start)) + 1

    rows: list[str] = []
    start = end = at = 0                        # the row so far is text[start:end]
    for word in text.split(" "):
        after = at + len(word)                  # the word is text[at:after]
        if start == end:
            start, end = at, after
        elif wide(start, after) <= width:
            end = after
        else:
            rows.append(text[start:end].rstrip())
            start, end = at, after
        while wide(start, end) > width and end - start > 1:   # a word longer than a row
            cut = _longest_start(text[start:end], fnt, width)
            rows.append(text[start:start + cut])
            start += cut
        at = after + 1
    row = text[start:end]
    return (*rows, row.rstrip()) if row.strip() or not rows else tuple(rows)


# Where a word too long for a row (a path, a device name) breaks best: after a folder, else
# after another sign it is read in parts at.
BREAKS = ("/\\", "_-.:,;")


def _longest_start(word: str, fnt: FreeFont, width: int) -> int:
    """How many characters of `word` go on a row of `width`: as many as fit (at least one: a
    row is never empty), or up to a sign of BREAKS in the second half of them."""
    cut = len(word) - 1
    while cut > 1 and text_width(word[:cut], fnt) > width:
        cut -= 1
    for signs in BREAKS:
        after = max(word.rfind(sign, 0, cut) for sign in signs) + 1
        if after > cut // 2:
            return after
    return cut


def fits(text: str, fnt: FreeFont, width: int) -> bool:
    """Whether `text` fits one row of `width` pixels in `fnt`."""
    return text_width(text, fnt) <= width
