"""GoDice (Particula): a die's notification bytes into readings, and the box's commands to it.

Written from Particula's published API documents and their message tables (no code of theirs):
- github.com/ParticulaCode/GoDiceJavaScriptAPI, README.md and godice.js: the Nordic UART
  service and its two characteristics, the advertised name "GoDice_…", the events "R" (a roll
  began), "S"+x,y,z (stable after a legit roll), "TS" (stable but not flat), "FS" (stable after
  a fake roll), "MS" (stable after a small move), "Bat"+level, "Col"+colour (0 black, 1 red,
  2 green, 3 blue, 4 yellow, 5 orange), the D6 shell's face vectors, and the commands 3 (ask
  the battery), 23 (ask the colour), 8 (both LEDs' colours) and 16 (pulse the LEDs);
- github.com/ParticulaCode/GoDiceAndroid_iOS_API, common/godiceapi.h and .c: each event's exact
  length, "Char"+0/1 (charging stopped, started), "Tap" and "DTap", and the pulse command's
  last two bytes (blink mode 0 one by one / 1 together; LEDs 0 both / 1 / 2).

Every message is one whole notification; its first ASCII letters name it. The axis bytes are
signed (-128..127). The PyPI package `godice` is not used: docs/architecture.md, "Smart dice
protocols", says why."""
from __future__ import annotations

from collections.abc import Sequence

from cobi_companion.device.ports.die_readings import (
    GODICE,
    Battery,
    Colour,
    NotARoll,
    Reading,
    Rolling,
    Settled,
)

KIND = GODICE
SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"      # Nordic UART service
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"       # the die's messages ("TX")
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"        # the box's commands ("RX")

NAME_PREFIX = "GoDice_"

# The dots' colours, by the number the die answers "Col" with.
COLOURS: tuple[str, ...] = ("black", "red", "green", "blue", "yellow", "orange")

# Where gravity points, in the die's own axes, for each face of the D6 shell up: the vectors
# of Particula's API documents (godice.js `d6Vectors`, godiceapi.c `D6Values`, the same in
# both). A stable message's x, y, z is read as the face whose vector is nearest. The box
# uses D6 shells only.
D6_VECTORS: dict[int, tuple[int, int, int]] = {
    1: (-64, 0, 0),
    2: (0, 0, 64),
    3: (0, 64, 0),
    4: (0, -64, 0),
    5: (0, 0, -64),
    6: (64, 0, 0),
}

# The commands (the first byte of what the box writes).
ASK_BATTERY = 0x03
ASK_COLOUR = 0x17
SET_LEDS = 0x08          # + LED 1's R, G, B + LED 2's R, G, B; all zeros: off
PULSE_LEDS = 0x10        # + count, on and off (10 ms units), R, G, B, blink mode, LEDs

# How a stable message that is no roll is told, and why it is none. "FS" follows what the
# documents call a fake roll (the die was not thrown: set down or shaken in the hand), so the
# box calls it handled; "MS" follows a small move from one face to another.
NOT_A_ROLL = {b"TS": "tilted", b"FS": "handled", b"MS": "moved"}


def face_of(x: int, y: int, z: int) -> int:
    """The D6 face up for an accelerometer vector: the nearest of `D6_VECTORS`."""
    return min(D6_VECTORS, key=lambda face: sum(
        (a - b) ** 2 for a, b in zip((x, y, z), D6_VECTORS[face], strict=True)))


def _signed(byte: int) -> int:
    return byte - 256 if byte > 127 else byte


def _face(axes: bytes) -> int:
    x, y, z = (_signed(b) for b in axes)
    return face_of(x, y, z)


class Decoder:
    """One connected GoDice. It keeps the last battery level, so that a charging message (which
    says only on or off) can be told as a whole `Battery`."""

    def __init__(self) -> None:
        self._percent: int | None = None
        self._charging = False

    def feed(self, data: bytes) -> list[Reading]:
        """The reading one notification makes: none for garbage, a truncated message, an
        unknown one or a tap (the box has no use for taps)."""
        data = bytes(data)
        if data[:1] == b"R":
            return [Rolling()]
        if data[:1] == b"S" and len(data) == 4:
            return [Settled(_face(data[1:]))]
        if data[:2] in NOT_A_ROLL and len(data) == 5:
            return [NotARoll(NOT_A_ROLL[data[:2]], _face(data[2:]))]
        if data[:3] == b"Bat" and len(data) == 4 and data[3] <= 100:
            self._percent = data[3]
            return [Battery(data[3], self._charging)]
        if data[:4] == b"Char" and len(data) == 5 and data[4] in (0, 1):
            self._charging = data[4] == 1
            return [] if self._percent is None else [Battery(self._percent, self._charging)]
        if data[:3] == b"Col" and len(data) == 4 and data[3] < len(COLOURS):
            return [Colour(COLOURS[data[3]])]
        return []


def advertises(name: str | None, service_uuids: Sequence[str]) -> bool:
    """A GoDice is known by its name: "GoDice_" and its id (the documents' scan filter). Its
    service is the Nordic UART service, which other devices (older Pixels among them) offer
    too, so the UUID alone says nothing."""
    return bool(name) and str(name).startswith(NAME_PREFIX)


def decoder() -> Decoder:
    return Decoder()


def hello() -> list[bytes]:
    """Ask its colour and its battery. The documents' APIs (JavaScript, Python) read a die
    without any set-up message; Particula's app also sends an initialisation (0x19:
    sensitivity and a blink of the LEDs), which the box leaves out: a die waking up again in
    the middle of a battle would blink where the players see only their side's light."""
    return [bytes([ASK_COLOUR]), bytes([ASK_BATTERY])]


def ask_battery() -> bytes:
    return bytes([ASK_BATTERY])


def _byte(value: int) -> int:
    return max(0, min(255, int(value)))


def light(colour: tuple[int, int, int] | None) -> bytes | None:
    """Both LEDs in `colour`, steady; None: both off (all zeros, as the documents say)."""
    rgb = [_byte(v) for v in colour] if colour is not None else [0, 0, 0]
    return bytes([SET_LEDS, *rgb, *rgb])


# The flash that shows the players which die it is: both LEDs together, white, three times
# a quarter of a second on and off.
FLASH_COUNT, FLASH_ON, FLASH_OFF = 3, 25, 25
WHITE = (255, 255, 255)


def flash() -> bytes:
    return bytes([PULSE_LEDS, FLASH_COUNT, FLASH_ON, FLASH_OFF, *WHITE, 1, 0])
