"""The real gpiozero devices on gpiozero's mock pins: edges in, `Press` events out.

Mock pins call the callbacks synchronously in the test thread when driven; only `when_held`
comes from gpiozero's hold thread in real time, so those tests use short holds and wait on
the queue (generous timeouts, no timing asserts).
"""
from __future__ import annotations

import queue
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cobi_companion.device.ports.events import Event, Key, Press
from cobi_companion.device.ports.inputs import FakeInputs, Inputs, PinProblem
from gpiozero import LED
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin

AXIS, ALLIES, ENC_A, ENC_B, KNOB = 5, 6, 17, 18, 27
WAIT = 5.0  # seconds; only ever reached when a test fails
LONG = 60.0  # a hold time that never fires during a test


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make(factory: MockFactory, events: queue.Queue[Event],
         clock: FakeClock) -> Iterator[Callable[..., Inputs]]:
    made: list[Inputs] = []

    def make(put: Callable[[Event], None] | None = None, **timings: float) -> Inputs:
        settings: dict[str, Any] = {"hold_s": LONG, "long_press_s": LONG, **timings}
        inputs = Inputs(put or events.put, AXIS, ALLIES, ENC_A, ENC_B, KNOB,
                        pin_factory=factory, clock=clock, **settings)
        made.append(inputs)
        return inputs

    yield make
    for inputs in made:
        inputs.close()


def pin(factory: MockFactory, number: int) -> MockPin:
    return factory.pin(number)


def tap(factory: MockFactory, number: int) -> None:
    pin(factory, number).drive_low()
    pin(factory, number).drive_high()


def turn(factory: MockFactory, first: int, second: int) -> None:
    """One detent: the pins fall and rise in quadrature, `first` leading."""
    a, b = pin(factory, first), pin(factory, second)
    a.drive_low()
    b.drive_low()
    a.drive_high()
    b.drive_high()


def drain(events: queue.Queue[Event]) -> list[Event]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_dice_buttons_press_on_release(make, factory, events):
    # On release, unless held: a hold means something else (a D6+, a piece off the map).
    make()
    pin(factory, AXIS).drive_low()
    assert drain(events) == []
    pin(factory, AXIS).drive_high()
    assert drain(events) == [Press(Key.AXIS)]
    tap(factory, ALLIES)
    assert drain(events) == [Press(Key.ALLIES)]


def test_knob_turns_one_event_per_detent(make, factory, events):
    make()
    turn(factory, ENC_A, ENC_B)
    turn(factory, ENC_A, ENC_B)
    turn(factory, ENC_B, ENC_A)
    assert drain(events) == [Press(Key.CW), Press(Key.CW), Press(Key.CCW)]


def test_half_a_detent_and_back_is_nothing(make, factory, events):
    make()
    a, b = pin(factory, ENC_A), pin(factory, ENC_B)
    a.drive_low()
    b.drive_low()
    b.drive_high()
    a.drive_high()
    assert drain(events) == []


def test_short_knob_press_is_ok_on_release(make, factory, events):
    make()
    pin(factory, KNOB).drive_low()
    assert drain(events) == []
    pin(factory, KNOB).drive_high()
    assert drain(events) == [Press(Key.OK)]


def test_long_knob_press_is_back_at_once_and_no_ok(make, factory, events, clock):
    make(long_press_s=0.05)
    pin(factory, KNOB).drive_low()
    assert events.get(timeout=WAIT) == Press(Key.BACK)  # while still held
    pin(factory, KNOB).drive_high()
    assert drain(events) == []
    clock.now += 1
    tap(factory, KNOB)  # the next short press is an OK again
    assert drain(events) == [Press(Key.OK)]


@pytest.mark.parametrize(("number", "key", "long_key"), [
    (AXIS, Key.AXIS, Key.AXIS_LONG), (ALLIES, Key.ALLIES, Key.ALLIES_LONG)])
def test_held_dice_button_is_only_a_long_press(make, factory, events, number, key, long_key):
    # A D6+ on the quick dice: the hold must not first roll (and record) a plain D6.
    make(hold_s=0.05)
    pin(factory, number).drive_low()
    assert events.get(timeout=WAIT) == Press(long_key)   # while still held
    pin(factory, number).drive_high()
    assert drain(events) == []



