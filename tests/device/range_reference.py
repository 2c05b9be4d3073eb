"""A reference decoder of the range sensor protocols, written from the notes
(`/work/shared/notes/sensors.md`) and the datasheets' limits, not from
`device/ports/range_sensor.py`: the parsers must give exactly its readings, in any split.

The parsers are incremental over arbitrary reads; this one has the whole stream at once and
is meant to be obviously right. It tries each offset in turn, by the notes' rule "on a bad
header, bad checksum or an implausible value, drop one byte and look again":

- where no frame can start (not a header byte), go on one byte later;
- where the stream ends before the window does, stop (a parser waits for the bytes);
- a window that passes its checksum and holds a possible value (within the model's maximum,
  or a special code the model sends) is a frame: its reading, then on after it;
- any other window is bad: it is reported unless a frame header starts inside it (a slipped
  boundary; for MaxBotix: unless an `R` broke it), then on one byte later.

A reading is (condition, frame bytes, cm or None), the condition by its name.
"""
from __future__ import annotations

from dataclasses import dataclass

Ref = tuple[str, bytes, float | None]

# The raw number of a frame in tenths of a millimetre, per unit: whole numbers, so the range
# gates compare exactly (LV: 255 in = 6477.0 mm).
TENTHS_MM = {"mm": 10, "cm": 100, "in": 254}


@dataclass(frozen=True)
class Spec:
    """One model as the reference sees it: its family, unit and limits in mm."""

    family: str
    unit: str
    min_mm: float
    max_mm: float


# From the notes (A02YYUW 30-4500 mm; A01NYUB / ME007YS from 280 mm, A01NYUB to 7500; JSN from
# ~250 mm; US-100 20-4500 mm; LV 0-255 in; XL up to 765 cm; HR 300-5000 mm; TFmini-S from
# 10 cm, TF-Luna from 20 cm) and the datasheets (ME007YS and JSN to 450 cm, AJ-SR04M 25-600
# cm, XL from 20 cm, TFmini 30-1200 cm, TFmini-S to 1200 cm, TF-Luna to 800 cm).
SPECS: dict[str, Spec] = {
    "a02yyuw": Spec("ff", "mm", 30, 4500),
    "a01nyub": Spec("ff", "mm", 280, 7500),
    "me007ys": Spec("ff", "mm", 280, 4500),
    "jsn-sr04t": Spec("ff", "mm", 250, 4500),
    "aj-sr04m": Spec("ff", "mm", 250, 6000),
    "us-100": Spec("us100", "mm", 20, 4500),
    "maxbotix-lv": Spec("maxbotix", "in", 0, 6477),
    "maxbotix-xl": Spec("maxbotix", "cm", 200, 7650),
    "maxbotix-hr": Spec("maxbotix", "mm", 300, 5000),
    "tfmini": Spec("benewake", "cm", 300, 12000),
    "tfmini-s": Spec("benewake", "cm", 100, 12000),
    "tf-luna": Spec("benewake", "cm", 200, 8000),
}

# Benewake distances that are codes, not distances (as sent, unsigned), and what they mean.
LASER_CODES = {
    "tfmini-s": {0xFFFF: "weak_signal", 0xFFFE: "saturated", 0xFFFC: "saturated"},  # -1 -2 -4
    "tfmini": {0xFFFF: "weak_signal"},
    "tf-luna": {},
}
WEAK_BELOW = {"tfmini-s": 100, "tf-luna": 100, "tfmini": 20}    # strength (TF-Luna: amp)
US100_TIMEOUT = (11090, 11110)
US100_NONSENSE_MM = 11000      # the box calls a US-100 value from here INVALID, not "too far"

# What one offset of the stream holds: None (no frame starts here), "short" (the stream ends
# first), or a window: its reading, whether it is a frame, and its length.
Window = tuple[Ref, bool, int]


def decode(stream: bytes, model: str, *, unit: str | None = None,
           header_in_checksum: bool = True) -> list[Ref]:
    """Every reading in `stream`, which starts where the parser was new or reset."""
    return [ref for _, ref in frames_at(stream, model, unit=unit,
                                        header_in_checksum=header_in_checksum)]


def frames_at(stream: bytes, model: str, *, unit: str | None = None,
              header_in_checksum: bool = True) -> list[tuple[int, Ref]]:
    """Every reading in `stream` with the offset its window starts at."""
    spec = SPECS[model]
    unit = unit or spec.unit
    out: list[tuple[int, Ref]] = []
    at = 0
    while at < len(stream):
        window = look(stream, at, model, spec, unit, header_in_checksum)
        if isinstance(window, str):         # "short": the stream ends inside a frame
            break
        if window is None:
            at += 1
            continue
        reading, is_frame, length = window
        if is_frame:
            out.append((at, reading))
            at += length
        else:
            if not slipped(stream[at:at + length], spec.family):
                out.append((at, reading))
            at += 1
    return out


