"""The main loop on the real box (mock pins): start-up warm-up in idle time, idle dimming,
ticks by the clock while events keep coming."""
from __future__ import annotations

import gc
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.core.app import Screen
from cobi_companion.device.core.loop import ANIMATION_TICK_S
from cobi_companion.device.core.views import BigWord, Roll, View
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press, SensorReading, Stop, Wake
from cobi_companion.device.ports.mock_pins import StampedFactory
from cobi_companion.device.ports.range_sensor import Condition, Reading
from cobi_companion.device.sim import TapClock
from cobi_companion.device.ui.widgets import Show
from gpiozero.pins.mock import MockFactory, MockPWMPin
from waiting import HANG_S, run_beside, until


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
    assert until(lambda: box.loop.wait(0.05) is None and box.loop.warm_up is None)


def test_the_warm_up_ends_by_freezing_what_start_up_made(box: Box) -> None:
    """Cards, glyphs and screens live as long as the box: once they are made, the garbage
    collector's full collections stop walking them (a pause that would land on a press)."""
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    assert until(lambda: box.loop.wait(0.05) is None and box.loop.warm_up is None)
    assert gc.get_freeze_count() > 0


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
        thread.join(HANG_S)
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
    handled, handle = [], loop.handle

    def counted(event) -> None:
        handled.append(event)
        handle(event)
    loop.handle = counted  # type: ignore[method-assign]
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
        thread.join(HANG_S)
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
    frame stays a whole animation tick, not a moment (the tick is not owed from before).
    The loop runs here, on a script of waits: each wait is answered at once, in order, and
    the clock moves only when the script says (nothing depends on how fast the loop is)."""
    now, asked = [1000.0], []
    loop, app = box.loop, box.app
    loop.clock = lambda: now[0]
    app.screen = Starts([BigWord(app.header("a"), "ONE"), BigWord(app.header("a"), "TWO")])

    def press_after_most_of_a_second() -> Press:
        now[0] += 0.9
        return Press(Key.OK)
    script = iter([lambda: None,                    # a quiet second: the tick at 1000
                   press_after_most_of_a_second,    # OK at 1000.9 starts the animation
                   lambda: Stop("test")])           # the wait after it ends the run

    def scripted(timeout: float) -> object:
        asked.append(timeout)
        return next(script)()
    loop.wait = scripted  # type: ignore[method-assign]
    assert loop.run() == "test"
    assert len(asked) == 3
    assert asked[2] == pytest.approx(ANIMATION_TICK_S)


class WatchedStore:
    """Wraps the box's store: each battle save notes the frame on the panel as it starts."""

    def __init__(self, table) -> None:
        self.table, self.seen = table, []
        store = table.box.store
        self.save_battle = store.save_battle
        store.save_battle = self.saved        # type: ignore[method-assign]

    def saved(self, state, rolls, drawn=None, grows=()) -> None:
        display = self.table.display
        self.seen.append((display.frames, display.image.tobytes()))
        self.save_battle(state, rolls, drawn, grows)


def test_the_frame_is_drawn_before_the_battle_is_saved(table_at) -> None:
    """The roll-off's second die decides the initiative: the result is saved, but only once
    its frame is on the panel, and before the next event is taken."""
    table = table_at([5, 2])
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok", "axis")
    watched = WatchedStore(table)
    before = table.display.image.tobytes()
    table.tap("allies")
    assert len(watched.seen) == 1                            # saved within the step
    frames, image = watched.seen[0]
    assert frames == table.display.frames and image == table.display.image.tobytes() != before
    assert table.box.store.load_battle()["round"] == 1


