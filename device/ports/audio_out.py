"""Sound out: a WAV handed to a player program (aplay on the Pi and Linux, paplay or pw-play
where PulseAudio or PipeWire runs, afplay on a Mac), found at start (and looked for again by
the voice while there is none: a speaker plugged in later). One utterance plays at a time: a
new one stops the one playing (its player is killed), and the player's pipe is fed on the
player's own thread, so the main loop never waits for the sound. Each sound handed over has a
number, and the player says when it has ended (played out, cut short, or replaced before it
began): the voice lets a prompt wait for an outcome to be said.

The sound is played as the engine rendered it: its loudness is the engine's own (eSpeak's
amplitude), so no Python touches a sample on the way (a loop over every sample took 35-60 ms
per sentence here, most of a second on a Pi Zero 2 W).

$COBI_COMPANION_PLAYER names the command instead (split like a shell line; the WAV comes on its
standard input, or in a file where the command says {file}); "none" means no player.
"""
from __future__ import annotations

import logging
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from cobi_companion.device.ports.phrase_cache import wav_bytes

log = logging.getLogger("cobi-companion")

PLAYER_ENV = "COBI_COMPANION_PLAYER"
# The players tried, in order: each reads the WAV on its standard input but afplay.
PLAYERS: tuple[tuple[str, ...], ...] = (
    ("aplay", "-q", "-"), ("pw-play", "-"), ("paplay",), ("afplay", "{file}"))
CHUNK = 4096                 # bytes written at a time: a stop waits at most for one
SOUND_CARDS = Path("/proc/asound/cards")


class NoAudio(Exception):
    """No player program, or no sound device for it."""


def find_player(environ: dict[str, str] | None = None) -> list[str]:
    """The player's command line; NoAudio when there is none (or aplay has no sound card)."""
    env = os.environ if environ is None else environ
    asked = env.get(PLAYER_ENV)
    if asked is not None:
        if refused(env):
            raise NoAudio(f"no player (${PLAYER_ENV}={asked!r})")
        command = shlex.split(asked)
        if shutil.which(command[0]) is None:
            raise NoAudio(f"no player {command[0]!r} (${PLAYER_ENV})")
        return command
    for player in PLAYERS:
        if shutil.which(player[0]) is not None:
            if player[0] == "aplay" and not _sound_cards():
                raise NoAudio("no sound card (/proc/asound/cards lists none)")
            return [*player]
    raise NoAudio("no player program: install alsa-utils (aplay)")


def refused(environ: Mapping[str, str] | None = None) -> bool:
    """No player asked for ($COBI_COMPANION_PLAYER=none): a silence chosen, not a fault."""
    asked = (os.environ if environ is None else environ).get(PLAYER_ENV)
    return asked is not None and asked.strip().lower() in ("", "none")


def _sound_cards() -> bool:
    if not sys.platform.startswith("linux"):
        return True
    try:
        text = SOUND_CARDS.read_text()
    except OSError:
        return False
    return bool(text.strip()) and "no soundcards" not in text


class Player:
    """Plays one WAV at a time through `command` on its own thread; `play` returns at once
    and stops the one playing. `on_first_bytes` is called as a sound's first bytes reach the
    player (the bench times it), `on_ended` after a sound has ended (`ended`); `failed` is the
    last player's complaint (no device)."""

    def __init__(self, command: Sequence[str],
                 on_first_bytes: Callable[[], None] | None = None) -> None:
        self.command = list(command)
        self.on_first_bytes = on_first_bytes
        self.on_ended: Callable[[], None] | None = None
        self.failed: str | None = None
        self._next: tuple[int, bytes] | None = None
        self._given = 0                 # the number of the last sound handed over
        self._ended = 0                 # every sound up to this number has ended
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice-player", daemon=True)
        self._thread.start()

    def play(self, samples: bytes, rate: int) -> int:
        """Play `samples` (16-bit mono at `rate`) as they are, cutting short what plays; the
        sound's number (see `ended`)."""
        wav = wav_bytes(samples, rate)
        with self._wake:
            self._given += 1
            self._drop_next()
            self._next = (self._given, wav)
            self._stop_playing()
            self._wake.notify()
            return self._given

    def stop(self) -> None:
        with self._wake:
            self._drop_next()
            self._stop_playing()
        self._tell_ended()

    def ended(self, number: int) -> bool:
        """Whether sound `number` has ended: played out, cut short, or never begun."""
        with self._wake:
            return self._ended >= number

    def _drop_next(self) -> None:
        # Called holding the lock: a sound replaced before it began has ended.
        if self._next is not None:
            self._ended = max(self._ended, self._next[0])
            self._next = None

    def _end(self, number: int) -> None:
        with self._wake:
            self._ended = max(self._ended, number)
        self._tell_ended()

    def _tell_ended(self) -> None:
        if self.on_ended is not None:
            self.on_ended()

    @property
    def playing(self) -> subprocess.Popen[bytes] | None:
        """The player process of the sound playing now, if any (tests look at it)."""
        return self._process

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._drop_next()
            self._stop_playing()
            self._wake.notify()
        self._thread.join(timeout=2.0)

    def _stop_playing(self) -> None:
        # Called holding the lock: a kill is a signal, it does not wait.
        if self._process is not None and self._process.poll() is None:
            self._process.kill()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._next is None and not self._closed:
                    self._wake.wait()
                given, self._next = self._next, None
            if given is None:
                return          # closed
            try:
                self._play(given[1])
            except Exception:  # a player is never worth the box
                log.exception("voice: the player failed")
            finally:
                self._end(given[0])

    def _play(self, wav: bytes) -> None:
        with tempfile.TemporaryDirectory(prefix="cobi-voice-") as folder:
            command, stdin = self._command_for(wav, Path(folder))
            with self._wake:
                if self._next is not None or self._closed:
                    return          # cut short before it began
                process = subprocess.Popen(command, stdin=subprocess.PIPE if stdin else
                                           subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE)
                self._process = process
            if stdin is None and self.on_first_bytes is not None:
                self.on_first_bytes()
            self._feed(process, stdin)
            _, error = process.communicate()      # closes its stdin: the end of the sound
            self._note(process, error)

    def _command_for(self, wav: bytes, folder: Path) -> tuple[list[str], bytes | None]:
        if "{file}" not in self.command:
            return self.command, wav
        file = folder / "say.wav"
        file.write_bytes(wav)
        return [str(file) if part == "{file}" else part for part in self.command], None

    def _feed(self, process: subprocess.Popen[bytes], wav: bytes | None) -> None:
        if wav is None or process.stdin is None:
            return
        try:
            for at in range(0, len(wav), CHUNK):
                process.stdin.write(wav[at:at + CHUNK])
                process.stdin.flush()
                if at == 0 and self.on_first_bytes is not None:
                    self.on_first_bytes()
        except (BrokenPipeError, ValueError, OSError):
            pass            # killed for the next utterance, or the player gave up

    def _note(self, process: subprocess.Popen[bytes], error: bytes | None) -> None:
        """A player that ended on its own with an error (no device, busy): said once; one
        that played to its end clears it (the device is back, or was only busy)."""
        if process.returncode == 0:
            self.failed = None
            return
        if process.returncode == -9 or self._next is not None:
            return
        why = (error or b"").decode(errors="replace").strip().splitlines()
        text = why[-1] if why else f"exit {process.returncode}"
        if text != self.failed:
            log.warning("voice: %s: %s", self.command[0], text)
        self.failed = text


def wait_until(test: Callable[[], bool], timeout: float) -> bool:
    """Poll `test` until it is true or `timeout` seconds pass (for closing and the CLI)."""
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True
