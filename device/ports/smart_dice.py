"""Smart dice as the box drives them: scan, keep the paired dice connected, light and flash
them. What they say comes back as events on the main loop's queue (ports/events.py
`DieFound`, `ScanDone`, `DieSaid`, `DieLink`), never as calls into the app.

`NoSmartDice` is the port of a box without Bluetooth (or with smart dice off); the real
adapter is `ble_dice.BleDice` (bleak, on a thread of its own); the simulator's and the
tests' double is `fake_dice.FakeDice`."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

RGB = tuple[int, int, int]


class SmartDice(Protocol):
    def start(self) -> SmartDice:
        """Begin: connect the dice kept (`keep`), in the background."""
        ...

    def close(self) -> None:
        """Disconnect every die and end the background work; never blocks for long."""
        ...

    def scan(self, seconds: float) -> None:
        """Look for dice for `seconds`: each one seen is a `DieFound`, then a `ScanDone`."""
        ...

    def keep(self, dice: Mapping[str, str]) -> None:
        """The paired dice (id → kind): connect each, and again after it sleeps or leaves;
        a die no longer in the mapping is let go."""
        ...

    def light(self, die: str, colour: RGB | None) -> None:
        """Light the die's LEDs in `colour`, or turn them off (None); nothing for a die
        without LEDs or not connected."""
        ...

    def flash(self, die: str) -> None:
        """Blink the die so the players see which one it is."""
        ...


class NoSmartDice:
    """No smart dice: nothing is found, nothing connects."""

    def __init__(self, problem: str = "") -> None:
        self.problem = problem      # why there are none ("" where none were asked for)

    def start(self) -> NoSmartDice:
        return self

    def close(self) -> None:
        pass

    def scan(self, seconds: float) -> None:
        pass

    def keep(self, dice: Mapping[str, str]) -> None:
        pass

    def light(self, die: str, colour: RGB | None) -> None:
        pass

    def flash(self, die: str) -> None:
        pass
