"""Keys from a FIFO, and each frame as text in a file: the box played by a test program.

For tests only (`[test] keys_fifo` and `screen_file` in the settings, both off unless set; the
system test, tests/system/, plays the installed box with them). Never set on a box at the table:
whoever can write the FIFO presses its keys.

The box makes the FIFO (mode 0600) and reads lines of key names from it, the names
`cobi-companion sim --keys` takes but `wait` (cw, ccw, ok, back, axis, allies, axis_long,
allies_long), separated by spaces or commas; each key goes onto the main loop's queue as a
press, exactly as a button's. While the box's smart dice are virtual ([smart_dice] adapter
"fake"), `axis_die` and `allies_die` (`axis_die=4`: on a 4) throw a paired die of the side,
as the simulator's keys do. A line with a word that is no key presses nothing and is logged
as a warning; the box goes on.
"""
from __future__ import annotations

import contextlib
import logging
import os
import select
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from cobi_companion.device.ports.events import Event, Key, Press
from cobi_companion.device.ports.fake_dice import DIE_WORDS, die_word

log = logging.getLogger("cobi-companion")

KEY_NAMES = tuple(key.value for key in Key)
Roll = Callable[[str, int], None]     # throws a virtual die of a side on a face (0: its own)
LONGEST_LINE = 4096       # bytes: a longer line without its end is refused whole


def make_fifo(path: Path) -> None:
    """A FIFO at `path`: made (mode 0600), or the one already there; anything else there is
    refused (OSError), never replaced."""
    try:
        os.mkfifo(path, 0o600)
    except FileExistsError:
        if not stat.S_ISFIFO(os.lstat(path).st_mode):
            raise OSError(f"{path} is there and is not a FIFO") from None


class KeyFifo:
    """The FIFO's reader: `pump` takes the whole lines waiting, `start` pumps on a thread
    until `close`."""

    def __init__(self, path: Path, put: Callable[[Event], None], roll: Roll | None = None
                 ) -> None:
        self.path, self.put, self.roll = path, put, roll
        make_fifo(path)
        # Read and write: a writer that closes is no end of file, and opening never waits for
        # one. Not blocking: `pump` takes what is there and returns.
        self.fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self.wake_r, self.wake_w = os.pipe()
        self.pending = b""
        self.thread: threading.Thread | None = None

    def pump(self) -> None:
        """Press the keys of each whole line waiting in the FIFO."""
        while True:
            try:
                chunk = os.read(self.fd, LONGEST_LINE)
            except BlockingIOError:
                break
            if not chunk:
                break
            self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        for line in lines:
            self.line(line)
        if len(self.pending) > LONGEST_LINE:
            log.warning("test keys: a line longer than %d bytes pressed nothing",
                        LONGEST_LINE)
            self.pending = b""

    def line(self, raw: bytes) -> None:
        words = raw.decode("utf-8", "replace").replace(",", " ").lower().split()
        bad = [word for word in words if word not in KEY_NAMES and self.thrown(word) is None]
        if bad:
            log.warning("test keys: %r is not a key, the line pressed nothing; keys: %s",
                        bad[0][:40], ", ".join(self.names()))
            return
        for word in words:
            thrown = self.thrown(word)
            if thrown is not None and self.roll is not None:
                self.roll(*thrown)
            else:
                self.put(Press(Key(word)))

    def thrown(self, word: str) -> tuple[str, int] | None:
        """The side and face a die word throws, while there are virtual dice to throw."""
        return die_word(word) if self.roll is not None else None

    def names(self) -> tuple[str, ...]:
        return (*KEY_NAMES, *DIE_WORDS) if self.roll is not None else KEY_NAMES

    def start(self) -> KeyFifo:
        self.thread = threading.Thread(target=self._run, name="key-fifo", daemon=True)
        self.thread.start()
        log.info("test keys: reading key names from %s ([test] keys_fifo)", self.path)
        return self

    def _run(self) -> None:
        while True:
            ready, _, _ = select.select([self.fd, self.wake_r], [], [])
            if self.wake_r in ready:
                return
            self.pump()

    def close(self) -> None:
        os.write(self.wake_w, b"x")
        if self.thread is not None:
            self.thread.join()
        for fd in (self.fd, self.wake_r, self.wake_w):
            os.close(fd)
        with contextlib.suppress(OSError):     # gone already: nothing to take away
            self.path.unlink()


def open_key_fifo(path: Path, put: Callable[[Event], None], roll: Roll | None = None
                  ) -> KeyFifo | None:
    """The FIFO's reader, started; None (and an error logged) when it cannot be made: the
    box plays on without it. With `roll`, die words throw virtual smart dice."""
    try:
        return KeyFifo(path, put, roll).start()
    except OSError as exc:
        log.error("test keys: no FIFO at %s: %s", path, exc)
        return None


class ScreenFile:
    """Each frame's text (ui/text.py), written whole into `path` (a new file put in place,
    so a reader never sees half a frame)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.failed = False

    def write(self, lines: list[str]) -> None:
        part = self.path.with_name(self.path.name + ".part")
        try:
            part.write_text("\n".join(lines) + "\n", encoding="utf-8")
            os.replace(part, self.path)
        except OSError as exc:
            if not self.failed:       # once, not at every frame
                log.error("test screen file %s not written: %s", self.path, exc)
            self.failed = True
            return
        self.failed = False
