"""The OLED in a terminal: two pixel rows per text line, drawn with half-block characters."""
from __future__ import annotations

import sys

from cobi_companion.device.ports.display import MemoryDisplay
from PIL import Image

# (upper pixel lit, lower pixel lit) -> character
BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def to_halfblocks(image: Image.Image) -> str:
    """A one-bit image as text: a 128×64 frame gives 32 lines of 128 characters.

    Any other mode is thresholded at half brightness; an odd last row gets an unlit partner.
    """
    mono = image if image.mode == "1" else image.convert("L").point(lambda v: 255 if v >= 128
                                                                    else 0)
    width, height = mono.size
    pixels = mono.load()
    assert pixels is not None

    def lit(x: int, y: int) -> bool:
        return y < height and bool(pixels[x, y])

    return "\n".join(
        "".join(BLOCKS[lit(x, y), lit(x, y + 1)] for x in range(width))
        for y in range(0, height, 2)
    )


HELP = "←/→ knob · Enter OK · Backspace back · a/l dice buttons (A/L hold) · q quit"


class TerminalDisplay(MemoryDisplay):
    """The OLED drawn in the terminal, redrawn in place at every frame."""

    def show(self, image: Image.Image) -> None:
        super().show(image)
        if self.image is not None:
            sys.stdout.write("\x1b[H\x1b[2J" + to_halfblocks(self.image) + "\n" + HELP + "\n")
            sys.stdout.flush()
