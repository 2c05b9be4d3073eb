"""The simulator: the real daemon with gpiozero mock pins, driven by the keyboard or a script,
and the OLED drawn in the terminal: with half-block characters (true 128×64 pixels) where they
fit, else with braille characters, else one line saying what size the terminal needs. It is
drawn again when the terminal's size changes.

Keys: ←/→ (or ↓/↑) turn the knob, Enter = OK, Backspace = back, a / l = the Axis / Allies dice
buttons, A / L = hold them down, s / k = throw a smart die of the Axis / the Allies (virtual
dice: ports/fake_dice.py), q = quit.

Its text form (`cobi-companion play`) runs the same box with keys typed as words, one line at a
time, and each frame written as text lines (`ui/text.py`) instead of pixels.
"""
from __future__ import annotations

import json
import os
import queue
import re
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from cobi_companion.device.core.draws import Numbered, numbered
from cobi_companion.device.core.views import Roll, View, view_data
from cobi_companion.device.ports import terminal_modes
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.errors import ScriptError as ScriptError
from cobi_companion.device.ports.events import Event, Stop, Tick
from cobi_companion.device.ports.fake_dice import DIE_WORDS, die_word
from cobi_companion.device.ports.safe_text import printable
from cobi_companion.device.ports.terminal import (
    HALF_BLOCKS,
    TerminalDisplay,
    as_words,
    choose,
    terminal_size,
    too_small,
)
from cobi_companion.device.ui.text import view_text
from cobi_companion.rules.dice import DiceExhausted, Need
from cobi_companion.rules.numbers import whole
from PIL import Image

if TYPE_CHECKING:  # the box, the config and gpiozero are imported when the sim runs
    from cobi_companion.device.box import Box
    from cobi_companion.device.config import Config, Loaded
    from cobi_companion.device.core.loop import Loop
    from cobi_companion.rules.dice import Dice
    from gpiozero.pins.mock import MockFactory

WAIT_MOST_MS = 60_000     # a script's longest wait: a minute
# `axis_die` and `allies_die` throw a paired virtual die of the side (`axis_die=4`: on a 4).
SCRIPT_WORDS = ("cw", "ccw", "ok", "back", "axis", "allies", "axis_long", "allies_long",
                "axis_die", "allies_die", "wait")
# The keys typed in the text form: the script's words but `wait` (each line is handled, dice
# and all, before the next is read), and a word to quit.
TYPED_KEYS = SCRIPT_WORDS[:-1]
QUIT_WORDS = ("q", "quit")
KEYS = {"\x1b[C": "cw", "\x1b[A": "cw", "\x1b[D": "ccw", "\x1b[B": "ccw", "\r": "ok",
        "\n": "ok", "\x7f": "back", "\x08": "back", "a": "axis", "l": "allies",
        "A": "axis_long", "L": "allies_long", "s": "axis_die", "k": "allies_die"}

_CSI = re.compile(r"\x1b\[[0-9;]*[@-~]")       # an arrow key, or another key's sequence
_CSI_START = re.compile(r"\x1b(\[[0-9;]*)?")


