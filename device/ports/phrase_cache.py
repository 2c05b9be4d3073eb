"""The sentences the box says, each rendered whole once into a folder of WAV files, so that a
sentence said again costs a file read (under a millisecond) instead of a render (7 ms here for
a 5-second sentence in the engine's worker, about 0.1 s on a Pi Zero 2 W). The cache is named
for phrases: it held the pieces of a sentence before the voice said each sentence in one
breath (issue 34); it keeps any text.

One file per (engine, style, language, text), the style being eSpeak's voice, words a minute
and amplitude (a sentence said slower or quieter is another sound), named by a hash of them
and written atomically
(a temporary file, then a rename), so a power cut leaves a phrase whole or missing. A file that
cannot be read back as the engine's sound (cut short, damaged) counts as missing and is rendered
again. A folder that cannot be written (a full disk, read only) keeps the phrases rendered since
in memory: the box says what it can, and the journal says once why the cache does not grow.

The folder has a size limit (`budget`): past it, the phrases used least recently go, down to
`TRIM_TO` of it. A phrase's use is its file's modification time, set again when it is spoken
(once a minute at most: a phrase said again and again costs no write), so nothing else is kept
on disk; the folder's size is added up once and then kept as files come and go, and a trim
lists and sorts the folder once (n log n) then frees a quarter of the budget, so the next one is
hundreds of phrases away. Trims run where phrases are written: the voice's threads, never the
main loop.
"""
from __future__ import annotations

import hashlib
import io
import logging
import os
import tempfile
import threading
import time
import wave
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path

log = logging.getLogger("cobi-companion")

CACHE_ENV = "CACHE_DIRECTORY"       # systemd's CacheDirectory= (the unit's)
Render = Callable[[str, str], bytes]   # (text, language) -> 16-bit mono samples
# The folder's size limit. Whole sentences are kept: the ones with no value in them, rendered
# at the install, take about 6 MB in the three languages; each sentence said since, 50 to
# 200 kB (a few hundred to a thousand of them fit), the least used going first. 64 MB is under
# 1% of the smallest SD card Raspberry Pi OS fits on (8 GB, the system taking 3 to 5), so the
# voice can never fill the card the battles are saved on.
BUDGET = 64 * 1024 * 1024
TRIM_TO = 0.75                      # a trim leaves this share of the budget
# Phrases kept in memory when the folder takes no file: the box's memory is not the disk.
MEMORY_BUDGET = 8 * 1024 * 1024
TOUCH_AFTER_S = 60.0                # a use older than this is written down again


def default_folder(state_dir: Path | None = None) -> Path:
    """The cache's folder: the unit's $CACHE_DIRECTORY (/var/cache/cobi-companion), else
    $XDG_CACHE_HOME or ~/.cache's cobi-companion/voice."""
    unit = os.environ.get(CACHE_ENV)
    if unit:
        return Path(unit.split(os.pathsep)[0]) / "voice"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cobi-companion" / "voice"


def wav_bytes(samples: bytes, rate: int) -> bytes:
    """16-bit mono samples as a WAV file's bytes."""
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(samples)
    return out.getvalue()


def read_wav(data: bytes, rate: int) -> bytes | None:
    """The samples of a WAV file made by `wav_bytes` at `rate`; None if it is anything else
    or cut short."""
    try:
        with wave.open(io.BytesIO(data), "rb") as file:
            if (file.getnchannels(), file.getsampwidth(), file.getframerate()) != (1, 2, rate):
                return None
            frames = file.getnframes()
            samples = file.readframes(frames)
    except (wave.Error, EOFError, ValueError):
        return None
    return samples if frames > 0 and len(samples) == frames * 2 else None


