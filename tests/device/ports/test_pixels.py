"""Pixels: byte sequences written out by hand from the makers' documents (GameWithPixels/.github
doc/CommunicationsProtocol.md; DiceFirmware src/bluetooth/bluetooth_messages.h and the enums it
names), never made by the module's own encoder: a whole throw, each roll state that is no
roll, battery, colour (both IAmADie layouts), every face of a D6, the commands' exact bytes,
garbage, and what an advertisement must say."""
from __future__ import annotations

import pytest
from cobi_companion.device.ports import pixels
from cobi_companion.device.ports.die_protocols import protocol_of
from cobi_companion.device.ports.die_readings import Battery, Colour, NotARoll, Rolling, Settled
from hypothesis import given
from hypothesis import strategies as st

# RollState: 0x03, state, face index. States: 0 unknown, 1 rolled, 2 handling, 3 rolling,
# 4 crooked, 5 on face.


def read(*messages: bytes) -> list[object]:
    decoder = pixels.decoder()
    return [reading for message in messages for reading in decoder.feed(message)]


@pytest.mark.parametrize("face", range(1, 7))
def test_every_face_of_a_d6(face: int) -> None:
    assert read(bytes([0x03, 0x01, face - 1])) == [Settled(face)]


def test_a_whole_throw() -> None:
    assert read(b"\x03\x02\x00", b"\x03\x03\x04", b"\x03\x03\x01", b"\x03\x01\x04") == [
        NotARoll("handled"), Rolling(), Rolling(), Settled(5)]


def test_what_is_no_roll() -> None:
    assert read(b"\x03\x04\x02") == [NotARoll("tilted", 3)]       # crooked
    assert read(b"\x03\x05\x05") == [NotARoll("moved", 6)]        # on face, never thrown
    assert read(b"\x03\x02\x03") == [NotARoll("handled")]         # in a hand
    assert read(b"\x03\x00\x01") == []                            # unknown
    assert read(b"\x03\x06\x01") == []                            # no such state


def test_a_face_a_d6_has_not_is_no_roll() -> None:
    assert read(b"\x03\x01\x06") == []                     # face index 6: a seventh face
    assert read(b"\x03\x01\x13") == []
    assert read(b"\x03\x04\x09") == [NotARoll("tilted")]


def test_battery_level() -> None:
    # 0x22 (34), level, state: 0 ok, 1 low, 2 charging, 3 done, 4 bad charging, 5 error.
    assert read(b"\x22\x4b\x00") == [Battery(75)]
    assert read(b"\x22\x0a\x01") == [Battery(10)]
    assert read(b"\x22\x32\x02") == [Battery(50, charging=True)]
    assert read(b"\x22\x64\x03") == [Battery(100, charging=True)]
    assert read(b"\x22\x32\x04") == [Battery(50)]
    assert read(b"\x22\x65\x00") == []                     # 101 %
    assert read(b"\x22\x4b") == []                         # truncated


# The first firmware's IAmADie, 22 bytes: type 2, 6 LEDs, colourway 3 (midnight galaxy), die
# type 2 (D6), data set hash, pixel id 0x1A2B3C4D, 2048 bytes of flash, build time, roll
# state 5 (on face), face index 2, battery 64 %, battery state 2 (charging).
LEGACY = bytes.fromhex("02 06 03 02 0b7a4757 4d3c2b1a 0008 00f15365 05 02 40 02")

# Today's IAmADie in chunks, each led by its size (that byte counted): version (15: firmware
# version, build time 2025-01-01 00:00 UTC, settings and three API versions), die info
# (10: id, chip 1, die type 2, 6 LEDs, colourway 1 onyx black, run mode 0), the custom design
# name (32, empty), the die's name (32: "Pixel1a2b3c4d"), settings (13), status (5: 88 %,
# state 0, roll state 5, face index 0).
CHUNKED = (bytes.fromhex("02")
           + bytes.fromhex("0f 0001 80857467 0001 0001 0001 0001")
           + bytes.fromhex("0a 4d3c2b1a 01 02 06 01 00")
           + bytes([32]) + bytes(31)
           + bytes([32]) + b"Pixel1a2b3c4d" + bytes(18)
           + bytes.fromhex("0d 0b7a4757 00100000 00200000")
           + bytes.fromhex("05 58 00 05 00"))


def test_i_am_a_die_gives_colour_and_battery() -> None:
    assert len(LEGACY) == 22 and len(CHUNKED) == 108
    assert read(LEGACY) == [Colour("midnight_galaxy"), Battery(64, charging=True)]
    assert read(CHUNKED) == [Colour("onyx_black"), Battery(88)]
    assert read(CHUNKED[:-3]) == []                                # truncated
    assert read(CHUNKED[:27]) == []


def test_every_colourway() -> None:
    names = {1: "onyx_black", 2: "hematite_grey", 3: "midnight_galaxy", 4: "aurora_sky",
             5: "clear", 6: "white_aurora", 255: "custom"}
    for number, name in names.items():
        message = LEGACY[:2] + bytes([number]) + LEGACY[3:]
        assert read(message)[0] == Colour(name)
    assert read(LEGACY[:2] + b"\x00" + LEGACY[3:]) == [Battery(64, charging=True)]
    assert set(pixels.COLOURS) == set(names.values())


