"""The OLED in a terminal: two pixel rows per text line, drawn with half-block characters."""
from __future__ import annotations

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
