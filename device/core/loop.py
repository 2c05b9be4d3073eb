"""The one main loop: it owns the app state, the display, the store and the watchdog.

Input callbacks and reader threads only put events on the queue; the loop takes all that are
waiting, lets the app handle them one at a time, and then draws the new view once, only when it
differs from the last (a knob spun fast is one frame, not one a detent). Then it starts the
cues (tune, light) and makes the store writes the events asked for: the frame is on the panel
before a thread is started or the SD card is waited for, and the writes are done before the
next events are taken.
"""
from __future__ import annotations

import gc
import logging
import queue
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Protocol

from cobi_companion.device.core.app import App, PowerRequest
from cobi_companion.device.core.views import BigWord, Header, View
from cobi_companion.device.ports.events import (
    Done,
    Event,
    Press,
    Reload,
    Signalled,
    Stop,
    Tick,
    Wake,
)
from cobi_companion.device.ports.notify import Notifier
from cobi_companion.device.ports.power import Power
from PIL import Image

log = logging.getLogger("cobi-companion")
ANIMATION_TICK_S = 0.08
SETTLE_TICKS = 500       # more than any screen animates for by itself (~40 s of ticks)
# A title too long for its row is shown in turns of whole words (Header.page), each this long:
# time for a child to read a few words.
PAGE_S = 2.0


class Display(Protocol):
    # The image may be the renderer's own, kept for the next frames of the same view: a
    # display reads it and never changes it.
    def show(self, image: Image.Image) -> None: ...
    def dim(self, on: bool) -> None: ...
    def brightness(self, level: int) -> None: ...
    def refresh(self) -> None: ...
    def wake(self) -> None: ...
    def power(self, on: bool) -> None: ...


# Signals and what they become on the queue. A handler only puts an event: the loop it
# interrupts may hold the logging lock or be inside the queue, so it may do nothing else.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
RELOAD_SIGNAL = signal.SIGHUP
LOGGED_SIGNALS = (signal.SIGUSR1, signal.SIGUSR2)


def warmed() -> None:
    """The start-up work is done. What it made (cards, glyphs, screens) lives as long as the
    box: frozen out of the garbage collector's sight, a full collection no longer walks it
    (here tens of ms, which would land on whichever press came when it was due)."""
    gc.collect()
    gc.freeze()


def tidy() -> None:
    """After a frame and its saves, while no one waits: the garbage collection that the next
    allocations would start, in the middle of the next press, made now. Only the young
    generations (and the middle one when the next would take it too): a full collection is
    left to the collector's own rule, which seldom calls one after `warmed`."""
    young, middle, _ = gc.get_count()
    first, second, _ = gc.get_threshold()
    if gc.isenabled() and first and young > first // 2:
        gc.collect(1 if middle >= second else 0)


