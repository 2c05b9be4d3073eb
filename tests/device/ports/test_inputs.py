"""The real gpiozero devices on gpiozero's mock pins: edges in, `Press` events out.

Mock pins call the callbacks synchronously in the test thread when driven, and stamp each
edge with the fake clock (mock_pins.StampedFactory); holds are timed by whoever calls
`Inputs.holds` (the main loop), here the test, moving the same clock.
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
from cobi_companion.device.ports.events import Event, Key, Press, Wake
from cobi_companion.device.ports.inputs import FakeInputs, Inputs, PinProblem
from cobi_companion.device.ports.mock_pins import StampedFactory
from gpiozero import LED
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockPin

AXIS, ALLIES, ENC_A, ENC_B, KNOB = 5, 6, 17, 18, 27
LONG = 60.0  # a hold time that never fires during a test


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def factory(clock: FakeClock) -> Iterator[StampedFactory]:
    factory = StampedFactory(clock)
    yield factory
    factory.reset()


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


@pytest.fixture
def make(factory: StampedFactory, events: queue.Queue[Event],
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


def pin(factory: StampedFactory, number: int) -> MockPin:
    return factory.pin(number)


FINGER_S = 0.05     # how long a finger keeps a button down for a tap


def tap(factory: StampedFactory, number: int) -> None:
    pin(factory, number).drive_low()
    factory.clock.now += FINGER_S
    pin(factory, number).drive_high()


def turn(factory: StampedFactory, first: int, second: int) -> None:
    """One detent: the pins fall and rise in quadrature, `first` leading."""
    a, b = pin(factory, first), pin(factory, second)
    a.drive_low()
    b.drive_low()
    a.drive_high()
    b.drive_high()


def drain(events: queue.Queue[Event]) -> list[Event]:
    """The taps and holds put so far (a `Wake` only rouses the loop to time something)."""
    out = []
    while not events.empty():
        event = events.get_nowait()
        if not isinstance(event, Wake):
            out.append(event)
    return out


def test_dice_buttons_press_on_release(make, factory, events, clock):
    # On release, unless held: a hold means something else (a D6+, a piece off the map).
    make()
    pin(factory, AXIS).drive_low()
    assert drain(events) == []
    clock.now += FINGER_S
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


def test_short_knob_press_is_ok_on_release(make, factory, events, clock):
    make()
    pin(factory, KNOB).drive_low()
    assert drain(events) == []
    clock.now += FINGER_S
    pin(factory, KNOB).drive_high()
    assert drain(events) == [Press(Key.OK)]


def test_long_knob_press_is_back_at_once_and_no_ok(make, factory, events, clock):
    inputs = make(long_press_s=0.8)
    pin(factory, KNOB).drive_low()
    assert events.get_nowait() == Wake()                # the loop wakes to time the hold
    assert inputs.due() == pytest.approx(0.8) and drain(events) == []
    clock.now += 0.5
    assert inputs.due() == pytest.approx(0.3) and drain(events) == []
    clock.now += 0.3
    assert inputs.due() is None
    assert drain(events) == [Press(Key.BACK)]           # while still held
    assert inputs.due() is None and drain(events) == []  # once
    pin(factory, KNOB).drive_high()
    assert drain(events) == []                          # and no OK after it
    clock.now += 1
    tap(factory, KNOB)  # the next short press is an OK again
    assert drain(events) == [Press(Key.OK)]


@pytest.mark.parametrize(("number", "key", "long_key"), [
    (AXIS, Key.AXIS, Key.AXIS_LONG), (ALLIES, Key.ALLIES, Key.ALLIES_LONG)])
def test_held_dice_button_is_only_a_long_press(make, factory, events, clock, number, key,
                                               long_key):
    # A D6+ on the quick dice: the hold must not first roll (and record) a plain D6.
    inputs = make(hold_s=1.0)
    pin(factory, number).drive_low()
    clock.now += 0.99
    assert inputs.due() == pytest.approx(0.01) and drain(events) == []
    clock.now += 0.01
    assert inputs.due() is None and drain(events) == [Press(long_key)]
    pin(factory, number).drive_high()
    assert drain(events) == []
    clock.now += 0.5
    tap(factory, number)
    assert drain(events) == [Press(key)]


def test_a_hold_nobody_timed_is_a_hold_at_the_release(make, factory, events, clock):
    """The loop was busy (or a script held the button on its clock): the release after
    hold_s is the hold, not a tap."""
    make(hold_s=1.0)
    pin(factory, AXIS).drive_low()
    clock.now += 1.2
    pin(factory, AXIS).drive_high()
    assert drain(events) == [Press(Key.AXIS_LONG)]


def test_due_says_the_nearest_and_each_button_holds_alone(make, factory, events, clock):
    inputs = make(hold_s=1.0, long_press_s=0.8)
    assert inputs.due() is None                         # nothing held: no wake-up due
    pin(factory, AXIS).drive_low()
    clock.now += 0.5
    pin(factory, KNOB).drive_low()
    assert inputs.due() == pytest.approx(0.5)           # the Axis button's, in 0.5 s
    clock.now += 0.5
    assert inputs.due() == pytest.approx(0.3) and drain(events) == [Press(Key.AXIS_LONG)]
    pin(factory, KNOB).drive_high()                     # let go before its hold: an OK
    assert drain(events) == [Press(Key.OK)] and inputs.due() is None


@pytest.mark.parametrize(("pattern", "at"), [
    # pressed at 0 with chatter for 6 ms, released at 120 ms with chatter: the tap comes at
    # the release's first edge, not once its chatter has settled
    ([0, 1, 2, 4, 6, 120, 121, 123], 5),
    ([0, 80], 1),                                       # clean contacts
    ([0, 5, 10, 15, 19.9, 100, 110, 119.9], 5),        # chatter up to the bounce time
])
def test_leading_edge_debounce_acts_on_the_first_edge(make, factory, events, clock, pattern,
                                                      at):
    """Low, high, low... at these ms, each pattern ending high: the press counts at its first
    edge, the tap at the release's first edge, and the chatter after each adds nothing, not
    even when the loop looks once it is over."""
    inputs = make(bounce_s=0.02)
    start, came = clock.now, []
    for index, ms in enumerate(pattern):
        clock.now = start + ms / 1000
        level = pin(factory, AXIS).drive_low if index % 2 == 0 else pin(factory, AXIS).drive_high
        level()
        came.append(drain(events))
    assert came[at] == [Press(Key.AXIS)]                # at once, on that edge
    assert sum(len(events) for events in came) == 1
    clock.now += 0.05
    assert inputs.due() is None and drain(events) == []


def test_edges_a_bounce_time_apart_all_count(make, factory, events, clock):
    make(bounce_s=0.02)
    for index in range(6):                              # down, up, ... 21 ms apart
        level = pin(factory, AXIS).drive_low if index % 2 == 0 else pin(factory, AXIS).drive_high
        level()
        clock.now += 0.021
    assert drain(events) == [Press(Key.AXIS)] * 3


def test_a_press_within_the_bounce_time_is_a_tap_once_the_loop_looks(make, factory, events,
                                                                      clock):
    """Down and up again within 5 ms (or a mock finger at one instant): the release is in
    the press's chatter time, so the pin is read when that is over: up, a tap."""
    inputs = make(bounce_s=0.02)
    pin(factory, AXIS).drive_low()
    clock.now += 0.005
    pin(factory, AXIS).drive_high()
    assert drain(events) == []
    assert inputs.due() == pytest.approx(0.015)         # the loop is told when to look
    clock.now += 0.015
    assert inputs.due() is None and drain(events) == [Press(Key.AXIS)]


