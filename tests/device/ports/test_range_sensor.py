"""The range sensor parsers: the test vectors of `/work/shared/notes/sensors.md`, the range gates
of every model, and random garbage around valid frames.

Every vector is fed whole, split in two at every byte boundary and one byte at a time: a
parser must give the same readings whatever the split.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
from cobi_companion.device.ports.range_sensor import (
    MODELS,
    BenewakeParser,
    Condition,
    FFParser,
    MaxBotixParser,
    Model,
    Parser,
    Reading,
    US100Parser,
    on_request,
    parser_for,
    us100_temperature,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from range_reference import decode

OK, NO_ECHO, TOO_CLOSE = Condition.OK, Condition.NO_ECHO, Condition.TOO_CLOSE
OUT, WEAK, SAT = Condition.OUT_OF_RANGE, Condition.WEAK_SIGNAL, Condition.SATURATED
CSUM, INVALID = Condition.CHECKSUM_ERROR, Condition.INVALID
FF_MODELS = [name for name, model in MODELS.items() if model.family == "ff"]
LASERS = ["tfmini", "tfmini-s", "tf-luna"]

Expected = list[tuple[Condition, float | None]]


def chunkings(data: bytes) -> Iterator[list[bytes]]:
    """The data whole, split in two at every byte boundary, and one byte at a time."""
    yield [data]
    for cut in range(1, len(data)):
        yield [data[:cut], data[cut:]]
    yield [data[i:i + 1] for i in range(len(data))]


def feed(parser: Parser, chunks: Sequence[bytes]) -> list[Reading]:
    return [reading for chunk in chunks for reading in parser.feed(chunk)]


def check(got: list[Reading], expected: Expected) -> None:
    assert [r.condition for r in got] == [condition for condition, _ in expected]
    for reading, (_, cm) in zip(got, expected, strict=True):
        assert reading.cm == (None if cm is None else pytest.approx(cm, abs=1e-9))


def check_every_split(model: str, data: bytes, expected: Expected, **options: bool | str
                      ) -> list[Reading]:
    for chunks in chunkings(data):
        got = feed(parser_for(MODELS[model], **options), chunks)  # type: ignore[arg-type]
        check(got, expected)
    return got


def ff_frame(mm: int, *, header_in_checksum: bool = True) -> bytes:
    high, low = mm >> 8, mm & 0xFF
    return bytes([0xFF, high, low, ((0xFF if header_in_checksum else 0) + high + low) & 0xFF])


def laser_frame(dist: int, strength: int, temp_raw: int = 0x08F0) -> bytes:
    body = bytes([0x59, 0x59, dist & 0xFF, dist >> 8 & 0xFF, strength & 0xFF, strength >> 8,
                  temp_raw & 0xFF, temp_raw >> 8])
    return body + bytes([sum(body) & 0xFF])


# --- the models ---------------------------------------------------------------------------

def test_the_models_by_name() -> None:
    assert list(MODELS) == ["a02yyuw", "a01nyub", "me007ys", "jsn-sr04t", "aj-sr04m", "us-100",
                            "maxbotix-lv", "maxbotix-xl", "maxbotix-hr", "tfmini", "tfmini-s",
                            "tf-luna"]
    assert all(name == model.name for name, model in MODELS.items())
    families = {name: model.family for name, model in MODELS.items()}
    assert families["us-100"] == "us100"
    assert {families[name] for name in LASERS} == {"benewake"}
    assert {MODELS[name].baud for name in LASERS} == {115200}
    assert (MODELS["a02yyuw"].min_cm, MODELS["a02yyuw"].max_cm) == (3, 450)
    assert MODELS["maxbotix-lv"].max_cm == pytest.approx(255 * 2.54)
    assert [MODELS[name].unit for name in ("maxbotix-lv", "maxbotix-xl", "maxbotix-hr")] == [
        "in", "cm", "mm"]


def test_requests_and_the_on_request_mode() -> None:
    assert MODELS["us-100"].request == b"\x55"
    assert all(MODELS[name].request is None for name in FF_MODELS + LASERS)
    assert on_request(MODELS["jsn-sr04t"]).request == b"\x55"
    assert on_request(MODELS["aj-sr04m"]).request == b"\x01"
    assert on_request(MODELS["aj-sr04m"], b"\x55").request == b"\x55"
    assert on_request(MODELS["a02yyuw"], b"\x00").request == b"\x00"
    with pytest.raises(ValueError, match="no request byte"):
        on_request(MODELS["a02yyuw"])


def test_parser_for_each_family() -> None:
    kinds = {"ff": FFParser, "us100": US100Parser, "maxbotix": MaxBotixParser,
             "benewake": BenewakeParser}
    for model in MODELS.values():
        assert isinstance(parser_for(model), kinds[model.family])
    with pytest.raises(ValueError, match="unit"):
        parser_for(MODELS["tf-luna"], unit="furlong")
    with pytest.raises(ValueError, match="family"):
        parser_for(Model("x", "rcwl", 9600, 25, 700))


# --- the 0xFF family ----------------------------------------------------------------------

FF_VECTORS: list[tuple[str, str, Expected]] = [
    ("a02yyuw", "FF 07 A1 A7", [(OK, 195.3)]),
    ("a02yyuw", "FF 03 9D 9F", [(OK, 92.5)]),
    ("a02yyuw", "FF 00 E5 E4", [(OK, 22.9)]),
    ("a02yyuw", "FF 01 30 30", [(OK, 30.4)]),
    ("a02yyuw", "FF 03 E7 E9", [(OK, 99.9)]),
    ("a02yyuw", "FF 03 E8 EA", [(OK, 100.0)]),
    ("a02yyuw", "FF 03 E9 EB", [(OK, 100.1)]),
    ("a02yyuw", "FF 09 C4 CC", [(OK, 250.0)]),
    ("a02yyuw", "FF 00 1E 1D", [(OK, 3.0)]),
    ("a01nyub", "FF 00 1E 1D", [(TOO_CLOSE, None)]),
    ("me007ys", "FF 00 1E 1D", [(TOO_CLOSE, None)]),
    ("jsn-sr04t", "FF 00 1E 1D", [(TOO_CLOSE, None)]),
    ("aj-sr04m", "FF 00 1E 1D", [(TOO_CLOSE, None)]),
    ("a02yyuw", "FF 00 14 13", [(TOO_CLOSE, None)]),
    ("a02yyuw", "FF 00 FF FE", [(OK, 25.5)]),
    ("a02yyuw", "FF 01 FF FF", [(OK, 51.1)]),
    ("a02yyuw", "FF 11 94 A4", [(OK, 450.0)]),
    ("a01nyub", "FF 1D 4C 68", [(OK, 750.0)]),
    ("a02yyuw", "FF 1D 4C 68", [(OUT, None)]),
    ("a02yyuw", "FF 03 E8 EB", [(CSUM, None)]),
    *[(name, "FF 00 00 FF", [(NO_ECHO, None)]) for name in FF_MODELS],
    *[(name, "FF 07 A1 A8", [(CSUM, None)]) for name in FF_MODELS],
    # streams
    ("a02yyuw", "03 9D 9F FF 03 9D 9F", [(OK, 92.5)]),
    ("a02yyuw", "FF 03 FF 03 9D 9F", [(OK, 92.5)]),
    ("a02yyuw", "FF 01 FF FF FF 01 FF FF", [(OK, 51.1), (OK, 51.1)]),
    ("a02yyuw", "FF 03 9D 9E FF 03 9D 9F", [(CSUM, None), (OK, 92.5)]),
    ("a02yyuw", "FF 03 9D 9F FF 03 9D", [(OK, 92.5)]),
]


@pytest.mark.parametrize(("model", "hexes", "expected"), FF_VECTORS)
def test_ff_vectors(model: str, hexes: str, expected: Expected) -> None:
    data = bytes.fromhex(hexes)
    got = check_every_split(model, data, expected)
    if len(data) == 4:
        assert got[0].frame == data


def test_the_100_cm_line() -> None:
    cms = [feed(parser_for(MODELS["a02yyuw"]), [bytes.fromhex(h)])[0].cm
           for h in ("FF 03 E7 E9", "FF 03 E8 EA", "FF 03 E9 EB")]
    assert cms[0] is not None and cms[2] is not None
    assert cms[0] < 100.0 == cms[1] < cms[2]


def test_a_partial_frame_waits_for_its_bytes() -> None:
    parser = FFParser(MODELS["a02yyuw"])
    check(parser.feed(bytes.fromhex("FF 03 9D 9F FF 03 9D")), [(OK, 92.5)])
    assert parser.pending == 3
    check(parser.feed(b"\x9f"), [(OK, 92.5)])
    parser.feed(b"\xff\x07")
    parser.reset()
    check(parser.feed(bytes.fromhex("A1 A7 FF 07 A1 A7")), [(OK, 195.3)])


@pytest.mark.parametrize("model", FF_MODELS)
@pytest.mark.parametrize("mm", [20, 30, 229, 250, 255, 280, 304, 999, 1000, 4500, 4501, 6000,
                                7500, 7501])
def test_ff_range_gates(model: str, mm: int) -> None:
    limits = MODELS[model]
    cm = mm / 10
    expected = [(TOO_CLOSE, None)] if cm < limits.min_cm else \
        [(OUT, None)] if cm > limits.max_cm else [(OK, cm)]
    check_every_split(model, ff_frame(mm), expected)


def test_ff_gates_from_the_notes() -> None:
    def one(model: str, mm: int) -> Condition:
        return parser_for(MODELS[model]).feed(ff_frame(mm))[0].condition

    assert one("a02yyuw", 30) is OK
    assert one("a01nyub", 30) is one("jsn-sr04t", 30) is TOO_CLOSE
    assert one("a01nyub", 7500) is OK
    assert one("a02yyuw", 7500) is OUT


def test_ff_header_less_checksum() -> None:
    """Some AJ-SR04M leave the header out of the sum: `FF 03 E8 EB` is 1000 mm only then."""
    check_every_split("aj-sr04m", bytes.fromhex("FF 03 E8 EB"), [(OK, 100.0)],
                      header_in_checksum=False)
    check_every_split("aj-sr04m", bytes.fromhex("FF 03 E8 EB"), [(CSUM, None)])
    check_every_split("aj-sr04m", bytes.fromhex("FF 03 E8 EA"), [(CSUM, None)],
                      header_in_checksum=False)
    stream = ff_frame(0, header_in_checksum=False) + ff_frame(511, header_in_checksum=False)
    check_every_split("aj-sr04m", stream, [(NO_ECHO, None), (OK, 51.1)],
                      header_in_checksum=False)


def test_ff_in_cm_when_configured() -> None:
    check_every_split("a02yyuw", ff_frame(100), [(OK, 100.0)], unit="cm")


def test_a_lost_header_can_hide_the_next_frame() -> None:
    """Why the garbage generators below keep header bytes away from a planted frame: `FF 05`
    and the frame's own `FF 03` make a window whose checksum holds (FF+05+FF = 03), so the
    stream cannot tell it from a real 1535 mm frame, and the real one is consumed by it."""
    check(FFParser(MODELS["a02yyuw"]).feed(bytes.fromhex("FF 05 FF 03 9D 9F")), [(OK, 153.5)])


def test_a_stray_ff_before_an_impossible_window_hides_nothing() -> None:
    """`FF FF 03 01` passes its checksum (FF+FF+03 = 01) but says 65283 mm, which no model
    sends: one byte is dropped and `FF 03 01 03` (769 mm) is found, every time, and quietly
    (another 0xFF lies inside the bad window: a slipped boundary)."""
    check_every_split("a02yyuw", bytes.fromhex("FF FF 03 01 03") * 3, [(OK, 76.9)] * 3)


@pytest.mark.parametrize(("model", "header_in_checksum"),
                         [(name, True) for name in FF_MODELS] + [("aj-sr04m", False)])
def test_every_distance_survives_a_stray_ff(model: str, header_in_checksum: bool) -> None:
    """Every distance a model can read, after a stray 0xFF, is read. A window that starts at
    the stray byte passes its checksum when the low byte is the high byte - 2 (- 1 without
    the header in the sum), 1 distance in 256, and then says 65280 mm or more: impossible."""
    limits = MODELS[model]
    lost = []
    for mm in range(math.ceil(limits.min_cm * 10), int(limits.max_cm * 10) + 1):
        frame = ff_frame(mm, header_in_checksum=header_in_checksum)
        parser = parser_for(limits, header_in_checksum=header_in_checksum)
        got = parser.feed(b"\xff" + frame)
        if [(r.condition, r.cm, r.frame) for r in got] != [(OK, mm / 10, frame)]:
            lost.append(mm)
    assert lost == []


def test_an_impossible_frame_is_said_and_dropped_by_one_byte() -> None:
    """7500 mm is beyond the A02YYUW's 450 cm: OUT_OF_RANGE, said (no 0xFF inside it), and
    the parser looks again one byte on, where nothing starts; the next frame is read."""
    check_every_split("a02yyuw", bytes.fromhex("FF 1D 4C 68 FF 03 9D 9F"),
                      [(OUT, None), (OK, 92.5)])


# --- US-100 -------------------------------------------------------------------------------

@pytest.mark.parametrize(("hexes", "expected"), [
    ("03 E8", [(OK, 100.0)]),
    ("2B 52", [(INVALID, None)]),              # 11090: the timeout's bogus reply
    ("2B 66", [(INVALID, None)]),              # 11110
    ("2A F8", [(INVALID, None)]),              # 11000
    ("2A F7", [(OUT, None)]),                  # 10999
    ("11 95", [(OUT, None)]),                  # 4501
    ("11 94", [(OK, 450.0)]),
    ("00 14", [(OK, 2.0)]),
    ("00 13", [(TOO_CLOSE, None)]),
    ("", []),                                  # no reply: the reader's NO_REPLY
    ("03", []),                                # incomplete: the reader resets and retries
    ("60 03 E8", [(INVALID, None), (OK, 100.0)]),  # a stray byte, then the reply lines up
    ("12 03 E8", [(OUT, None), (OK, 100.0)]),      # 4611 mm: impossible, one byte dropped
    ("11 03 E8", [(OK, 435.5)]),                   # 4355 mm: possible, nothing tells it
    ("2B 52 03 E8", [(INVALID, None), (OK, 100.0)]),  # the timeout's code: a whole reply
])
def test_us100_vectors(hexes: str, expected: Expected) -> None:
    check_every_split("us-100", bytes.fromhex(hexes), expected)


def test_us100_reset_drops_a_partial_reply() -> None:
    parser = US100Parser(MODELS["us-100"])
    assert parser.feed(b"\x03") == []
    assert parser.pending == 1
    parser.reset()
    check(parser.feed(b"\x03\xe8"), [(OK, 100.0)])
    assert parser.pending == 0


def test_us100_temperature() -> None:
    assert us100_temperature(0x46) == 25.0
    assert us100_temperature(0) == -45.0


# --- MaxBotix -----------------------------------------------------------------------------

@pytest.mark.parametrize(("model", "text", "expected"), [
    ("maxbotix-lv", b"R039\r", [(OK, 99.06)]),
    ("maxbotix-lv", b"R040\r", [(OK, 101.6)]),
    ("maxbotix-xl", b"R100\r", [(OK, 100.0)]),
    ("maxbotix-hr", b"R1000\r", [(OK, 100.0)]),
    ("maxbotix-hr", b"R5000\r", [(NO_ECHO, None)]),
    ("maxbotix-hr", b"R0480 \r", [(OK, 48.0)]),
    *[(name, b"R12X\r", [(INVALID, None)])
      for name in ("maxbotix-lv", "maxbotix-xl", "maxbotix-hr")],
    ("maxbotix-lv", b"R12\r", [(INVALID, None)]),       # too few digits
    ("maxbotix-hr", b"R100\r", [(INVALID, None)]),
    ("maxbotix-lv", b"R255\r", [(OK, 647.7)]),
    ("maxbotix-lv", b"R256\r", [(OUT, None)]),
    ("maxbotix-xl", b"R765\r", [(OK, 765.0)]),
    ("maxbotix-xl", b"R019\r", [(TOO_CLOSE, None)]),
    ("maxbotix-hr", b"R0299\r", [(TOO_CLOSE, None)]),
    ("maxbotix-hr", b"R4999\r", [(OK, 499.9)]),
    # streams: junk skipped, a frame cut short by the next `R` dropped quietly
    ("maxbotix-hr", b"\x00\xffR1\rR0480\r9R10R1000\r", [(INVALID, None), (OK, 48.0),
                                                          (OK, 100.0)]),
    ("maxbotix-lv", b"RRR039\rR040", [(OK, 99.06)]),
    ("maxbotix-lv", b"R999\rR040\r", [(OUT, None), (OK, 101.6)]),
    ("maxbotix-hr", b"R9999\rR5000\r", [(OUT, None), (NO_ECHO, None)]),
])
def test_maxbotix_vectors(model: str, text: bytes, expected: Expected) -> None:
    check_every_split(model, text, expected)


def test_maxbotix_lv_never_lands_on_100_cm() -> None:
    cms = [feed(parser_for(MODELS["maxbotix-lv"]), [b"R%03d\r" % inches])[0].cm
           for inches in range(256)]
    assert 100.0 not in cms
    assert cms[39] == pytest.approx(99.06) and cms[40] == pytest.approx(101.6)


# --- Benewake -----------------------------------------------------------------------------

GOOD = "59 59 64 00 E8 03 F0 08 F9"
BENEWAKE_VECTORS: list[tuple[str, str, Expected]] = [
    *[(name, GOOD, [(OK, 100.0)]) for name in LASERS],
    *[(name, "59 59 65 00 E8 03 F0 08 FA", [(OK, 101.0)]) for name in LASERS],
    *[(name, "59 59 64 00 F4 01 C8 08 DA", [(CSUM, None)]) for name in LASERS],
    *[(name, "59 59 FF FF 50 00 F0 08 F8", [(WEAK, None)]) for name in ("tfmini", "tfmini-s")],
    # a TF-Luna sends no distance 0xFFFF (it says 0 with a low amp): beyond its 800 cm
    ("tf-luna", "59 59 FF FF 50 00 F0 08 F8", [(OUT, None)]),
    *[(name, "59 59 23 00 FF FF F0 08 CB", [(SAT, None)]) for name in LASERS],
    ("tf-luna", "59 59 00 00 32 00 F0 08 DC", [(NO_ECHO, None)]),    # "no target"
    ("tfmini-s", "59 59 00 00 32 00 F0 08 DC", [(WEAK, None)]),
    # streams: resync after a checksum error, and a header cut short by a lost byte
    ("tfmini-s", "59 59 64 00 F4 01 C8 08 DA " + GOOD, [(CSUM, None), (OK, 100.0)]),
    ("tfmini-s", "59 59 64 00 59 " + GOOD + " 59", [(OK, 100.0)]),
    ("tfmini-s", "00 59 00 59 " + GOOD + " " + GOOD, [(OK, 100.0), (OK, 100.0)]),
]


@pytest.mark.parametrize(("model", "hexes", "expected"), BENEWAKE_VECTORS)
def test_benewake_vectors(model: str, hexes: str, expected: Expected) -> None:
    check_every_split(model, bytes.fromhex(hexes), expected)


def test_benewake_strength_and_temperature() -> None:
    (reading,) = parser_for(MODELS["tfmini-s"]).feed(bytes.fromhex(GOOD))
    assert (reading.strength, reading.temperature_c, reading.frame) == (
        1000, 30.0, bytes.fromhex(GOOD))
    (luna,) = parser_for(MODELS["tf-luna"]).feed(bytes.fromhex("59 59 00 00 32 00 F0 08 DC"))
    assert (luna.strength, luna.temperature_c) == (50, 30.0)
    (old,) = parser_for(MODELS["tfmini"]).feed(bytes.fromhex(GOOD))
    assert (old.strength, old.temperature_c) == (1000, None)    # bytes 6-7: a mode byte


@pytest.mark.parametrize(("model", "dist", "strength", "expected"), [
    ("tfmini-s", 0xFFFF, 80, WEAK),            # -1
    ("tfmini-s", 0xFFFE, 500, SAT),            # -2: signal saturation
    ("tfmini-s", 0xFFFC, 500, SAT),            # -4: ambient light overload
    ("tfmini-s", 0xFFFD, 500, INVALID),        # -3: no such code
    ("tfmini-s", 100, 99, WEAK),
    ("tfmini-s", 100, 100, OK),
    ("tfmini-s", 10, 500, OK),
    ("tfmini-s", 9, 500, TOO_CLOSE),
    ("tfmini-s", 1201, 500, OUT),
    ("tf-luna", 0, 99, NO_ECHO),
    ("tf-luna", 150, 99, WEAK),
    ("tf-luna", 150, 0xFFFF, SAT),
    ("tf-luna", 19, 500, TOO_CLOSE),
    ("tf-luna", 800, 500, OK),
    ("tf-luna", 801, 500, OUT),
    ("tfmini", 0xFFFF, 500, WEAK),
    ("tfmini", 150, 19, WEAK),
    ("tfmini", 150, 20, OK),
    ("tfmini", 29, 500, TOO_CLOSE),
])
def test_benewake_codes_and_gates(model: str, dist: int, strength: int,
                                  expected: Condition) -> None:
    (reading,) = parser_for(MODELS[model]).feed(laser_frame(dist, strength))
    assert reading.condition is expected
    assert (reading.cm is not None) == (expected is OK)


def test_benewake_temperature_below_zero() -> None:
    (reading,) = parser_for(MODELS["tf-luna"]).feed(laser_frame(150, 500, temp_raw=2000))
    assert reading.temperature_c == -6.0


def test_tf_luna_in_mm() -> None:
    check_every_split("tf-luna", laser_frame(1000, 500), [(OK, 100.0)], unit="mm")
    check_every_split("tf-luna", laser_frame(100, 500), [(TOO_CLOSE, None)], unit="mm")
    check_every_split("tfmini-s", laser_frame(100, 500), [(OK, 10.0)], unit="mm")


def laser_ending_in(dist: int, last: int) -> bytes:
    """A valid frame of `dist` cm (strength 1000) whose checksum byte is `last`."""
    body = bytearray(laser_frame(dist, 1000)[:8])
    body[6] = (last - sum(body[:6]) - body[7]) & 0xFF       # the temperature's low byte
    return bytes(body) + bytes([last])


@pytest.mark.parametrize("model", LASERS)
def test_benewake_a_stray_59_before_an_impossible_window_hides_nothing(model: str) -> None:
    """`59 59 59 C1 01 41 0A F0 08` passes its checksum but says 0xC159 cm (a negative code
    on the TFmini-S): one byte is dropped and 449 cm is found."""
    check_every_split(model, bytes.fromhex("59 59 59 C1 01 41 0A F0 08 B7"), [(OK, 449.0)])


@pytest.mark.parametrize("model", LASERS)
def test_benewake_every_distance_survives_a_stray_59(model: str) -> None:
    """After a stray 0x59 a window starts one byte early; it says DL·256 + 89 cm, impossible
    for a low distance byte DL from 5 on (the module's docstring): then the frame is read."""
    limits, lost = MODELS[model], []
    for dist in range(math.ceil(limits.min_cm), int(limits.max_cm) + 1):
        for last in (0x00, 0x59, 0xFF, laser_frame(dist, 1000)[8]):
            frame = laser_ending_in(dist, last)
            got = parser_for(limits).feed(b"\x59" + frame)
            if dist & 0xFF >= 5 and [(r.condition, r.frame) for r in got] != [(OK, frame)]:
                lost.append((dist, last))
    assert lost == []


def test_benewake_a_frame_ending_in_59_is_no_half_header() -> None:
    """A frame whose checksum byte is 0x59, read to its end: that byte is used, not half of
    the next header. The next frame (512 cm), in a read of its own, is 512 cm, not the 89 cm
    the used byte and its header would make."""
    first = laser_ending_in(100, 0x59)
    body = bytearray(laser_frame(512, 1000)[:8])
    body[7] = (0x59 * 3 + sum(body[2:7])) & 0xFF     # the window from the used byte passes
    second = bytes(body) + bytes([sum(body) & 0xFF])
    parser = parser_for(MODELS["tfmini-s"])
    check(parser.feed(first), [(OK, 100.0)])
    assert parser.pending == 0
    check(parser.feed(second), [(OK, 512.0)])
    check_every_split("tfmini-s", first + second, [(OK, 100.0), (OK, 512.0)])


# --- garbage ------------------------------------------------------------------------------

# The garbage generators avoid exactly one thing: a header byte among the last (frame length
# - 1) garbage bytes before a planted frame, because such a byte can start a window that ends
# inside the planted frame and passes its checksum (see test_a_lost_header_can_hide_the_next_
# frame). MaxBotix needs no guard: a window can only end at a CR, and the planted frame's `R`
# breaks any window that reaches it. US-100 has no header at all, so the reader resets before
# each request: the garbage comes before the reset.

def guard(garbage: bytes, header: int, length: int) -> bytes:
    """The garbage with `header` among its last `length - 1` bytes changed (not removed:
    that would pull earlier bytes into the guarded tail)."""
    cut = max(0, len(garbage) - (length - 1))
    return garbage[:cut] + bytes(b ^ 1 if b == header else b for b in garbage[cut:])


def cut_into_chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(cut, len(data)) for cut in cuts} | {0, len(data)})
    return [data[a:b] for a, b in pairwise(points)]


