"""Frames packed by Pillow and sent page by page (ports/pages.py), against luma's own ssd1306
and sh1106 drivers: the same bytes as luma's `display()`, and only the pages that changed, on a
recording bus that keeps a model of the panel's RAM."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from cobi_companion.device.ports.display import FIRST_DELAY_S
from cobi_companion.device.ports.pages import PageSender, pack, runs, span
from luma.oled.device import sh1106, ssd1306
from panel_bus import Bus, Clock, noise, oled
from PIL import Image, ImageDraw

# luma's drivers read pixels with Image.getdata, which Pillow 12 deprecates: not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

DRIVERS = {"ssd1306": ssd1306, "sh1106": sh1106}


class Recorder:
    """A luma serial interface that keeps every transfer, data as bytes."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def command(self, *cmd: int) -> None:
        self.sent.append(("command", cmd))

    def data(self, data: Sequence[int]) -> None:
        self.sent.append(("data", bytes(data)))

    def cleanup(self) -> None:
        pass


def images(rng: random.Random, size: tuple[int, int], count: int) -> list[Image.Image]:
    """Blank, full, the four corners lit, then random frames from sparse to dense."""
    width, height = size
    made = [Image.new("1", size, 0), Image.new("1", size, 1)]
    corners = Image.new("1", size, 0)
    for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        corners.putpixel((x, y), 1)
    made.append(corners)
    length = width * height // 8
    while len(made) < count:
        bits = rng.randbytes(length)
        for _ in range(rng.randrange(4)):          # a pixel lit with 1/2, 1/4, 1/8 or 1/16
            bits = bytes(a & b for a, b in zip(bits, rng.randbytes(length), strict=True))
        if rng.random() < 0.5:
            bits = bytes(255 - b for b in bits)    # or as often dark
        made.append(Image.frombytes("1", size, bits))
    return made


@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_whole_frame_is_lumas_own_transfers_byte_for_byte(driver, rotate):
    """The first frame of a sender sends exactly the commands and bytes that luma's display()
    sends for the same image, on the same device: Pillow's packing is luma's."""
    rng = random.Random(f"{driver}-{rotate}")
    luma_bus, our_bus = Recorder(), Recorder()
    cls = DRIVERS[driver]
    theirs = cls(luma_bus, width=128, height=64, rotate=rotate)
    ours = cls(our_bus, width=128, height=64, rotate=rotate)
    for image in images(rng, theirs.size, 150):
        luma_bus.sent.clear()
        our_bus.sent.clear()
        theirs.display(image)
        PageSender(ours)(image)
        assert our_bus.sent == luma_bus.sent
        data = b"".join(bytes(sent) for kind, sent in luma_bus.sent if kind == "data")
        assert b"".join(pack(theirs.preprocess(image))) == data and len(data) == 1024


def data_sent(bus: Bus, since: int = 0) -> list[int]:
    """The sizes of the data writes after the first `since` transfers."""
    return [len(t.data) for t in bus.log[since:] if t.kind == "data"]


def whole(driver: str) -> list[int]:
    """A whole frame's data writes: one window of 8 pages, or 8 pages one by one."""
    return [1024] if driver == "ssd1306" else [128] * 8


LEFT, RIGHT = 10, 40        # the columns with_rows turns over