@pytest.mark.parametrize("pattern", [
    # a press shorter than the bounce time (contacts touching at one instant), a tap after it
    [0, 0, 0, 0, 0, 0, 0, 0, 30, 80],
    # a tap, then a press begun within the bounce time after its release, held, let go
    [0, 50, 60, 60, 60, 60, 60, 160],
    # a release in the press's chatter at the end of its bounce time, pressed again just
    # past it (within the bounce time after that release), held, let go
    [0, 19, 25, 120],
])
@pytest.mark.parametrize("looks", [True, False], ids=["loop on time", "loop late"])
def test_what_counts_does_not_hang_on_when_the_loop_looks(make, factory, events, clock,
                                                          pattern, looks):
    """Low, high, low... at these ms, each pattern two presses ending high: two taps, whether
    the loop reads the pin as soon as each chatter time is over (every millisecond here) or
    not before the next edge that counts (a loop busy for longer than the press)."""
    inputs = make(bounce_s=0.02)
    start, at = clock.now, 0
    for index, ms in enumerate(pattern):
        while looks and at < ms:
            at += 1
            clock.now = start + at / 1000
            inputs.due()
        clock.now = start + ms / 1000
        level = pin(factory, AXIS).drive_low if index % 2 == 0 else pin(factory, AXIS).drive_high
        level()
    clock.now += 0.05
    assert inputs.due() is None
    assert drain(events) == [Press(Key.AXIS)] * 2


def test_an_edge_just_past_the_bounce_time_counts(make, factory, events, clock):
    make(bounce_s=0.02)
    pin(factory, AXIS).drive_low()
    clock.now += 0.0201
    pin(factory, AXIS).drive_high()                     # 20.1 ms after the press: a release
    assert drain(events) == [Press(Key.AXIS)]


def test_each_button_bounces_alone(make, factory, events, clock):
    make(bounce_s=0.02)
    pin(factory, AXIS).drive_low()
    pin(factory, ALLIES).drive_low()
    clock.now += 0.021
    pin(factory, AXIS).drive_high()
    pin(factory, ALLIES).drive_high()
    assert drain(events) == [Press(Key.AXIS), Press(Key.ALLIES)]


def test_the_buttons_have_no_bounce_filter_and_no_threads(make, factory):
    """The switch debounces by the edges' stamps, so the pin's own filter (lgpio's waits for
    a stable level, holding back every press) is off; and nothing of ours polls: gpiozero's
    Button would start a hold thread per button, waking ten times a second."""
    before = threading.active_count()
    make(bounce_s=0.03)
    assert pin(factory, AXIS).bounce is None and pin(factory, KNOB).bounce is None
    assert threading.active_count() == before


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


def test_a_failing_put_while_timing_a_hold_is_logged_and_later_holds_come(
        make, factory, events, clock, caplog):
    # The main loop calls `due`: an exception there must not reach it.
    put = FailingOnce(events, Key.AXIS_LONG)
    inputs = make(put=put, hold_s=0.05)
    pin(factory, AXIS).drive_low()
    clock.now += 0.1
    assert inputs.due() is None and put.failed.is_set() and "queue exploded" in caplog.text
    pin(factory, AXIS).drive_high()
    clock.now += 1
    pin(factory, AXIS).drive_low()
    clock.now += 0.1
    inputs.due()
    assert drain(events) == [Press(Key.AXIS_LONG)]


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
