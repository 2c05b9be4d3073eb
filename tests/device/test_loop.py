"""The main loop on the real box (mock pins): start-up warm-up in idle time, idle dimming,
ticks by the clock while events keep coming."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.core.app import Screen
from cobi_companion.device.core.loop import ANIMATION_TICK_S
from cobi_companion.device.core.views import BigWord, View
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press, SensorReading, Stop
from cobi_companion.device.ports.range_sensor import Condition, Reading
from cobi_companion.device.ui.widgets import Show
from gpiozero.pins.mock import MockFactory, MockPWMPin
from waiting import until


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    factory = MockFactory(pin_class=MockPWMPin)
    made = build(Config(), MemoryDisplay(), pin_factory=factory, state_dir=tmp_path)
    yield made
    made.close()
    factory.reset()


def test_the_box_warms_up_until_done(box: Box) -> None:
    assert box.loop.warm_up is not None
    # Each short wait with no event runs warm-up steps; it ends as soon as the work is done.
    assert until(lambda: box.loop.wait(0.05) is None and box.loop.warm_up is None, timeout=30)


def test_a_press_stops_the_warm_up_after_one_step(box: Box) -> None:
    steps: list[int] = []

    def work() -> Iterator[bool]:
        for number in range(1, 10):
            steps.append(number)
            if number == 3:                     # a finger presses while step 3 runs
                box.loop.put(Press(Key.OK))
            yield True

    box.loop.warm_up = work()
    assert box.loop.wait(5.0) == Press(Key.OK)
    assert steps == [1, 2, 3]
    assert until(lambda: box.loop.wait(0.05) is None and box.loop.warm_up is None)
    assert steps == list(range(1, 10))          # idle again: the rest of the work, no event


def test_the_loop_dims_after_idle_minutes_and_a_press_wakes_it(box: Box) -> None:
    now = [1000.0]
    loop, display = box.loop, box.loop.display
    loop.clock = lambda: now[0]
    loop.last_input, loop.dim_after_s = now[0], 60.0
    thread = threading.Thread(target=loop.run)
    thread.start()
    try:
        now[0] += 59.0
        time.sleep(1.5)                         # the loop wakes at least once a second
        assert display.dimmed is False
        now[0] += 2.0
        assert until(lambda: display.dimmed is True)
        loop.put(Press(Key.OK))
        assert until(lambda: display.dimmed is False)
    finally:
        loop.put(Stop("test"))
        thread.join(10)
    assert not thread.is_alive()


def test_a_stream_of_events_does_not_hold_back_the_ticks(box: Box) -> None:
    """A sensor that talks every few milliseconds keeps the queue busy; the loop still ticks
    once a (clock) second, so a screen's timeout or an animation goes on."""
    now, ticks, talking = [1000.0], [], threading.Event()
    loop = box.loop
    loop.clock = lambda: now[0]
    loop.on_tick = ticks.append
    noise = SensorReading("nobody", Reading(None, Condition.NO_ECHO))

    def talk() -> None:
        while not talking.is_set():
            loop.put(noise)
            time.sleep(0.002)
    handled, step = [], loop.step

    def counted(event) -> bool:
        handled.append(event)
        return step(event)
    loop.step = counted  # type: ignore[method-assign]
    thread, sensor = threading.Thread(target=loop.run), threading.Thread(target=talk)
    sensor.start()
    thread.start()
    try:
        assert until(lambda: bool(handled))     # the loop runs: its clock starts at 1000
        for _ in range(3):
            now[0] += 1.0
            assert until(lambda: bool(ticks) and ticks[-1] == now[0])
    finally:
        talking.set()
        sensor.join(5)
        loop.put(Stop("test"))
        thread.join(10)
    assert not thread.is_alive()


class Starts(Screen):
    """A screen whose OK starts views that go on by themselves (an animation)."""

    def __init__(self, views: list[View]) -> None:
        self.views = views

    def view(self, app) -> View:
        return self.views[0]

    def on(self, app, key: Key) -> Screen:
        return Show(self.views, lambda: self, play=True) if key is Key.OK else self


def test_an_animation_ticks_first_one_period_after_its_first_frame(box: Box) -> None:
    """The loop last ticked most of a second ago; a press starts an animation: its first
    frame stays a whole animation tick, not a moment (the tick is not owed from before)."""
    now, waits = [1000.0], []
    loop, app = box.loop, box.app
    loop.clock = lambda: now[0]
    app.screen = Starts([BigWord(app.header("a"), "ONE"), BigWord(app.header("a"), "TWO")])
    wait = loop.wait

    def recorded(timeout: float) -> object:
        got = wait(timeout)
        waits.append((timeout, got))
        return got
    loop.wait = recorded  # type: ignore[method-assign]
    thread = threading.Thread(target=loop.run)
    thread.start()
    try:
        assert until(lambda: bool(waits))       # the loop runs: its clock started at 1000
        now[0] += 0.9
        loop.put(Press(Key.OK))
        assert until(lambda: any(got == Press(Key.OK) for _, got in waits[:-1]))
    finally:
        loop.put(Stop("test"))
        thread.join(10)
    assert not thread.is_alive()
    after = next(i for i, (_, got) in enumerate(waits) if got == Press(Key.OK)) + 1
    assert waits[after][0] == pytest.approx(ANIMATION_TICK_S)