def test_a_die_that_is_no_d6_gives_no_faces() -> None:
    d20 = LEGACY[:3] + b"\x07" + LEGACY[4:]                        # die type 7: D20
    assert read(d20, b"\x03\x03\x04", b"\x03\x01\x04") == [
        Colour("midnight_galaxy"), Battery(64, charging=True), Rolling()]
    pipped = LEGACY[:3] + b"\x08" + LEGACY[4:]                     # 8: pipped D6
    assert read(pipped, b"\x03\x01\x04")[-1] == Settled(5)


@pytest.mark.parametrize("garbage", [
    b"", b"\x03", b"\x03\x01", b"\x22", b"\x02", b"\x02\x00", b"\x02\x05\x05",
    b"\x1e", b"\x00\x00\x00", b"\xff\x01\x02", b"\x04" + bytes(40)])
def test_garbage_truncated_and_unknown_read_nothing(garbage: bytes) -> None:
    assert read(garbage) == []


# Random bytes, and random bodies after each message type the box reads (which random bytes
# alone would seldom begin with), an IAmADie's of every length up to a whole one and more.
MESSAGES = st.one_of(st.binary(max_size=120), st.builds(
    bytes.__add__, st.sampled_from([b"\x02", b"\x03", b"\x22"]), st.binary(max_size=120)))


@given(st.lists(MESSAGES, max_size=8))
def test_random_bytes_never_raise(messages: list[bytes]) -> None:
    decoder = pixels.decoder()
    for message in messages:
        for reading in decoder.feed(message):
            if isinstance(reading, Settled | NotARoll) and reading.face is not None:
                assert 1 <= reading.face <= 6
            if isinstance(reading, Battery):
                assert 0 <= reading.percent <= 100
            if isinstance(reading, Colour):
                assert reading.name in pixels.COLOURS


def test_the_commands_bytes() -> None:
    assert pixels.hello() == [b"\x01", b"\x21"]            # WhoAreYou, RequestBatteryLevel
    assert pixels.ask_battery() == b"\x21"
    # Blink (29): count, duration (2, little endian), colour ARGB (4, little endian: B G R A),
    # face mask (4: every face), fade, loop count.
    assert pixels.light((255, 0, 0)) == bytes.fromhex("1d 01 b80b 0000ff00 ffffffff 80 ff")
    assert pixels.light((0, 64, 128)) == bytes.fromhex("1d 01 b80b 80400000 ffffffff 80 ff")
    assert pixels.light(None) == b"\x3b"                  # StopAllAnims (59)
    assert pixels.flash() == bytes.fromhex("1d 03 dc05 ffffff00 ffffffff 00 01")


def test_the_uuids_and_what_it_advertises() -> None:
    assert pixels.SERVICE == "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
    assert pixels.NOTIFY == "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
    assert pixels.WRITE == "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
    assert pixels.advertises("Pixel1a2b3c4d", ["0000180a-0000-1000-8000-00805f9b34fb",
                                               "a6b90001-7a5a-43f2-a962-350c8edc9b5b"])
    assert pixels.advertises(None, ["A6B90001-7A5A-43F2-A962-350C8EDC9B5B"])
    assert not pixels.advertises("Pixel1a2b3c4d", ["6e400001-b5a3-f393-e0a9-e50e24dcca9e"])
    assert not pixels.advertises("GoDice_6C32A1_K_v04", [])
    assert protocol_of("My red one", [pixels.SERVICE]) is pixels


def test_older_firmware_mended_as_the_makers_library_does() -> None:
    """Built by 2024-01-01 23:00 UTC, a D6's faces 2 to 5 were reversed; built before
    2024-05-22 13:00 UTC, a D6 lying flat could say crooked, which its makers read as rolled."""
    old_d6 = LEGACY[:3] + b"\x02" + LEGACY[4:]          # built 2023-11-14 (0x6553f100)
    rolled = [bytes([0x03, 0x01, index]) for index in range(6)]
    assert read(old_d6, *rolled)[2:] == [Settled(face) for face in (1, 5, 4, 3, 2, 6)]
    assert read(old_d6, b"\x03\x04\x01")[2:] == [Settled(5)]
    spring = LEGACY[:3] + b"\x02" + LEGACY[4:14] + bytes.fromhex("8087ec65") + LEGACY[18:]
    assert read(spring, *rolled)[2:] == [Settled(face) for face in range(1, 7)]   # 2024-03-09
    assert read(spring, b"\x03\x04\x01")[2:] == [Settled(2)]
    # Today's firmware (CHUNKED: 2025), and a die that has not said yet: nothing mended.
    assert read(CHUNKED, *rolled)[2:] == [Settled(face) for face in range(1, 7)]
    assert read(CHUNKED, b"\x03\x04\x01")[2:] == [NotARoll("tilted", 2)]
    assert read(b"\x03\x01\x01", b"\x03\x04\x01") == [Settled(2), NotARoll("tilted", 2)]
