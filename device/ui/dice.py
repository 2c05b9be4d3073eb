"""Dice on the panel: each die drawn with its pips, all of a roll in rows that fit the room
beside the total, as large as they go."""
from __future__ import annotations

from functools import lru_cache
from math import ceil

from cobi_companion.device.ui.glyphs import Face, advance, font, lay, stamp
from PIL import Image, ImageDraw

DIE: Face = ("Bold", 10)     # a face that is no die face (0 while unknown): a digit or "?"
PIPS = {1: "c", 2: "ad", 3: "acd", 4: "abde", 5: "abcde", 6: "abdefg"}
# a top-left, b top-right, c centre, d bottom-right, e bottom-left, f middle-left, g middle-right
# Die sizes, largest first, with their pips and margins, and the gaps across and down between
# dice. Below 10 px the pips of a six would touch.
PIP_SIZE = {36: (6, 5), 30: (6, 4), 24: (4, 3), 20: (4, 2), 18: (4, 2), 12: (2, 2), 10: (2, 1)}
ACROSS = {36: 4, 30: 4, 24: 3, 20: 2, 18: 3, 12: 2, 10: 1}
SIZES = tuple(PIP_SIZE)
# The largest die for a few dice: one die 36 px, four in a row 20 px, up to eight in two rows
# 18 px, more 12 px; smaller only where the room is smaller.
LARGEST = {1: 36, 2: 30, 3: 24, 4: 20}


def _down(size: int) -> int:
    return 2 if size >= 18 else 1


def grid(count: int, width: int, height: int) -> tuple[int, int, int] | None:
    """Die size, columns and rows for `count` dice in width × height, the largest that fits
    them all; None when not even the smallest does."""
    start = LARGEST.get(count, 18 if count <= 8 else 12)
    for size in SIZES[SIZES.index(start):]:
        across, down = ACROSS[size], _down(size)
        fit = (height + down) // (size + down)
        if fit < 1:
            continue
        cols = ceil(count / fit)
        if cols * size + (cols - 1) * across <= width:
            return size, cols, ceil(count / cols)
    return None


def draw(img: Image.Image, faces: tuple[int, ...], box: tuple[int, int, int, int], keep: int,
         rolling: bool, misfits: list[str], least: int = 0) -> int:
    """Draw the dice in `box` (left-aligned, centred up and down), keeping `keep` px at the
    right for a total where they can, else the `least` px the total needs at its smallest;
    return the right edge they use (0 without dice). Dice that find no room even at the
    smallest size are a misfit."""
    if not faces:
        return 0
    left, top, right, bottom = box
    found, width = None, right - left
    rooms = (width - keep - 3, *((width - least - 3,) if least else ()), width) if keep \
        else (width,)
    for room in rooms:
        found = grid(len(faces), room, bottom - top)
        if found is not None:
            break
    if found is None:
        size = SIZES[-1]
        cols = max(1, (right - left + ACROSS[size]) // (size + ACROSS[size]))
        found = size, cols, max(1, (bottom - top + 1) // (size + 1))
        misfits.append(f"dice: {len(faces)} do not fit in {box}")
    size, cols, rows = found
    across, down = ACROSS[size], _down(size)
    y0 = top + (bottom - top - rows * size - (rows - 1) * down) // 2
    for i, face in enumerate(faces[:cols * rows]):
        col, row = i % cols, i // cols
        stamp(img, 1, left + col * (size + across), y0 + row * (size + down),
              die_image(size, face, rolling))
    return left + cols * size + (cols - 1) * across


@lru_cache(maxsize=64)
def die_image(size: int, face: int, rolling: bool) -> Image.Image:
    """One die, size × size: lit with dark pips, or outlined with lit pips while rolling."""
    img = Image.new("1", (size, size), 0)
    drawing = ImageDraw.Draw(img)
    body, pip = (0, 1) if rolling else (1, 0)
    drawing.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 5, fill=body,
                              outline=1)
    if face not in PIPS:
        fnt, label = font(*DIE), "?" if face < 1 else str(face)
        mask = Image.new("1", (size, size), 0)
        lay(mask, (size - advance(label, fnt)) / 2, size // 2 + 3, label, fnt)
        img.paste(pip, (0, 0), mask)
        return img
    d, near = PIP_SIZE.get(size, (2, 2))
    mid, far = (size - d) // 2, size - near - d
    spots = {"a": (near, near), "b": (far, near), "c": (mid, mid), "d": (far, far),
             "e": (near, far), "f": (near, mid), "g": (far, mid)}
    for name in PIPS[face]:
        px, py = spots[name]
        drawing.ellipse((px, py, px + d - 1, py + d - 1), fill=pip)
    return img
