"""Serial range sensors: the supported models and a parser per protocol family.

Pure byte handling, no serial port: a parser is fed whatever bytes arrived (any split, any
garbage) and returns the complete readings found so far. Special codes become named
conditions, never distances. `device/ports/range_reader.py` owns the ports.

Every parser keeps at most one partial frame and drops bytes that cannot start a frame. A
window that starts like a frame is either kept (a reading, and the parser moves past it) or
bad: a bad checksum, or a value the model cannot send (beyond its maximum and none of its
special codes). On a bad window the parser drops one byte and looks again, so a frame that
starts inside it is still found. A bad window is reported (CHECKSUM_ERROR, OUT_OF_RANGE,
INVALID) unless another header starts inside it: then a lost byte slipped the frame boundary,
and it is dropped quietly. The readings never depend on how the bytes were split.

What the protocols can and cannot tell apart:

- 0xFF frames (`FF H L SUM`) and Benewake (`59 59 DL DH ... CS`) have a short header and an
  8-bit sum, so garbage passes for a frame now and then. A stray header byte right before a
  frame makes a window one byte early. For 0xFF frames, if that window passes its checksum,
  it says 65280 mm or more (`FF FF H L`): impossible, so it is dropped and the frame found
  (`FF FF 03 01 03` is 769 mm). For Benewake it says DL·256 + 89 cm (`59 59 59 DL`):
  impossible, and dropped, unless the frame's low distance byte DL is 0-4 (0-3 on a TF-Luna).
  Garbage that makes a window with a possible value and a good checksum cannot be told from
  a real frame by any decoder, whether it lies wholly in the garbage or takes the next frame's
  first bytes (`FF 05` + `FF 03 9D 9F`: `FF 05 FF 03` is 1535 mm, and the real frame is
  lost): it is read as what it says.
- MaxBotix: ASCII `R` + digits + CR, and an `R` never occurs inside a frame, so frames never
  overlap: any well-formed frame in the noise is read, and a frame is never lost to garbage
  before it.
- US-100: no header and no checksum, so a reply is known only by when it comes: the reader
  flushes before each request, and `reset()` starts the reply. A stray byte before the reply
  is dropped only when the pair it makes is impossible (above 450 cm); a stray byte that
  makes a possible pair cannot be told from the reply.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

# The models are named in a module of their own, which the config's check reads too (without
# the parsers, loaded only when the config names a sensor): one list of models for both.
from cobi_companion.device.ports.sensor_models import MODELS as MODELS
from cobi_companion.device.ports.sensor_models import Model as Model


class Condition(StrEnum):
    OK = "ok"
    NO_ECHO = "no_echo"
    TOO_CLOSE = "too_close"            # inside the model's blind zone
    OUT_OF_RANGE = "out_of_range"      # beyond the model's maximum
    WEAK_SIGNAL = "weak_signal"
    SATURATED = "saturated"
    CHECKSUM_ERROR = "checksum_error"
    INVALID = "invalid"                # a well-formed frame with an impossible value
    NO_REPLY = "no_reply"              # a request got no (complete) answer in time
    DISCONNECTED = "disconnected"      # the port is gone


@dataclass(frozen=True)
class Reading:
    """One parsed frame: a distance in cm with condition OK, else None and why."""

    cm: float | None
    condition: Condition
    frame: bytes = b""                 # the bytes of the frame, for `range --raw`
    strength: int | None = None        # laser signal strength, where the frame has one
    temperature_c: float | None = None


class Parser(Protocol):
    def feed(self, data: bytes) -> list[Reading]:
        """Bytes in (any split); the complete readings found, in order."""
        ...

    def reset(self) -> None:
        """Forget a partial frame (before a new request, after a flush)."""
        ...


US100_DISTANCE_REQUEST = b"\x55"
US100_TEMPERATURE_REQUEST = b"\x50"


def on_request(model: Model, request: bytes | None = None) -> Model:
    """The model in its on-request mode: it answers `request` (default: its trigger byte)."""
    wanted = request if request is not None else model.trigger
    if not wanted:
        raise ValueError(f"{model.name}: no request byte known; pass one")
    return replace(model, request=wanted)


def us100_temperature(byte: int) -> float:
    """The US-100's one-byte answer to `0x50`, in °C."""
    return float(byte - 45)


