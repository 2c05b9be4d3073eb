"""The speech engine seen from the box: `RenderProcess.render(text, language)` is the phrase's
samples, rendered by eSpeak NG in a worker process of its own (render_worker.py), started at the
first render (or `start`) and kept.

Whatever the engine does costs only the voice: a worker that crashes (a segfault in C), takes
longer than `time_limit` for a phrase, or grows past `memory_limit` is killed, and the render
fails with EngineFailed (the voice goes silent with its notice); a phrase past `max_seconds` of
sound is refused by the worker. The next render starts a new worker, `restarts` times at most;
the phrase that broke one is not tried again (a bad card name costs its own words only).
"""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cobi_companion.device.ports.espeak import (
    AMPLITUDE,
    NORMAL_WPM,
    EngineFailed,
    EngineMissing,
    Library,
    TooLong,
)
from cobi_companion.device.ports.render_worker import HEADER

WORKER = "cobi_companion.device.ports.render_worker"
# A phrase takes well under a second here and a good part of one on a Pi Zero 2 W; the limits
# are far past that, so only an engine that went wrong meets them.
TIME_LIMIT_S = 20.0
START_LIMIT_S = 60.0            # Python and the engine starting on a Pi Zero, a cold SD card
MAX_SECONDS = 30.0              # of sound in one phrase: a card's name is a few seconds
# The worker's resident memory: eSpeak NG and its data take about 20 MB; a Pi Zero 2 W has
# 512 MB for everything.
MEMORY_LIMIT = 128 * 1024 * 1024
RESTARTS = 3                    # workers started again after one failed; then the voice is off
POLL_S = 0.05                   # how often a wait looks at the worker's memory


@dataclass(frozen=True)
class Limits:
    """What one worker may take (tests set them small)."""

    time_limit: float = TIME_LIMIT_S        # seconds for one phrase
    max_seconds: float = MAX_SECONDS        # of sound in one phrase
    memory_limit: int = MEMORY_LIMIT        # resident bytes
    restarts: int = RESTARTS
    start_limit: float = START_LIMIT_S      # seconds for a worker to start


LIMITS = Limits()