def parse_script(text: str) -> list[tuple[str, int]]:
    """Words separated by commas or new lines; `wait MS`; `axis_die=4`; '#' starts a
    comment."""
    steps: list[tuple[str, int]] = []
    for number, raw in enumerate(text.replace(",", "\n").splitlines(), 1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        word, *rest = line.split()
        name = word.partition("=")[0]
        if name in DIE_WORDS:
            thrown = die_word(word)
            if thrown is None or rest:
                raise ScriptError(f"script line {number}: {name} takes a face from 1 to 6 or "
                                  f"none, like {name}=4")
            steps.append((name, thrown[1]))
            continue
        if word not in SCRIPT_WORDS:
            raise ScriptError(f"script line {number}: {word!r} is not a sim event; allowed: "
                              f"{', '.join(SCRIPT_WORDS)}")
        if word == "wait":
            ms = whole(rest[0], 0, WAIT_MOST_MS) if len(rest) == 1 else None
            if ms is None:
                raise ScriptError(f"script line {number}: wait needs milliseconds from 0 to "
                                  f"{WAIT_MOST_MS}, like wait 200")
            steps.append((word, ms))
        elif rest:
            raise ScriptError(f"script line {number}: {word} takes no value")
        else:
            steps.append((word, 0))
    return steps


class TapClock:
    """The time of the buttons on mock pins (their edges' stamps, their holds): real time plus
    the gaps and holds a mock panel has let pass without sleeping them. It only moves forward,
    like the real one.

    A `still` clock leaves real time out: only those gaps and holds move it. A script (and a
    test) says how long a finger stays down; on a busy machine the real moments between a
    press's two edges once passed a short hold time, and a tap counted as a hold."""

    def __init__(self, still: bool = False) -> None:
        self.skipped = 0.0
        self.still_at = time.monotonic() if still else None

    def __call__(self) -> float:
        now = time.monotonic() if self.still_at is None else self.still_at
        return now + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += seconds


@dataclass
class MockPanel:
    """Presses buttons and turns the knob on gpiozero's mock pins, as fingers would. With a
    `clock` (the box's input clock, which the pins stamp their edges with: see
    ports/mock_pins.py), a hold and the gap a finger leaves between taps pass on that clock
    instead of in real time."""

    factory: MockFactory
    config: Config
    clock: TapClock | None = None
    # throws a virtual smart die of a side ("axis", "allies") on a face (0: its own)
    roll_die: Callable[[str, int], None] | None = None

    def tap(self, pin: int, hold_s: float = 0.0) -> None:
        # Edges closer than the debounce time are chatter: a finger stays down a little
        # longer (a hold the box has not seen go by is a hold at the release), and leaves a
        # gap after.
        finger = self.config.buttons.bounce_s + 0.01
        self.factory.pin(pin).drive_low()
        self.spend(max(hold_s, finger))
        self.factory.pin(pin).drive_high()
        self.spend(finger)

    def spend(self, seconds: float) -> None:
        if self.clock is not None:
            self.clock.skip(seconds)
        elif seconds:
            time.sleep(seconds)

    def turn(self, clockwise: bool) -> None:
        a = self.factory.pin(self.config.encoder.a)
        b = self.factory.pin(self.config.encoder.b)
        first, second = (a, b) if clockwise else (b, a)
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()

    def act(self, word: str, value: int = 0) -> None:
        buttons, encoder = self.config.buttons, self.config.encoder
        actions: dict[str, Callable[[], None]] = {
            "cw": lambda: self.turn(True),
            "ccw": lambda: self.turn(False),
            "ok": lambda: self.tap(encoder.button),
            "back": lambda: self.tap(encoder.button, encoder.long_press_s + 0.15),
            "axis": lambda: self.tap(buttons.axis),
            "allies": lambda: self.tap(buttons.allies),
            "axis_long": lambda: self.tap(buttons.axis, buttons.hold_s + 0.15),
            "allies_long": lambda: self.tap(buttons.allies, buttons.hold_s + 0.15),
            "wait": lambda: time.sleep(value / 1000),
        }
        if word in DIE_WORDS:
            if self.roll_die is not None:
                self.roll_die(DIE_WORDS[word], value)
            return
        actions[word]()


def save_snapshot(image: Image.Image, folder: Path, number: int) -> Path:
    """A frame as a PNG, scaled ×4 so a person can look at it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"frame-{number:03d}.png"
    image.convert("L").resize((image.width * 4, image.height * 4),
                                 Image.Resampling.NEAREST).save(path)
    return path


def split_keys(text: str) -> tuple[list[str], str]:
    """The keys typed in `text` as sim words ("quit" for q), and an escape sequence cut off at
    its end (the rest comes with the next read). Keys typed faster than they are read arrive
    together: each one counts."""
    words: list[str] = []
    at = 0
    while at < len(text):
        if text[at] == "\x1b":
            whole = _CSI.match(text, at)
            if whole is None and _CSI_START.fullmatch(text, at):
                return words, text[at:]
            key = whole.group() if whole else "\x1b"
        else:
            key = text[at]
        at += len(key)
        word = "quit" if key == "q" else KEYS.get(key)
        if word:
            words.append(word)
    return words, ""


def read_keys(stop: threading.Event, fd: int) -> Iterator[str]:
    """Key presses from a terminal in cbreak mode, as sim words; ends on 'q' or end of input."""
    pending = ""
    while not stop.is_set():
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        data = os.read(fd, 64)
        if not data:
            return
        words, pending = split_keys(pending + data.decode(errors="ignore"))
        for word in words:
            if word == "quit":
                return
            yield word


def drive_keyboard(panel: MockPanel, put: Callable[[Stop], None],
                   stop: threading.Event, folder: Path) -> threading.Thread:
    """Read the keyboard on a thread. The terminal is put in cbreak mode here, before the start
    menu is drawn: the switch drops the keys typed before it (the title is not listening, as
    the box's buttons are not), never one typed once the menu shows. The settings put back at
    the end are kept in the state `folder` meanwhile: a start after a killed simulator puts
    back the ones it found, not the broken ones (`terminal_modes`)."""
    fd = sys.stdin.fileno()
    saved = terminal_modes.keep(fd, folder)
    tty.setcbreak(fd)

    def run() -> None:
        try:
            for word in read_keys(stop, fd):
                panel.act(word)
        finally:
            terminal_modes.put_back(fd, folder, saved)
        put(Stop("quit"))
    thread = threading.Thread(target=run, name="sim-keyboard", daemon=True)
    thread.start()
    return thread


class Snapshots:
    """Every distinct frame as a PNG in a folder, numbered in the order drawn."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.saved = folder, 0
        self._last: bytes | None = None

    def keep(self, image: Image.Image) -> None:
        data = image.convert("1").tobytes()
        if data != self._last:
            self.saved += 1
            save_snapshot(image.convert("1"), self.folder, self.saved)
        self._last = data


class SnapshotDisplay(MemoryDisplay):
    """Keeps every distinct frame as a PNG in a folder, if any (and the last one's text form,
    `words`, for a terminal too small for its pixels)."""

    def __init__(self, folder: Path | None) -> None:
        super().__init__()
        self.snapshots = Snapshots(folder) if folder is not None else None
        self.words: Sequence[str] | None = None

    def show(self, image: Image.Image) -> None:
        super().show(image)
        if self.snapshots is not None:
            self.snapshots.keep(image)


class TextDisplay(MemoryDisplay):
    """The box's frames as text (`ui/text.py`), each new one written after a blank line.

    The text is made from the view, which the loop hands to its renderer, not to the display:
    `takes_views` puts the display between the two. Dice still tumbling are not written: their
    faces are made up, and the settled faces follow."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out
        self._text: list[str] | None = None
        self._written: list[str] | None = None

    def takes_views(self, loop: Loop) -> None:
        draw = loop.render

        def render(view: View) -> Image.Image:
            tumbling = isinstance(view, Roll) and view.rolling
            self._text = None if tumbling else view_text(view)
            return draw(view)
        loop.render = render

    def show(self, image: Image.Image) -> None:
        super().show(image)
        if self._text is None or self._text == self._written:
            return
        # a card's name from a file never acts on the terminal (ports/safe_text.py)
        self.out.write("\n" + "\n".join(printable(line) for line in self._text) + "\n")
        self.out.flush()
        self._written = self._text


def words_beside(display: TerminalDisplay | SnapshotDisplay, loop: Loop,
                 snapshots: Snapshots | None = None) -> None:
    """The display is handed each frame's text form (`ui/text.py`) with it: a terminal too
    small for the true pixels shows the frame as words a child can read. `snapshots`: each
    frame kept as a PNG too (an interactive run's --snapshot-dir)."""
    draw = loop.render

    def render(view: View) -> Image.Image:
        display.words = view_text(view)
        image = draw(view)
        if snapshots is not None:
            snapshots.keep(image)
        return image
    loop.render = render


def typed_lines(stream: TextIO, prompt: str = "") -> Iterator[str]:
    """The lines typed on `stream` until its end, each asked for with `prompt` (if any)."""
    while True:
        if prompt:
            print(prompt, end="", flush=True)
        line = stream.readline()
        if not line:
            return
        yield line


def typed_keys(lines: Iterable[str], say: Callable[[str], None]) -> Iterator[tuple[str, int]]:
    """Keys typed as words, several a line (spaces or commas between them), as script steps;
    they end at q. A line with a word that is no key presses nothing: `say` tells which, and
    the keys there are, in one line."""
    for line in lines:
        words = line.replace(",", " ").lower().split()
        bad = [word for word in words
               if word not in (*TYPED_KEYS, *QUIT_WORDS) and die_word(word) is None]
        if bad:
            say(f"{bad[0]!r} is not a key, nothing on that line was pressed; keys: "
                f"{', '.join(TYPED_KEYS)}, or q to quit")
            continue
        for word in words:
            if word in QUIT_WORDS:
                return
            thrown = die_word(word)
            yield (word.partition("=")[0], thrown[1]) if thrown else (word, 0)


def waited(box: Box, ms: int) -> None:
    """A script's wait: time passes as on the box, the loop ticking about once a second (a
    reminder is said after a quiet pause, a screen's timeout runs out)."""
    end = box.loop.clock() + ms / 1000
    box.loop.step(Tick(box.loop.clock()))
    while (left := end - box.loop.clock()) > 0:
        time.sleep(min(1.0, left))
        box.loop.step(Tick(box.loop.clock()))


def drain(box: Box) -> None:
    """Let the loop handle everything the mock pins put on the queue, then let time pass until
    the dice have stopped rolling, as it would between a person's presses."""
    while True:
        try:
            event = box.loop.events.get_nowait()
        except queue.Empty:
            break
        box.loop.step(event)
    box.loop.settle()


def sim_state_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cobi-companion" / "sim"


def redraw_on_resize(display: TerminalDisplay, put: Callable[[Event], None],
                     clock: Callable[[], float]) -> None:
    """On SIGWINCH the display notes the new size and a Tick wakes the main loop, whose
    `refresh` draws the last frame again. The handler does no more: the code it interrupts may
    be in the middle of drawing. Call from the main thread."""
    def resized(number: int, frame: object) -> None:
        display.resized()
        put(Tick(clock()))
    signal.signal(signal.SIGWINCH, resized)


def last_frame(image: Image.Image, out: TextIO, words: Sequence[str] | None = None) -> str:
    """A script's last frame as `out` can show it (no line of keys under it: a script takes
    none); half-blocks when `out` is no terminal, else as words (`words`, its text form) where
    they do not fit."""
    size = terminal_size(out)
    drawing = choose(size, image.size, lines_below=0)
    if words is not None and size is not None and drawing is not HALF_BLOCKS:
        shown = as_words(image, size, words, lines_below=0)
        if shown is not None:
            return shown
    if drawing is None:
        return too_small(image.size, lines_below=0, then="")[0]
    return drawing.draw(image)


def end_of_script(box: Box, display: MemoryDisplay) -> None:
    """A script prints its last frame. Keys typed in the text form end as the interactive
    simulator does: the battle saved, and a last frame that says so."""
    if isinstance(display, TextDisplay):
        box.app.commit()
        box.app.save()
        box.loop.farewell()
    elif display.image is not None:
        words = display.words if isinstance(display, SnapshotDisplay) else None
        print(last_frame(display.image, sys.stdout, words))


class DiceRanOut(BaseException):
    """The simulator's scripted dice (--dice) ran out: the script's end, not a bug. The loop
    guards each press with `except Exception`, so that a bug in one screen does not end a
    battle; this gets through it, like SystemExit, and ends the simulator (`run_sim`)."""


class SimDice:
    """The simulator's dice, by the box's die number: `dice` until they run out, then
    `DiceRanOut`."""

    def __init__(self, dice: Dice | Numbered) -> None:
        self.dice = numbered(dice)

    def face(self, number: int, need: Need) -> int:
        try:
            return self.dice.face(number, need)
        except DiceExhausted as exc:
            raise DiceRanOut(str(exc)) from None


class Trace:
    """--trace: each frame's view as a JSON line ({"view": ...}, device/core/views.py's
    view_data), written as it is drawn, before the saves its event asked for; and {"keys": n}
    each time the box has handled its n-th key and takes the next. A program driving the
    simulator reads it to know what is on the screen, and when to press."""

    def __init__(self, out: TextIO) -> None:
        self.out, self.keys = out, 0

    def takes_views(self, loop: Loop) -> None:
        draw = loop.render

        def render(view: View) -> Image.Image:
            self.line({"view": view_data(view)})
            return draw(view)
        loop.render = render

    def key_done(self) -> None:
        self.keys += 1
        self.line({"keys": self.keys})

    def line(self, data: object) -> None:
        self.out.write(json.dumps(data, ensure_ascii=False) + "\n")
        self.out.flush()


def run_sim(config: Config, *, script: Iterable[tuple[str, int]] | None,
            dice: Dice | Numbered | None,
            state_dir: Path | None, snapshot_dir: Path | None = None,
            state_json: Path | None = None, display: MemoryDisplay | None = None,
            loaded: Loaded | None = None, load: Callable[[], Loaded] | None = None,
            settings: Mapping[str, object] | None = None,
            speech_dir: Path | None = None, trace: Path | None = None) -> int:
    """Run the daemon on mock pins: interactively, or through a script, each step handled
    before the next is taken (it may be typed meanwhile). Interactively, `display` is the
    terminal OLED already showing the title, if any; with a script, the frames are kept
    (SnapshotDisplay) and the last printed, or a TextDisplay writes each. `snapshot_dir`:
    every distinct frame as a PNG there, with a script or interactively. `load` reads the
    settings files again (SIGHUP); Power off and Restart end the simulator. `settings` are
    this run's own, over the saved ones (saved only if changed on the box's menu). Scripted
    `dice` that run out end it with a ScriptError. `speech_dir`: each utterance written there
    as a WAV and its text, besides being said through the computer's audio. `trace`: each
    view and each key taken written there (`Trace`)."""
    from cobi_companion.device.box import build, die_roller
    from cobi_companion.device.core.paired_dice import kept
    from cobi_companion.device.ports.mock_pins import StampedFactory
    from cobi_companion.device.ports.power import EndPower

    clock = TapClock(still=script is not None)     # a script's taps are as long as it says
    factory = StampedFactory(clock)
    # The simulator's smart dice are virtual (ports/fake_dice.py), rolled by its keys.
    config = replace(config, smart_dice=replace(config.smart_dice, adapter="fake"))
    if display is None:
        display = TerminalDisplay() if script is None else SnapshotDisplay(snapshot_dir)
    box = build(config, display, pin_factory=factory, dice=None if dice is None else SimDice(dice),
                state_dir=state_dir or sim_state_dir(), loaded=loaded, load=load,
                input_clock=clock, speech_dir=speech_dir)
    box.loop.power = EndPower(box.loop.put)
    for name, value in (settings or {}).items():
        setattr(box.app.settings, name, value)
    box.app.smart.keep(kept(box.app.settings.smart_dice))     # this run's paired dice, if given
    if isinstance(display, TextDisplay):
        display.takes_views(box.loop)
    elif isinstance(display, SnapshotDisplay):
        words_beside(display, box.loop)
    elif isinstance(display, TerminalDisplay):      # a person at the keyboard
        words_beside(display, box.loop, Snapshots(snapshot_dir) if snapshot_dir else None)
    traced = None if trace is None else Trace(open(trace, "w", encoding="utf-8"))  # noqa: SIM115
    if traced is not None:
        traced.takes_views(box.loop)
    panel = MockPanel(factory, config, clock, die_roller(box))
    try:
        if script is None:
            _interactive(box, panel, display, state_dir or sim_state_dir())
        else:
            _scripted(box, panel, script, display, traced)
        if state_json is not None:
            write_state(box, state_json)
    except DiceRanOut as ran_out:
        raise ScriptError(f"{ran_out}; give more faces with --dice") from None
    finally:
        box.close()
        factory.reset()
        if traced is not None:
            traced.out.close()
    return 0


def _interactive(box: Box, panel: MockPanel, display: MemoryDisplay, folder: Path) -> None:
    """A person at the keyboard, until q, Power off or a signal."""
    stop = threading.Event()
    keyboard = drive_keyboard(panel, box.loop.put, stop, folder)
    box.loop.handle_signals()
    if isinstance(display, TerminalDisplay):
        redraw_on_resize(display, box.loop.put, box.loop.clock)
    try:
        box.loop.run()
    finally:
        # The keyboard's thread puts the terminal back as it was, within its next 0.2 s
        # wait: however the box ended, the shell gets its terminal back.
        stop.set()
        keyboard.join(timeout=1.0)


def _scripted(box: Box, panel: MockPanel, script: Iterable[tuple[str, int]],
              display: MemoryDisplay, trace: Trace | None = None) -> None:
    box.loop.draw()
    box.app.came_up()                  # the first screen's lit row said, as the box's run does
    if trace is not None:
        trace.line({"keys": 0})
    for word, value in script:
        if word == "wait":
            waited(box, value)
        else:
            panel.act(word, value)
        drain(box)
        if trace is not None:
            trace.key_done()
    end_of_script(box, display)


def write_state(box: Box, path: Path) -> None:
    """--state-json: the battle, the settings and the screen the simulator ended on."""
    state = box.app.state.to_dict() if box.app.state else None
    path.write_text(json.dumps({"battle": state, "settings": box.app.settings.to_dict(),
                                "screen": type(box.app.screen).__name__},
                               indent=2, ensure_ascii=False))
