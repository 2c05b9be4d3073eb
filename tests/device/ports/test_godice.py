"""GoDice: byte sequences written out by hand from Particula's documents (GoDiceJavaScriptAPI
README.md and godice.js; GoDiceAndroid_iOS_API common/godiceapi.c), never made by the module's
own encoder: a whole throw, each stable that is no roll, battery, charging, colour, every face
of the D6 shell, the commands' exact bytes, garbage, and what an advertisement must say."""
from __future__ import annotations

import pytest
from cobi_companion.device.ports import godice
from cobi_companion.device.ports.die_protocols import protocol_of
from cobi_companion.device.ports.die_readings import Battery, Colour, NotARoll, Rolling, Settled
from hypothesis import given
from hypothesis import strategies as st

# "S" (0x53) and the three signed axis bytes. The documents' D6 vectors: 1 (-64,0,0),
# 2 (0,0,64), 3 (0,64,0), 4 (0,-64,0), 5 (0,0,-64), 6 (64,0,0); -64 is 0xC0.
EXACT = {1: b"S\xc0\x00\x00", 2: b"S\x00\x00\x40", 3: b"S\x00\x40\x00",
         4: b"S\x00\xc0\x00", 5: b"S\x00\x00\xc0", 6: b"S\x40\x00\x00"}
# As a die measures them: near, not on (-59 is 0xC5, -3 0xFD, 58 0x3A, ...).
MEASURED = {1: b"S\xc5\x05\xfd", 2: b"S\x04\xfa\x3a", 3: b"S\xfb\x3c\x06",
            4: b"S\x02\xc3\x07", 5: b"S\x06\x03\xc4", 6: b"S\x3e\xfc\x02"}


def read(*messages: bytes) -> list[object]:
    decoder = godice.decoder()
    return [reading for message in messages for reading in decoder.feed(message)]


@pytest.mark.parametrize("face", range(1, 7))
def test_every_face_of_the_d6_shell(face: int) -> None:
    assert read(EXACT[face]) == [Settled(face)]
    assert read(MEASURED[face]) == [Settled(face)]


@given(st.integers(1, 6), st.tuples(*[st.integers(-20, 20)] * 3))
def test_a_vector_near_a_faces_is_that_face(face: int, error: tuple[int, int, int]) -> None:
    x, y, z = (a + e for a, e in zip(godice.D6_VECTORS[face], error, strict=True))
    assert godice.face_of(x, y, z) == face
    message = b"S" + bytes(v & 0xFF for v in (x, y, z))              # as signed bytes
    assert read(message) == [Settled(face)]


def test_a_whole_throw_is_rolling_then_settled() -> None:
    assert read(b"R", b"S\x3e\xfc\x02") == [Rolling(), Settled(6)]


def test_stable_without_a_throw_is_no_roll() -> None:
    # "TS": stable, not flat (a die against a model); "FS" after a fake roll; "MS" after a
    # small move. Each with the face nearest its vector, never a roll.
    assert read(b"R", b"TS\x26\x24\x0c") == [Rolling(), NotARoll("tilted", 6)]
    assert read(b"FS\x00\x40\x00") == [NotARoll("handled", 3)]
    assert read(b"MS\x00\xc0\x00") == [NotARoll("moved", 4)]


def test_battery_colour_and_charging() -> None:
    assert read(b"Bat\x57") == [Battery(87)]                      # "Bat" + 87 %
    assert read(b"Bat\x00") == [Battery(0)]
    assert read(b"Bat\x64", b"Char\x01", b"Char\x00") == [
        Battery(100), Battery(100, charging=True), Battery(100)]
    assert read(b"Char\x01") == []          # on the charger, its level not known yet
    assert read(b"Char\x01", b"Bat\x14") == [Battery(20, charging=True)]
    names = ["black", "red", "green", "blue", "yellow", "orange"]
    assert [read(b"Col" + bytes([n])) for n in range(6)] == [[Colour(n)] for n in names]
    assert tuple(names) == godice.COLOURS


@pytest.mark.parametrize("garbage", [
    b"", b"S", b"S\x00\x40", b"S\x00\x40\x00\x00", b"TS\x00\x40", b"XS\x00\x40\x00",
    b"Bat", b"Bat\x65", b"Bat\xff", b"Col\x06", b"Col", b"Char\x02", b"Char",
    b"Tap", b"DTap", b"\x00\xff\x10", b"hello"])
def test_garbage_truncated_unknown_and_taps_read_nothing(garbage: bytes) -> None:
    assert read(garbage) == []


# Random bytes, and random tails after each message's own letters (which random bytes alone
# would hardly ever begin with).
MESSAGES = st.one_of(st.binary(max_size=24), st.builds(
    bytes.__add__, st.sampled_from([b"R", b"S", b"TS", b"FS", b"MS", b"Bat", b"Char", b"Col"]),
    st.binary(max_size=6)))


@given(st.lists(MESSAGES, max_size=8))
def test_random_bytes_never_raise(messages: list[bytes]) -> None:
    decoder = godice.decoder()
    for message in messages:
        for reading in decoder.feed(message):
            if isinstance(reading, Settled | NotARoll) and reading.face is not None:
                assert 1 <= reading.face <= 6
            if isinstance(reading, Battery):
                assert 0 <= reading.percent <= 100


def test_the_commands_bytes() -> None:
    assert godice.hello() == [b"\x17", b"\x03"]                    # colour, battery
    assert godice.ask_battery() == b"\x03"
    # 8, LED 1's R G B, LED 2's R G B; off is all zeros.
    assert godice.light((255, 0, 0)) == b"\x08\xff\x00\x00\xff\x00\x00"
    assert godice.light((0, 128, 255)) == b"\x08\x00\x80\xff\x00\x80\xff"
    assert godice.light(None) == b"\x08\x00\x00\x00\x00\x00\x00"
    assert godice.light((300, -5, 7)) == b"\x08\xff\x00\x07\xff\x00\x07"
    # 16, three pulses of 25 × 10 ms on and off, white, both LEDs together (1), both (0).
    assert godice.flash() == b"\x10\x03\x19\x19\xff\xff\xff\x01\x00"


def test_the_uuids_and_what_it_advertises() -> None:
    assert godice.SERVICE == "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    assert godice.WRITE == "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
    assert godice.NOTIFY == "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
    assert godice.advertises("GoDice_6C32A1_K_v04", [])
    assert godice.advertises("GoDice_6C32A1_K_v04", [godice.SERVICE])
    assert not godice.advertises("Pixel1a2b3c4d", [godice.SERVICE])   # an old Pixel
    assert not godice.advertises(None, [godice.SERVICE])
    assert not godice.advertises("godice", [])
    assert protocol_of("GoDice_6C32A1_K_v04", []) is godice
