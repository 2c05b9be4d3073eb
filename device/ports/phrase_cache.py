"""The phrases the box says, rendered once into a folder of WAV files and joined when spoken, so
that no press waits for the engine (on a Pi Zero a phrase takes a good part of a second).

One file per (engine, language, phrase), named by a hash of the three and written atomically
(a temporary file, then a rename), so a power cut leaves a phrase whole or missing. A file that
cannot be read back as the engine's sound (cut short, damaged) counts as missing and is rendered
again. A folder that cannot be written (a full disk, read only) keeps the phrases rendered since
in memory: the box says what it can, and the journal says once why the cache does not grow.
"""
from __future__ import annotations

import hashlib
import io
import logging
import os
import tempfile
import threading
import wave
from collections.abc import Callable, Iterable
from pathlib import Path

log = logging.getLogger("cobi-companion")

CACHE_ENV = "CACHE_DIRECTORY"       # systemd's CacheDirectory= (the unit's)
GAP_S = 0.12                        # the silence between two joined phrases
Render = Callable[[str, str], bytes]   # (text, language) -> 16-bit mono samples


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
    """The rendered phrases of engine `voice` (its name and rate), in `folder`."""

    def __init__(self, folder: Path, voice: str, rate: int) -> None:
        self.folder, self.voice, self.rate = folder, voice, rate
        self._memory: dict[Path, bytes] = {}      # rendered while the folder took no file
        self._lock = threading.Lock()
        self.unwritable: str | None = None        # why the folder took no file, once said

    def path(self, language: str, text: str) -> Path:
        key = hashlib.sha256("\0".join((self.voice, language, text)).encode()).hexdigest()
        return self.folder / f"{key[:32]}.wav"

    def get(self, language: str, text: str) -> bytes | None:
        """The phrase's samples, or None if it is not rendered (or its file is damaged)."""
        path = self.path(language, text)
        kept = self._memory.get(path)
        if kept is not None:
            return kept
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return read_wav(data, self.rate)

    def put(self, language: str, text: str, samples: bytes) -> None:
        """Keep the phrase: in its file, else (and said once) in memory."""
        path = self.path(language, text)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, suffix=".tmp",
                                             delete=False) as file:
                temporary = Path(file.name)
                try:
                    file.write(wav_bytes(samples, self.rate))
                except OSError:
                    temporary.unlink(missing_ok=True)
                    raise
            os.replace(temporary, path)
        except OSError as exc:
            with self._lock:
                self._memory[path] = samples
                if self.unwritable is None:
                    self.unwritable = str(exc)
                    log.warning("voice: phrase cache %s not written (%s); phrases kept in "
                                "memory until the box restarts", self.folder, exc)

    def missing(self, language: str, phrases: Iterable[str]) -> list[str]:
        """The phrases with no whole file yet. Only each file's header is read (a box's start
        checks the whole cache, megabytes on an SD card); a file damaged inside its header's
        length is found when it is played, and rendered again then."""
        return sorted(text for text in set(phrases) if not self._whole(language, text))

    def _whole(self, language: str, text: str) -> bool:
        path = self.path(language, text)
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

    def render_missing(self, language: str, phrases: Iterable[str], render: Render) -> int:
        """Render the phrases not in the cache yet; how many were rendered."""
        todo = self.missing(language, phrases)
        for text in todo:
            self.put(language, text, render(text, language))
        return len(todo)

    def joined(self, language: str, parts: Iterable[str], render: Render | None) -> bytes:
        """The phrases' samples one after the other, a short silence between them; a phrase
        not in the cache is rendered now with `render` (never on the main loop: the voice's
        thread calls this) and kept, or left out without one."""
        gap = bytes(2 * int(self.rate * GAP_S))
        pieces: list[bytes] = []
        for text in parts:
            samples = self.get(language, text)
            if samples is None and render is not None:
                samples = render(text, language)
                self.put(language, text, samples)
            if samples:
                pieces.append(samples)
        return gap.join(pieces)
