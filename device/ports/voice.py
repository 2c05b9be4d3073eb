"""The box's real voice (the `Speech` port, device/ports/speech.py): the engine, the sentence
cache and a player put together, and `SpeechFiles`, which writes each utterance as a WAV and its
text (the simulator's --speech-dir, for tests and docs).

Each utterance is said as one sentence, in one breath: its whole `text` is rendered by one call
of the engine, so pauses fall only where its punctuation puts them (phrases rendered apart and
joined each ended on eSpeak's falling "end of sentence" pitch and pause, issue 34). The engine
renders at the settings' speed and volume (eSpeak's own rate and amplitude): the player plays
the samples as they come.

`say` hands the utterance to the voice's own thread and returns: that thread takes the sentence
from the cache or renders it there (never on the main loop) and gives the sound to the player,
as the utterance's kind allows (speech.py: an outcome cuts whatever plays, a prompt or an item
waits for an outcome to end, and so does an outcome that follows an earlier step of the same
action; such a wait ends at the latest a second after the outcome's sound would have: a player
that hangs silences nothing more than that outcome). The engine starts on that thread too,
at the first utterance or at `warm` (the box's start): the box's first frame never waits for
it. The engine runs in a worker process of its own (render_process.py): its crash or runaway
silences the voice, with its notice, and never the box. Where no player was found (no sound
card, no player program) the voice looks again each time it has something to say: a speaker
plugged in later is used.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from cobi_companion.device.ports.audio_out import NoAudio, Player
from cobi_companion.device.ports.espeak import (
    AMPLITUDE,
    NORMAL_WPM,
    VOICES,
    WPM,
    EngineFailed,
    EngineMissing,
    Library,
    TooLong,
    amplitude,
)
from cobi_companion.device.ports.phrase_cache import BUDGET, PhraseCache, wav_bytes
from cobi_companion.device.ports.render_process import LIMITS, Limits, RenderProcess
from cobi_companion.device.ports.speech import NoSpeech, Speech, Utterance

log = logging.getLogger("cobi-companion")

NO_ENGINE, NO_AUDIO = "voice_no_engine", "voice_no_audio"
# Where no player was found, how often the notice (the start menu, the settings row) looks
# again, besides each time there is something to say: a speaker plugged in clears it.
LOOK_AGAIN_S = 5.0
# How long past its sound's own length an outcome may keep the others waiting: a player's
# start and the sound card's buffer take a fraction of it; a player that hangs, no longer.
OUTCOME_SLACK_S = 1.0
# What to render: each language's sentences, or (language, sentences) pairs in the order wanted.
Phrases = Mapping[str, Iterable[str]] | Iterable[tuple[str, Iterable[str]]]


@dataclass(frozen=True)
class Style:
    """How a sentence is said: eSpeak's words a minute and amplitude."""

    wpm: int = NORMAL_WPM
    amplitude: int = AMPLITUDE

    def key(self, language: str) -> str:
        """What the cache tells sounds apart by, besides the engine, language and text."""
        return f"{VOICES[language]} {self.wpm} wpm {self.amplitude} amplitude"


def style_of(speed: str, volume: int) -> Style:
    """The settings' speed ("normal", "slower") and volume (0–100 %) as eSpeak's."""
    return Style(WPM.get(speed, NORMAL_WPM), amplitude(volume))


