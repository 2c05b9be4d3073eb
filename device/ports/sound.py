"""Cues for the ear and the eye: a piezo buzzer playing short tunes, and an LED per side."""
from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from gpiozero import LED, TonalBuzzer

log = logging.getLogger(__name__)

Note = str | None  # a note name for gpiozero's Tone ("C6"), None for a rest
Tune = tuple[tuple[Note, float], ...]  # (note, seconds) steps

# Notes stay within A3–A7, the range of a TonalBuzzer with mid_tone A5 and 2 octaves;
# piezo discs are loudest in the upper octaves. Every tune lasts at most 0.8 s.
TUNES: dict[str, Tune] = {
    "click": (("A6", 0.02),),
    "roll": (("C6", 0.03), (None, 0.03), ("E6", 0.03), (None, 0.03), ("G6", 0.03),
             (None, 0.03), ("C7", 0.06)),
    "hit": (("G5", 0.07), ("C6", 0.15)),
    "miss": (("E5", 0.1), ("C5", 0.2)),
    "destroyed": (("C6", 0.07), ("E6", 0.07), ("G6", 0.07), ("C7", 0.12), (None, 0.04),
                  ("G6", 0.07), ("C7", 0.3)),
    "reloaded": (("E6", 0.05), (None, 0.04), ("A6", 0.08)),
    "unloaded": (("A5", 0.08), ("E5", 0.12)),
    "error": (("A3", 0.15), (None, 0.05), ("A3", 0.3)),
    "win": (("G5", 0.1), ("C6", 0.1), ("E6", 0.1), ("G6", 0.18), ("E6", 0.1), ("G6", 0.2)),
}
MAX_QUEUED = 2
SIDES = ("axis", "allies")


def check_cue(cue: str) -> None:
    if cue not in TUNES:
        raise ValueError(f"unknown sound cue {cue!r}; known: {', '.join(TUNES)}")


class BuzzerSound:
    """A TonalBuzzer on a PWM-capable pin, played by one worker thread.

    `play` only queues the cue (at most MAX_QUEUED wait behind the one playing; more are
    dropped), so the main loop never waits for a tune.
    """

    def __init__(self, pin: int, enabled: bool = True, pin_factory: Any = None) -> None:
        self.enabled = enabled
        self._buzzer = TonalBuzzer(pin, mid_tone="A5", octaves=2, pin_factory=pin_factory)
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=MAX_QUEUED)
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._stopping = threading.Event()
        self._worker = threading.Thread(target=self._run, name="cobi-sound", daemon=True)
        self._worker.start()

    def play(self, cue: str) -> None:
        """Queue `cue` and return at once; unknown cues raise ValueError even when muted."""
        check_cue(cue)
        if not self.enabled:
            return
        with self._lock:
            if self._stopping.is_set():
                return
            try:
                self._queue.put_nowait(cue)
            except queue.Full:
                log.debug("sound cue %s dropped: queue full", cue)
                return
            self._idle.clear()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued tune has played; False on timeout."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Stop the tune playing, forget the queue, end the worker, release the pin."""
        self._stopping.set()
        with self._lock:
            while not self._queue.empty():
                self._queue.get_nowait()
            self._queue.put_nowait(None)
        self._worker.join(timeout=5)
        self._buzzer.close()
        self._idle.set()

    def _run(self) -> None:
        while (cue := self._queue.get()) is not None:
            try:
                self._play(TUNES[cue])
            except Exception:  # the worker must survive a failing pin
                log.exception("playing %s failed", cue)
            with self._lock:
                if self._queue.empty():
                    self._idle.set()

    def _play(self, tune: Tune) -> None:
        try:
            for note, seconds in tune:
                if self._stopping.is_set() or not self.enabled:
                    break
                if note is None:
                    self._buzzer.stop()
                else:
                    self._buzzer.play(note)
                self._stopping.wait(seconds)
        finally:
            self._buzzer.stop()


class RecordingSound:
    """Test double: remembers the cues in `played` (only while enabled)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.played: list[str] = []
        self.closed = False

    def play(self, cue: str) -> None:
        check_cue(cue)
        if self.enabled:
            self.played.append(cue)

    def wait_idle(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        self.closed = True


class NoSound:
    """No buzzer fitted (or it failed at start): cues are checked and dropped."""

    enabled = False

    def play(self, cue: str) -> None:
        check_cue(cue)

    def wait_idle(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        pass


def check_side(side: str) -> None:
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; known: {', '.join(SIDES)}")


class Lights:
    """One LED per side (either pin may be None); blinking runs on gpiozero's own threads."""

    def __init__(self, axis_pin: int | None, allies_pin: int | None, pin_factory: Any = None,
                 on_s: float = 0.15, off_s: float = 0.15) -> None:
        pins = dict(zip(SIDES, (axis_pin, allies_pin), strict=True))
        self._leds = {side: LED(pin, pin_factory=pin_factory)
                      for side, pin in pins.items() if pin is not None}
        self._on_s = on_s
        self._off_s = off_s

    def flash(self, side: str, times: int = 3) -> None:
        """Blink `side` `times` times in the background; it ends off."""
        check_side(side)
        if led := self._leds.get(side):
            led.blink(on_time=self._on_s, off_time=self._off_s, n=times)

    def on(self, side: str) -> None:
        check_side(side)
        if led := self._leds.get(side):
            led.on()

    def off_all(self) -> None:
        for led in self._leds.values():
            led.off()

    def close(self) -> None:
        for led in self._leds.values():
            led.close()


class RecordingLights:
    """Test double: `calls` lists ("flash", side, times), ("on", side), ("off_all",)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.lit: set[str] = set()
        self.closed = False

    def flash(self, side: str, times: int = 3) -> None:
        check_side(side)
        self.calls.append(("flash", side, times))

    def on(self, side: str) -> None:
        check_side(side)
        self.calls.append(("on", side))
        self.lit.add(side)

    def off_all(self) -> None:
        self.calls.append(("off_all",))
        self.lit.clear()

    def close(self) -> None:
        self.closed = True


class NoLights:
    """No LEDs fitted (or they failed at start)."""

    def flash(self, side: str, times: int = 3) -> None:
        check_side(side)

    def on(self, side: str) -> None:
        check_side(side)

    def off_all(self) -> None:
        pass

    def close(self) -> None:
        pass