def parser_for(model: Model, *, header_in_checksum: bool = True,
               unit: str | None = None) -> Parser:
    """A new parser for the model's protocol family; `unit` overrides the model's."""
    unit = unit or model.unit
    if unit not in _SCALE:
        raise ValueError(f"unit {unit!r}: not one of {', '.join(_SCALE)}")
    if model.family == "ff":
        return FFParser(model, header_in_checksum=header_in_checksum, unit=unit)
    if model.family == "us100":
        return US100Parser(model, unit=unit)
    if model.family == "maxbotix":
        return MaxBotixParser(model, unit=unit)
    if model.family == "benewake":
        return BenewakeParser(model, unit=unit)
    raise ValueError(f"{model.name}: unknown sensor family {model.family!r}")


# A raw value times num / den is cm; one division keeps 39 in = 99.06 and 1000 mm = 100.0 exact
# to the float, so the range gates compare exactly.
_SCALE: dict[str, tuple[int, int]] = {"mm": (1, 10), "cm": (1, 1), "in": (254, 100)}


class _Gate:
    """Raw value → cm, and the model's blind zone and maximum."""

    def __init__(self, model: Model, unit: str) -> None:
        self.model = model
        self.num, self.den = _SCALE[unit]

    def cm(self, raw: int) -> float:
        return raw * self.num / self.den

    def reading(self, raw: int, frame: bytes, strength: int | None = None,
                temperature_c: float | None = None) -> Reading:
        cm = self.cm(raw)
        if cm < self.model.min_cm:
            return Reading(None, Condition.TOO_CLOSE, frame, strength, temperature_c)
        if cm > self.model.max_cm:
            return Reading(None, Condition.OUT_OF_RANGE, frame, strength, temperature_c)
        return Reading(cm, Condition.OK, frame, strength, temperature_c)


class _Buffered:
    """A parser's partial frame, kept across feeds until the rest arrives."""

    _buf = b""

    @property
    def pending(self) -> int:
        return len(self._buf)

    def reset(self) -> None:
        self._buf = b""


# A window judged: its reading, and whether it is a frame (the parser moves past it) or a bad
# window (the parser drops one byte and looks again).
Judged = tuple[Reading, bool]


class _HeaderFramed(_Buffered):
    """Fixed-size frames that start with HEADER: the scan that every such family shares."""

    HEADER: bytes
    SIZE: int

    def feed(self, data: bytes) -> list[Reading]:
        buf = self._buf + bytes(data)
        out: list[Reading] = []
        i, n = 0, len(buf)
        while True:
            start, i = i, buf.find(self.HEADER, i)
            if i < 0:
                i = self._partial_header(buf, start)
                break
            if n - i < self.SIZE:
                break
            frame = buf[i:i + self.SIZE]
            reading, is_frame = self._judge(frame)
            if is_frame:
                out.append(reading)
                i += self.SIZE
                continue
            if frame.find(self.HEADER, 1) < 0:     # else a slipped boundary: said nothing
                out.append(reading)
            i += 1
        self._buf = buf[i:]
        return out

    def _partial_header(self, buf: bytes, start: int) -> int:
        """Where to keep the buffer from when no header starts at or after `start`: the
        first bytes of a header at its end, never a byte before `start` (a frame's own)."""
        for size in range(len(self.HEADER) - 1, 0, -1):
            if len(buf) - size >= start and buf.endswith(self.HEADER[:size]):
                return len(buf) - size
        return len(buf)

    def _judge(self, frame: bytes) -> Judged:
        raise NotImplementedError


