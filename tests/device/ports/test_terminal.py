"""The panel in a terminal: braille cells against hand-made pixel patterns, the drawing each
terminal size gets, and the terminal display on a real pseudo-terminal, drawn again after a
resize. (The simulator resized as a real process: test_daemon.py.)"""
from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import termios
import time
from collections.abc import Iterator

import pytest
from cobi_companion.device.boot import title_image
from cobi_companion.device.core.views import Header, Lines, Menu
from cobi_companion.device.ports.terminal import (
    BRAILLE,
    HALF_BLOCKS,
    TerminalDisplay,
    choose,
    screen,
    to_braille,
    to_halfblocks,
)
from cobi_companion.device.ui.renderer import render
from cobi_companion.device.ui.text import view_text
from PIL import Image

# Unicode's braille patterns: dot n raises bit n-1 of the code point above U+2800. Where each
# dot sits in the cell, as (column, row): 1 2 3 down the left, 4 5 6 down the right, then 7
# (left) and 8 (right) on the bottom row.
DOT_AT = {1: (0, 0), 2: (0, 1), 3: (0, 2), 4: (1, 0), 5: (1, 1), 6: (1, 2), 7: (0, 3),
          8: (1, 3)}
HELP = "←/→ knob · Enter OK · Backspace back · a/l dice buttons (A/L hold) · q quit"
SHORT_HELP = "←/→ knob · Enter OK · Bksp back · a/l dice (A/L hold) · q quit"


def pattern(*rows: str) -> Image.Image:
    """A one-bit image drawn as text: '#' lit, '.' dark."""
    image = Image.new("1", (len(rows[0]), len(rows)))
    for y, row in enumerate(rows):
        for x, mark in enumerate(row):
            image.putpixel((x, y), 1 if mark == "#" else 0)
    return image


@pytest.mark.parametrize(("rows", "char"), [
    (("#.", "..", "..", ".."), "⠁"),          # dot 1
    (("..", "#.", "..", ".."), "⠂"),          # dot 2
    (("..", "..", "#.", ".."), "⠄"),          # dot 3
    (("..", "..", "..", "#."), "⡀"),          # dot 7
    ((".#", "..", "..", ".."), "⠈"),          # dot 4
    (("..", ".#", "..", ".."), "⠐"),          # dot 5
    (("..", "..", ".#", ".."), "⠠"),          # dot 6
    (("..", "..", "..", ".#"), "⢀"),          # dot 8
    (("#.", "#.", "#.", "#."), "⡇"),          # the left column
    ((".#", ".#", ".#", ".#"), "⢸"),          # the right column
    (("##", "..", "..", ".."), "⠉"),          # the top row
    (("..", "..", "..", "##"), "⣀"),          # the bottom row
    (("#.", ".#", "#.", ".#"), "⢕"),          # a checker: dots 1 3 5 8
    (("##", "##", "##", "##"), "⣿"),          # every dot
    (("..", "..", "..", ".."), " "),          # none: a space
])
def test_each_pixel_of_a_cell_is_its_braille_dot(rows: tuple[str, ...], char: str) -> None:
    assert to_braille(pattern(*rows)) == char


def test_cells_run_left_to_right_and_down() -> None:
    image = pattern("#...##",
                    "....##",
                    "......",
                    "......",
                    "......",
                    "......",
                    "......",
                    ".#....")
    assert to_braille(image) == "⠁ ⠛\n⢀  "


def test_an_odd_sized_image_gets_unlit_pixels_at_its_edges() -> None:
    assert to_braille(pattern("###", "###", "###", "###", "###")) == "⣿⡇\n⠉⠁"


def decode(text: str) -> set[tuple[int, int]]:
    """The lit pixels of braille text, read back with Unicode's dot numbering."""
    lit = set()
    for row, line in enumerate(text.split("\n")):
        for column, char in enumerate(line):
            bits = 0 if char == " " else ord(char) - 0x2800
            assert 0 <= bits <= 0xFF, f"{char!r} is no braille pattern"
            for dot, (dx, dy) in DOT_AT.items():
                if bits >> (dot - 1) & 1:
                    lit.add((column * 2 + dx, row * 4 + dy))
    return lit


def test_a_whole_frame_is_64_by_16_cells_holding_every_pixel() -> None:
    image = title_image()
    text = to_braille(image)
    lines = text.split("\n")
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    pixels = {(x, y) for x in range(128) for y in range(64) if image.getpixel((x, y))}
    assert len(pixels) > 500
    assert decode(text) == pixels


def test_a_grey_image_is_thresholded_at_half_brightness() -> None:
    image = Image.new("L", (2, 4), 127)
    image.putpixel((1, 3), 128)
    assert to_braille(image) == "⢀"


@pytest.mark.parametrize(("size", "drawing"), [
    ((140, 40), HALF_BLOCKS),
    ((128, 33), HALF_BLOCKS),       # 32 lines of 128 half-blocks and the keys under them
    ((128, 32), BRAILLE),
    ((127, 40), BRAILLE),
    ((80, 24), BRAILLE),
    ((64, 17), BRAILLE),            # 16 lines of 64 braille cells and the keys
    ((63, 17), None),
    ((64, 16), None),
    ((40, 10), None),
    (None, HALF_BLOCKS),            # not a terminal: the true pixels
])
def test_the_truest_drawing_that_fits(size: tuple[int, int] | None,
                                      drawing: object) -> None:
    assert choose(size) is drawing