def test_chatter_within_bounce_time_is_one_press(make, factory, events, clock):
    # The mock pins ignore bounce_time, so this exercises the adapter's own guard: every
    # edge below happens at the same instant of the fake clock.
    make()
    for _ in range(4):
        tap(factory, AXIS)
    assert drain(events) == [Press(Key.AXIS)]
    clock.now += 0.03
    tap(factory, AXIS)
    assert drain(events) == [Press(Key.AXIS)]


def test_knob_chatter_is_one_ok(make, factory, events):
    make()
    for _ in range(3):
        tap(factory, KNOB)
    assert drain(events) == [Press(Key.OK)]


def test_buttons_get_the_bounce_time(make, factory):
    make(bounce_s=0.03)
    assert pin(factory, AXIS).bounce == pytest.approx(0.03)
    assert pin(factory, KNOB).bounce == pytest.approx(0.03)


class FailingOnce:
    """A `put` that raises the first time it gets `key` (any key if None)."""

    def __init__(self, events: queue.Queue[Event], key: Key | None = None) -> None:
        self.events = events
        self.key = key
        self.failed = threading.Event()

    def __call__(self, event: Event) -> None:
        if not self.failed.is_set() and self.key in (None, getattr(event, "key", None)):
            self.failed.set()
            raise RuntimeError("queue exploded")
        self.events.put(event)


def test_a_failing_put_is_logged_and_later_presses_arrive(make, factory, events, caplog):
    make(put=FailingOnce(events))
    turn(factory, ENC_A, ENC_B)  # raises inside gpiozero's callback: must not escape
    assert "queue exploded" in caplog.text
    turn(factory, ENC_A, ENC_B)
    tap(factory, AXIS)
    assert drain(events) == [Press(Key.CW), Press(Key.AXIS)]


def test_a_failing_put_does_not_kill_the_hold_thread(make, factory, events, clock):
    # Unguarded, an exception in when_held ends gpiozero's hold thread for that button.
    put = FailingOnce(events, Key.AXIS_LONG)
    make(put=put, hold_s=0.05)
    pin(factory, AXIS).drive_low()
    assert put.failed.wait(WAIT)
    pin(factory, AXIS).drive_high()
    clock.now += 1
    pin(factory, AXIS).drive_low()
    assert events.get(timeout=WAIT) == Press(Key.AXIS_LONG)


def test_close_releases_the_pins(make, factory):
    inputs = make()
    inputs.close()
    again = Inputs(lambda event: None, AXIS, ALLIES, ENC_A, ENC_B, KNOB, pin_factory=factory)
    again.close()


def test_fake_inputs_put_the_same_events():
    seen: list[Event] = []
    fake = FakeInputs(seen.append)
    fake.press(Key.CW, Key.OK)
    fake.close()
    assert seen == [Press(Key.CW), Press(Key.OK)] and fake.closed


def test_uncaught_thread_exception_ends_the_process(tmp_path):
    script = textwrap.dedent("""
        import logging, threading, time
        from cobi_companion.device.ports.inputs import install_thread_excepthook
        logging.basicConfig(level=logging.INFO)
        install_thread_excepthook()
        def boom():
            raise ValueError("handler blew up")
        threading.Thread(target=boom, name="gpio-callbacks").start()
        time.sleep(30)
        print("still running")
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert run.returncode == 70
    assert "still running" not in run.stdout
    assert "gpio-callbacks" in run.stderr and "ValueError: handler blew up" in run.stderr


def test_system_exit_in_a_thread_is_not_a_crash(tmp_path):
    script = textwrap.dedent("""
        import sys, threading
        from cobi_companion.device.ports.inputs import install_thread_excepthook
        install_thread_excepthook()
        t = threading.Thread(target=sys.exit)
        t.start()
        t.join()
        print("still running")
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert run.returncode == 0 and "still running" in run.stdout


def test_a_pin_in_use_frees_the_pins_already_taken(factory):
    blocker = LED(KNOB, pin_factory=factory)
    with pytest.raises(PinProblem) as caught:
        Inputs(lambda event: None, AXIS, ALLIES, ENC_A, ENC_B, KNOB, pin_factory=factory)
    # The problem names the config field and the pin, and keeps gpiozero's reason.
    assert caught.value.field == "encoder.button" and caught.value.pins == str(KNOB)
    assert isinstance(caught.value.__cause__, GPIOPinInUse)
    assert str(caught.value).startswith(f"encoder.button (GPIO {KNOB}): ")
    blocker.close()
    Inputs(lambda event: None, AXIS, ALLIES, ENC_A, ENC_B, KNOB, pin_factory=factory).close()