def test_the_running_loop_draws_then_saves_each_event(table_at) -> None:
    """The same on `Loop.run` (in this thread, which made the store): a finger presses from
    another thread, one press after the other; each save sees its own event's frame."""
    table = table_at([5, 2])
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies")
    watched, loop = WatchedStore(table), table.box.loop
    frames: list[bytes] = []
    show = table.display.show

    def shown(image) -> None:
        show(image)
        frames.append(table.display.image.tobytes())
    table.display.show = shown                               # type: ignore[method-assign]
    checked: list[bool] = []

    def finger() -> None:
        # Start (saves the new battle), the roll-off's first die (nothing to save yet) and its
        # second (saves the initiative).
        for word, saves in (("ok", True), ("axis", False), ("allies", True)):
            seen, drawn = len(watched.seen), len(frames)
            table.panel.act(word)
            def done(drawn: int = drawn, seen: int = seen, saves: bool = saves) -> bool:
                return len(frames) > drawn and (len(watched.seen) > seen or not saves)
            if not until(done):
                return
            if saves:      # the press's own frame (dice tumble on in later frames)
                checked.append(watched.seen[-1][1] == frames[drawn])
    run_beside(loop, finger)
    assert checked == [True, True]


def test_a_fast_spin_is_handled_whole_then_drawn_once(table_at) -> None:
    """Ten detents come before the loop gets to them: it handles all ten, then draws one
    frame, the same as ten detents handled (and drawn) one by one."""
    one_by_one, spun = table_at([]), table_at([])
    for table in (one_by_one, spun):
        table.press("ok")                                  # New battle: the roster's cards
    for _ in range(10):
        one_by_one.press("cw")
        spun.panel.act("cw")                               # on the queue, not handled yet
    loop, before = spun.box.loop, spun.box.loop.frames
    assert loop.events.qsize() == 10 and spun.view != one_by_one.view

    def stop_once_drawn() -> None:
        until(lambda: loop.frames > before and loop.events.empty())
        loop.put(Stop("test"))
    thread = threading.Thread(target=stop_once_drawn)
    thread.start()
    loop.run()
    thread.join(HANG_S)
    assert loop.frames == before + 1
    assert spun.view == one_by_one.view and spun.view.index == 10
    assert loop.render(spun.view).tobytes() == one_by_one.display.image.tobytes()


class QueueOnTapClock(queue.SimpleQueue):
    """The loop's queue, on the inputs' tap clock: a get that would wait lets that time pass
    on the clock at once instead, and notes how long it would have waited."""

    def __init__(self, clock: TapClock) -> None:
        super().__init__()
        self.clock, self.waits = clock, []

    def get(self, block: bool = True, timeout: float | None = None):
        try:
            return super().get(block=False)
        except queue.Empty:
            self.waits.append(timeout)
            self.clock.skip(timeout or 0.0)
            raise


@pytest.fixture
def timed_box(tmp_path: Path) -> Iterator[tuple[Box, TapClock]]:
    """A box whose buttons (their edges' stamps and their holds) go by a tap clock, and whose
    loop lets its waits pass on that clock: a still one, which only those waits move."""
    clock = TapClock(still=True)
    factory = StampedFactory(clock)
    made = build(Config(), MemoryDisplay(), pin_factory=factory, state_dir=tmp_path,
                 input_clock=clock)
    made.loop.events = QueueOnTapClock(clock)
    made.loop.clock = clock
    made.loop.warm_up = None
    yield made, clock
    made.close()
    factory.reset()


def test_the_wait_ends_when_a_held_button_reaches_its_hold(timed_box) -> None:
    """Nothing polls a held button: the press wakes the wait, which then waits until the
    hold is due (1 s), not its whole timeout, and the
    hold is the event it returns."""
    box, _ = timed_box
    pin = box.pin_factory.pin(box.config.buttons.axis)
    pin.drive_low()
    assert box.loop.wait(5.0) == Press(Key.AXIS_LONG)
    waits = box.loop.events.waits
    assert box.config.buttons.hold_s / 2 < sum(waits) <= box.config.buttons.hold_s
    assert pin.state == 0                                   # still held
    pin.drive_high()
    waits.clear()
    assert box.loop.wait(5.0) is None                       # and its release is no tap
    assert 2.5 < sum(waits) <= 5.0                          # nothing to time: all of it


