"""Fuzz the range sensor parsers against the reference decoder of the tests.

Each protocol family gets N random streams (`--streams`, default 25 000 each). A stream picks
one of the family's models (AJ-SR04M with or without the header in its checksum, TF-Luna in
cm or mm) and plants 1-8 valid frames of it, each after a stretch of garbage: random bytes,
header bytes of every family, runs of one header byte, whole frames of every model (any
value: special codes and impossible ones too), pieces of frames, and often a stray header
byte right before the planted frame. The stream is fed in random chunks, from one byte at a
time (a cut at every position) to all at once. US-100 replies come in their own segment
after a `reset()`, as the reader flushes before each request, sometimes after a stray byte.

The readings must be exactly those of `tests/device/range_reference.py`, which decodes the
whole stream at once, offset by offset, from the notes. Counted per family: exceptions,
wrong values (an OK reading the reference does not give), missed frames (an OK reading of
the reference the parser does not give), streams whose readings differ in any way. A planted
frame with no header byte among the (frame length - 1) bytes before it is "clear": nothing
can hide it, so the reference must find every clear one (else the reference is wrong). The
other planted frames may be taken by garbage that makes a possible frame with their first
bytes, which no decoder can tell apart: how many the reference still finds is shown.

    .venv/bin/python bench/range_fuzz.py [--streams N] [--seed S]

Exit code 1 on any exception, wrong value, missed frame, difference, or a clear frame lost.
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import platform
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from cobi_companion.device.ports.range_sensor import MODELS, Model, Parser, Reading, parser_for

FAMILIES = ("ff", "us100", "maxbotix", "benewake")
HEADERS = (b"\xff", b"\x59", b"\x59\x59", b"R", b"\r", b" ")
# The byte a frame starts with, and the frame's length, where a window can overlap a frame.
OVERLAP = {"ff": (0xFF, 4), "benewake": (0x59, 9)}
REFERENCE = Path(__file__).resolve().parents[1] / "tests" / "device" / "range_reference.py"


def load_reference() -> ModuleType:
    """The tests' reference decoder (already imported when the tests run this)."""
    known = sys.modules.get("range_reference")
    if known is not None:
        return known
    spec = importlib.util.spec_from_file_location("range_reference", REFERENCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["range_reference"] = module      # its dataclasses look themselves up
    spec.loader.exec_module(module)
    return module


reference = load_reference()


@dataclass
class Setup:
    """One stream's model and parser options."""

    model: Model
    header_in_checksum: bool = True
    unit: str | None = None


MakeParser = Callable[[Setup], Parser]


def new_parser(setup: Setup) -> Parser:
    return parser_for(setup.model, header_in_checksum=setup.header_in_checksum, unit=setup.unit)


# --- frames ---------------------------------------------------------------------------------

def ff_bytes(raw: int, header_in_checksum: bool = True) -> bytes:
    high, low = raw >> 8 & 0xFF, raw & 0xFF
    return bytes([0xFF, high, low, ((0xFF if header_in_checksum else 0) + high + low) & 0xFF])


def laser_bytes(dist: int, strength: int, temp: int) -> bytes:
    body = bytes([0x59, 0x59, dist & 0xFF, dist >> 8, strength & 0xFF, strength >> 8,
                  temp & 0xFF, temp >> 8])
    return body + bytes([sum(body) & 0xFF])


def raw_range(setup: Setup) -> tuple[int, int]:
    """The raw values the frame can carry that the parser must report OK."""
    model, unit = setup.model, setup.unit or setup.model.unit
    per_cm = {"mm": 10, "cm": 1, "in": 1 / 2.54}[unit]
    low, high = math.ceil(model.min_cm * per_cm - 1e-9), math.floor(model.max_cm * per_cm + 1e-9)
    if model.name == "maxbotix-hr":
        high = min(high, 4999)          # 5000: no target
    return max(low, 1), high


def valid_frame(rng: random.Random, setup: Setup) -> bytes:
    """A frame the parser must read as a distance: anywhere in range, often at its edges.
    Often too, one that tempts a parser: (0xFF family) a low byte that is the high byte - 2,
    which a stray 0xFF before it turns into a window with a good checksum; (Benewake) a
    checksum byte of 0x59, half a header once the frame is read."""
    low, high = raw_range(setup)
    raw = rng.choice((rng.randint(low, high), rng.randint(low, high), low, high))
    family = setup.model.family
    if family == "ff" and rng.random() < 0.3:
        minus = 2 if setup.header_in_checksum else 1
        for _ in range(20):
            raw = rng.randint(low, high)
            if raw & 0xFF == (raw >> 8) - minus & 0xFF:
                break
    frame = encode(rng, setup, raw, strength=rng.randint(100, 0xFFFE))
    if family == "benewake" and rng.random() < 0.3:
        body = bytearray(frame[:8])
        body[6] = (0x59 - sum(body[:6]) - body[7]) & 0xFF   # the temperature's low byte
        frame = bytes(body) + b"\x59"
    return frame


def any_frame(rng: random.Random, setup: Setup) -> bytes:
    """A well-formed frame with any value: special codes and out-of-range ones too."""
    raw = rng.choice((0, 0xFFFF, 0xFFFE, 0xFFFD, 0xFFFC, 11090, 11110, 5000,
                      rng.randint(0, 0xFFFF), rng.randint(0, 1000)))
    return encode(rng, setup, raw, strength=rng.choice((0, 50, 0xFFFF, rng.randint(0, 0xFFFF))))


def encode(rng: random.Random, setup: Setup, raw: int, strength: int) -> bytes:
    family = setup.model.family
    if family == "ff":
        return ff_bytes(raw, setup.header_in_checksum)
    if family == "us100":
        return raw.to_bytes(2, "big")
    if family == "maxbotix":
        digits = 4 if setup.model.unit == "mm" else 3
        raw %= 10 ** digits
        space = b" " if digits == 4 and rng.random() < 0.3 else b""
        return b"R" + str(raw).zfill(digits).encode() + space + b"\r"
    return laser_bytes(raw, strength, rng.randint(0, 0xFFFF))


def random_setup(rng: random.Random, model: Model) -> Setup:
    if model.name == "aj-sr04m":
        return Setup(model, header_in_checksum=rng.random() < 0.5)
    if model.name == "tf-luna":
        return Setup(model, unit=rng.choice(("cm", "mm")))
    return Setup(model)


# --- streams --------------------------------------------------------------------------------

def garbage(rng: random.Random, setup: Setup, setups: list[Setup]) -> bytes:
    parts: list[bytes] = []
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.25:
            parts.append(rng.randbytes(rng.randint(0, 12)))
        elif kind < 0.4:
            parts.append(rng.choice(HEADERS))
        elif kind < 0.5:
            parts.append(rng.choice(HEADERS)[:1] * rng.randint(2, 12))     # a run of headers
        else:
            frame = any_frame(rng, setup if kind < 0.65 else rng.choice(setups))
            if kind < 0.8:
                parts.append(frame)
            elif kind < 0.9:
                parts.append(frame[:rng.randint(0, len(frame))])
            else:
                parts.append(frame[rng.randint(1, len(frame)):])
    return b"".join(parts)


def stray(rng: random.Random, family: str) -> bytes:
    """Often a stray byte right before a planted frame: its family's header, or any byte."""
    if rng.random() < 0.6:
        return b""
    header = {"ff": b"\xff", "benewake": b"\x59", "maxbotix": b"R"}.get(family)
    return header if header and rng.random() < 0.8 else rng.randbytes(1)


@dataclass
class Stream:
    setup: Setup
    segments: list[bytes]            # each fed to a new (or reset) parser
    planted: list[tuple[int, int]]   # (segment, offset) of each planted frame
    clear: list[bool]                # per planted frame: nothing can hide it


def make_stream(rng: random.Random, family: str, setups: list[Setup]) -> Stream:
    models = [model for model in MODELS.values() if model.family == family]
    setup = random_setup(rng, rng.choice(models))
    segments: list[bytes] = []
    planted: list[tuple[int, int]] = []
    data = b""
    for _ in range(rng.randint(1, 8)):
        if family == "us100" and data:         # a reply begins a segment: after `reset()`
            segments.append(data)
            data = b""
        if family != "us100":
            data += garbage(rng, setup, setups)
        data += stray(rng, family)
        planted.append((len(segments), len(data)))
        data += valid_frame(rng, setup)
        if family == "us100":
            data += garbage(rng, setup, setups)
    segments.append(data + garbage(rng, setup, setups))
    clear = [is_clear(segments[seg], at, family) for seg, at in planted]
    return Stream(setup, segments, planted, clear)


def is_clear(segment: bytes, at: int, family: str) -> bool:
    """No window can start before the frame at `at` and run into it."""
    if family == "us100":
        return at == 0
    if family not in OVERLAP:
        return True                       # MaxBotix: no `R` inside a frame, no overlap
    header, length = OVERLAP[family]
    return header not in segment[max(0, at - (length - 1)):at]


def chunks(rng: random.Random, data: bytes) -> list[bytes]:
    largest = rng.choice((1, 1, 4, 16, 64, len(data) or 1))
    out, i = [], 0
    while i < len(data):
        size = rng.randint(1, largest)
        out.append(data[i:i + size])
        i += size
    return out


# --- checking -------------------------------------------------------------------------------

Ref = tuple[str, bytes, float | None]


@dataclass
class Tally:
    streams: int = 0
    bytes_fed: int = 0
    readings: int = 0
    ok: int = 0
    planted: int = 0
    planted_found: int = 0
    clear: int = 0
    clear_found: int = 0
    exceptions: int = 0
    wrong: int = 0
    missed: int = 0
    differ: int = 0
    seconds: float = 0.0
    conditions: Counter[str] = field(default_factory=Counter)
    first_problem: str = ""

    @property
    def failures(self) -> int:
        return (self.exceptions + self.wrong + self.missed + self.differ
                + self.clear - self.clear_found)


def run_stream(rng: random.Random, stream: Stream, make_parser: MakeParser
               ) -> tuple[list[Ref], float]:
    """The parser's readings, fed in random chunks, and the seconds spent in it."""
    parser = make_parser(stream.setup)
    got: list[Reading] = []
    fed = [chunks(rng, segment) for segment in stream.segments]
    start = time.perf_counter()
    for pieces in fed:
        parser.reset()
        for piece in pieces:
            got.extend(parser.feed(piece))
    seconds = time.perf_counter() - start
    return [(r.condition.value, r.frame, r.cm) for r in got], seconds


def reference_of(stream: Stream) -> tuple[list[Ref], set[tuple[int, int]]]:
    """The reference's readings, and where its OK frames start (segment, offset)."""
    setup, readings, found = stream.setup, [], set()
    for number, segment in enumerate(stream.segments):
        for at, ref in reference.frames_at(segment, setup.model.name, unit=setup.unit,
                                           header_in_checksum=setup.header_in_checksum):
            readings.append(ref)
            if ref[0] == "ok":
                found.add((number, at))
    return readings, found


def check(tally: Tally, stream: Stream, got: list[Ref], want: list[Ref],
          found: set[tuple[int, int]]) -> None:
    oks = Counter(r for r in got if r[0] == "ok")
    wanted = Counter(r for r in want if r[0] == "ok")
    tally.wrong += sum((oks - wanted).values())
    tally.missed += sum((wanted - oks).values())
    tally.readings += len(got)
    tally.ok += sum(oks.values())
    tally.conditions.update(r[0] for r in got)
    tally.planted += len(stream.planted)
    tally.clear += sum(stream.clear)
    for place, clear in zip(stream.planted, stream.clear, strict=True):
        tally.planted_found += place in found
        tally.clear_found += clear and place in found
    if got != want:
        tally.differ += 1
        tally.first_problem = tally.first_problem or describe(stream, got, want)


def describe(stream: Stream, got: list[Ref], want: list[Ref]) -> str:
    setup = stream.setup
    return (f"{setup.model.name} (header_in_checksum={setup.header_in_checksum}, "
            f"unit={setup.unit}) segments {[s.hex(' ') for s in stream.segments]}\n"
            f"  parser:    {got}\n  reference: {want}\n")


def fuzz(streams: int, seed: int, make_parser: MakeParser = new_parser) -> dict[str, Tally]:
    """`streams` streams of each family; the tallies by family."""
    rng = random.Random(seed)
    setups = [Setup(model) for model in MODELS.values()]
    tallies = {family: Tally() for family in FAMILIES}
    for _ in range(streams):
        for family in FAMILIES:
            tally = tallies[family]
            stream = make_stream(rng, family, setups)
            tally.streams += 1
            tally.bytes_fed += sum(map(len, stream.segments))
            want, found = reference_of(stream)
            try:
                got, seconds = run_stream(rng, stream, make_parser)
            except Exception:              # counted, and the first one shown
                tally.exceptions += 1
                tally.first_problem = tally.first_problem or traceback.format_exc()
                continue
            tally.seconds += seconds
            check(tally, stream, got, want, found)
    return tallies


# --- the report -----------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--streams", type=int, default=25_000, help="streams per family")
    args.add_argument("--seed", type=int, default=20240601)
    opts = args.parse_args(argv)
    wall = time.perf_counter()
    tallies = fuzz(opts.streams, opts.seed)
    report(opts, tallies, time.perf_counter() - wall)
    return 1 if any(t.failures for t in tallies.values()) else 0


def report(opts: argparse.Namespace, tallies: dict[str, Tally], wall: float) -> None:
    print(f"Python {platform.python_implementation()} {platform.python_version()} on "
          f"{platform.system()} {platform.machine()}")
    print(f"CPU    {cpu_name()}")
    print(f"{opts.streams} streams per family, seed {opts.seed}\n")
    print(f"{'family':<9}{'streams':>8}{'bytes':>10}{'frames':>9}{'ok':>8}{'except':>7}"
          f"{'wrong':>6}{'missed':>7}{'differ':>7}{'clear':>15}{'planted':>15}"
          f"{'parse s':>8}{'frames/s':>10}")
    total = Tally()
    for family, t in tallies.items():
        row(family, t)
        for name in ("streams", "bytes_fed", "readings", "ok", "planted", "planted_found",
                     "clear", "clear_found", "exceptions", "wrong", "missed", "differ",
                     "seconds"):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.conditions.update(t.conditions)
    row("total", total)
    print("\nframes: readings returned (any condition); except: exceptions; wrong: OK readings "
          "the reference does not give;\nmissed: OK readings of the reference the parser does "
          "not give; differ: streams whose readings differ at all;\nclear: planted frames "
          "nothing can hide, found / all; planted: all planted frames, found by the "
          "reference / all;\nparse s: time inside feed()/reset()")
    print("readings by condition: " + ", ".join(
        f"{name} {count}" for name, count in total.conditions.most_common()))
    for family, t in tallies.items():
        if t.first_problem:
            print(f"\nfirst problem ({family}):\n{t.first_problem}", end="")
    print(f"wall time: {wall:.1f} s (stream generation and the reference included)")


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            names = [line.split(":", 1)[1].strip() for line in info
                     if line.startswith("model name")]
    except OSError:
        names = []
    return names[0] if names else platform.processor() or "unknown"


def row(name: str, t: Tally) -> None:
    rate = t.readings / t.seconds if t.seconds else 0.0
    clear = f"{t.clear_found}/{t.clear}"
    planted = f"{t.planted_found}/{t.planted}"
    print(f"{name:<9}{t.streams:>8}{t.bytes_fed:>10}{t.readings:>9}{t.ok:>8}{t.exceptions:>7}"
          f"{t.wrong:>6}{t.missed:>7}{t.differ:>7}{clear:>15}{planted:>15}{t.seconds:>8.2f}"
          f"{rate:>10,.0f}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
