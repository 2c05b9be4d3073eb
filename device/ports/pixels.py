"""Pixels dice (Systemic Games): their messages into readings, and the box's commands to them.

Written from the makers' open documents (no code of theirs):
- github.com/GameWithPixels/.github, doc/CommunicationsProtocol.md ("Pixels Communications
  Protocol"): one message per notification, its first byte the message type, fields little
  endian; WhoAreYou (1), IAmADie (2), RollState (3), Blink (29), BatteryLevel (34); the
  advertisement's manufacturer data;
- github.com/GameWithPixels/DiceFirmware, src/bluetooth/bluetooth_messages.h (where that
  document sends the reader for the complete list) with src/modules/accelerometer.h (the roll
  states), src/modules/battery_controller.h (the battery states), src/config/dice_variants.h
  (die types, colourways), src/bluetooth/bluetooth_message_service.h (the service's UUIDs);
- github.com/GameWithPixels/pixels-js, packages/pixels-core-connect: PixelsBluetoothIds.ts and
  DieMessages.ts (IAmADie in chunks, and the old 22-byte IAmADie, told apart by that size);
  DiceUtils.ts and Pixel.ts for two faults of older firmware (below).

Where they differ, the firmware is taken as the truth, and a comment says so."""
from __future__ import annotations

from collections.abc import Sequence

from cobi_companion.device.ports.die_readings import (
    PIXELS,
    Battery,
    Colour,
    NotARoll,
    Reading,
    Rolling,
    Settled,
)

KIND = PIXELS
# The document still names the Nordic UART service (the first firmware's); the firmware and
# the makers' library of today use the Pixels service below, which the box reads. A die on
# the first firmware is updated by the makers' app.
SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"

# Message types (the first byte).
WHO_ARE_YOU, I_AM_A_DIE, ROLL_STATE = 1, 2, 3
BLINK, BLINK_ACK = 29, 30
REQUEST_BATTERY_LEVEL, BATTERY_LEVEL = 33, 34
STOP_ALL_ANIMATIONS = 59          # bluetooth_messages.h: MessageType_StopAllAnims, no data

# The colourways ("design & colour"), by their number; 0 is unknown, 255 a custom one.
COLOURWAYS: dict[int, str] = {1: "onyx_black", 2: "hematite_grey", 3: "midnight_galaxy",
                              4: "aurora_sky", 5: "clear", 6: "white_aurora", 255: "custom"}
COLOURS: tuple[str, ...] = tuple(COLOURWAYS.values())

# Roll states (accelerometer.h `RollState`).
UNKNOWN, ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = range(6)

# Battery states (battery_controller.h): charging and done (full, still on the charger) are
# on the charger, as the firmware's own advertisement counts them.
CHARGING_STATES = (2, 3)

# Die types (dice_variants.h) whose face index + 1 is a D6's face: the D6 and the pipped D6.
# Unknown (0), which is also what the box holds before IAmADie, is taken as a D6: the box
# reads D6s only, and a die that says nothing of its type is most likely one.
D6, PIPPED_D6 = 2, 8
D6_TYPES = (0, D6, PIPPED_D6)

# Two faults of older firmware, which the makers' library mends by the firmware's build time
# (pixels-js, packages/pixels-core-animation/src/DiceUtils.ts `faceFromIndex` and
# packages/pixels-core-connect/src/Pixel.ts `_updateRoll`); the box mends them alike, read
# from the build time IAmADie gives (seconds since 1970). Before it has one, none is mended.
# - Built at the latest 2024-01-01 23:00 UTC: a D6's faces 2 to 5 came out in reverse (face
#   index 1 is a 5, 2 a 4, 3 a 3, 4 a 2).
# - Built before 2024-05-22 13:00 UTC: the accelerometer of a six-LED die sat slightly tilted,
#   so a die flat on the table could say crooked; the makers take crooked as rolled there (a
#   die tilted against a model is then read as it lies: those dice cannot tell).
REVERSED_FACES_UNTIL = 1_704_150_000
REVERSED_FACES = {1: 5, 2: 4, 3: 3, 4: 2}
CROOKED_IS_ROLLED_BEFORE = 1_716_382_800

LEGACY_I_AM_A_DIE_SIZE = 22
# The chunks of today's IAmADie, in order; each starts with its own size, that byte counted.
VERSION, DIE_INFO, DESIGN_NAME, DIE_NAME, SETTINGS_INFO, STATUS_INFO = range(6)


