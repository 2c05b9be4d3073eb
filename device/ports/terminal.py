"""The OLED in a terminal, drawn as the terminal's size allows.

Half-block characters give the true pixels (two pixel rows a line: 128×32 characters for the
128×64 panel). Where they do not fit, the frame is shown as words (its view's text form, which
the simulator hands over as `TerminalDisplay.words`), so that a child can read it in any 80×24
terminal; a terminal wide enough shows the braille characters (2×4 pixels each: 64×16) beside
them. A frame with no words (the title) is drawn in braille; in a terminal too small even for
that, one line says what size it needs. The line of keys under the panel is shortened to the
terminal's width.
"""
from __future__ import annotations

import math
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.panel import HEIGHT, WIDTH
from cobi_companion.device.ports.safe_text import printable
from PIL import Image

CLEAR = "\x1b[H\x1b[2J"     # cursor home, then clear the screen: every frame starts with it

# (upper pixel lit, lower pixel lit) -> character
BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}

# Braille patterns are U+2800 plus one bit per raised dot, dot n being bit n-1. Dots 1-2-3 run
# down the left column and 4-5-6 down the right; 7 and 8, added later to the 6-dot cell, sit
# under them (left, right). So the bit of the pixel at (dx, dy) in a cell 2 wide and 4 high:
BRAILLE_BASE = 0x2800
BRAILLE_BITS = {(0, 0): 1 << 0, (0, 1): 1 << 1, (0, 2): 1 << 2, (0, 3): 1 << 6,
                (1, 0): 1 << 3, (1, 1): 1 << 4, (1, 2): 1 << 5, (1, 3): 1 << 7}

Lit = Callable[[int, int], bool]


def _lit(image: Image.Image) -> tuple[Lit, int, int]:
    """Whether the pixel at (x, y) is lit (unlit outside the image), and the image's size.
    Any mode but one-bit is thresholded at half brightness."""
    mono = image if image.mode == "1" else image.convert("L").point(lambda v: 255 if v >= 128
                                                                    else 0)
    width, height = mono.size
    pixels = mono.load()
    assert pixels is not None

    def lit(x: int, y: int) -> bool:
        return x < width and y < height and bool(pixels[x, y])
    return lit, width, height


def to_halfblocks(image: Image.Image) -> str:
    """A one-bit image as text: a 128×64 frame gives 32 lines of 128 characters. An odd last
    row gets an unlit partner."""
    lit, width, height = _lit(image)
    return "\n".join(
        "".join(BLOCKS[lit(x, y), lit(x, y + 1)] for x in range(width))
        for y in range(0, height, 2)
    )


def to_braille(image: Image.Image) -> str:
    """A one-bit image as braille text: a 128×64 frame gives 16 lines of 64 characters. A
    cell with no pixel lit is a space (the blank braille pattern looks the same, but not in
    every font); an image not a multiple of 2×4 gets unlit pixels at its edges."""
    lit, width, height = _lit(image)

    def cell(x: int, y: int) -> str:
        bits = sum(bit for (dx, dy), bit in BRAILLE_BITS.items() if lit(x + dx, y + dy))
        return chr(BRAILLE_BASE + bits) if bits else " "
    return "\n".join("".join(cell(x, y) for x in range(0, width, 2))
                     for y in range(0, height, 4))


@dataclass(frozen=True)
class Drawing:
    """A way to draw pixels as characters, each character `cell` pixels (wide, high)."""

    name: str
    cell: tuple[int, int]
    draw: Callable[[Image.Image], str]

    def size(self, width: int = WIDTH, height: int = HEIGHT) -> tuple[int, int]:
        """The columns and lines a `width`×`height` image takes."""
        return math.ceil(width / self.cell[0]), math.ceil(height / self.cell[1])


HALF_BLOCKS = Drawing("half-blocks", (1, 2), to_halfblocks)
BRAILLE = Drawing("braille", (2, 4), to_braille)
DRAWINGS = (HALF_BLOCKS, BRAILLE)      # the truest first

Size = tuple[int, int]                 # a terminal's columns and lines


def choose(size: Size | None, image: Size = (WIDTH, HEIGHT),
           lines_below: int = 1) -> Drawing | None:
    """The truest drawing of an `image`-sized frame that fits a terminal of `size` with
    `lines_below` lines under it, or None when none fits. Where the size is not known (the
    text goes to a file or a pipe, which have no width) the frame is drawn in half-blocks."""
    if size is None:
        return HALF_BLOCKS
    columns, lines = size
    for drawing in DRAWINGS:
        wide, high = drawing.size(*image)
        if wide <= columns and high + lines_below <= lines:
            return drawing
    return None


