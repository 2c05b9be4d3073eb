"""Frames to an SSD1306 or SH1106 panel in its own format: packed by Pillow, and only the pages
that changed since the last frame are sent.

The panel's RAM is 8 pages of 8 rows: page p, column x is one byte whose bit y (least
significant first) is pixel (x, 8p + y). luma's drivers build those bytes pixel by pixel in
Python and send all 1024 of them for every frame; a press changes only some rows (a median of 6
of the 8 pages), and the panel keeps what it was sent. The addressing commands are the ones
luma's own `display()` sends, through the device's own `command` and `data`, so the serial
interface under it (and its retry) sees what it always saw, only less of it.

Imported only for a real panel: it loads luma.oled's drivers, which the simulator never needs.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
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


def runs(pages: list[int]) -> Iterator[tuple[int, int]]:
    """Sorted page numbers as (first, last) of each run of consecutive ones."""
    start = None
    for index, page in enumerate(pages):
        if start is None:
            start = page
        if index + 1 == len(pages) or pages[index + 1] != page + 1:
            yield start, page
            start = None


class PageSender:
    """Sends frames to one luma ssd1306 or sh1106, only the pages that differ from the last
    frame sent; the first frame, and the one after a failed send, go whole.

    A new device (the panel set up again after a fault) gets a new sender: what the panel
    holds after a fault or a reset is not known, so nothing is taken for granted.
    """

    def __init__(self, device: Any) -> None:
        self.device = device
        # The SSD1306 writes a window of pages in one go (horizontal addressing, as luma sets
        # it up); the SH1106 only knows one page at a time.
        self.joins = isinstance(device, ssd1306)
        self.sent: list[bytes] | None = None

    def __call__(self, image: Image.Image) -> None:
        pages = pack(self.device.preprocess(image))
        last, self.sent = self.sent, None       # unknown until every page is through
        changed = [page for page, data in enumerate(pages) if last is None or data != last[page]]
        spans = runs(changed) if self.joins else ((page, page) for page in changed)
        for first, end in spans:
            self.device.command(*self.address(first, end))
            self.device.data(b"".join(pages[first:end + 1]))
        self.sent = pages

    def address(self, first: int, last: int) -> tuple[int, ...]:
        """The command that points the panel's RAM at pages first..last, column 0; the
        device's own settings (luma's private attributes: the byte-for-byte test against its
        display() says when a new luma changes them)."""
        device = self.device
        if self.joins:
            const = device._const
            return (const.COLUMNADDR, device._colstart, device._colend - 1,
                    const.PAGEADDR, first, last)
        offset = device._page_address_offset       # the SH1106's 132 columns: 128 from 2
        return 0xB0 + first, offset & 0x0F, 0x10 | offset >> 4


def sender(device: Any) -> Send | None:
    """A PageSender for luma's ssd1306 or sh1106; None for any other device."""
    return PageSender(device) if isinstance(device, ssd1306 | sh1106) else None
