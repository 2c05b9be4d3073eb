"""Fuzz the range sensor parsers: random streams of valid frames hidden in garbage.

Each stream picks one of the twelve models and plants 1-8 valid frames of it (a distance
inside the model's range), each after a stretch of garbage: random bytes, header bytes of
every family, whole frames of every model (any value, special codes included) and pieces of
frames. The stream is fed in random chunks (one byte at a time up to all at once). The
garbage right before a planted frame holds no header byte among its last (frame length - 1)
bytes, since such a byte can pair with the frame's own first bytes into a window that passes
the checksum (see tests/device/test_range_sensor.py); US-100 replies come after a `reset()`,
as the reader flushes before each request. Under those rules every planted frame must be
found among the OK readings, in order.

    .venv/bin/python bench/range_fuzz.py [--streams N] [--seed S]

Exit code 1 if any `feed` raised or a planted frame was not found.
"""
from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
import traceback
from dataclasses import dataclass, field

from cobi_companion.device.ports.range_sensor import (
    MODELS,
    Condition,
    Model,
    Parser,
    Reading,
    parser_for,
)

FAMILIES = ("ff", "us100", "maxbotix", "benewake")
GUARD = {"ff": (0xFF, 4), "benewake": (0x59, 9)}       # header byte, frame length
HEADERS = (b"\xff", b"\x59", b"\x59\x59", b"R", b"\r", b" ")


@dataclass
class Setup:
    """One stream's model and parser options."""

    model: Model
    header_in_checksum: bool = True
    unit: str | None = None


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
    if model.family == "us100":
        low = max(low, 20)
    if model.name == "maxbotix-hr":
        high = min(high, 4999)          # 5000: no target
    return max(low, 1), high


def valid_frame(rng: random.Random, setup: Setup) -> bytes:
    low, high = raw_range(setup)
    raw = rng.randint(low, high)
    return encode(rng, setup, raw, strength=rng.randint(100, 0xFFFE))


def any_frame(rng: random.Random, setup: Setup) -> bytes:
    """A well-formed frame with any value: special codes and out-of-range ones too."""
    raw = rng.choice((0, 0xFFFF, 0xFFFC, rng.randint(0, 0xFFFF), rng.randint(0, 1000)))
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


def garbage(rng: random.Random, setups: list[Setup]) -> bytes:
    parts: list[bytes] = []
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.3:
            parts.append(rng.randbytes(rng.randint(0, 12)))
        elif kind < 0.5:
            parts.append(rng.choice(HEADERS))
        else:
            frame = any_frame(rng, rng.choice(setups))
            if kind < 0.7:
                parts.append(frame)
            elif kind < 0.85:
                parts.append(frame[:rng.randint(0, len(frame))])
            else:
                parts.append(frame[rng.randint(1, len(frame)):])
    return b"".join(parts)


def guarded(junk: bytes, family: str) -> bytes:
    if family not in GUARD:
        return junk
    header, length = GUARD[family]
    cut = max(0, len(junk) - (length - 1))
    # replaced, not removed: removing would pull earlier bytes into the guarded tail
    return junk[:cut] + bytes(b ^ 1 if b == header else b for b in junk[cut:])


def chunks(rng: random.Random, data: bytes) -> list[bytes]:
    largest = rng.choice((1, 4, 16, 64, len(data) or 1))
    out, i = [], 0
    while i < len(data):
        size = rng.randint(1, largest)
        out.append(data[i:i + size])
        i += size
    return out


@dataclass
class Tally:
    streams: int = 0
    bytes_fed: int = 0
    readings: int = 0
    ok: int = 0
    planted: int = 0
    found: int = 0
    seconds: float = 0.0
    conditions: dict[str, int] = field(default_factory=dict)


@dataclass
class Stream:
    setup: Setup
    segments: list[tuple[list[bytes], list[bytes]]]   # (garbage chunks, planted frame chunks)
    planted: list[bytes]


def make_stream(rng: random.Random, setups: list[Setup]) -> Stream:
    setup = random_setup(rng, rng.choice(list(MODELS.values())))
    family = setup.model.family
    planted = [valid_frame(rng, setup) for _ in range(rng.randint(1, 8))]
    segments: list[tuple[list[bytes], list[bytes]]] = []
    if family == "us100":              # fed apart: garbage, reset(), the reply
        for frame in planted:
            segments.append((chunks(rng, garbage(rng, setups)), chunks(rng, frame)))
    else:
        data = b"".join(guarded(garbage(rng, setups), family) + frame for frame in planted)
        segments.append((chunks(rng, data + garbage(rng, setups)), []))
    return Stream(setup, segments, planted)


