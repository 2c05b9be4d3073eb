"""The daemon as a real process: the simulator in a pseudo-terminal, stopped by SIGTERM and
killed by SIGKILL, and drawn again when its terminal is resized; and the main loop riding out
I2C errors."""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.boot import title_image
from cobi_companion.device.box import build
from cobi_companion.device.config import Config
from cobi_companion.device.ports.display import MemoryDisplay, OledDisplay
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.device.ports.terminal import CLEAR, to_braille, to_halfblocks
from cobi_companion.device.sim import MockPanel, drain, split_keys
from cobi_companion.device.ui.text import view_text
from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy
from PIL import Image

# Each test's cache folder holds the card snapshots of a first run (tests/conftest.py): its
# boxes read the shipped cards from them, as every start after the first does.
pytestmark = pytest.mark.usefixtures("checked_cards")

HELP = "←/→ knob · Enter OK · Backspace back · a/l dice buttons (A/L hold) · q quit"


def wait_frames(fd: int, count: int = 1, timeout: float = 120.0) -> None:
    """Wait until the terminal OLED has been drawn `count` more times (each frame ends with
    the key help line)."""
    seen = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
            if seen.count(b"q quit") >= count:
                return
    raise AssertionError(f"{count} frames never came ({seen.count(b'q quit')} did)")


def wait_ready(fd: int) -> None:
    """Wait for the title and then the start menu: the box takes keys from then on."""
    wait_frames(fd, 2)


class Screen:
    """The frames the simulator draws on its terminal, read in the order they come. Each
    starts by clearing the screen and ends with the line of keys (or, in a terminal too small
    for the panel, with the one line saying so); both end in "q quit"."""

    def __init__(self, fd: int) -> None:
        self.fd, self.seen, self.taken = fd, b"", 0

    def frames(self, count: int, timeout: float = 120.0) -> list[str]:
        """The next `count` frames, whole."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            frames = [f for f in self.seen.split(CLEAR.encode())[1:] if f.endswith(b"q quit")]
            if len(frames) >= self.taken + count:
                self.taken += count
                return [f.decode().replace("\r\n", "\n")
                        for f in frames[self.taken - count:self.taken]]
            if select.select([self.fd], [], [], 0.1)[0]:
                self.seen += os.read(self.fd, 65536)
        raise AssertionError(f"{count} frames never came")

    def frame(self) -> str:
        return self.frames(1)[0]

    def to_the_end(self, proc: subprocess.Popen, timeout: float = 120.0) -> list[str]:
        """Every frame not yet taken, read until the simulator has ended."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if select.select([self.fd], [], [], 0.1)[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:              # the simulator has closed the terminal
                    break
            elif proc.poll() is not None:
                break
        frames = [f for f in self.seen.split(CLEAR.encode())[1:] if f.endswith(b"q quit")]
        return [f.decode().replace("\r\n", "\n") for f in frames[self.taken:]]


def panel(frame: str) -> str:
    """The panel of a frame, without the line of keys under it."""
    return frame.rsplit("\n", 1)[0]


def read_frames(fd: int, count: int) -> list[str]:
    """The first `count` frames of the terminal OLED, each as its panel."""
    return [panel(frame) for frame in Screen(fd).frames(count)]


def quit_sim(proc: subprocess.Popen, fd: int, timeout: float = 120.0) -> int:
    """Type q and read the terminal (the goodbye frame) until the sim has exited."""
    os.write(fd, b"q")
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                break
    return proc.wait(timeout=max(0.1, end - time.monotonic()))


def saved(state_dir) -> dict:
    store = SqliteStore(state_dir / DATABASE_NAME)
    try:
        battle = store.load_battle()
    finally:
        store.close()
    assert battle is not None
    return battle


def peek(state_dir) -> dict | None:
    """The battle saved in `state_dir` as the running simulator left it, read without
    writing (None while there is none)."""
    path = state_dir / DATABASE_NAME
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            row = conn.execute("SELECT state FROM battle").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else dict(json.loads(row[0]))


def wait_saved(fd: int, state_dir, done: Callable[[dict], bool], timeout: float = 120.0) -> None:
    """Read the terminal until the battle saved in `state_dir` is `done`. Frames cannot be
    counted instead: keys typed while the box is busy are handled together, one frame for
    them all."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        watch(fd, 0.1)
        battle = peek(state_dir)
        if battle is not None and done(battle):
            return
    raise AssertionError(f"the battle saved never came: {peek(state_dir)}")


def set_size(fd: int, columns: int, lines: int) -> None:
    """Give a pseudo-terminal a size, as a terminal window does."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