class FFParser(_HeaderFramed):
    """`FF H L SUM`, distance H·256+L; SUM = (FF+H+L) & FF, or (H+L) & FF without the header.

    0 is NO_ECHO. A bad checksum is CHECKSUM_ERROR, a distance beyond the model's maximum
    OUT_OF_RANGE; both are bad windows (see the module's docstring).
    """

    HEADER = b"\xff"
    SIZE = 4

    def __init__(self, model: Model, *, header_in_checksum: bool = True,
                 unit: str = "mm") -> None:
        self._gate = _Gate(model, unit)
        self._base = 0xFF if header_in_checksum else 0

    def _judge(self, frame: bytes) -> Judged:
        if (self._base + frame[1] + frame[2]) & 0xFF != frame[3]:
            return Reading(None, Condition.CHECKSUM_ERROR, frame), False
        raw = frame[1] << 8 | frame[2]
        if raw == 0:
            return Reading(None, Condition.NO_ECHO, frame), True
        reading = self._gate.reading(raw, frame)
        return reading, reading.condition is not Condition.OUT_OF_RANGE


class US100Parser(_Buffered):
    """Replies to `0x55`: 2 bytes, big-endian mm, no header, no checksum.

    The reader resets before each request, so a reply starts the buffer. 11090 and 11110 mm
    (the bogus reply of a timeout) are INVALID. Any other value beyond the model's maximum is
    a bad pair: OUT_OF_RANGE (INVALID from 11000 mm, more than a US-100 ever says), and only
    its first byte is dropped, so a stray byte before a real reply can still line up. The
    `0x50` temperature reply is one byte: read it with `us100_temperature`, not `feed`.
    """

    SIZE = 2
    TIMEOUT_MM = frozenset({11090, 11110})
    IMPLAUSIBLE_MM = 11000

    def __init__(self, model: Model, *, unit: str = "mm") -> None:
        self._gate = _Gate(model, unit)

    def feed(self, data: bytes) -> list[Reading]:
        buf = self._buf + bytes(data)
        out: list[Reading] = []
        i, n = 0, len(buf)
        while n - i >= self.SIZE:
            reading, is_frame = self._judge(buf[i:i + self.SIZE])
            out.append(reading)
            i += self.SIZE if is_frame else 1
        self._buf = buf[i:]
        return out

    def _judge(self, frame: bytes) -> Judged:
        raw = frame[0] << 8 | frame[1]
        if raw in self.TIMEOUT_MM:
            return Reading(None, Condition.INVALID, frame), True
        reading = self._gate.reading(raw, frame)
        if reading.condition is not Condition.OUT_OF_RANGE:
            return reading, True
        if raw >= self.IMPLAUSIBLE_MM:
            return Reading(None, Condition.INVALID, frame), False
        return reading, False


_R, _CR, _SPACE = ord("R"), ord("\r"), ord(" ")
_DIGITS = frozenset(b"0123456789")


class MaxBotixParser(_Buffered):
    """ASCII `R` + digits + CR: LV 3 digits (in), XL 3 digits (cm), HR 4 digits (mm).

    One space before the CR is allowed (HRUSB). A frame broken by a byte that does not fit is
    INVALID (`R12X\\r`); broken by an `R`, it was cut short by a new frame: dropped quietly.
    The HR's 5000 mm means no target. A value beyond the maximum is OUT_OF_RANGE, a bad
    window like any other; no `R` lies inside a frame, so the next one starts after it anyway.
    """

    NO_TARGET_MM = 5000

    def __init__(self, model: Model, *, unit: str = "mm") -> None:
        self._gate = _Gate(model, unit)
        self._digits = 4 if unit == "mm" else 3
        self._no_target = self.NO_TARGET_MM if unit == "mm" else None

    def feed(self, data: bytes) -> list[Reading]:
        buf = self._buf + bytes(data)
        out: list[Reading] = []
        i, n = 0, len(buf)
        while True:
            i = buf.find(_R, i)
            if i < 0:
                i = n
                break
            end = self._scan(buf, i)
            if end is None:                      # a partial frame: wait for more bytes
                break
            if end >= 0:
                reading = self._decode(buf[i:end + 1])
                out.append(reading)
                i = i + 1 if reading.condition is Condition.OUT_OF_RANGE else end + 1
                continue
            bad = -end - 1
            if buf[bad] != _R:
                out.append(Reading(None, Condition.INVALID, buf[i:bad + 1]))
            i += 1
        self._buf = buf[i:]
        return out

    def _scan(self, buf: bytes, start: int) -> int | None:
        """The index of the frame's CR; None: incomplete; -1 - k: byte k breaks the frame."""
        n = len(buf)
        for k in range(start + 1, min(n, start + 1 + self._digits)):
            if buf[k] not in _DIGITS:
                return -1 - k
        k = start + 1 + self._digits
        if k < n and buf[k] == _SPACE:
            k += 1
        if k >= n:
            return None
        return k if buf[k] == _CR else -1 - k

    def _decode(self, frame: bytes) -> Reading:
        raw = int(frame[1:1 + self._digits])
        if raw == self._no_target:
            return Reading(None, Condition.NO_ECHO, frame)
        return self._gate.reading(raw, frame)


