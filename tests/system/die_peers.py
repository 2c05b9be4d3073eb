"""The die's side of GoDice and Pixels, for virtual dice: what each sends (a throw ending on a
face, a tilt, a move, its battery and colour) and how it answers what the box writes.

Python's standard library only: it runs inside the system test's Debian guest beside the
Bluetooth stack that plays the peripheral, without the companion's package. So it is written
again from the makers' documents, not from the box's decoders (device/ports/godice.py,
pixels.py): tests/device/ports/test_die_peers.py feeds these bytes through those decoders, and
the two sides must agree.

GoDice: github.com/ParticulaCode/GoDiceJavaScriptAPI (README.md, godice.js) and
ParticulaCode/GoDiceAndroid_iOS_API (common/godiceapi.c). Pixels: github.com/GameWithPixels/
.github doc/CommunicationsProtocol.md and GameWithPixels/DiceFirmware
src/bluetooth/bluetooth_messages.h (messages), bluetooth_message_service.h (UUIDs),
bluetooth_custom_advertising_data.cpp (manufacturer data)."""
from __future__ import annotations

import struct
from typing import ClassVar

RGB = tuple[int, int, int]


class GoDicePeer:
    """A GoDice D6 as it speaks over the Nordic UART service."""

    KIND = "godice"
    SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
    WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
    COLOURS = ("black", "red", "green", "blue", "yellow", "orange")

    # Gravity in the die's axes with each face up, as a real die measures it: near the
    # documents' vectors (±64 on one axis), not on them.
    MEASURED: ClassVar[dict[int, tuple[int, int, int]]] = {
        1: (-61, 3, -2), 2: (2, -3, 62), 3: (-4, 60, 3),
        4: (3, -62, -1), 5: (-2, 4, -63), 6: (62, -1, 2)}
    BETWEEN = (38, 36, 12)          # resting on an edge, against a model: no face is near

    def __init__(self, name: str, colour: str, battery: int = 90) -> None:
        if colour not in self.COLOURS:
            raise ValueError(f"no GoDice is {colour}")
        self.name = name                  # the real dice say "GoDice_" + their id + "_…"
        self.colour = colour
        self.battery = battery
        self.lit: RGB | None = None
        self.flashes = 0

    def advertised_services(self) -> list[str]:
        return [self.SERVICE]

    def manufacturer_data(self) -> dict[int, bytes]:
        return {}

    @staticmethod
    def _axes(vector: tuple[int, int, int]) -> bytes:
        return struct.pack("bbb", *vector)

    def throw(self, face: int) -> list[bytes]:
        """A roll begins ("R"), then the die is stable after a legit roll ("S" + x, y, z)."""
        return [b"R", b"S" + self._axes(self.MEASURED[face])]

    def tilt(self) -> list[bytes]:
        """A throw that ends stable but not flat ("TS")."""
        return [b"R", b"TS" + self._axes(self.BETWEEN)]

    def move(self) -> list[bytes]:
        """Turned by hand onto another face: stable after a small move ("MS")."""
        return [b"MS" + self._axes(self.MEASURED[4])]

    def answer(self, command: bytes) -> list[bytes]:
        if command == b"\x03":                           # battery level
            return [b"Bat" + bytes([self.battery])]
        if command == b"\x17":                           # dots' colour
            return [b"Col" + bytes([self.COLOURS.index(self.colour)])]
        if command[:1] == b"\x08" and len(command) == 7:  # both LEDs' colours
            first = (command[1], command[2], command[3])
            self.lit = None if not any(command[1:]) else first
        elif command[:1] == b"\x10" and len(command) == 9:  # pulse the LEDs
            self.flashes += 1
        return []


