"""The buttons and the knob: gpiozero callbacks that only turn edges into `Press` events.

Every callback runs on a gpiozero thread (under lgpio one thread serves every pin), so it
does nothing but `put` an event for the main loop and never lets an exception escape: one
escaped exception would end all GPIO events while the rest of the program runs on.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from cobi_companion.device.ports.errors import reason
from cobi_companion.device.ports.events import Event, Key, Press
from gpiozero import Button, RotaryEncoder

log = logging.getLogger(__name__)

Put = Callable[[Event], None]
Callback = Callable[[], None]
EXIT_THREAD_CRASH = 70  # EX_SOFTWARE: systemd restarts the service


def guarded(name: str, action: Callback) -> Callback:
    """`action` as a gpiozero callback: an exception is logged, never raised."""

    def callback() -> None:
        try:
            action()
        except Exception:
            log.exception("input handler %s failed", name)

    return callback


def install_thread_excepthook() -> None:
    """Make an uncaught exception in any thread log itself and end the process with 70.

    A thread that dies quietly leaves a box that looks alive but ignores its buttons; a
    process that exits is restarted by systemd.
    """

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        thread = args.thread.name if args.thread else "?"
        log.critical("uncaught %s in thread %s, exiting", args.exc_type.__name__, thread,
                     exc_info=args.exc_value)
        for handler in logging.getLogger().handlers:
            handler.flush()
        sys.stderr.flush()
        os._exit(EXIT_THREAD_CRASH)

    threading.excepthook = hook


class PinProblem(Exception):
    """A control's GPIO line could not be claimed: missing, busy, or no pin library."""

    def __init__(self, field: str, pins: str, cause: Exception) -> None:
        self.field, self.pins = field, pins
        self.reason = reason(cause)
        super().__init__(f"{field} (GPIO {pins}): {self.reason}")


class _Quiet:
    """Software debounce on top of the pin's own filter: an edge counts only after quiet.

    Under lgpio reported edges are already at least `bounce_s` apart, so this never bites;
    with factories whose bounce is a lock-out (or none, as in the mock) it drops chatter.
    """

    def __init__(self, bounce_s: float, clock: Callable[[], float]) -> None:
        self._bounce_s = bounce_s
        self._clock = clock
        self._last = float("-inf")

    def edge(self) -> bool:
        now = self._clock()
        quiet = now - self._last >= self._bounce_s
        self._last = now
        return quiet


class Inputs:
    """The real buttons: Axis and Allies dice buttons and a rotary encoder with a push switch.

    Two edges of one button less than `bounce_s` apart count once, whatever the pin factory:
    code driving mock pins must leave at least `bounce_s` between taps of the same button.
    """

    def __init__(self, put: Put, axis_pin: int, allies_pin: int, enc_a: int, enc_b: int,
                 enc_button: int, bounce_s: float = 0.02, hold_s: float = 1.0,
                 long_press_s: float = 0.8, pin_factory: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._put = put
        self._bounce_s = bounce_s
        self._clock = clock
        self._factory = pin_factory
        self._lock = threading.Lock()
        self._devices: list[Any] = []
        parts: list[tuple[str, str, Callable[[], None]]] = [
            ("buttons.axis", str(axis_pin),
             lambda: self._dice_button(axis_pin, Key.AXIS, Key.AXIS_LONG, hold_s)),
            ("buttons.allies", str(allies_pin),
             lambda: self._dice_button(allies_pin, Key.ALLIES, Key.ALLIES_LONG, hold_s)),
            ("encoder.button", str(enc_button), lambda: self._knob_button(enc_button,
                                                                          long_press_s)),
            ("encoder.a/b", f"{enc_a}/{enc_b}", lambda: self._encoder(enc_a, enc_b)),
        ]
        try:
            for name, pins, make in parts:
                try:
                    make()
                except Exception as exc:
                    raise PinProblem(name, pins, exc) from exc
        except BaseException:
            self.close()  # free the pins already claimed
            raise

    def close(self) -> None:
        """Close every gpiozero device (their threads stop, the pins are released)."""
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:
                log.exception("closing %r failed", device)
        self._devices.clear()

    def _button(self, pin: int, hold_s: float) -> Button:
        button = Button(pin, pull_up=True, bounce_time=self._bounce_s, hold_time=hold_s,
                        pin_factory=self._factory)
        self._devices.append(button)
        return button

    def _dice_button(self, pin: int, key: Key, long_key: Key, hold_s: float) -> None:
        """Short press → `key` on release; held hold_s → `long_key` at once and no `key`
        after: a hold (a D6+, a piece off the map) never first rolls or adds as a tap."""
        self._tap_or_hold(pin, hold_s, key, long_key, str(key))

    def _knob_button(self, pin: int, long_press_s: float) -> None:
        """Short press → OK on release; held long_press_s → BACK at once and no OK after."""
        self._tap_or_hold(pin, long_press_s, Key.OK, Key.BACK, "knob")

    def _tap_or_hold(self, pin: int, hold_s: float, tap: Key, hold: Key, name: str) -> None:
        button = self._button(pin, hold_s)
        quiet = _Quiet(self._bounce_s, self._clock)
        armed = [False]      # pressed, and not yet held: the release is a tap

        def pressed() -> None:
            if quiet.edge():
                with self._lock:
                    armed[0] = True

        def held() -> None:
            with self._lock:
                still = button.is_pressed
                armed[0] = False
            if still:
                self._put(Press(hold))

        def released() -> None:
            quiet.edge()
            with self._lock:
                was, armed[0] = armed[0], False
            if was:
                self._put(Press(tap))

        button.when_pressed = guarded(f"{name} pressed", pressed)
        button.when_held = guarded(f"{name} held", held)
        button.when_released = guarded(f"{name} released", released)

    def _encoder(self, a: int, b: int) -> None:
        # No bounce_time: RotaryEncoder's own argument sets an attribute nobody reads; its
        # quadrature state machine already ignores jiggle between detents.
        encoder = RotaryEncoder(a, b, max_steps=0, pin_factory=self._factory)
        self._devices.append(encoder)
        encoder.when_rotated_clockwise = guarded("knob cw", lambda: self._put(Press(Key.CW)))
        encoder.when_rotated_counter_clockwise = guarded(
            "knob ccw", lambda: self._put(Press(Key.CCW)))


class FakeInputs:
    """Test double: the same events, from code (`press(Key.OK, Key.CW)`) instead of pins."""

    def __init__(self, put: Put) -> None:
        self._put = put
        self.closed = False

    def press(self, *keys: Key) -> None:
        for key in keys:
            self._put(Press(key))

    def close(self) -> None:
        self.closed = True