class Engine:
    """The engine and its cache of whole sentences, started at first use (on the thread
    that needs it): the cache `budget` bytes at most, the engine's worker within `limits`."""

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

    def render(self, text: str, language: str, style: Style = Style()) -> bytes:
        """`text` said in `language` as `style` says: the seam the voice renders through
        (16-bit mono PCM at `rate`). A sentence past the size limit is a short silence, kept
        as its sound: it would be refused again."""
        cache = self.cache          # starts the engine
        assert self._espeak is not None
        try:
            samples = self._espeak.render(text, language, style.wpm, style.amplitude)
        except TooLong as exc:
            log.warning("voice: %s; left out", exc)
            samples = b""
        if not samples:
            log.warning("voice: %r rendered to nothing", text)
        return samples if samples else bytes(2 * cache.rate // 10)

    def samples(self, utterance: Utterance, style: Style = Style()) -> bytes:
        """The utterance said as one sentence: from the cache, else rendered now (never on
        the main loop: the voice's threads call this) and kept."""
        language, text, key = utterance.language, utterance.text, style.key(utterance.language)
        samples = self.cache.get(language, text, key)
        if samples is None:
            samples = self.render(text, language, style)
            self.cache.put(language, text, samples, key)
        return samples

    def warm(self) -> None:
        """Start the engine's worker now (and trim a cache over its budget), so that the
        first sentence waits for no start."""
        self.cache.trim()

    def render_missing(self, phrases: Phrases, room: int | None = None,
                       style: Style = Style()) -> int:
        """Render what the cache lacks, in order (by language, or pairs of a language and
        its sentences), as `style` says, at most `room` bytes (None: half the cache's
        budget) in all; a cache over its budget (one filled before it had one) is trimmed
        first."""
        cache = self.cache
        cache.trim()
        room = cache.budget // 2 if room is None else room
        used = done = 0

        def counted(text: str, language: str) -> bytes:
            nonlocal used
            samples = self.render(text, language, style)
            used += len(samples)
            return samples
        pairs = phrases.items() if isinstance(phrases, Mapping) else phrases
        for language, texts in pairs:
            done += cache.render_missing(language, texts, counted, room - used,
                                         style.key(language))
        return done

    def close(self) -> None:
        """End the engine's worker."""
        if self._espeak is not None:
            self._espeak.close()


class Voice:
    """The Speech port: `engine`'s sentences played by `player`; without one, `find_player`
    (if given) is asked again each time there is something to say."""

    def __init__(self, engine: Engine, player: Player | None, volume: int = 100,
                 speed: str = "normal", find_player: Callable[[], Player] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.engine, self.volume, self.speed = engine, volume, speed
        self.player: Player | None = None
        self._find_player, self._clock = find_player, clock
        self._looked = clock()
        self._looking = threading.Lock()
        self._notice: str | None = None
        self._wake = threading.Condition()
        self._outcomes: list[Utterance] = []        # waiting to be said: outcomes, in order
        self._other: Utterance | None = None        # and the latest prompt or item
        self._outcome_sound = 0         # the player's number of the last outcome played
        self._outcome_until = 0.0       # on `clock`, when it has ended at the latest
        self._closed = False
        self.handled = 0                # utterances taken and dealt with (tests wait on it)
        if player is not None:
            self._use(player)
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    @property
    def notice(self) -> str | None:
        if self.player is None and self._clock() - self._looked >= LOOK_AGAIN_S:
            self._player()          # at most every few seconds: a speaker plugged in since
        if self._notice is None and (self.player is None or self.player.failed is not None):
            return NO_AUDIO
        return self._notice

    @notice.setter
    def notice(self, value: str | None) -> None:
        self._notice = value

    def say(self, utterance: Utterance) -> None:
        """Hand `utterance` over: an outcome replaces whatever waits (one that follows an
        earlier step waits after the outcomes waiting), a prompt or an item replaces a prompt
        or an item waiting."""
        with self._wake:
            if utterance.kind == "outcome":
                kept = self._outcomes if utterance.follows else []
                self._outcomes, self._other = [*kept, utterance], None
            else:
                self._other = utterance
            self._wake.notify()

    def _use(self, player: Player) -> None:
        self.player = player
        player.on_ended = self._ended

    def _ended(self) -> None:
        with self._wake:
            self._wake.notify()         # a prompt may have waited for the outcome to end

    def _outcome_left(self) -> float:
        """How long the last outcome may still keep the others waiting, in seconds: 0 once
        it has ended, or once its sound's length and `OUTCOME_SLACK_S` have passed (a player
        that hangs never ends it)."""
        if self.player is None or self.player.ended(self._outcome_sound):
            return 0.0
        return max(0.0, self._outcome_until - self._clock())

    def _next(self) -> Utterance | None:
        """The next utterance to say, once it may be said; None once closed."""
        with self._wake:
            while not self._closed:
                left = self._outcome_left()
                waiting = self._outcomes[0] if self._outcomes else self._other
                if waiting is not None and (not left or (waiting.kind == "outcome"
                                                         and not waiting.follows)):
                    if self._outcomes:
                        self._outcomes.pop(0)
                    else:
                        self._other = None
                    return waiting
                self._wake.wait(timeout=left or None)
            return None

    def _run(self) -> None:
        while (utterance := self._next()) is not None:
            try:
                self._say_now(utterance)
            except Exception:  # the voice is never worth the box
                log.exception("voice: could not say %r", utterance.text)
            self.handled += 1

    def _say_now(self, utterance: Utterance) -> None:
        player = self._player()
        if player is None:
            return
        if utterance.kind == "outcome":
            player.stop()               # an outcome cuts whatever plays at once
        if self.volume <= 0:
            return
        try:
            samples = self.engine.samples(utterance, style_of(self.speed, self.volume))
        except (EngineMissing, EngineFailed) as exc:
            self._no_engine(exc)
            return
        if self._notice == NO_ENGINE:
            self._notice = None         # a new worker renders again
        with self._wake:
            number = player.play(samples, self.engine.rate)
            if utterance.kind == "outcome":
                self._outcome_sound = number
                self._outcome_until = self._clock() + outcome_bound(samples, self.engine.rate)

    def _player(self) -> Player | None:
        """The player; where there is none, one looked for again (a speaker plugged in since
        the start: /proc/asound/cards and the PATH, read in well under a millisecond)."""
        with self._looking:
            if self.player is None and self._find_player is not None:
                self._looked = self._clock()
                try:
                    self._use(self._find_player())
                    log.info("voice: a player was found: %s", " ".join(self.player.command)
                             if self.player is not None else "")
                except NoAudio:
                    pass
        return self.player

    def _no_engine(self, exc: Exception) -> None:
        if self._notice != NO_ENGINE:
            log.warning("voice: %s", exc)
        self._notice = NO_ENGINE

    def warm(self, fixed: Callable[[], Phrases] | None = None) -> None:
        """Start the engine's worker on a thread of its own (the box's start), so that the
        first sentence waits for no start, and render there the `fixed` sentences (those
        with no value in them) the cache lacks at the voice's speed and volume. The rest is
        not rendered ahead: whole sentences with their values (a piece, a die, a count) are
        too many; one renders in 7 ms here and about 0.1 s on a Pi Zero 2 W, less than the
        frame it follows, and is kept in the cache for the next time."""
        def run() -> None:
            try:
                self.engine.warm()
                if fixed is not None:
                    self.engine.render_missing(fixed(),
                                               style=style_of(self.speed, self.volume))
            except (EngineMissing, EngineFailed) as exc:
                self._no_engine(exc)
        threading.Thread(target=run, name="voice-warm", daemon=True).start()

    def close(self) -> None:
        with self._wake:
            self._closed, self._outcomes, self._other = True, [], None
            self._wake.notify()
        self._thread.join(timeout=2.0)
        if self.player is not None:
            self.player.close()
        self.engine.close()


def outcome_bound(samples: bytes, rate: int) -> float:
    """The longest an outcome of `samples` (16-bit mono at `rate`) keeps the others waiting:
    its own length and `OUTCOME_SLACK_S`."""
    return len(samples) / 2 / rate + OUTCOME_SLACK_S


class SpeechFiles:
    """Writes each utterance as 0001.wav and 0001.txt (its text) in `folder`, in order, and
    passes it on to `then` (the audio too: a tee). Without an engine only the texts."""

    def __init__(self, folder: Path, engine: Engine | None, then: Speech | None = None,
                 volume: int = 100, speed: str = "normal") -> None:
        self.folder, self.engine, self.volume, self.speed = folder, engine, volume, speed
        self.then: Speech = then if then is not None else NoSpeech()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self._notice: str | None = None if engine is not None else NO_ENGINE
        self._queue: list[tuple[int, Utterance, Style]] = []
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

    @property
    def chosen(self) -> bool:
        """The voice it passes on to is silent by choice (speech.py `start_notice`)."""
        return self._notice is None and bool(getattr(self.then, "chosen", False))

    def say(self, utterance: Utterance) -> None:
        self.count += 1
        with self._wake:
            self._queue.append((self.count, utterance, style_of(self.speed, self.volume)))
            self._wake.notify()
        self.then.volume, self.then.speed = self.volume, self.speed
        self.then.say(utterance)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._queue and not self._closed:
                    self._wake.wait()
                if not self._queue:
                    return
                number, utterance, style = self._queue.pop(0)
            try:
                self._write(number, utterance, style)
            except Exception:  # a file is never worth the box
                log.exception("voice: could not write utterance %d", number)

    def _write(self, number: int, utterance: Utterance, style: Style) -> None:
        stem = self.folder / f"{number:04d}"
        if self.engine is not None:
            try:
                samples = self.engine.samples(utterance, style)
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
