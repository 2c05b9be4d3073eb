"""The one main loop: it owns the app state, the display, the store and the watchdog.

Input callbacks and reader threads only put events on the queue; the loop takes them one at a
time, lets the app change state, and draws the new view only when it differs from the last.
"""
from __future__ import annotations

import logging
import queue
import signal
import time
from collections.abc import Callable, Iterator
from typing import Protocol

from PIL import Image

from .app import App
from .events import Event, Press, Stop, Tick
from .notify import Notifier
from .views import BigWord, Header, View

log = logging.getLogger("cobi-companion")
ANIMATION_TICK_S = 0.08


class Display(Protocol):
    def show(self, image: Image.Image) -> None: ...
    def dim(self, on: bool) -> None: ...
    def brightness(self, level: int) -> None: ...
    def refresh(self) -> None: ...


class Loop:
    def __init__(self, app: App, display: Display, render: Callable[[View], Image.Image],
                 events: queue.SimpleQueue[Event] | None = None, notifier: Notifier | None = None,
                 dim_after_s: float = 0.0, clock: Callable[[], float] = time.monotonic,
                 warm_up: Iterator[bool] | None = None) -> None:
        self.app, self.display, self.render = app, display, render
        self.warm_up = warm_up          # work to do while nothing happens, one short step each
        # SimpleQueue because the signal handler puts on it: its put takes no lock that the
        # interrupted main loop might be holding (a Queue here can deadlock on SIGTERM).
        self.events: queue.SimpleQueue[Event] = events or queue.SimpleQueue()
        self.notifier = notifier or Notifier("")
        self.dim_after_s, self.clock = dim_after_s, clock
        self.last_view: View | None = None
        self.last_input = clock()
        self.dimmed = False
        self.frames = 0

    def put(self, event: Event) -> None:
        self.events.put(event)

    def handle_signals(self) -> None:
        """SIGTERM and SIGINT end the loop through the queue (Python's default SIGTERM would
        skip saving)."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda number, frame: self.put(Stop(signal.Signals(number).name)))

    def draw(self) -> None:
        view = self.app.view()
        if view != self.last_view:
            self.display.show(self.render(view))
            self.last_view = view
            self.frames += 1

    def step(self, event: Event) -> bool:
        """Handle one event; False once the loop should stop."""
        if isinstance(event, Stop):
            return False
        if isinstance(event, Press):
            self.last_input = self.clock()
            if self.dimmed:
                self.display.dim(False)
                self.dimmed = False
        try:
            self.app.handle(event)
        except Exception:  # a bug in one screen must not end the battle
            log.exception("error while handling %s", event)
        self.draw()
        return True

    def wait(self, timeout: float) -> Event | None:
        """The next event within `timeout` seconds, or None. While the queue is empty the
        wait is spent on warm-up steps; an event waits for one step at most."""
        end = time.monotonic() + timeout
        while self.warm_up is not None and self.events.empty() and time.monotonic() < end:
            if not next(self.warm_up, False):
                self.warm_up = None
        try:
            return self.events.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            return None

    def settle(self) -> None:
        """Let time pass until no animation runs (scripted runs have no idle waits)."""
        for _ in range(20):
            if not getattr(self.app.screen, "animating", False):
                return
            self.step(Tick(self.clock()))

    def idle(self, now: float) -> None:
        if self.dim_after_s and not self.dimmed and now - self.last_input >= self.dim_after_s:
            self.display.dim(True)
            self.dimmed = True

    def run(self) -> str:
        self.draw()
        self.notifier.ready()
        wait = min(filter(None, [self.notifier.watchdog_s, 1.0]))
        while True:
            animating = getattr(self.app.screen, "animating", False)
            event = self.wait(ANIMATION_TICK_S if animating else wait) or Tick(self.clock())
            self.notifier.watchdog()
            self.idle(self.clock())
            self.display.refresh()
            if not self.step(event):
                reason = event.reason if isinstance(event, Stop) else ""
                break
        self.notifier.stopping()
        self.app.commit()
        self.display.show(self.render(BigWord(Header("COBI"), self.app.t("goodbye"))))
        return reason
