"""A recording I2C bus for luma's real ssd1306 and sh1106 drivers, with a model of the panel's
RAM, and the OLED port built over it: shared by the display tests."""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cobi_companion.device.ports.display import OledDisplay, luma_factory
from PIL import Image

DISPLAY_OFF, DISPLAY_ON = 0xAE, 0xAF
COLUMN_0 = {"ssd1306": 0, "sh1106": 2}      # luma's sh1106 writes columns 2..129 of 132


@dataclass
class Transfer:
    kind: str                   # "command" or "data"
    data: tuple[int, ...]
    ok: bool                    # False: NAKed (a data write may have been taken in part)
    lit: bool                   # the panel was switched on when it came


class Bus:
    """A luma serial interface (command/data/cleanup) standing for the I2C bus and the panel.

    Transfers are counted from 1; those in `nak_at`, and each with probability `rate` (a
    seeded RNG), fail with OSError 121 as luma's i2c lets a NAK through. A NAKed data write
    has been taken in part by the panel (a random number of its first bytes, maybe none),
    as when the NAK comes mid-message. The panel's RAM follows the addressing commands that
    luma's two drivers send: ssd1306's column/page window (0x21 a b 0x22 c d, horizontal
    mode), sh1106's page and column (0xB0+page, low column, 0x10+high column)."""

    def __init__(self, rate: float = 0.0, seed: int = 0, nak_at: Iterable[int] = ()) -> None:
        self.rng = random.Random(seed)
        self.rate, self.nak_at = rate, set(nak_at)
        self.count = 0
        self.log: list[Transfer] = []
        self.ram = [bytearray(132) for _ in range(8)]
        self.page = self.column = 0
        self.window: tuple[int, int, int, int] | None = (0, 127, 0, 7)
        self.lit = False
        self.cleanups = 0

    def _nak(self) -> bool:
        self.count += 1
        return self.count in self.nak_at or (self.rate > 0 and self.rng.random() < self.rate)

    def command(self, *cmd: int) -> None:
        if self._nak():
            self.log.append(Transfer("command", cmd, False, self.lit))
            raise OSError(121, "Remote I/O error")
        if cmd == (DISPLAY_ON,):
            self.lit = True
        elif cmd[0] == DISPLAY_OFF:          # hide(), and the first byte of luma's set-up
            self.lit = False
        if len(cmd) == 6 and cmd[0] == 0x21 and cmd[3] == 0x22:
            self.window = (cmd[1], cmd[2], cmd[4], cmd[5])
            self.column, self.page = cmd[1], cmd[4]
        elif len(cmd) == 3 and 0xB0 <= cmd[0] <= 0xB7 and cmd[1] < 0x10 and cmd[2] >> 4 == 1:
            self.page, self.column = cmd[0] & 7, (cmd[2] & 0x0F) << 4 | cmd[1]
            self.window = None
        self.log.append(Transfer("command", cmd, True, self.lit))

    def data(self, data: Sequence[int]) -> None:
        data = tuple(data)
        ok = not self._nak()
        taken = data if ok else data[:self.rng.randrange(len(data) + 1)]
        self._store(taken)
        self.log.append(Transfer("data", data, ok, self.lit))
        if not ok:
            raise OSError(121, "Remote I/O error")

    def _store(self, taken: tuple[int, ...]) -> None:
        """The bytes into the RAM byte by byte as the panel takes them, one run of columns
        at a time: each run ends where the window wraps to its next page (ssd1306); sh1106
        has no window, and bytes past the last column (132) are dropped."""
        start = 0
        while start < len(taken):
            run = len(taken) - start
            if self.window is not None:      # up to the window's last column (at least 1)
                run = min(run, max(1, self.window[1] - self.column + 1))
            kept = max(0, min(run, 132 - self.column))
            self.ram[self.page][self.column:self.column + kept] = bytes(
                taken[start:start + kept])
            self.column += run
            start += run
            if self.window is not None and self.column > self.window[1]:
                left, _, top, bottom = self.window
                self.column, self.page = left, (self.page + 1 if self.page < bottom else top)

    def cleanup(self) -> None:
        self.cleanups += 1

    def shows(self, image: Image.Image, driver: str) -> bool:
        """The panel's RAM holds exactly `image`."""
        first = COLUMN_0[driver]
        return [bytes(row[first:first + 128]) for row in self.ram] == pages(image)

    def commands(self) -> list[tuple[int, ...]]:
        return [t.data for t in self.log if t.kind == "command" and t.ok]


def pages(image: Image.Image) -> list[bytes]:
    """What an SSD1306/SH1106 holds for a 128x64 image, worked out without luma: page p,
    column x is one byte whose bit y (least significant first) is pixel (x, 8p + y)."""
    # Transposed and mirrored, row x of the image reads pixels (x, 63) .. (x, 0), packed
    # eight to a byte with the first one highest: byte j is page 7 - j.
    columns = image.transpose(Image.Transpose.TRANSPOSE).transpose(
        Image.Transpose.FLIP_LEFT_RIGHT).tobytes()
    # page p is byte 7 - p of every row: every eighth byte from 7 - p
    return [columns[7 - page::8] for page in range(8)]


def noise(rng: random.Random) -> Image.Image:
    return Image.frombytes("1", (128, 64), rng.randbytes(1024))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Opener:
    """luma_factory's `bus`: hands out the one Bus (the same wire, opened again) and counts
    how often the panel was set up."""

    def __init__(self, bus: Bus) -> None:
        self.bus, self.opened = bus, 0

    def __call__(self) -> Bus:
        self.opened += 1
        return self.bus


def oled(driver: str, bus: Bus, clock: Clock, **kwargs: Any) -> tuple[OledDisplay, Opener]:
    opener = Opener(bus)
    display = OledDisplay(driver, make_device=luma_factory(driver, 1, 0x3C, 0, bus=opener),
                          clock=clock, **kwargs)
    return display, opener