def start_sim(cli_path: str, state_dir, *extra: str,
              size: tuple[int, int] = (140, 40)) -> tuple[subprocess.Popen, int]:
    """The interactive simulator on a pseudo-terminal of `size` (columns, lines): half-blocks
    unless told otherwise."""
    master, slave = pty.openpty()
    set_size(slave, *size)
    proc = subprocess.Popen([cli_path, "sim", "--state-dir", str(state_dir), *extra],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                            env={**os.environ, "COBI_COMPANION_CARDS": ""})
    os.close(slave)
    return proc, master


RIGHT, LEFT = "\x1b[C", "\x1b[D"


def wait_view(fd: int, trace: Path, shown: Callable[[dict], bool],
              timeout: float = 120.0) -> None:
    """Read the terminal until the simulator's --trace file has a view that is `shown`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        watch(fd, 0.1)
        lines = trace.read_text(encoding="utf-8").splitlines() if trace.exists() else []
        if any(shown(data["view"]) for line in lines if line.endswith("}")
               and "view" in (data := json.loads(line))):
            return
    raise AssertionError("the view never came")


def watch(fd: int, seconds: float) -> None:
    """Read the terminal for a while, as a person watching it: a terminal nobody reads fills
    up and stops the program writing to it."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def type_keys(fd: int, *keys: str) -> None:
    """Type whole keys (an arrow is three bytes), with a finger's pause between them."""
    for key in keys:
        os.write(fd, key.encode())
        time.sleep(0.08)


def test_sigterm_saves_and_exits_0(cli_path, tmp_path):
    """(How fast it stops is a figure of bench/, not asserted here.)"""
    proc, fd = start_sim(cli_path, tmp_path, "--dice", "4,2")
    try:
        wait_ready(fd)
        # New battle (the Tank Game), Tiger for Axis, Sherman for Allies, OK: the battle is saved.
        type_keys(fd, "\r", RIGHT, RIGHT, RIGHT, "a", LEFT, LEFT, "l", "\r")
        wait_saved(fd, tmp_path, lambda battle: len(battle["pieces"]) == 2)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill()
        os.close(fd)
    assert [v["label"] for v in saved(tmp_path)["pieces"]] == ["Tiger 1", "Sherman 1"]


@pytest.mark.long
def test_sigkill_during_play_resumes_at_the_last_action(cli_path, tmp_path):
    trace = tmp_path / "trace.jsonl"
    proc, fd = start_sim(cli_path, tmp_path, "--dice", "4,2", "--trace", str(trace))
    try:
        wait_ready(fd)
        # New battle (a new box: the Easy level), Tiger for Axis, Sherman for Allies, OK.
        type_keys(fd, "\r", RIGHT, RIGHT, RIGHT, "a", LEFT, LEFT, "l", "\r")
        type_keys(fd, "a", "l")              # initiative 4 : 2, the Axis act first
        # The result goes on by itself, on the box's clock: wait for the Axis's first menu.
        wait_view(fd, trace, lambda view: view["kind"] == "menu"
                  and view["header"]["side"] == "axis")
        type_keys(fd, RIGHT, "\r", RIGHT, "\r")   # the Axis pass, yes: a completed action
        wait_saved(fd, tmp_path, lambda battle: battle["acted"] == ["axis"])
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=120)
    finally:
        proc.kill()
        os.close(fd)
    battle = saved(tmp_path)
    assert battle["acted"] == ["axis"] and battle["active"] == "allies"
    proc, fd = start_sim(cli_path, tmp_path)
    try:
        wait_ready(fd)
        type_keys(fd, "\r")                  # Resume battle
        wait_frames(fd, 1)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill()
        os.close(fd)
    assert saved(tmp_path)["active"] == "allies"


def test_the_title_shows_at_once_then_the_start_menu(cli_path, tmp_path):
    proc, fd = start_sim(cli_path, tmp_path / "sim")
    try:
        title, menu = read_frames(fd, 2)
        assert quit_sim(proc, fd) == 0
    finally:
        proc.kill()
        os.close(fd)
    assert title == to_halfblocks(title_image())
    # The second frame is the start menu, as the box draws it in this process.
    assert menu == to_halfblocks(box_frames(tmp_path / "here")[0]) != title