@dataclass(frozen=True)
class _Laser:
    """How one Benewake model codes its special cases."""

    min_strength: int             # below this the distance is not to be trusted
    codes: frozenset[int]         # distances (as sent, unsigned) that are special codes
    signed: bool                  # TFmini-S: distance -1 weak, -2 / -4 saturated
    temperature: bool             # bytes 6-7 are a temperature (original TFmini: a mode byte)
    zero_is_no_target: bool       # TF-Luna: distance 0 with a low amp


_LASERS = {
    "tfmini": _Laser(20, frozenset({0xFFFF}), signed=False, temperature=False,
                     zero_is_no_target=False),
    "tfmini-s": _Laser(100, frozenset({0xFFFF, 0xFFFE, 0xFFFC}), signed=True, temperature=True,
                       zero_is_no_target=False),
    "tf-luna": _Laser(100, frozenset(), signed=False, temperature=True, zero_is_no_target=True),
}


class BenewakeParser(_HeaderFramed):
    """`59 59 DL DH SL SH TL TH CS`, little-endian, CS = low byte of the sum of bytes 0-7.

    Distance in cm (or mm when the sensor is set so), strength (TF-Luna: amp) into
    `strength`, temperature raw/8 - 256 °C. First the distance must be possible: within the
    model's maximum or one of its codes, else the window is bad (OUT_OF_RANGE; INVALID for a
    negative code the TFmini-S does not have). Then strength 0xFFFF is SATURATED on every
    model. TFmini-S: distance -1 or strength < 100 WEAK_SIGNAL, -2 / -4 (signal / ambient
    overload) SATURATED. TF-Luna: amp < 100 is WEAK_SIGNAL, or NO_ECHO when the distance is 0
    (the sensor's "no target"). Original TFmini: 0xFFFF or strength < 20 WEAK_SIGNAL. A bad
    checksum is CHECKSUM_ERROR, a bad window too.
    """

    HEADER = b"\x59\x59"
    SIZE = 9

    def __init__(self, model: Model, *, unit: str = "cm") -> None:
        self._gate = _Gate(model, unit)
        self._laser = _LASERS.get(model.name, _LASERS["tfmini-s"])

    def _judge(self, frame: bytes) -> Judged:
        if sum(frame[:8]) & 0xFF != frame[8]:
            return Reading(None, Condition.CHECKSUM_ERROR, frame), False
        laser = self._laser
        raw = frame[2] | frame[3] << 8
        strength = frame[4] | frame[5] << 8
        temp = (frame[6] | frame[7] << 8) / 8 - 256 if laser.temperature else None
        if raw not in laser.codes and self._gate.cm(raw) > self._gate.model.max_cm:
            negative = laser.signed and raw >= 0x8000
            bad = Condition.INVALID if negative else Condition.OUT_OF_RANGE
            return Reading(None, bad, frame, strength, temp), False
        condition = self._special(raw, strength)
        if condition is not None:
            return Reading(None, condition, frame, strength, temp), True
        return self._gate.reading(raw, frame, strength, temp), True

    def _special(self, raw: int, strength: int) -> Condition | None:
        """The named condition of a possible distance, or None: a distance to range-gate."""
        laser = self._laser
        if strength == 0xFFFF:
            return Condition.SATURATED
        if raw in laser.codes:              # TFmini-S -1 / -2 / -4, original TFmini 0xFFFF
            return Condition.WEAK_SIGNAL if raw == 0xFFFF else Condition.SATURATED
        if strength < laser.min_strength:
            if laser.zero_is_no_target and raw == 0:
                return Condition.NO_ECHO
            return Condition.WEAK_SIGNAL
        return None