class PixelPeer:
    """A Pixels D6 (today's firmware) as it speaks over the Pixels service."""

    KIND = "pixels"
    SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
    NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
    WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
    INFORMATION = "0000180a-0000-1000-8000-00805f9b34fb"     # advertised beside it
    COMPANY = 0x0D39                                           # Systemic Games
    COLOURS = ("onyx_black", "hematite_grey", "midnight_galaxy", "aurora_sky", "clear",
               "white_aurora")
    D6, LEDS, PIXEL_ID = 2, 6, 0x1A2B3C4D
    BUILT = 1_735_689_600            # its firmware's build time: 2025-01-01, a firmware of today

    # Message types and roll states (bluetooth_messages.h, accelerometer.h).
    WHO_ARE_YOU, I_AM_A_DIE, ROLL_STATE = 1, 2, 3
    BLINK, BLINK_ACK, REQUEST_BATTERY, BATTERY_LEVEL, STOP_ALL = 29, 30, 33, 34, 59
    ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = 1, 2, 3, 4, 5

    def __init__(self, name: str, colour: str, battery: int = 90) -> None:
        if colour not in self.COLOURS:
            raise ValueError(f"no Pixel is {colour}")
        self.name = name                  # its owner's name for it, up to 13 letters
        self.colour = colour
        self.battery = battery
        self.lit: RGB | None = None
        self.flashes = 0
        self.face_index = 0               # face up, 0-based, as the die counts

    def advertised_services(self) -> list[str]:
        return [self.INFORMATION, self.SERVICE]

    def _colourway(self) -> int:
        return self.COLOURS.index(self.colour) + 1

    def manufacturer_data(self) -> dict[int, bytes]:
        """LED count, die type << 4 | colourway, roll state, face, battery (+128 charging)."""
        return {self.COMPANY: bytes([self.LEDS, self.D6 << 4 | self._colourway(),
                                     self.ON_FACE, self.face_index, self.battery & 0x7F])}

    def _state(self, state: int, index: int) -> bytes:
        self.face_index = index
        return bytes([self.ROLL_STATE, state, index])

    def throw(self, face: int) -> list[bytes]:
        """Picked up, tumbling over two faces, then rolled onto `face`."""
        if not 1 <= face <= 6:
            raise ValueError(f"a D6 has no face {face}")
        start = self.face_index
        return [self._state(self.HANDLING, start), self._state(self.ROLLING, (start + 2) % 6),
                self._state(self.ROLLING, (start + 3) % 6), self._state(self.ROLLED, face - 1)]

    def tilt(self) -> list[bytes]:
        """A throw that ends crooked (not on a face)."""
        start = self.face_index
        return [self._state(self.HANDLING, start), self._state(self.ROLLING, (start + 1) % 6),
                self._state(self.CROOKED, (start + 4) % 6)]

    def move(self) -> list[bytes]:
        """Picked up and put down on another face without a throw."""
        start = self.face_index
        return [self._state(self.HANDLING, start), self._state(self.ON_FACE, (start + 1) % 6)]

    def i_am_a_die(self) -> bytes:
        """IAmADie in chunks, each led by its size (the size byte counted)."""
        version = struct.pack("<BHIHHHH", 15, 0x0100, self.BUILT, 0x100, 0x100, 0x100, 0x100)
        info = struct.pack("<BIBBBBB", 10, self.PIXEL_ID, 1, self.D6, self.LEDS,
                           self._colourway(), 0)
        design = bytes([32]) + bytes(31)
        name = bytes([32]) + self.name.encode()[:31].ljust(31, b"\0")
        settings = struct.pack("<BIII", 13, 0x57477A0B, 4096, 8192)
        status = bytes([5, self.battery, 0, self.ON_FACE, self.face_index])
        return bytes([self.I_AM_A_DIE]) + version + info + design + name + settings + status

    def answer(self, command: bytes) -> list[bytes]:
        kind = command[0] if command else None
        if kind == self.WHO_ARE_YOU:
            return [self.i_am_a_die()]
        if kind == self.REQUEST_BATTERY:
            return [bytes([self.BATTERY_LEVEL, self.battery, 0])]
        if kind == self.BLINK and len(command) == 14:
            self._blink(command)
            return [bytes([self.BLINK_ACK])]
        if kind == self.STOP_ALL:
            self.lit = None
        return []

    def _blink(self, command: bytes) -> None:
        """A Blink played many times is the box's light; played once, a flash."""
        (argb,) = struct.unpack_from("<I", command, 4)      # after type, count, duration
        loops = command[-1]
        rgb = ((argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF)
        if loops > 1:
            self.lit = rgb if any(rgb) else None
        else:
            self.flashes += 1


PEERS: dict[str, type[GoDicePeer | PixelPeer]] = {"godice": GoDicePeer, "pixels": PixelPeer}