class Decoder:
    """One connected Pixel. It keeps the die type and the firmware's build time IAmADie gave:
    a die that is no D6 (a D20 paired by mistake) gives no faces."""

    def __init__(self) -> None:
        self._die_type = 0
        self._built = 0                     # unknown

    def feed(self, data: bytes) -> list[Reading]:
        """The readings one notification makes; none for garbage, a truncated message or a
        message the box has no use for."""
        data = bytes(data)
        kind = data[0] if data else None
        if kind == ROLL_STATE and len(data) >= 3:
            return self._roll(data[1], data[2])
        if kind == BATTERY_LEVEL and len(data) >= 3:
            return _battery(data[1], data[2])
        if kind == I_AM_A_DIE:
            return self._identity(data)
        return []

    def _face(self, index: int) -> int | None:
        if self._die_type == D6 and 0 < self._built <= REVERSED_FACES_UNTIL:
            index = REVERSED_FACES.get(index, index + 1) - 1
        face = index + 1
        return face if self._die_type in D6_TYPES and 1 <= face <= 6 else None

    def _roll(self, state: int, index: int) -> list[Reading]:
        face = self._face(index)
        if state == CROOKED and self._die_type in D6_TYPES \
                and 0 < self._built < CROOKED_IS_ROLLED_BEFORE:
            state = ROLLED
        if state == ROLLING:
            return [Rolling()]
        if state == ROLLED:
            return [] if face is None else [Settled(face)]
        if state == HANDLING:               # in a hand: its face up means nothing
            return [NotARoll("handled")]
        if state == CROOKED:                # came to rest not flat: against a model
            return [NotARoll("tilted", face)]
        if state == ON_FACE:                # turned or slid, never thrown
            return [NotARoll("moved", face)]
        return []

    def _identity(self, data: bytes) -> list[Reading]:
        """IAmADie: the colour and the battery (its roll state is no news: a die at rest)."""
        if len(data) == LEGACY_I_AM_A_DIE_SIZE:
            # type, LED count, colourway, die type, data set hash (4), id (4), flash (2),
            # build time (4), roll state, face, battery level, battery state. The document's
            # table calls the die type byte "N/A"; the firmware fills it.
            colourway, die_type, level, state = data[2], data[3], data[20], data[21]
            built = int.from_bytes(data[14:18], "little")
        else:
            chunks = _chunks(data)
            if len(chunks) <= STATUS_INFO or len(chunks[VERSION]) < 7 \
                    or len(chunks[DIE_INFO]) < 10 or len(chunks[STATUS_INFO]) < 3:
                return []
            # version: size, firmware version (2), build time (4), ...; die info: size, id
            # (4), chip model, die type, LED count, colourway, run mode; status info: size,
            # battery level, battery state, roll state, face
            built = int.from_bytes(chunks[VERSION][3:7], "little")
            die_type, colourway = chunks[DIE_INFO][6], chunks[DIE_INFO][8]
            level, state = chunks[STATUS_INFO][1], chunks[STATUS_INFO][2]
        self._die_type, self._built = die_type, built
        readings: list[Reading] = []
        if colourway in COLOURWAYS:
            readings.append(Colour(COLOURWAYS[colourway]))
        return readings + _battery(level, state)


def _chunks(data: bytes) -> list[bytes]:
    """The chunks after the type byte, each by the size it starts with; a size of 0 or one
    that runs past the end ends the list (a truncated or garbled message)."""
    chunks: list[bytes] = []
    at = 1
    while at < len(data):
        size = data[at]
        if size == 0 or at + size > len(data):
            break
        chunks.append(data[at:at + size])
        at += size
    return chunks


def _battery(level: int, state: int) -> list[Reading]:
    return [Battery(level, state in CHARGING_STATES)] if level <= 100 else []


def advertises(name: str | None, service_uuids: Sequence[str]) -> bool:
    """A Pixel advertises the Pixels service (its name is the owner's to choose)."""
    return any(uuid.lower() == SERVICE for uuid in service_uuids)


def decoder() -> Decoder:
    return Decoder()


def hello() -> list[bytes]:
    """WhoAreYou (the die answers IAmADie: colour, battery) and the battery again, as the
    brief list of the document's messages has it."""
    return [bytes([WHO_ARE_YOU]), bytes([REQUEST_BATTERY_LEVEL])]


def ask_battery() -> bytes:
    return bytes([REQUEST_BATTERY_LEVEL])


ALL_FACES = 0xFFFFFFFF


def blink(colour: tuple[int, int, int], count: int, duration_ms: int, fade: int,
          loops: int) -> bytes:
    """A Blink: `count` flashes in `duration_ms`, every face, in `colour` (sent as 32-bit ARGB,
    little endian, the alpha ignored), `fade` 0 (sharp) to 255, played `loops` times."""
    r, g, b = (max(0, min(255, int(v))) for v in colour)
    argb = (r << 16) | (g << 8) | b
    return (bytes([BLINK, count]) + duration_ms.to_bytes(2, "little")
            + argb.to_bytes(4, "little") + ALL_FACES.to_bytes(4, "little")
            + bytes([fade, loops]))


# The light of a side's turn. Pixels have no steady light among the documented messages: a
# Blink is the closest, so the light is a slow glow (one soft flash every 3 s) played 255
# times, some 12 minutes; the box lights the dice again at each turn. The document calls the
# last byte "whether to indefinitely loop"; the firmware plays the animation that many times
# (anim_controller.cpp: a loop count above 1 is counted down), so it is a count here.
LIGHT_PERIOD_MS, LIGHT_FADE, LIGHT_LOOPS = 3000, 128, 255
FLASH_COUNT, FLASH_MS = 3, 1500
WHITE = (255, 255, 255)


def light(colour: tuple[int, int, int] | None) -> bytes | None:
    """The dice glowing in `colour`; None: every animation stopped (StopAllAnims)."""
    if colour is None:
        return bytes([STOP_ALL_ANIMATIONS])
    return blink(colour, 1, LIGHT_PERIOD_MS, LIGHT_FADE, LIGHT_LOOPS)


def flash() -> bytes:
    """Three sharp white flashes in a second and a half, once."""
    return blink(WHITE, FLASH_COUNT, FLASH_MS, 0, 1)