class PhraseCache:
    """The rendered phrases of engine `voice` (its name and rate), in `folder`, at most
    `budget` bytes of them."""

    def __init__(self, folder: Path, voice: str, rate: int, budget: int = BUDGET,
                 memory_budget: int = MEMORY_BUDGET) -> None:
        self.folder, self.voice, self.rate = folder, voice, rate
        self.budget, self.memory_budget = budget, memory_budget
        # Rendered while the folder took no file, the least recently used first.
        self._memory: OrderedDict[Path, bytes] = OrderedDict()
        self._in_memory = 0
        self._lock = threading.Lock()
        self._size: int | None = None             # the folder's WAV bytes, once added up
        self.unwritable: str | None = None        # why the folder took no file, once said
        self.evicted = 0                          # files removed by trims (tests, the journal)

    def path(self, language: str, text: str, style: str = "") -> Path:
        key = hashlib.sha256("\0".join((self.voice, style, language, text)).encode())
        return self.folder / f"{key.hexdigest()[:32]}.wav"

    def get(self, language: str, text: str, style: str = "") -> bytes | None:
        """The phrase's samples, or None if it is not rendered (or its file is damaged)."""
        path = self.path(language, text, style)
        with self._lock:
            kept = self._memory.get(path)
            if kept is not None:
                self._memory.move_to_end(path)
                return kept
        try:
            data = path.read_bytes()
        except OSError:
            return None
        samples = read_wav(data, self.rate)
        if samples is not None:
            _touch(path)
        return samples

    def put(self, language: str, text: str, samples: bytes, style: str = "") -> None:
        """Keep the phrase: in its file (the least used going past the budget), else (and
        said once) in memory."""
        path = self.path(language, text, style)
        data = wav_bytes(samples, self.rate)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, suffix=".tmp",
                                             delete=False) as file:
                temporary = Path(file.name)
                try:
                    file.write(data)
                except OSError:
                    temporary.unlink(missing_ok=True)
                    raise
            with self._lock:
                replaced = _size_of(path)
                os.replace(temporary, path)
                if self._size is not None:
                    self._size += len(data) - replaced
        except OSError as exc:
            self._keep_in_memory(path, samples, exc)
            return
        self.trim()

    def _keep_in_memory(self, path: Path, samples: bytes, exc: OSError) -> None:
        with self._lock:
            self._in_memory += len(samples) - len(self._memory.pop(path, b""))
            self._memory[path] = samples
            while self._in_memory > self.memory_budget and len(self._memory) > 1:
                self._in_memory -= len(self._memory.popitem(last=False)[1])
            if self.unwritable is None:
                self.unwritable = str(exc)
                log.warning("voice: phrase cache %s not written (%s); phrases kept in "
                            "memory until the box restarts", self.folder, exc)

    def size(self) -> int:
        """The bytes of the folder's phrases (added up once, then kept)."""
        with self._lock:
            if self._size is None:
                self._size = sum(size for _, size, _ in self._files())
            return self._size

    def trim(self) -> int:
        """Past the budget, remove the phrases used least recently down to TRIM_TO of it;
        how many went."""
        if self.size() <= self.budget:
            return 0
        with self._lock:
            files = sorted(self._files(), key=lambda found: found[2])
            self._size = sum(size for _, size, _ in files)
            goal, gone = int(self.budget * TRIM_TO), 0
            for path, size, _ in files:
                if self._size <= goal:
                    break
                try:
                    path.unlink()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue        # a file that will not go still counts
                self._size -= size
                gone += 1
            self.evicted += gone
        if gone:
            log.info("voice: %d phrases used least recently removed from %s (limit %d MB)",
                     gone, self.folder, self.budget // 2**20)
        return gone

    def _files(self) -> list[tuple[Path, int, float]]:
        """The folder's phrase files: path, size and last use."""
        found: list[tuple[Path, int, float]] = []
        try:
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if not entry.name.endswith(".wav"):
                        continue
                    try:
                        stat = entry.stat()
                    except OSError:
                        continue
                    found.append((Path(entry.path), stat.st_size, stat.st_mtime))
        except OSError:
            pass
        return found

    def missing(self, language: str, phrases: Iterable[str], style: str = "") -> list[str]:
        """The phrases with no whole file yet, in their order (each once). Only each file's
        header is read (a box's start checks the whole cache, megabytes on an SD card); a file
        damaged inside its header's length is found when it is played, and rendered again
        then."""
        return [text for text in dict.fromkeys(phrases)
                if not self._whole(language, text, style)]

    def _whole(self, language: str, text: str, style: str) -> bool:
        path = self.path(language, text, style)
        if path in self._memory:
            return True
        try:
            with path.open("rb") as file:
                header = file.read(12)
                size = os.fstat(file.fileno()).st_size
        except OSError:
            return False
        # RIFF's size field counts the file's bytes after its first eight
        return (len(header) == 12 and header[:4] == b"RIFF" and header[8:] == b"WAVE"
                and int.from_bytes(header[4:8], "little") + 8 == size)

    def render_missing(self, language: str, phrases: Iterable[str], render: Render,
                       room: int | None = None, style: str = "") -> int:
        """Render the phrases not in the cache yet, in their order, until `room` bytes are
        rendered (None: half the budget, so that what is rendered ahead never pushes out
        itself or what was just said); how many were rendered."""
        room = self.budget // 2 if room is None else room
        done = 0
        for text in self.missing(language, phrases, style):
            if room <= 0:
                break
            samples = render(text, language)
            self.put(language, text, samples, style)
            room -= len(samples)
            done += 1
        return done


def _touch(path: Path) -> None:
    """Note a use of `path` (its modification time), unless one was noted a minute ago."""
    try:
        if time.time() - path.stat().st_mtime > TOUCH_AFTER_S:
            os.utime(path)
    except OSError:
        pass            # a read-only folder: its phrases are still said


def _size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
