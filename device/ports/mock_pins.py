"""gpiozero's mock pins with each edge stamped by a clock of ours instead of the real time.

The inputs' debounce times edges by the stamps their pins give (on a Pi the kernel's). A mock
panel that lets a finger's gap pass on a clock instead of sleeping it (the simulator's, the
tests') stamps the edges with that clock, so that two taps it makes in a row are as far apart
as the finger meant, not the microseconds they really took.
"""
from __future__ import annotations

from collections.abc import Callable

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin


class StampedPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock pin (with PWM, for the buzzer) whose edges carry its factory's ticks."""

    def _call_when_changed(self) -> None:
        # MockPin hands on the real time of the change; its parent takes any ticks.
        super(MockPin, self)._call_when_changed(self.factory.ticks(), self.state)


class StampedFactory(MockFactory):  # type: ignore[misc]
    """Mock pins whose edges, and whose factory's ticks, read `clock`."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__(pin_class=StampedPin)
        self.clock = clock

    def ticks(self) -> float:
        return self.clock()