def look(stream: bytes, at: int, model: str, spec: Spec, unit: str,
         header_in_checksum: bool) -> Window | str | None:
    if spec.family == "ff":
        return ff_window(stream[at:at + 4], spec, unit, header_in_checksum)
    if spec.family == "benewake":
        return laser_window(stream[at:at + 9], model, spec, unit)
    if spec.family == "maxbotix":
        return maxbotix_window(stream, at, spec, unit)
    return us100_window(stream[at:at + 2], spec, unit)


def slipped(window: bytes, family: str) -> bool:
    """A bad window that another frame starts inside: said nothing of."""
    if family == "ff":
        return 0xFF in window[1:]
    if family == "benewake":
        return b"\x59\x59" in window[1:]
    if family == "maxbotix":
        return window[-1:] == b"R"          # an `R` cut the frame short
    return False


def gate(raw: int, spec: Spec, unit: str) -> tuple[str, float | None]:
    tenths = raw * TENTHS_MM[unit]
    if tenths > spec.max_mm * 10:
        return "out_of_range", None
    if tenths < spec.min_mm * 10:
        return "too_close", None
    return "ok", tenths / 100


def ff_window(w: bytes, spec: Spec, unit: str, header_in_checksum: bool) -> Window | str | None:
    if w[0] != 0xFF:
        return None
    if len(w) < 4:
        return "short"
    high, low, total = w[1], w[2], w[3]
    if (high + low + (0xFF if header_in_checksum else 0)) % 256 != total:
        return ("checksum_error", w, None), False, 4
    raw = high * 256 + low
    if raw == 0:
        return ("no_echo", w, None), True, 4
    condition, cm = gate(raw, spec, unit)
    return (condition, w, cm), condition != "out_of_range", 4


def laser_window(w: bytes, model: str, spec: Spec, unit: str) -> Window | str | None:
    if w[0] != 0x59:
        return None
    if len(w) < 2:
        return "short"
    if w[1] != 0x59:
        return None
    if len(w) < 9:
        return "short"
    if sum(w[:8]) % 256 != w[8]:
        return ("checksum_error", w, None), False, 9
    raw, strength = w[2] + 256 * w[3], w[4] + 256 * w[5]
    codes = LASER_CODES[model]
    if raw not in codes and raw * TENTHS_MM[unit] > spec.max_mm * 10:
        # a TFmini-S distance from 0x8000 is negative: a code it does not have
        nonsense = model == "tfmini-s" and raw >= 0x8000
        return ("invalid" if nonsense else "out_of_range", w, None), False, 9
    if strength == 0xFFFF:
        return ("saturated", w, None), True, 9
    if raw in codes:
        return (codes[raw], w, None), True, 9
    if strength < WEAK_BELOW[model]:
        no_target = model == "tf-luna" and raw == 0
        return ("no_echo" if no_target else "weak_signal", w, None), True, 9
    condition, cm = gate(raw, spec, unit)
    return (condition, w, cm), True, 9


def maxbotix_window(stream: bytes, at: int, spec: Spec, unit: str) -> Window | str | None:
    if stream[at] != ord("R"):
        return None
    digits = 4 if unit == "mm" else 3
    end = at + 1 + digits
    for k in range(at + 1, end):
        if k >= len(stream):
            return "short"
        if stream[k] not in b"0123456789":
            return ("invalid", stream[at:k + 1], None), False, k + 1 - at
    if stream[end:end + 1] == b" ":
        end += 1
    if end >= len(stream):
        return "short"
    frame = stream[at:end + 1]
    if stream[end] != ord("\r"):
        return ("invalid", frame, None), False, len(frame)
    raw = int(stream[at + 1:at + 1 + digits])
    if unit == "mm" and raw == 5000:                  # the HR's "no target"
        return ("no_echo", frame, None), True, len(frame)
    condition, cm = gate(raw, spec, unit)
    return (condition, frame, cm), condition != "out_of_range", len(frame)


def us100_window(w: bytes, spec: Spec, unit: str) -> Window | str | None:
    if len(w) < 2:
        return "short"
    raw = w[0] * 256 + w[1]
    if raw in US100_TIMEOUT:
        return ("invalid", w, None), True, 2
    condition, cm = gate(raw, spec, unit)
    if condition == "out_of_range" and raw >= US100_NONSENSE_MM:
        condition = "invalid"
    return (condition, w, cm), condition not in ("out_of_range", "invalid"), 2