def with_rows(image: Image.Image, *rows: int) -> Image.Image:
    """`image` with pixels LEFT..RIGHT of each of `rows` turned over (lit where dark)."""
    changed = image.copy()
    for row in rows:
        for x in range(LEFT, RIGHT + 1):
            changed.putpixel((x, row), 0 if changed.getpixel((x, row)) else 1)
    return changed


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_only_the_pages_that_changed_cross_the_bus(driver):
    bus, clock = Bus(), Clock()
    display, _ = oled(driver, bus, clock)
    first = noise(random.Random(1))
    display.show(first)               # luma's set-up clears the panel, then the first frame
    assert data_sent(bus) == whole(driver) * 2 and bus.shows(first, driver)
    since = len(bus.log)
    two = with_rows(first, 25, 43)                        # pages 3 and 5, columns 10..40
    display.show(two)
    width = RIGHT - LEFT + 1
    assert bus.shows(two, driver) and data_sent(bus, since) == [width, width]
    windows = [t.data for t in bus.log[since:] if t.kind == "command"]
    assert windows == ([(0x21, LEFT, RIGHT, 0x22, 3, 3), (0x21, LEFT, RIGHT, 0x22, 5, 5)]
                       if driver == "ssd1306" else   # column 2 + 10: low nibble 12, high 0
                       [(0xB3, 0x0C, 0x10), (0xB5, 0x0C, 0x10)])
    since = len(bus.log)
    three = with_rows(two, 16, 31, 39)                    # pages 2, 3 and 4
    display.show(three)
    assert bus.shows(three, driver)                       # one window of 3 pages, or 3 pages
    assert data_sent(bus, since) == ([3 * width] if driver == "ssd1306" else [width] * 3)
    since = len(bus.log)
    display.show(three.copy())                            # the same pixels: nothing at all
    display.show(Image.frombytes("1", (128, 64), three.tobytes()))
    assert bus.log[since:] == [] and bus.shows(three, driver)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_after_a_fault_the_next_frame_goes_whole(driver):
    bus, clock = Bus(), Clock()
    display, opener = oled(driver, bus, clock)
    rng = random.Random(2)
    one = noise(rng)
    display.show(one)
    # A lone NAK is sent again at once: the panel holds the frame, the next goes in part.
    bus.nak_at = {bus.count + 1}
    two = with_rows(one, 60)
    display.show(two)
    assert display.healthy and display.errors == 0 and bus.shows(two, driver)
    since = len(bus.log)
    three = with_rows(two, 20)
    display.show(three)
    assert data_sent(bus, since) == [RIGHT - LEFT + 1] and bus.shows(three, driver)
    # Two in a row: the panel is lost and set up again; what it holds is not known.
    bus.nak_at = {bus.count + 1, bus.count + 2}
    display.show(with_rows(three, 20, 50))
    assert not display.healthy
    since = len(bus.log)
    clock.now = FIRST_DELAY_S
    four = with_rows(three, 50)                           # one page from the last frame sent
    display.show(four)
    assert display.healthy and opener.opened == 2 and bus.shows(four, driver)
    assert data_sent(bus, since) == whole(driver) * 2     # luma's blank frame, then ours
    since = len(bus.log)
    five = with_rows(four, 0)
    display.show(five)
    assert data_sent(bus, since) == [RIGHT - LEFT + 1] and bus.shows(five, driver)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_random_edits_keep_the_panel_equal_to_each_frame(driver):
    """Boxes, lines and text drawn and wiped at random, 300 frames: after each, the panel's
    RAM (the bus's model, addressed only by the commands sent) holds exactly the frame, and
    no frame sends more than a whole one."""
    rng = random.Random(driver)
    bus, clock = Bus(), Clock()
    display, _ = oled(driver, bus, clock)
    image = Image.new("1", (128, 64))
    display.show(image)
    for _ in range(300):
        image = image.copy()
        draw = ImageDraw.Draw(image)
        x, y = rng.randrange(128), rng.randrange(64)
        box = (x, y, min(127, x + rng.randrange(40)), min(63, y + rng.randrange(20)))
        kind = rng.randrange(3)
        if kind == 0:
            draw.rectangle(box, fill=rng.randrange(2))
        elif kind == 1:
            draw.line(box, fill=rng.randrange(2), width=rng.randrange(1, 4))
        else:
            draw.text(box[:2], rng.choice(["HIT", "MISS", "= 12", "Tiger 1"]), fill=1)
        since = len(bus.log)
        display.show(image)
        assert bus.shows(image, driver)
        assert sum(data_sent(bus, since)) <= 1024
    assert display.healthy and display.errors == 0


def test_span_is_the_first_and_last_column_that_differ():
    rng = random.Random(3)
    page = rng.randbytes(128)
    assert span(page, page) is None
    for _ in range(500):
        other = bytearray(page)
        for column in rng.sample(range(128), rng.randrange(1, 4)):
            other[column] ^= 1 << rng.randrange(8)
        differ = [i for i in range(128) if other[i] != page[i]]
        assert span(bytes(other), page) == (differ[0], differ[-1])


@pytest.mark.parametrize(("spans", "windows"), [
    ({}, []), ({3: (5, 9)}, [(3, 3, 5, 9)]),
    ({p: (0, 127) for p in range(8)}, [(0, 7, 0, 127)]),
    ({0: (4, 4), 2: (1, 2), 3: (7, 9), 7: (0, 0)}, [(0, 0, 4, 4), (2, 3, 1, 9), (7, 7, 0, 0)]),
])
def test_runs_of_pages_share_one_window(spans, windows):
    assert runs(spans) == windows


@pytest.mark.parametrize("image", [Image.new("1", (64, 128)), Image.new("L", (128, 64))])
def test_an_image_the_panel_cannot_take_is_refused_not_sent(image):
    bus = Recorder()
    sender = PageSender(ssd1306(bus, width=128, height=64))
    bus.sent.clear()
    with pytest.raises(ValueError, match="panel of"):
        sender(image)
    assert bus.sent == []