def run_stream(stream: Stream) -> tuple[list[Reading], float, int]:
    """The readings, the seconds spent in the parser, and the bytes fed."""
    setup = stream.setup
    parser: Parser = parser_for(setup.model, header_in_checksum=setup.header_in_checksum,
                                unit=setup.unit)
    got: list[Reading] = []
    fed = sum(len(c) for junk, reply in stream.segments for c in junk + reply)
    start = time.perf_counter()
    for junk, reply in stream.segments:
        for chunk in junk:
            got.extend(parser.feed(chunk))
        if reply:
            parser.reset()
            for chunk in reply:
                got.extend(parser.feed(chunk))
    return got, time.perf_counter() - start, fed


def found_in_order(planted: list[bytes], frames: list[bytes]) -> int:
    """How many planted frames appear, in order, among the OK readings' frames."""
    count, at = 0, 0
    for frame in planted:
        try:
            at = frames.index(frame, at) + 1
        except ValueError:                  # missed: look for the next one from the same place
            continue
        count += 1
    return count


def main(argv: list[str]) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--streams", type=int, default=100_000)
    args.add_argument("--seed", type=int, default=20240601)
    opts = args.parse_args(argv)
    rng = random.Random(opts.seed)
    setups = [Setup(model) for model in MODELS.values()]
    tallies: dict[str, Tally] = {family: Tally() for family in FAMILIES}
    exceptions, first_error = 0, ""
    wall = time.perf_counter()
    for _ in range(opts.streams):
        stream = make_stream(rng, setups)
        tally = tallies[stream.setup.model.family]
        tally.streams += 1
        tally.planted += len(stream.planted)
        try:
            got, seconds, fed = run_stream(stream)
        except Exception:                   # counted, and the first one shown
            exceptions += 1
            first_error = first_error or traceback.format_exc()
            continue
        tally.seconds += seconds
        tally.bytes_fed += fed
        tally.readings += len(got)
        ok = [r.frame for r in got if r.condition is Condition.OK]
        for r in got:
            name = r.condition.value
            tally.conditions[name] = tally.conditions.get(name, 0) + 1
        tally.ok += len(ok)
        tally.found += found_in_order(stream.planted, ok)
    wall = time.perf_counter() - wall
    report(opts, tallies, exceptions, first_error, wall)
    missed = sum(t.planted - t.found for t in tallies.values())
    return 1 if exceptions or missed else 0


def report(opts: argparse.Namespace, tallies: dict[str, Tally], exceptions: int,
           first_error: str, wall: float) -> None:
    print(f"Python {platform.python_implementation()} {platform.python_version()} on "
          f"{platform.system()} {platform.machine()}")
    print(f"CPU    {cpu_name()}")
    print(f"{opts.streams} streams, seed {opts.seed}\n")
    print(f"{'family':<9}{'streams':>8}{'bytes':>10}{'frames':>9}{'ok':>9}{'planted':>9}"
          f"{'found':>9}{'parse s':>9}{'frames/s':>11}{'MB/s':>7}")
    total = Tally()
    for family, t in tallies.items():
        row(family, t)
        for name in ("streams", "bytes_fed", "readings", "ok", "planted", "found"):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.seconds += t.seconds
        for name, count in t.conditions.items():
            total.conditions[name] = total.conditions.get(name, 0) + count
    row("total", total)
    print("\nframes: readings returned (any condition); parse s: time inside feed()/reset()")
    print("readings by condition: " + ", ".join(
        f"{name} {count}" for name, count in sorted(total.conditions.items(),
                                                    key=lambda item: -item[1])))
    print(f"planted valid frames found: {total.found} of {total.planted}")
    print(f"exceptions: {exceptions}")
    if first_error:
        print(first_error, end="")
    print(f"wall time: {wall:.1f} s (stream generation included)")


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            names = [line.split(":", 1)[1].strip() for line in info
                     if line.startswith("model name")]
    except OSError:
        names = []
    return names[0] if names else platform.processor() or "unknown"


def row(name: str, t: Tally) -> None:
    def rate(amount: float) -> float:
        return amount / t.seconds if t.seconds else 0.0

    print(f"{name:<9}{t.streams:>8}{t.bytes_fed:>10}{t.readings:>9}{t.ok:>9}{t.planted:>9}"
          f"{t.found:>9}{t.seconds:>9.2f}{rate(t.readings):>11,.0f}"
          f"{rate(t.bytes_fed) / 1e6:>7.2f}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