def is_subsequence(wanted: list[bytes], got: list[bytes]) -> bool:
    it = iter(got)
    return all(any(frame == other for other in it) for frame in wanted)


def junk(frames: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    """Random bytes, heavy on header bytes, and whole frames and pieces of frames."""
    piece = st.one_of(st.binary(max_size=6), st.sampled_from([b"\xff", b"\x59\x59", b"R", b"\r"]),
                      frames,
                      st.tuples(frames, st.integers(0, 8)).map(lambda f: f[0][:f[1]]),
                      st.tuples(frames, st.integers(1, 8)).map(lambda f: f[0][f[1]:]))
    return st.lists(piece, max_size=8).map(b"".join)


garbage = st.binary(max_size=40)
cuts = st.lists(st.integers(0, 2000), max_size=30)


def ff_frames(model: str) -> st.SearchStrategy[bytes]:
    limits = MODELS[model]
    low, high = int(limits.min_cm * 10), int(limits.max_cm * 10)
    return st.integers(low, high).map(ff_frame)


def laser_frames() -> st.SearchStrategy[bytes]:
    return st.builds(laser_frame, st.integers(10, 1200), st.integers(100, 0xFFFE),
                     st.integers(0, 0xFFFF))


def hr_frames() -> st.SearchStrategy[bytes]:
    return st.builds(lambda mm, space: b"R%04d%s\r" % (mm, b" " if space else b""),
                     st.integers(300, 4999), st.booleans())


# Well-formed frames with any value (special codes, out of range) for the garbage.
any_ff = st.integers(0, 0xFFFF).map(ff_frame)
any_laser = st.builds(laser_frame, st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
                      st.integers(0, 0xFFFF))
any_hr = st.integers(0, 9999).map(lambda mm: b"R%04d\r" % mm)


def planted_stream(pairs: list[tuple[bytes, bytes]], header: int | None, length: int) -> bytes:
    if header is None:
        return b"".join(junk + frame for junk, frame in pairs)
    return b"".join(guard(junk, header, length) + frame for junk, frame in pairs)


@cache
def garbage_and_planted(frames: st.SearchStrategy[bytes], anything: st.SearchStrategy[bytes],
                        ) -> tuple[st.SearchStrategy[bytes],
                                   st.SearchStrategy[list[tuple[bytes, bytes]]]]:
    """The garbage of a model's stream, and the (garbage, frame) pairs it plants: built once
    a model, not once an example (a strategy is a description; building it again draws the
    same and costs hypothesis its checks each time)."""
    garbage = junk(st.one_of(frames, anything))
    return garbage, st.lists(st.tuples(garbage, frames), min_size=1, max_size=8)


@pytest.mark.parametrize(("model", "frames", "anything", "header", "length"), [
    ("a02yyuw", ff_frames("a02yyuw"), any_ff, 0xFF, 4),
    ("a01nyub", ff_frames("a01nyub"), any_ff, 0xFF, 4),
    ("tfmini-s", laser_frames(), any_laser, 0x59, 9),
    ("maxbotix-hr", hr_frames(), any_hr, None, 0),
])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_valid_frames_are_found_among_garbage(model: str, frames: st.SearchStrategy[bytes],
                                              anything: st.SearchStrategy[bytes],
                                              header: int | None, length: int,
                                              data: st.DataObject) -> None:
    """Guarantee: whatever garbage (any bytes, frames and pieces of frames) comes before each
    valid frame, and in any split into chunks: no exception, every OK reading is inside the
    model's range, and the planted frames appear, in order, among the OK readings' frames,
    provided the garbage has no header byte among its last (frame length - 1) bytes (MaxBotix
    needs no such guard; see above). Garbage may add readings of its own (a random window can
    pass a checksum), so the planted frames are a subsequence, not the whole list."""
    garbage, planted = garbage_and_planted(frames, anything)
    pairs = data.draw(planted)
    stream = planted_stream(pairs, header, length) + data.draw(garbage)
    parser = parser_for(MODELS[model])
    got = feed(parser, cut_into_chunks(stream, data.draw(cuts)))
    ok = [r for r in got if r.condition is OK]
    limits = MODELS[model]
    assert all(r.cm is not None and limits.min_cm <= r.cm <= limits.max_cm for r in ok)
    assert is_subsequence([frame for _, frame in pairs], [r.frame for r in ok])


@settings(max_examples=150, deadline=None)
@given(pairs=st.lists(st.tuples(garbage, st.integers(20, 4500)), min_size=1, max_size=8),
       data=st.data())
def test_us100_replies_after_a_reset_are_found(pairs: list[tuple[bytes, int]],
                                               data: st.DataObject) -> None:
    """Guarantee: whatever garbage came before, the reply fed after `reset()` (the reader's
    flush before each request), in any split, is the next reading."""
    parser = US100Parser(MODELS["us-100"])
    for junk, mm in pairs:
        feed(parser, cut_into_chunks(junk, data.draw(cuts)))
        parser.reset()
        reply = mm.to_bytes(2, "big")
        check(feed(parser, cut_into_chunks(reply, data.draw(cuts))), [(OK, mm / 10)])


@pytest.mark.parametrize("model", list(MODELS))
@settings(max_examples=100, deadline=None)
@given(stream=st.binary(max_size=600), chunk_cuts=cuts)
def test_any_bytes_bounded_memory(model: str, stream: bytes, chunk_cuts: list[int]) -> None:
    """Any bytes in any split: no exception, at most one partial frame kept, and OK readings
    only inside the model's range."""
    parser = parser_for(MODELS[model])
    limit = {"ff": 3, "us100": 1, "maxbotix": 6, "benewake": 8}[MODELS[model].family]
    for chunk in cut_into_chunks(stream, chunk_cuts):
        for reading in parser.feed(chunk):
            assert isinstance(reading.condition, Condition)
            if reading.condition is OK:
                assert reading.cm is not None
                assert MODELS[model].min_cm <= reading.cm <= MODELS[model].max_cm
            else:
                assert reading.cm is None
        assert parser.pending <= limit  # type: ignore[attr-defined]


def test_headers_only() -> None:
    """Long runs of header bytes keep at most one partial frame."""
    for model, junk in (("a02yyuw", b"\xff" * 1000), ("tfmini-s", b"\x59" * 1000),
                        ("maxbotix-hr", b"R" * 1000)):
        parser = parser_for(MODELS[model])
        parser.feed(junk)
        assert parser.pending < 9  # type: ignore[attr-defined]


# --- against the reference decoder ----------------------------------------------------------

def frames_of(model: str) -> st.SearchStrategy[bytes]:
    """Well-formed frames of the model's family with any value, special codes included."""
    family = MODELS[model].family
    if family == "ff":
        return any_ff
    if family == "benewake":
        return any_laser
    if family == "us100":
        return st.integers(0, 0xFFFF).map(lambda raw: raw.to_bytes(2, "big"))
    digits = 4 if MODELS[model].unit == "mm" else 3
    return st.builds(lambda raw, space: b"R%0*d%s\r" % (digits, raw, b" " if space else b""),
                     st.integers(0, 10 ** digits - 1), st.booleans())


@cache
def reference_streams(model: str) -> st.SearchStrategy[bytes]:
    """Pieces of the model's frames, runs of header bytes and random bytes: built once a
    model, not once an example."""
    runs = st.tuples(st.sampled_from(b"\xff\x59R\r "), st.integers(1, 12)).map(
        lambda run: bytes([run[0]]) * run[1])
    return st.lists(st.one_of(junk(frames_of(model)), runs), max_size=6).map(b"".join)


SETUPS = [(name, {}) for name in MODELS] + [
    ("aj-sr04m", {"header_in_checksum": False}), ("tf-luna", {"unit": "mm"})]


@pytest.mark.parametrize(("model", "options"), SETUPS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_parsers_read_what_the_reference_reads(model: str, options: dict[str, Any],
                                                   data: st.DataObject) -> None:
    """Frames of the model, impossible ones, pieces, runs of header bytes and random bytes,
    in any split: exactly the readings of tests/device/range_reference.py, which decodes
    the whole stream at once from the notes (the seeded fuzz of bench/range_fuzz.py does
    the same at scale: tests/device/ports/test_range_fuzz.py)."""
    stream = data.draw(reference_streams(model))
    got = feed(parser_for(MODELS[model], **options), cut_into_chunks(stream, data.draw(cuts)))
    assert [(r.condition.value, r.frame, r.cm) for r in got] == decode(stream, model, **options)