def terminal_size(stream: TextIO) -> Size | None:
    """The size of the terminal `stream` writes to; None when it is no terminal, or one that
    does not know its size (a new pseudo-terminal says 0×0)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError):      # no file descriptor, or not a terminal
        return None
    if size.columns <= 0 or size.lines <= 0:
        return None
    return size.columns, size.lines


def fit(texts: Sequence[str], columns: int | None) -> str:
    """The first of `texts` (longest first) as wide as `columns` at most; else the last."""
    return next((text for text in texts if columns is None or len(text) <= columns), texts[-1])


HELPS = ("←/→ knob · Enter OK · Backspace back · a/l dice buttons (A/L hold) · q quit",
         "←/→ knob · Enter OK · Bksp back · a/l dice (A/L hold) · q quit",
         "q quit")


def too_small(image: Size = (WIDTH, HEIGHT), lines_below: int = 1,
              then: str = " · q quit") -> tuple[str, ...]:
    """What to say instead of the panel, longest first: the size the smallest drawing needs."""
    wide, high = DRAWINGS[-1].size(*image)
    need = f"{wide}×{high + lines_below}"
    return (f"make the terminal at least {need} to see the panel{then}",
            f"too small: needs {need}{then}", need)


# Words beside the braille need this many columns of their own, after a gap; words alone need
# a terminal of at least WORDS_MIN (columns, lines: a header, a line, the keys).
GAP, BESIDE_MIN = "  ", 24
WORDS_MIN = (20, 3)
CHOSEN = "> "             # a menu's chosen item, in the text form (ui/text.py)


def screen(image: Image.Image, size: Size | None, words: Sequence[str] | None = None) -> str:
    """The whole text of a terminal of `size` showing `image` (whose text form is `words`, if
    known): the panel and the keys under it, or one line saying how big the terminal must be."""
    columns = size[0] if size else None
    drawing = choose(size, image.size)
    if words is not None and size is not None and drawing is not HALF_BLOCKS:
        panel = as_words(image, size, words)
        if panel is not None:
            return panel + "\n" + fit(HELPS, columns)
    if drawing is None:
        return fit(too_small(image.size), columns)
    return drawing.draw(image) + "\n" + fit(HELPS, columns)


def as_words(image: Image.Image, size: Size, words: Sequence[str],
             lines_below: int = 1) -> str | None:
    """The frame as words, beside its braille where the terminal is wide and high enough for
    both (with `lines_below` lines under them); None where not even the words fit."""
    columns, lines = size
    lines -= lines_below
    cells, high = BRAILLE.size(*image.size)
    room = columns - cells - len(GAP)
    if room >= BESIDE_MIN and high <= lines:
        text = window(wrapped(words, room), lines)
        braille = BRAILLE.draw(image).split("\n")
        rows = max(len(braille), len(text))
        braille += [""] * (rows - len(braille))
        text += [""] * (rows - len(text))
        return "\n".join((left.ljust(cells) + GAP + right).rstrip()
                         for left, right in zip(braille, text, strict=True))
    if columns < WORDS_MIN[0] or lines + lines_below < WORDS_MIN[1]:
        return None
    return "\n".join(window(wrapped(words, columns), lines))


def wrapped(words: Sequence[str], columns: int) -> list[str]:
    """Each line of the text form wrapped to `columns`, its later rows indented under it."""
    rows: list[str] = []
    for line in words:
        indent = " " * min(4, columns // 4)
        # a card's name from a file never acts on the terminal (safe_text.py)
        rows += textwrap.wrap(printable(line), columns, subsequent_indent=indent) or [""]
    return rows


def window(rows: list[str], room: int) -> list[str]:
    """At most `room` rows: the header, then the rows around the chosen item of a menu (or the
    first ones), a '…' where rows are left out."""
    if len(rows) <= room:
        return rows
    body = rows[1:]
    keep = max(room - 1, 1)
    chosen = next((i for i, row in enumerate(body) if row.startswith(CHOSEN)), 0)
    first = min(max(chosen - keep // 2, 0), len(body) - keep)
    shown = body[first:first + keep]
    if first > 0:
        shown[0] = "…"
    if first + keep < len(body):
        shown[-1] = "…"
    return [rows[0], *shown][:room]


class TerminalDisplay(MemoryDisplay):
    """The OLED drawn in the terminal, redrawn in place at every frame. After `resized`, the
    next `refresh` draws the last frame again, as the terminal's new size allows."""

    def __init__(self, out: TextIO | None = None) -> None:
        super().__init__()
        self._out = out
        self._resized = False
        # The text form of the frame to show next (set before `show` by whoever has its view:
        # the simulator); None for a frame that has none.
        self.words: Sequence[str] | None = None

    @property
    def out(self) -> TextIO:
        return self._out or sys.stdout

    def show(self, image: Image.Image) -> None:
        super().show(image)
        self._draw()

    def resized(self) -> None:
        """The terminal's size has changed. Called from a signal handler, so it only notes
        it: the main loop's next `refresh` draws."""
        self._resized = True

    def refresh(self) -> None:
        if self._resized:
            self._resized = False
            self._draw()

    def close(self, keep_frame: bool = False) -> None:
        """The last frame stays on the screen; the shell's prompt goes under it."""
        super().close(keep_frame)
        if self.image is not None:
            self.out.write("\n")
            self.out.flush()

    def _draw(self) -> None:
        if self.image is None:
            return
        # No new line after the last: a terminal exactly as high as the frame would scroll.
        self.out.write(CLEAR + screen(self.image, terminal_size(self.out), self.words))
        self.out.flush()