def box_screens(state_dir, keys: tuple[str, ...], take: Callable[[Any, Any], Any]) -> list[Any]:
    """What `take(box, display)` finds in this process: on the first screen, then after each
    key."""
    factory, display = MockFactory(pin_class=MockPWMPin), MemoryDisplay()
    box = build(Config(), display, pin_factory=factory, state_dir=state_dir)
    panel = MockPanel(factory, Config())
    found = []
    try:
        box.loop.draw()
        for key in (None, *keys):
            if key is not None:
                panel.act(key)
                drain(box)
            found.append(take(box, display))
    finally:
        box.close()
        factory.reset()
    return found


def box_frames(state_dir, *keys: str) -> list[Image.Image]:
    """The box's frames in this process: the first screen, then the one after each key."""
    def frame(box, display) -> Image.Image:
        assert display.image is not None
        return display.image.copy()
    return box_screens(state_dir, keys, frame)


def box_words(state_dir, *keys: str) -> list[str]:
    """The text form (ui/text.py) of the box's screens in this process: the first screen,
    then the one after each key, each as its lines joined."""
    return box_screens(state_dir, keys,
                       lambda box, display: "\n".join(view_text(box.app.view())))


def words_frame(frame: str) -> bool:
    """The frame as words, the line of keys under them: 80×24 at most, no braille."""
    lines = frame.split("\n")
    return len(lines) <= 24 and all(len(line) <= 80 for line in lines) and \
        not any(0x2800 <= ord(char) <= 0x28FF for line in lines for char in line)


def test_the_panel_fits_the_terminal_and_is_drawn_again_when_resized(cli_path, tmp_path):
    menu = box_frames(tmp_path / "here")[0]
    menu_words, roster_words = box_words(tmp_path / "words", "ok")
    proc, fd = start_sim(cli_path, tmp_path / "sim", "--dice", "4,2", size=(80, 24))
    screen = Screen(fd)
    try:
        title, shown = screen.frames(2)       # the start menu: the main loop runs
        assert title == to_braille(title_image()) + "\n" + HELP     # the title has no words
        assert shown == menu_words + "\n" + HELP                     # a child reads the menu
        set_size(fd, 140, 40)                 # a bigger window: the true pixels
        proc.send_signal(signal.SIGWINCH)
        assert screen.frame() == to_halfblocks(menu) + "\n" + HELP
        set_size(fd, 100, 24)                 # wide enough: the braille beside the words
        proc.send_signal(signal.SIGWINCH)
        rows = screen.frame().split("\n")
        assert [row[:64].rstrip() for row in rows[:16]] == \
            [row.rstrip() for row in to_braille(menu).split("\n")]
        assert [row[66:] for row in rows[:len(menu_words.split("\n"))]] == \
            menu_words.split("\n")
        set_size(fd, 40, 2)                   # too small: one line, and the keys still work
        proc.send_signal(signal.SIGWINCH)
        assert screen.frame() == "too small: needs 64×17 · q quit"
        type_keys(fd, "\r")
        assert screen.frame() == "too small: needs 64×17 · q quit"
        set_size(fd, 80, 24)
        proc.send_signal(signal.SIGWINCH)
        assert screen.frame() == roster_words + "\n" + HELP
        # The Tank Game: a Tiger for the Axis, a Sherman for the Allies, OK; then q.
        type_keys(fd, RIGHT, RIGHT, RIGHT, "a", LEFT, LEFT, "l", "\r", "q")
        *played, farewell = screen.to_the_end(proc)
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill()
        os.close(fd)
    assert played and all(words_frame(frame) for frame in [*played, farewell])
    assert farewell != played[-1]             # the box's last frame: safe to unplug
    assert [v["label"] for v in saved(tmp_path / "sim")["pieces"]] == ["Tiger 1", "Sherman 1"]


def test_keys_typed_faster_than_they_are_read_each_count():
    assert split_keys("\n\x1b[C\x1b[C\x1b") == (["ok", "cw", "cw"], "\x1b")  # cut-off arrow
    assert split_keys("\x1b[Ca") == (["cw", "axis"], "")
    assert split_keys("lq a") == (["allies", "quit", "axis"], "")
    assert split_keys("\x1b[1;2A\x1bL") == (["allies_long"], "")   # shift+up is no box key