class RenderProcess:
    """eSpeak NG of `library` in a worker process; `name` and `rate` as `Espeak`'s."""

    def __init__(self, library: Library, limits: Limits = LIMITS) -> None:
        self.library = library
        self.time_limit, self.start_limit = limits.time_limit, limits.start_limit
        self.max_seconds, self.memory_limit = limits.max_seconds, limits.memory_limit
        self.restarts = limits.restarts     # left
        self.failed: str | None = None      # why no worker is started again
        self.name, self.rate = "", 0
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._refused: set[tuple[str, str]] = set()    # phrases that broke a worker
        self._lock = threading.Lock()
        self._closed = False
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self.started = 0                    # workers started (tests and the bench count)

    def start(self) -> None:
        """Start the worker now if none runs (a render does it too): `name` and `rate` are
        known after; EngineMissing or EngineFailed if it will not start."""
        with self._lock:
            if self._process is None:
                self._start_again()

    def render(self, text: str, language: str, wpm: int = NORMAL_WPM,
               amplitude: int = AMPLITUDE) -> bytes:
        """`text` said in `language` at `wpm` words a minute and eSpeak's `amplitude`, as
        16-bit mono samples at `rate`."""
        with self._lock:
            if (language, text) in self._refused:
                raise EngineFailed(f"{text!r} broke the speech engine before; left out")
            if self._process is None:
                self._start_again()
            process = self._process
            assert process is not None and process.stdin is not None
            request = json.dumps({"text": text, "language": language, "wpm": wpm,
                                  "amplitude": amplitude}).encode()
            try:
                process.stdin.write(len(request).to_bytes(HEADER, "big") + request)
                process.stdin.flush()
                reply = self._reply(self.time_limit)
                if not reply.get("ok"):
                    error = str(reply.get("error"))
                    raise TooLong(error) if reply.get("kind") == "too_long" else \
                        EngineFailed(error)
                return self._message(self.time_limit)
            except (OSError, _Broken) as exc:
                self._refused.add((language, text))
                self._stop()
                raise EngineFailed(f"the speech engine failed on {text!r}: {exc}") from None

    def close(self) -> None:
        """End the worker (a render waiting for it fails at once)."""
        self._closed = True
        self._stop()

    # ---- the worker ----

    def _start(self) -> None:
        self.started += 1
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", WORKER, str(self.library.path),
                 "" if self.library.data is None else str(self.library.data),
                 str(self.max_seconds), str(self.memory_limit)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as exc:          # no memory or no process left to start one
            raise EngineFailed(f"the speech engine could not start: {exc}") from None
        self._process, self._buffer = process, bytearray()
        # A voice let go without close() (a test's, a command's) does not leave it running.
        self._finalizer = weakref.finalize(self, _end, process)
        try:
            hello = self._reply(self.start_limit)
            if hello.get("ok"):
                self.name, self.rate = str(hello["name"]), int(hello["rate"])
                return
        except (_Broken, KeyError, TypeError, ValueError) as exc:
            self._stop()
            raise EngineFailed(f"the speech engine did not start: {exc}") from None
        self._stop()
        if hello.get("kind") == "missing":
            self.failed = str(hello.get("error"))  # a library that does not load will not later
            raise EngineMissing(self.failed)
        raise EngineFailed(str(hello.get("error")))

    def _start_again(self) -> None:
        if self._closed:
            raise EngineFailed("the voice is closed")
        if self.failed is not None:
            raise EngineFailed(self.failed)
        if self.started > 0:                # the first start is no restart
            if self.restarts <= 0:
                self.failed = "the speech engine failed too often; the voice is off until " \
                              "the box starts again"
                raise EngineFailed(self.failed)
            self.restarts -= 1
        self._start()

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if self._finalizer is not None:
                self._finalizer.detach()
            _end(process)

    # ---- reading, with the limits ----

    def _reply(self, limit: float) -> dict[str, Any]:
        try:
            reply = json.loads(self._message(limit))
        except ValueError:
            raise _Broken("an answer that is not JSON") from None
        if not isinstance(reply, dict):
            raise _Broken("an answer that is not a JSON object")
        return reply

    def _message(self, limit: float) -> bytes:
        deadline = time.monotonic() + limit
        size = int.from_bytes(self._read(HEADER, deadline, limit), "big")
        # No answer is bigger than the sound the worker may send (before its hello, at
        # eSpeak NG's highest rate).
        if size > int(self.max_seconds * (self.rate or 48_000)) * 2 + 4096:
            raise _Broken(f"an answer of {size} bytes")
        return self._read(size, deadline, limit)

    def _read(self, size: int, deadline: float, limit: float) -> bytes:
        process = self._process
        if process is None or process.stdout is None:
            raise _Broken("no worker")
        fd = process.stdout.fileno()
        while len(self._buffer) < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Broken(f"took longer than {limit:g} s")
            ready, _, _ = select.select([fd], [], [], min(left, POLL_S))
            if not ready:
                self._check_memory(process)
                continue
            chunk = os.read(fd, max(65536, size - len(self._buffer)))
            if not chunk:
                code = process.wait()
                raise _Broken(f"it ended ({_ending(code)})")
            self._buffer += chunk
        taken = bytes(self._buffer[:size])
        del self._buffer[:size]
        return taken

    def _check_memory(self, process: subprocess.Popen[bytes]) -> None:
        used = resident(process.pid)
        if used is not None and used > self.memory_limit:
            raise _Broken(f"it took {used // 2**20} MB of memory")


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill a worker (if it still runs), reap it and close its pipes."""
    if process.poll() is None:
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass            # its pipe already broken by the kill


class _Broken(Exception):
    """The worker broke the talk: crashed, too slow, too big, or nonsense."""


def resident(pid: int) -> int | None:
    """A process's resident memory in bytes (None where there is no /proc)."""
    try:
        statm = Path(f"/proc/{pid}/statm").read_text(encoding="ascii")
    except OSError:
        return None
    return int(statm.split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _ending(code: int) -> str:
    if code < 0:
        import signal

        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"
