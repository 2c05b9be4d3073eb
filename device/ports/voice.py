"""The box's real voice (the `Speech` port, device/ports/speech.py): the engine, the phrase
cache and a player put together, and `SpeechFiles`, which writes each utterance as a WAV and its
text (the simulator's --speech-dir, for tests and docs).

`say` hands the utterance to the voice's own thread and returns: that thread joins its phrases
from the cache (rendering there, never on the main loop, a phrase missing since: a new card)
and gives the sound to the player, which stops the one playing. The engine starts on that
thread too, at the first utterance or the first phrase rendered ahead: the box's first frame
never waits for it. The engine runs in a worker process of its own (render_process.py): its
crash or runaway silences the voice, with its notice, and never the box.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from cobi_companion.device.ports.audio_out import Player
from cobi_companion.device.ports.espeak import EngineFailed, EngineMissing, Library, TooLong
from cobi_companion.device.ports.phrase_cache import BUDGET, PhraseCache, wav_bytes
from cobi_companion.device.ports.render_process import LIMITS, Limits, RenderProcess
from cobi_companion.device.ports.speech import NoSpeech, Speech, Utterance

log = logging.getLogger("cobi-companion")

NO_ENGINE, NO_AUDIO = "voice_no_engine", "voice_no_audio"
# What to render: each language's phrases, or (language, phrases) pairs in the order wanted.
Phrases = Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]]


class Engine:
    """The engine and its cache, started at first use (on the thread that needs it): the
    cache `budget` bytes at most, the engine's worker within `limits`."""

    def __init__(self, library: Library, cache_folder: Path, budget: int = BUDGET,
                 limits: Limits = LIMITS) -> None:
        self.library, self.cache_folder, self.budget = library, cache_folder, budget
        self.limits = limits
        self._espeak: RenderProcess | None = None
        self._cache: PhraseCache | None = None
        self._lock = threading.Lock()

    @property
    def cache(self) -> PhraseCache:
        with self._lock:
            if self._cache is None:
                if self._espeak is None:
                    self._espeak = RenderProcess(self.library, self.limits)
                self._espeak.start()        # a start that fails counts against its restarts
                self._cache = PhraseCache(self.cache_folder, self._espeak.name,
                                          self._espeak.rate, self.budget)
            return self._cache

    @property
    def process(self) -> RenderProcess | None:
        """The engine's worker, once started."""
        return self._espeak

    @property
    def rate(self) -> int:
        return self.cache.rate

    def render(self, text: str, language: str) -> bytes:
        """`text` said in `language`: the seam the voice renders through (16-bit mono PCM
        at `rate`). A phrase past the size limit is a short silence, kept as its sound: it
        would be refused again."""
        cache = self.cache          # starts the engine
        assert self._espeak is not None
        try:
            samples = self._espeak.render(text, language)
        except TooLong as exc:
            log.warning("voice: %s; left out", exc)
            samples = b""
        if not samples:
            log.warning("voice: %r rendered to nothing", text)
        return samples if samples else bytes(2 * cache.rate // 10)

    def samples(self, utterance: Utterance) -> bytes:
        return self.cache.joined(utterance.language, utterance.parts, self.render)

    def render_missing(self, phrases: Phrases, room: int | None = None) -> int:
        """Render what the cache lacks, in order (by language, or pairs of a language and
        its phrases), at most `room` bytes (None: half the cache's budget) in all; a cache
        over its budget (one filled before it had one) is trimmed first."""
        cache = self.cache
        cache.trim()
        room = cache.budget // 2 if room is None else room
        used = done = 0

        def counted(text: str, language: str) -> bytes:
            nonlocal used
            samples = self.render(text, language)
            used += len(samples)
            return samples
        pairs = phrases.items() if isinstance(phrases, Mapping) else phrases
        for language, texts in pairs:
            done += cache.render_missing(language, texts, counted, room - used)
        return done

    def close(self) -> None:
        """End the engine's worker."""
        if self._espeak is not None:
            self._espeak.close()


class _Worker:
    """A thread that takes the latest job only: a newer one replaces one not begun."""

    def __init__(self, name: str, work: Callable[[Utterance], None]) -> None:
        self._work = work
        self._next: Utterance | None = None
        self._closed = False
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def give(self, utterance: Utterance) -> None:
        with self._wake:
            self._next = utterance
            self._wake.notify()

    def close(self) -> None:
        with self._wake:
            self._closed, self._next = True, None
            self._wake.notify()
        self._thread.join(timeout=2.0)

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._next is None and not self._closed:
                    self._wake.wait()
                utterance, self._next = self._next, None
            if utterance is None:
                return          # closed
            try:
                self._work(utterance)
            except Exception:  # the voice is never worth the box
                log.exception("voice: could not say %r", utterance.text)


class Voice:
    """The Speech port: `engine`'s phrases, joined and played by `player`."""

    def __init__(self, engine: Engine, player: Player, volume: int = 80) -> None:
        self.engine, self.player, self.volume = engine, player, volume
        self._notice: str | None = None
        self._worker = _Worker("voice", self._say_now)
        self._ahead: threading.Thread | None = None

    @property
    def notice(self) -> str | None:
        if self._notice is None and self.player.failed is not None:
            return NO_AUDIO
        return self._notice

    @notice.setter
    def notice(self, value: str | None) -> None:
        self._notice = value

    def say(self, utterance: Utterance) -> None:
        self._worker.give(utterance)

    def _say_now(self, utterance: Utterance) -> None:
        self.player.stop()              # a new utterance cuts the old one short at once
        try:
            samples = self.engine.samples(utterance)
        except (EngineMissing, EngineFailed) as exc:
            self._no_engine(exc)
            return
        if self._notice == NO_ENGINE:
            self._notice = None         # a new worker renders again
        self.player.play(samples, self.engine.rate, self.volume)

    def _no_engine(self, exc: Exception) -> None:
        if self._notice != NO_ENGINE:
            log.warning("voice: %s", exc)
        self._notice = NO_ENGINE

    def render_ahead(self, phrases: Callable[[], Phrases]) -> None:
        """Render the phrases missing from the cache on a thread of their own (the box's
        start: a card or a word new since the install)."""
        def run() -> None:
            try:
                done = self.engine.render_missing(phrases())
            except (EngineMissing, EngineFailed) as exc:
                self._no_engine(exc)
                return
            if done:
                log.info("voice: %d phrases rendered into %s", done,
                         self.engine.cache_folder)
        self._ahead = threading.Thread(target=run, name="voice-render", daemon=True)
        self._ahead.start()

    def close(self) -> None:
        self._worker.close()
        self.player.close()
        self.engine.close()


class SpeechFiles:
    """Writes each utterance as 0001.wav and 0001.txt (its text) in `folder`, in order, and
    passes it on to `then` (the audio too: a tee). Without an engine only the texts."""

    def __init__(self, folder: Path, engine: Engine | None, then: Speech | None = None,
                 volume: int = 80) -> None:
        self.folder, self.engine, self.volume = folder, engine, volume
        self.then: Speech = then if then is not None else NoSpeech()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self._notice: str | None = None if engine is not None else NO_ENGINE
        self._queue: list[tuple[int, Utterance]] = []
        self._wake = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice-files", daemon=True)
        self._thread.start()

    @property
    def notice(self) -> str | None:
        return self._notice or self.then.notice

    @notice.setter
    def notice(self, value: str | None) -> None:
        self._notice = value

    def say(self, utterance: Utterance) -> None:
        self.count += 1
        with self._wake:
            self._queue.append((self.count, utterance))
            self._wake.notify()
        self.then.volume = self.volume
        self.then.say(utterance)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._queue and not self._closed:
                    self._wake.wait()
                if not self._queue:
                    return
                number, utterance = self._queue.pop(0)
            try:
                self._write(number, utterance)
            except Exception:  # a file is never worth the box
                log.exception("voice: could not write utterance %d", number)

    def _write(self, number: int, utterance: Utterance) -> None:
        stem = self.folder / f"{number:04d}"
        if self.engine is not None:
            try:
                samples = self.engine.samples(utterance)
                Path(f"{stem}.wav").write_bytes(wav_bytes(samples, self.engine.rate))
            except (EngineMissing, EngineFailed) as exc:
                log.warning("voice: %s", exc)
                self._notice = NO_ENGINE
        Path(f"{stem}.txt").write_text(utterance.text + "\n", encoding="utf-8")

    def close(self) -> None:
        """Write what is queued, then close the voice it passes on to."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=60.0)
        self.then.close()
        if self.engine is not None:
            self.engine.close()