class FlakyPanel(dummy):
    """An OLED whose I2C bus fails on every other frame for a while."""

    failures = 0

    def display(self, image):
        FlakyPanel.failures += 1
        if FlakyPanel.failures < 12 and FlakyPanel.failures % 2:
            raise OSError(121, "Remote I/O error")
        super().display(image)


STORM = """
import os, signal, sys, threading, time
from pathlib import Path
from cobi_companion.device.box import build
from cobi_companion.device.config import Config
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Stop
from gpiozero.pins.mock import MockFactory, MockPWMPin

box = build(Config(), MemoryDisplay(), pin_factory=MockFactory(pin_class=MockPWMPin),
            state_dir=Path(sys.argv[1]))
box.loop.handle_signals()

def storm():
    for _ in range(500):   # about one a GIL switch (5 ms), landing anywhere in the loop
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.0002)

sender = threading.Thread(target=storm)
sender.start()
stops = 0
while sender.is_alive():
    stops += isinstance(box.loop.wait(0.0), Stop)
while (event := box.loop.wait(0.1)) is not None:
    stops += isinstance(event, Stop)
print("stops", stops)
"""


@pytest.mark.long
def test_a_signal_storm_while_the_loop_waits_never_deadlocks(tmp_path):
    """SIGTERM can land while the main loop is inside the event queue: the handler's put must
    not wait for a lock that the interrupted loop holds (or nest until the stack runs out)."""
    done = subprocess.run([sys.executable, "-c", STORM, str(tmp_path)], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) > 0


def test_i2c_errors_never_end_the_loop(tmp_path):
    factory = MockFactory(pin_class=MockPWMPin)
    now = [0.0]
    display = OledDisplay(make_device=lambda: FlakyPanel(width=128, height=64, mode="1"),
                          clock=lambda: now[0])
    box = build(Config(), display, pin_factory=factory, state_dir=tmp_path)
    panel = MockPanel(factory, Config())
    try:
        box.loop.draw()
        for _ in range(20):
            panel.act("cw")
            now[0] += 40.0               # past any back-off
            display.refresh()
            drain(box)
        assert display.errors >= 5 and display.healthy
    finally:
        box.close()
        factory.reset()


def test_scripted_sim_writes_snapshots_and_state(cli_path, tmp_path):
    state = tmp_path / "state.json"
    run = subprocess.run(
        [cli_path, "sim", "--state-dir", str(tmp_path / "st"), "--keys",
         "ok,cw,cw,cw,axis,ccw,ccw,allies,ok", "--snapshot-dir", str(tmp_path / "png"),
         "--state-json", str(state)],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "COBI_COMPANION_CARDS": ""})
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == 32        # the last frame in half-blocks
    frames = sorted((tmp_path / "png").glob("frame-*.png"))
    assert len(frames) >= 8
    data = json.loads(state.read_text())
    assert [v["label"] for v in data["battle"]["pieces"]] == ["Tiger 1", "Sherman 1"]


def test_a_scripts_last_frame_fits_its_terminal(cli_path, tmp_path):
    master, slave = pty.openpty()
    set_size(slave, 80, 24)
    proc = subprocess.Popen([cli_path, "sim", "--state-dir", str(tmp_path), "--keys", "ok"],
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    out = b""
    try:
        while select.select([master], [], [], 30)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:                  # the command has ended and closed the terminal
                break
            if not chunk:
                break
            out += chunk
        assert proc.wait(timeout=30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
        os.close(master)
    roster = box_words(tmp_path / "here", "ok")[-1]          # 80×24: as words
    assert out.decode().replace("\r\n", "\n") == roster + "\n"


def test_a_bad_sim_script_is_one_line(cli_path, tmp_path):
    run = subprocess.run([cli_path, "sim", "--state-dir", str(tmp_path), "--keys", "ok,jump"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "cobi-companion: script line 2: 'jump' is not a sim event; allowed: cw, ccw, ok, back, "
        "axis, allies, axis_long, allies_long, throw_axis, throw_allies, wait"]


def test_a_bad_config_is_one_line_and_exit_2(cli_path, tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text("[display]\naddress = 153\n")
    run = subprocess.run([cli_path, "sim", "--config", str(bad), "--keys", "ok"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "display.address" in lines[0] and "Traceback" not in run.stderr
