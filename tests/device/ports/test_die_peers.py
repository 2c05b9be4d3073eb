"""The virtual dice's side (tests/system/die_peers.py, standard library only, written apart
from the decoders) and the box's side (device/ports/godice.py, pixels.py) agree: every throw,
tilt, move and answer a peer sends reads as it should, and every command the box sends does
to a peer what it should."""
from __future__ import annotations

from typing import Any

import pytest
from cobi_companion.device.ports.die_protocols import protocol_of, protocols
from cobi_companion.device.ports.die_readings import (
    GODICE,
    KINDS,
    PIXELS,
    Battery,
    Colour,
    NotARoll,
    Reading,
    Rolling,
    Settled,
)

from tests.system.die_peers import PEERS, GoDicePeer, PixelPeer

NAMES = {GODICE: "GoDice_6C32A1_K_v04", PIXELS: "Pixel1a2b3c4d"}


def make(kind: str, battery: int = 90) -> GoDicePeer | PixelPeer:
    peer = PEERS[kind](NAMES[kind], PEERS[kind].COLOURS[1], battery)
    assert kind == peer.KIND
    return peer


def read(decoder: Any, messages: list[bytes]) -> list[Reading]:
    return [reading for message in messages for reading in decoder.feed(message)]


def test_a_peer_for_every_kind_with_its_protocols_uuids() -> None:
    assert set(PEERS) == set(KINDS)
    for kind, protocol in protocols().items():
        peer = make(kind)
        assert (peer.SERVICE, peer.NOTIFY, peer.WRITE) == (
            protocol.SERVICE, protocol.NOTIFY, protocol.WRITE)
        assert protocol_of(peer.name, peer.advertised_services()) is protocol


@pytest.mark.parametrize("kind", KINDS)
def test_throws_on_every_face_then_tilts_and_moves(kind: str) -> None:
    peer, decoder = make(kind), protocols()[kind].decoder()
    for face in (1, 2, 3, 4, 5, 6, 6, 1, 3):
        readings = read(decoder, peer.throw(face))
        assert Rolling() in readings
        assert [r for r in readings if isinstance(r, Settled)] == [Settled(face)]
        assert readings[-1] == Settled(face)
    for sent in (peer.tilt(), peer.move()):
        readings = read(decoder, sent)
        assert not any(isinstance(r, Settled) for r in readings)
        assert isinstance(readings[-1], NotARoll)
    assert read(decoder, peer.tilt())[-1].why == "tilted"           # type: ignore[union-attr]
    assert read(decoder, peer.move())[-1].why == "moved"            # type: ignore[union-attr]


@pytest.mark.parametrize("kind", KINDS)
def test_hello_gets_its_colour_and_battery(kind: str) -> None:
    protocol = protocols()[kind]
    peer, decoder = make(kind, battery=42), protocol.decoder()
    answers = [a for command in protocol.hello() for a in peer.answer(command)]
    readings = read(decoder, answers)
    assert Colour(peer.colour) in readings
    assert Battery(42) in readings
    assert read(decoder, peer.answer(protocol.ask_battery())) == [Battery(42)]


@pytest.mark.parametrize("kind", KINDS)
def test_light_and_flash_reach_the_peer(kind: str) -> None:
    protocol = protocols()[kind]
    peer, decoder = make(kind), protocol.decoder()
    assert peer.lit is None and peer.flashes == 0
    for colour in ((200, 30, 0), (0, 90, 255)):
        command = protocol.light(colour)
        assert command is not None
        assert read(decoder, peer.answer(command)) == []       # an acknowledgement at most
        assert peer.lit == colour
    off = protocol.light(None)
    assert off is not None
    peer.answer(off)
    assert peer.lit is None
    peer.answer(protocol.flash())
    peer.answer(protocol.flash())
    assert peer.flashes == 2 and peer.lit is None


def test_a_pixels_advertisement() -> None:
    peer = PixelPeer("Pixel1a2b3c4d", "aurora_sky", battery=77)
    # LED count, D6 (2) << 4 | colourway 4, on face, face index 0, 77 %.
    assert peer.manufacturer_data() == {0x0D39: bytes([6, 0x24, 5, 0, 77])}
    assert GoDicePeer("GoDice_6C32A1_K_v04", "red").manufacturer_data() == {}
    with pytest.raises(ValueError):
        GoDicePeer("GoDice_6C32A1_K_v04", "purple")
    with pytest.raises(ValueError):
        peer.throw(7)
