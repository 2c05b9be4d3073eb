"""Frames to an SSD1306 or SH1106 panel in its own format: packed by Pillow, and only what
changed since the last frame is sent.

The panel's RAM is 8 pages of 8 rows: page p, column x is one byte whose bit y (least
significant first) is pixel (x, 8p + y). luma's drivers build those bytes pixel by pixel in
Python and send all 1024 of them for every frame; a press changes only some rows (a median of 5
of the 8 pages in the scripted battles) and a part of their width, and the panel keeps what it
was sent. So only the columns from the first to the last that changed in each changed page are
sent, addressed with the same commands luma's own `display()` uses, through the device's own
`command` and `data`: the serial interface under it (and its retry) sees what it always saw,
only less of it. A whole frame goes exactly as luma would send it.

Imported only for a real panel: it loads luma.oled's drivers, which the simulator never needs.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image

Send = Callable[[Image.Image], None]


def pack(image: Image.Image) -> list[bytes]:
    """The pages of a mode "1" image, each as many bytes as the image is wide."""
    count = image.height // 8
    # Turned a quarter clockwise, row x of the image is column x read from the bottom up, and
    # tobytes packs it eight pixels to a byte, the first one highest: byte j of the row is
    # page count - 1 - j, with bit y its pixel y. Every count-th byte is one page.
    columns = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [columns[count - 1 - page::count] for page in range(count)]


def span(new: bytes, old: bytes) -> tuple[int, int] | None:
    """The first and last column where two pages differ, or None where they do not."""
    diff = int.from_bytes(new, "big") ^ int.from_bytes(old, "big")
    if not diff:
        return None
    # Read as one big-endian number, the highest bit set is in the first byte that differs and
    # the lowest in the last: two C-speed operations instead of a Python loop over 128 bytes.
    highest, lowest = diff.bit_length() - 1, (diff & -diff).bit_length() - 1
    return len(new) - 1 - highest // 8, len(new) - 1 - lowest // 8


Window = tuple[int, int, int, int]      # pages first..last, columns first..last


def runs(spans: dict[int, tuple[int, int]]) -> list[Window]:
    """Changed pages (with their columns) as windows over each run of consecutive pages,
    wide enough for every page in it."""
    windows: list[Window] = []
    for page in sorted(spans):
        left, right = spans[page]
        if windows and windows[-1][1] == page - 1:
            first, _, start, end = windows.pop()
            windows.append((first, page, min(start, left), max(end, right)))
        else:
            windows.append((page, page, left, right))
    return windows


class PageSender:
    """Sends frames to one luma ssd1306 or sh1106: only the columns that differ from the last
    frame sent, page by page; the first frame, and the one after a failed send, go whole.

    A new device (the panel set up again after a fault) gets a new sender: what the panel
    holds after a fault or a reset is not known, so nothing is taken for granted.
    """

    def __init__(self, device: Any) -> None:
        self.device = device
        # The SSD1306 fills a window of pages and columns in one go (horizontal addressing,
        # as luma sets it up): consecutive pages go together, fewer and larger transfers. The
        # SH1106 only knows one page at a time.
        self.joins = isinstance(device, ssd1306)
        self.sent: list[bytes] | None = None

    def __call__(self, image: Image.Image) -> None:
        if image.size != self.device.size or image.mode != "1":    # as luma's own checks
            raise ValueError(f"a {image.mode} image of {image.size} for a panel of "
                             f"{self.device.size}")
        pages = pack(self.device.preprocess(image))
        last, self.sent = self.sent, None       # unknown until every page is through
        if last is None:
            spans = {page: (0, len(data) - 1) for page, data in enumerate(pages)}
        else:
            # most pages of a press's frame are as they were: bytes compare them at C speed
            spans = {page: cols for page, (new, old) in enumerate(zip(pages, last, strict=True))
                     if new != old and (cols := span(new, old)) is not None}
        windows = runs(spans) if self.joins else [(p, p, *cols) for p, cols in spans.items()]
        for first, end, left, right in windows:
            self.device.command(*self.address(first, end, left, right))
            self.device.data(b"".join(page[left:right + 1] for page in pages[first:end + 1]))
        self.sent = pages

    def address(self, first: int, last: int, left: int, right: int) -> tuple[int, ...]:
        """The command that points the panel's RAM at pages first..last, columns
        left..right, with the device's own settings (luma's private attributes: the
        byte-for-byte test against its display() says when a new luma changes them)."""
        device = self.device
        if self.joins:
            const, start = device._const, device._colstart
            return const.COLUMNADDR, start + left, start + right, const.PAGEADDR, first, last
        column = device._page_address_offset + left   # the SH1106's 132 columns: ours from 2
        return 0xB0 + first, column & 0x0F, 0x10 | column >> 4


def sender(device: Any) -> Send | None:
    """A PageSender for luma's ssd1306 or sh1106; None for any other device."""
    return PageSender(device) if isinstance(device, ssd1306 | sh1106) else None
