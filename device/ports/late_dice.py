"""The smart dice port made at its first use: a box with Bluetooth dice switched on but none
paired starts without loading the adapter (asyncio, then bleak and D-Bus on its thread), and
loads it when a die is paired or the players scan for dice."""
from __future__ import annotations

from collections.abc import Callable, Mapping

from cobi_companion.device.ports.smart_dice import RGB, SmartDice

# Why there are no Bluetooth dice on a box without bleak (ports/ble_dice.py says it too).
NO_BLEAK = "the Bluetooth library (bleak) is not installed: a 32-bit system has none"


class LateDice:
    """`make()`'s port, made when a die is to be kept or scanned for; until then the paired
    dice (none) are only noted."""

    def __init__(self, make: Callable[[], SmartDice]) -> None:
        self.make = make
        self.port: SmartDice | None = None
        self.kept: dict[str, str] = {}
        self.started = False

    def _now(self) -> SmartDice:
        if self.port is None:
            self.port = self.make()
            self.port.keep(self.kept)
            if self.started:
                self.port.start()
        return self.port

    def start(self) -> LateDice:
        self.started = True
        if self.port is not None:
            self.port.start()
        elif self.kept:
            self._now()
        return self

    def close(self) -> None:
        if self.port is not None:
            self.port.close()

    def scan(self, seconds: float) -> None:
        self._now().scan(seconds)

    def keep(self, dice: Mapping[str, str]) -> None:
        self.kept = dict(dice)
        if self.port is not None:
            self.port.keep(dice)
        elif dice and self.started:
            self._now()

    def light(self, die: str, colour: RGB | None) -> None:
        if self.port is not None:
            self.port.light(die, colour)

    def flash(self, die: str) -> None:
        if self.port is not None:
            self.port.flash(die)