def test_a_script_has_no_line_of_keys_to_fit() -> None:
    assert choose((128, 32), lines_below=0) is HALF_BLOCKS
    assert choose((64, 16), lines_below=0) is BRAILLE


def test_what_each_terminal_shows() -> None:
    image = title_image()
    assert screen(image, (140, 40)) == to_halfblocks(image) + "\n" + HELP
    assert screen(image, None) == to_halfblocks(image) + "\n" + HELP
    assert screen(image, (80, 24)) == to_braille(image) + "\n" + HELP
    assert screen(image, (64, 17)) == to_braille(image) + "\n" + SHORT_HELP
    assert screen(image, (100, 12)) == \
        "make the terminal at least 64×17 to see the panel · q quit"
    assert screen(image, (40, 10)) == "too small: needs 64×17 · q quit"
    assert screen(image, (12, 3)) == "64×17"


MENU = Menu(Header("Roster", 1, "axis", "Axis"),
            tuple(f"Card {n} · Axis 1" for n in range(1, 26)), 13, "button: add")


def test_a_terminal_too_small_for_the_true_pixels_shows_the_words_of_the_frame() -> None:
    view = Menu(Header("Menu"), ("Back to battle", "End battle"), 1, "OK = choose")
    image, words = render(view), view_text(view)
    assert screen(image, (80, 24), words) == \
        "[ Menu ]\n  Back to battle\n> End battle\n(OK = choose)\n" + HELP
    assert screen(image, (128, 33), words) == to_halfblocks(image) + "\n" + HELP
    assert screen(image, None, words) == to_halfblocks(image) + "\n" + HELP
    assert screen(image, (30, 6), words).endswith("\nq quit")       # words fit smaller
    assert screen(image, (19, 6), words) == "64×17"                  # not even the words


def test_a_wide_enough_terminal_shows_the_braille_beside_the_words() -> None:
    image, words = render(MENU), view_text(MENU)
    *rows, keys = screen(image, (100, 24), words).split("\n")
    braille = to_braille(image).split("\n")
    assert keys == HELP and len(rows) == 23
    assert [row[:64] for row in rows[:16]] == braille
    assert rows[0][66:] == "[ Roster ]  R1 Axis"
    assert all(len(row) <= 100 for row in rows) and not any(row[:66].strip()
                                                           for row in rows[16:])


def test_words_longer_than_the_terminal_keep_the_header_and_the_chosen_item() -> None:
    rows = screen(render(MENU), (80, 12), view_text(MENU)).split("\n")
    assert len(rows) == 12 and rows[0] == "[ Roster ]  R1 Axis" and rows[-1] == HELP
    assert "> Card 14 · Axis 1" in rows and rows[1] == rows[-2] == "…"
    long = Lines(Header("Log"), ("a " * 60,))
    assert all(len(row) <= 30 for row in screen(render(long), (30, 10),
                                                view_text(long)).split("\n")[:-1])


# ---- on a real pseudo-terminal ----


def set_size(fd: int, columns: int, lines: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


def written(fd: int, ending: str, timeout: float = 120.0) -> str:
    """What has been written to the terminal, read until it ends with `ending`."""
    seen = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = seen.decode(errors="replace").replace("\r\n", "\n")
        if text.endswith(ending):
            return text
        if select.select([fd], [], [], 0.1)[0]:
            seen += os.read(fd, 65536)
    raise AssertionError(f"never ended with {ending!r}: {seen[-200:]!r}")


def nothing_written(fd: int) -> bool:
    return not select.select([fd], [], [], 0)[0]


@pytest.fixture
def terminal() -> Iterator[tuple[int, int]]:
    """A pseudo-terminal: (the end the display writes to, the end the test reads)."""
    master, slave = pty.openpty()
    try:
        yield slave, master
    finally:
        os.close(master)
        os.close(slave)


def test_the_display_draws_again_as_the_new_size_allows(terminal: tuple[int, int]) -> None:
    slave, master = terminal
    set_size(slave, 80, 24)
    with open(slave, "w", encoding="utf-8", closefd=False) as out:
        display = TerminalDisplay(out)
        image = title_image()
        display.show(image)
        assert written(master, "q quit") == "\x1b[H\x1b[2J" + to_braille(image) + "\n" + HELP
        display.refresh()                         # nothing changed, nothing drawn
        assert nothing_written(master)
        set_size(slave, 140, 40)
        display.resized()
        assert nothing_written(master)            # noted only: the loop's refresh draws
        display.refresh()
        assert written(master, "q quit") == \
            "\x1b[H\x1b[2J" + to_halfblocks(image) + "\n" + HELP
        set_size(slave, 40, 10)
        display.resized()
        display.refresh()
        assert written(master, "quit") == "\x1b[H\x1b[2Jtoo small: needs 64×17 · q quit"
        display.close(keep_frame=True)
        assert written(master, "\n") == "\n"      # the shell's prompt goes under the frame