class Loop:
    def __init__(self, app: App, display: Display, render: Callable[[View], Image.Image],
                 events: queue.SimpleQueue[Event] | None = None, notifier: Notifier | None = None,
                 dim_after_s: float = 0.0, clock: Callable[[], float] = time.monotonic,
                 warm_up: Iterator[bool] | None = None, off_after_s: float = 0.0,
                 power: Power | None = None) -> None:
        self.app, self.display, self.render = app, display, render
        self.warm_up = warm_up          # work to do while nothing happens, one short step each
        # SimpleQueue because the signal handler puts on it: its put takes no lock that the
        # interrupted main loop might be holding (a Queue here can deadlock on SIGTERM).
        self.events: queue.SimpleQueue[Event] = events or queue.SimpleQueue()
        # Without one given, the notifier of the environment: under systemd, $NOTIFY_SOCKET.
        self.notifier = notifier or Notifier()
        self.dim_after_s, self.off_after_s, self.clock = dim_after_s, off_after_s, clock
        self.power = power
        self.on_reload: Callable[[], None] = lambda: None
        self.on_tick: Callable[[float], None] = lambda now: None
        # Each new frame's view, once shown (the test screen file, [test] screen_file).
        self.on_frame: Callable[[View], None] = lambda view: None
        # The controls' timing (Inputs.due): sends the holds that are due, and says in how
        # many seconds the next thing will be (None: nothing to time). The wait ends then.
        self.inputs_due: Callable[[], float | None] = lambda: None
        # How many turns a view's lines too long for their row take (the renderer's `pages`).
        self.pages: Callable[[View], int] = lambda view: 1
        self.last_view: View | None = None
        self.screen_view: View | None = None      # the app's view, before it is turned
        self.screen_since = 0.0
        self.paging = False
        self.last_input = clock()
        self.dimmed = False
        self.off = False
        self.frames = 0

    def put(self, event: Event) -> None:
        self.events.put(event)

    def handle_signals(self) -> None:
        """SIGTERM and SIGINT end the loop (Python's default SIGTERM would skip saving),
        SIGHUP reloads the settings and cards, SIGUSR1/2 are logged: none ends the box
        unsaved."""
        def stop(number: int, frame: object) -> None:
            self.put(Stop(signal.Signals(number).name))

        def note(number: int, frame: object) -> None:
            self.put(Signalled(signal.Signals(number).name))

        for sig in STOP_SIGNALS:
            signal.signal(sig, stop)
        signal.signal(RELOAD_SIGNAL, lambda number, frame: self.put(Reload()))
        for sig in LOGGED_SIGNALS:
            signal.signal(sig, note)

    def draw(self) -> None:
        view = self.turned(self.app.view())
        if view != self.last_view:
            self.display.show(self.render(view))
            self.last_view = view
            self.frames += 1
            self.on_frame(view)

    def turned(self, view: View) -> View:
        """`view` at the turn its paged lines are due: the first as it appears, the next every
        PAGE_S while it stays."""
        if view != self.screen_view:
            self.screen_view, self.screen_since = view, self.clock()
        turns = 1 if self.off else self.pages(view)    # a dark panel: nothing to turn
        self.paging = turns > 1
        if not self.paging:
            return view
        turn = int((self.clock() - self.screen_since) / PAGE_S) % turns
        return replace(view, header=replace(view.header, page=turn))

    def step(self, event: Event) -> bool:
        """Handle one event, then draw and save; False once the loop should stop."""
        return self.handle_all([event]) is None

    def handle_all(self, events: list[Event]) -> Stop | None:
        """Handle `events` in order, then draw once and save: a knob spun fast draws one
        frame, not one a detent. At a Stop the rest is dropped undrawn, and it is returned."""
        for event in events:
            if isinstance(event, Stop):
                return event
            self.handle(event)
        self.show()
        return None

    def queued(self) -> list[Event]:
        """The events waiting now, no more: a sensor that talks all the time must not hold
        back the frame."""
        events: list[Event] = []
        for _ in range(self.events.qsize()):
            try:
                events.append(self.events.get_nowait())
            except queue.Empty:
                break
        return events

    def handle(self, event: Event) -> None:
        """Let the app take one event (not a Stop), without drawing."""
        if isinstance(event, Wake):
            return              # for the wait alone, which times the controls
        if isinstance(event, Signalled):
            log.info("signal %s: nothing to do (SIGHUP reloads, SIGTERM stops)", event.name)
            return
        if isinstance(event, Press) and self.woken():
            return              # a dark panel: the first touch only lights it
        try:
            if isinstance(event, Reload):
                self.on_reload()
            elif isinstance(event, Done):
                event.use()
            else:
                if isinstance(event, Tick):
                    self.on_tick(event.now)
                self.app.handle(event)
        except Exception:  # a bug in one screen must not end the battle
            log.exception("error while handling %s", event)
        if self.app.power_request:
            self.switch(self.app.power_request)

    def show(self) -> None:
        """The frame first, then the cues and the store writes: a press must not wait for a
        light's thread or the SD card. Then the garbage collector's due work."""
        self.draw()
        screen = self.app.screen
        self.app.save()
        if self.app.screen is not screen:   # saving stopped or works again: its notice now
            self.draw()
        tidy()

    def woken(self) -> bool:
        """After a press: light the panel again. True when it was off (the press is spent)."""
        self.last_input = self.clock()
        self.display.wake()             # a lost panel is tried again now, not after back-off
        if self.dimmed:
            self.display.dim(False)
            self.dimmed = False
        if self.off:
            self.display.power(True)
            self.off = False
            return True
        return False

    def switch(self, request: PowerRequest) -> None:
        """Power off or restart: save first; if it cannot be started, say why."""
        self.app.power_request = None
        self.app.commit()
        self.app.save()
        action = request.action
        # said in the box's words where the box itself has no way to do it (the system's
        # own reason is shown as the system gives it)
        why = self.power.request(action) if self.power else self.app.t("no_power_control")
        if why is None:
            log.info("%s requested from the settings menu", action)
            return
        log.warning("%s failed: %s", action, why)
        self.app.screen = request.refused(why)

    def wait(self, timeout: float) -> Event | None:
        """The next event within `timeout` seconds, or None. While the queue is empty the
        wait is spent on warm-up steps; an event waits for one step at most. A control held
        down ends the wait when its hold is due, and its hold is the event: a `Wake` on the
        queue says a control has something to time, and the wait goes on, timed anew."""
        end = self.clock() + timeout
        while True:
            due = self.inputs_due()
            until = end if due is None else min(end, self.clock() + due)
            while self.warm_up is not None and self.events.empty() and \
                    self.clock() < until:
                if not next(self.warm_up, False):
                    self.warm_up = None
                    warmed()
            try:
                event = self.events.get(timeout=max(0.0, until - self.clock()))
            except queue.Empty:
                if until >= end:
                    return None
                continue                 # something is due: `inputs_due` sends it
            if not isinstance(event, Wake):
                return event

    def settle(self) -> None:
        """Let time pass until no animation runs (scripted runs have no idle waits): dice
        stop tumbling, steps that go on by themselves reach their outcome."""
        for _ in range(SETTLE_TICKS):
            if not self.app.screen.animating:
                return
            self.step(Tick(self.clock()))

    def idle(self, now: float) -> None:
        quiet = now - self.last_input
        if self.dim_after_s and not self.dimmed and quiet >= self.dim_after_s:
            self.display.dim(True)
            self.dimmed = True
        if self.off_after_s and not self.off and quiet >= self.off_after_s:
            self.display.power(False)     # an OLED left lit for hours burns in
            self.off = True

    def run(self) -> str:
        self.draw()
        self.notifier.ready(f"showing the first screen (frame {self.frames})")
        self.app.came_up()              # its lit row read aloud, once it is on the panel
        # Ping a little more often than half the watchdog interval: an event handled just
        # before the wait ends must not push a ping past it.
        half = self.notifier.watchdog_s
        wait = min(half * 0.8, 1.0) if half else 1.0
        last_tick, period = self.clock(), wait
        while True:
            every = ANIMATION_TICK_S if self.app.screen.animating else \
                min(wait, PAGE_S / 4) if self.paging else wait
            if every != period:     # an animation or a paged title starts: its first tick
                last_tick, period = self.clock(), every     # one period after its frame
            event = self.wait(min(every, max(0.0, last_tick + every - self.clock())))
            self.notifier.watchdog()
            self.idle(self.clock())
            self.display.refresh()
            # Everything waiting is handled before one frame is drawn.
            events = [] if event is None else [event, *self.queued()]
            # Ticks come by the clock, not only when the queue is quiet: a sensor talking ten
            # times a second must not hold back a screen's timeout or an animation.
            if event is None or self.clock() - last_tick >= every:
                last_tick = self.clock()
                events.append(Tick(last_tick))
            stop = self.handle_all(events)
            if stop is not None:
                reason = stop.reason
                break
        self.notifier.stopping()
        self.app.commit()
        self.app.save()
        self.farewell()
        return reason

    def farewell(self) -> None:
        """The last frame, left lit once the process has ended: safe to unplug, and whether
        the battle was saved."""
        saved = self.app.store.can_save
        detail = self.app.t("battle_saved" if saved else "battle_not_saved") \
            if self.app.game is not None else ""
        if self.off:
            self.display.power(True)
            self.off = False
        self.display.show(self.render(BigWord(Header("COBI"), self.app.t("unplug"), detail)))
