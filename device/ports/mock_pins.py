"""gpiozero's mock pins with each edge stamped by a clock of ours instead of the real time.

The inputs' debounce times edges by the stamps their pins give (on a Pi the kernel's). A mock
panel that lets a finger's gap pass on a clock instead of sleeping it (the simulator's, the
tests') stamps the edges with that clock, so that two taps it makes in a row are as far apart
as the finger meant, not the microseconds they really took.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
        self._infos: dict[Any, Any] = {}    # the board's PinInfo of each name asked for

    def pin(self, name: Any, pin_class: Any = None, **kwargs: Any) -> Any:
        """MockFactory.pin, the board's pin for `name` found once a name: MockFactory walks
        every pin of the board for it at each call, and a mock panel asks for the pin of
        each edge it makes (sim.MockPanel). A pin not made yet, or asked for otherwise, is
        left to MockFactory."""
        info = self._infos.get(name)
        if info is None:
            info = self._infos[name] = next(
                (found for _, found in self.board_info.find_pin(name)), None)
        made = self.pins.get(info) if pin_class is None and not kwargs else None
        if made is not None and \
                isinstance(made, MockPWMPin) == issubclass(self.pin_class, MockPWMPin):
            return made
        return super().pin(name, pin_class, **kwargs)

    def ticks(self) -> float:
        return self.clock()
