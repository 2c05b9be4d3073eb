"""The buttons and the knob: pin callbacks that only turn edges into `Press` events.

Every callback runs on a gpiozero thread (under lgpio one thread serves every pin), so it
does nothing but `put` an event for the main loop and never lets an exception escape: one
escaped exception would end all GPIO events while the rest of the program runs on. Nothing
here runs by itself: a hold, and the level a bouncing contact settles at, are timed by the
main loop (`Inputs.due`), which a `Wake` on its queue rouses.
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
from cobi_companion.device.ports.events import Event, Key, Press, Wake
from gpiozero import InputDevice, RotaryEncoder

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


class Switch:
    """One push switch to ground (a dice button, the knob's push): a tap on release, or its
    hold once it has been down `hold_s`, and then no tap.

    Debounce acts on the leading edge: an edge counts at once, and the edges within
    `bounce_s` after it are chatter, timed by the stamps the pin gives its edges (on a Pi the
    kernel's, taken when the edge came, however late the callback runs). When chatter came,
    the pin is read once that time is over: the level it left counts then, as an edge at its
    last chatter (a press shorter than `bounce_s` is a tap). An edge past that time that
    comes before the loop has read the pin (a loop busy for longer than the next press) first
    counts the level the chatter left, as the loop would have: what counts never hangs on
    when the loop looks. A filter that waits for a stable level, as lgpio's does, would hold
    back every press and release by `bounce_s`.

    No thread of ours times anything: `due` is asked by the main loop, which a `Wake` on the
    queue rouses when there is something to time (a press, chatter). `edge` runs on the pin's
    callback thread, `due` on the main loop: both under the one lock.
    """

    def __init__(self, device: Any, tap: Key, hold: Key, hold_s: float, bounce_s: float,
                 put: Put, clock: Callable[[], float], lock: threading.Lock) -> None:
        self.device, self.tap, self.hold = device, tap, hold
        self.hold_s, self.bounce_s = hold_s, bounce_s
        self._put, self._clock, self._lock = put, clock, lock
        self._ticks_diff = device.pin_factory.ticks_diff
        self.down = False
        self._counted: float | None = None   # the pin's stamp of the last edge that counted
        self._quiet_at = 0.0                 # when its chatter time is over, on `clock`
        # the last chatter not yet counted: its stamp, when it came, the level it left
        self._chatter: tuple[float, float, bool] | None = None
        self._since = 0.0                    # when it went down, on `clock`
        self._held = False                   # its hold was sent: the release is no tap

    def edge(self, ticks: float, state: int) -> None:
        """The pin's callback: an exception is logged, never raised (see `guarded`)."""
        try:
            with self._lock:
                self._edge(ticks, not state)     # pulled up: a press pulls the pin low
        except Exception:
            log.exception("input handler %s failed", self.tap)

    def _edge(self, ticks: float, pressed: bool) -> None:
        now = self._clock()
        if self._chatter is not None and not self._in_bounce(ticks):
            # Its chatter time is over and the loop has not read the level the chatter left
            # yet: that counts first, as it would have had the loop looked in time (a press
            # begun within the bounce time and let go since is a tap, not lost as a release
            # while up; a press shorter than the bounce time is a tap before the next one).
            (stamp, came, level), self._chatter = self._chatter, None
            self._count(stamp, came, level)
        if self._in_bounce(ticks):
            if self._chatter is None:
                self._put(Wake())                # the loop reads the pin when it is over
            self._chatter = (ticks, now, pressed)
            return
        self._count(ticks, now, pressed)

    def _in_bounce(self, ticks: float) -> bool:
        """Whether an edge stamped `ticks` is chatter: within `bounce_s` after the last
        edge that counted."""
        return self._counted is not None and \
            self._ticks_diff(ticks, self._counted) < self.bounce_s

    def _count(self, ticks: float, now: float, pressed: bool) -> None:
        """An edge that counts, stamped `ticks` by the pin and come at `now`."""
        if pressed == self.down:
            return                               # a release while up: nothing to end
        self._counted, self._quiet_at, self.down = ticks, now + self.bounce_s, pressed
        if pressed:
            self._since, self._held = now, False
            self._put(Wake())                    # the loop times the hold from now
        elif not self._held:                     # a hold the loop has not seen is a hold
            long = now - self._since >= self.hold_s
            self._put(Press(self.hold if long else self.tap))

    def due(self) -> float | None:
        """Count the level chatter left once its time is over, and send the hold once it is
        due; the seconds until the next of these, or None."""
        with self._lock:
            now = self._clock()
            if self._chatter is not None:
                if now < self._quiet_at:
                    return self._quiet_at - now
                (ticks, came, _), self._chatter = self._chatter, None
                self._count(ticks, came, bool(self.device.is_active))
            if not self.down or self._held:
                return None
            left = self._since + self.hold_s - now
            if left > 0:
                return left
            self._held = True
            self._put(Press(self.hold))
            return None


class Inputs:
    """The real buttons: Axis and Allies dice buttons and a rotary encoder with a push switch.

    Edges of one button less than `bounce_s` after one that counted are chatter, whatever
    the pin factory: code driving mock pins must leave at least `bounce_s` between the edges
    of one button, on the clock its pins stamp them with (mock_pins.StampedFactory).
    The main loop calls `due` to time them: no thread of ours runs, idle or not.
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
        self.switches: list[Switch] = []
        parts: list[tuple[str, str, Callable[[], None]]] = [
            ("buttons.axis", str(axis_pin),
             lambda: self._switch(axis_pin, Key.AXIS, Key.AXIS_LONG, hold_s)),
            ("buttons.allies", str(allies_pin),
             lambda: self._switch(allies_pin, Key.ALLIES, Key.ALLIES_LONG, hold_s)),
            # the knob's push: OK, or held long_press_s BACK
            ("encoder.button", str(enc_button),
             lambda: self._switch(enc_button, Key.OK, Key.BACK, long_press_s)),
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

    def due(self) -> float | None:
        """Send what is due now: the holds (a dice button's long key, the knob's BACK, while
        still held), a tap whose release came in chatter. The seconds until the next thing is
        due, or None while nothing is to be timed."""
        times = []
        for switch in self.switches:
            try:
                left = switch.due()
            except Exception:  # the main loop calls: a bug here must not end it
                log.exception("timing %s failed", switch.tap)
                continue
            if left is not None:
                times.append(left)
        return min(times, default=None)

    def close(self) -> None:
        """Close every gpiozero device (the pins are released)."""
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:
                log.exception("closing %r failed", device)
        self._devices.clear()
        self.switches.clear()

    def _switch(self, pin: int, tap: Key, hold: Key, hold_s: float) -> None:
        """A push switch: `tap` on release, or `hold` once held `hold_s` and no `tap` after;
        a held dice button (a D6+, a piece off the map) never first rolls or adds as a tap."""
        # An InputDevice has no events of its own and no hold thread (a Button has one,
        # waking ten times a second); no bounce filter either: the switch debounces.
        device = InputDevice(pin, pull_up=True, pin_factory=self._factory)
        self._devices.append(device)
        switch = Switch(device, tap, hold, hold_s, self._bounce_s, self._put, self._clock,
                        self._lock)
        self.switches.append(switch)    # the pin keeps only a weak reference to its callback
        device.pin.bounce = None
        device.pin.edges = "both"
        device.pin.when_changed = switch.edge

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
