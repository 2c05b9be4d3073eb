"""The smart dice protocols by maker, each module of the same shape (`DieProtocol`): the
Bluetooth adapter finds, connects and reads every die alike through it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cobi_companion.device.ports.die_readings import GODICE, PIXELS, Reading

RGB = tuple[int, int, int]


class Decoder(Protocol):
    def feed(self, data: bytes) -> list[Reading]:
        """The readings in one notification's bytes; garbage gives none, never an error."""
        ...


class DieProtocol(Protocol):
    """What a maker's module gives (`godice.py`, `pixels.py`)."""

    KIND: str           # die_readings.GODICE or PIXELS
    SERVICE: str        # the GATT service's UUID, lower case
    NOTIFY: str         # the characteristic the die notifies on
    WRITE: str          # the characteristic the box writes its commands to

    def advertises(self, name: str | None, service_uuids: Sequence[str]) -> bool:
        """Whether an advertisement (its local name, its service UUIDs) is this maker's die."""
        ...

    def decoder(self) -> Decoder:
        """A decoder for one connected die (it may keep state between notifications)."""
        ...

    def hello(self) -> list[bytes]:
        """The commands sent right after connecting (ask its colour, its battery, ...)."""
        ...

    def ask_battery(self) -> bytes: ...

    def light(self, colour: RGB | None) -> bytes | None:
        """The command that lights its LEDs in `colour` (None: off); None: it has none."""
        ...

    def flash(self) -> bytes:
        """The command that blinks it, to show the players which die it is."""
        ...


def protocols() -> dict[str, DieProtocol]:
    """Each maker's module by kind, imported when first asked for."""
    from cobi_companion.device.ports import godice, pixels

    return {GODICE: godice, PIXELS: pixels}


def protocol_of(name: str | None, service_uuids: Sequence[str]) -> DieProtocol | None:
    """The protocol of an advertisement, or None for anything that is not a die we read."""
    return next((p for p in protocols().values() if p.advertises(name, service_uuids)), None)