def test_a_knob_held_before_the_wait_ends_it_at_its_hold(timed_box) -> None:
    box, clock = timed_box
    pin = box.pin_factory.pin(box.config.encoder.button)
    pin.drive_low()                                         # the knob, held: BACK at 0.8 s
    clock.skip(0.3)
    assert box.loop.events.get_nowait() == Wake()           # the wait was told already
    assert box.loop.wait(2.0) == Press(Key.BACK)
    assert 0.25 < sum(box.loop.events.waits) <= 0.5


def test_the_running_loop_sends_a_hold_while_the_button_is_still_down(table_at) -> None:
    """On Loop.run, in real time (the table's hold is 0.2 s): the D6+ of a held dice button
    comes while the finger is still on it, and its release rolls nothing more."""
    table = table_at([6, 2], factory=StampedFactory(TapClock()))    # a tap clock on real time
    loop, pin = table.box.loop, table.factory.pin(table.config.buttons.axis)
    presses: list[tuple[Press, int]] = []
    handle = loop.handle

    def noted(event) -> None:
        if isinstance(event, Press):
            presses.append((event, pin.state))               # as the loop takes it
        handle(event)
    loop.handle = noted                                      # type: ignore[method-assign]

    def finger() -> None:
        pin.drive_low()
        until(lambda: bool(presses))
        pin.drive_high()
    run_beside(loop, finger)
    assert presses == [(Press(Key.AXIS_LONG), 0)]
    assert isinstance(table.view, Roll) and table.view.faces == (6, 2)


class Cueing(Screen):
    """A screen whose OK cues a tune and a side's light and changes what it shows."""

    def __init__(self) -> None:
        self.word = "READY"

    def view(self, app) -> View:
        return BigWord(app.header("Cue"), self.word)

    def on(self, app, key) -> Screen:
        app.cue("hit", "axis")
        self.word = "HIT"
        return self


def test_a_press_cues_once_its_frame_is_drawn(box: Box) -> None:
    """Starting a light's blink costs a thread and a tune wakes the sound's: both start once
    the press's frame is on the panel, within the same step, in the order asked."""
    loop, app, display = box.loop, box.app, box.loop.display
    app.screen = Cueing()
    loop.draw()
    heard: list[tuple[str, str, int]] = []
    app.sound.play = lambda cue: heard.append(("sound", cue, display.frames))  # type: ignore
    app.lights.flash = lambda side, times=3: heard.append(("light", side, display.frames))  # type: ignore
    before = display.frames
    app.handle(Press(Key.OK))
    assert heard == [] and app.cues == [("hit", "axis")]           # asked for, not started
    loop.show()
    assert heard == [("sound", "hit", before + 1), ("light", "axis", before + 1)]
    assert app.cues == []
    app.settings.sound = False                                     # muted: the light alone
    heard.clear()
    loop.step(Press(Key.OK))
    assert heard == [("light", "axis", before + 1)]                # the same view: no frame


def test_the_collection_due_is_made_after_the_frame(box: Box) -> None:
    """A young generation more than half full is collected once the step's frame and saves
    are done, not left to start in the middle of the next press."""
    first = gc.get_threshold()[0]
    box.loop.draw()
    gc.collect()             # from an empty young generation, whatever ran before this test
    kept = [[n] for n in range(first // 2 + 1)]    # young containers, past half the threshold
    collections: list[int] = []

    def noted(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(box.loop.frames)
    gc.callbacks.append(noted)
    try:
        frames = box.loop.frames
        box.loop.step(Press(Key.CW))
    finally:
        gc.callbacks.remove(noted)
    assert box.loop.frames == frames + 1 and frames + 1 in collections
    assert gc.get_count()[0] <= first // 2
    assert len(kept) > first // 2
