"""The speech engine: eSpeak NG's library through ctypes, rendering one phrase to 16-bit mono
PCM. The library comes from the `espeakng_loader` wheel (its libespeak-ng.so and its
espeak-ng-data) where the wheel installs, else from the system's libespeak-ng1 (Debian, Raspberry
Pi OS: the 32-bit Pi gets no wheel), found with ctypes.util; `EngineMissing` says neither is
there. $COBI_COMPANION_ESPEAK names a library file to use instead (a test's missing engine).

The library keeps one state per process and is not thread safe: one `Espeak` per library file
(`espeak_for`), kept for the life of the process, and one lock guards every call. (A second one
would start the library again and set its own callback; the library would then call a callback
freed with its owner.)
Rendering is synchronous (espeak_Initialize's AUDIO_OUTPUT_SYNCHRONOUS): the samples come
through a ctypes callback while espeak_Synth runs, on the calling thread.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from cobi_companion.words import languages
from cobi_companion.words.sounds import fingerprint, respelled

LIBRARY_ENV = "COBI_COMPANION_ESPEAK"
SYNCHRONOUS = 2                     # espeak_AUDIO_OUTPUT: AUDIO_OUTPUT_SYNCHRONOUS
# espeak_Synth's flags: UTF-8 text, and END_PAUSE (a pause at its end), which the box does not
# ask for: a sentence's own punctuation makes its pauses, and the 0.3 s after its last word was
# dead air before whatever the box says next (issue 34).
CHARS_UTF8, END_PAUSE = 1, 0x1000
RATE, VOLUME = 1, 2                 # espeak_PARAMETER: words a minute, amplitude (0-200)
NORMAL_WPM = 175                    # eSpeak NG's own default rate
AMPLITUDE = 100                     # eSpeak NG's own default amplitude: the loudest step
# The settings' speeds in words a minute: "slower" is a fifth slower, each word still whole
# (eSpeak stretches the sounds and the pauses between words alike).
WPM = {"normal": NORMAL_WPM, "slower": 140}
# eSpeak NG's amplitude and the loudness it gives, in dB against amplitude 100, as measured on
# whole sentences in English, Polish and German (within 0.5 dB of each other): close to
# 20·log10(amplitude/100), but in steps (two amplitudes often give one loudness: 13 and 14
# are both -18.5 dB, 6 and 7 -27.3), so the volume takes the nearest level measured here.
LOUDNESS: tuple[tuple[int, float], ...] = (
    (2, -39.6), (4, -32.0), (6, -27.3), (8, -23.7), (10, -22.0), (11, -20.1), (13, -18.5),
    (15, -17.2), (17, -16.3), (19, -15.2), (20, -14.3), (22, -13.6), (24, -12.8), (26, -12.2),
    (28, -11.6), (30, -10.8), (31, -10.3), (40, -8.1), (46, -6.9), (48, -6.6), (50, -6.3),
    (51, -6.0), (53, -5.6), (60, -4.5), (70, -3.2), (80, -2.0), (90, -1.0), (100, 0.0))
DB_PER_PERCENT = 0.3        # the volume's 20 % steps are 6 dB apart: even to the ear


def amplitude(volume: int) -> int:
    """eSpeak's amplitude for the settings' `volume` (0–100 %): 100 as eSpeak renders by
    default, and each 20 % below it 6 dB quieter (80 % is -6 dB, 20 % is -24 dB: the
    nearest level eSpeak has, within 0.6 dB); 0 silent."""
    if volume <= 0:
        return 0
    wanted = DB_PER_PERCENT * (min(volume, 100) - 100)
    return min(LOUDNESS, key=lambda level: abs(level[1] - wanted))[0]


# The voices of the box's languages, by eSpeak NG's names (the registry's `voice`).
VOICES = {language.code: language.voice for language in languages.LANGUAGES}
_SYSTEM_DATA = ("/usr/lib/*/espeak-ng-data", "/usr/share/espeak-ng-data",
                "/usr/lib/espeak-ng-data")

_Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int,
                             ctypes.c_void_p)


class EngineMissing(Exception):
    """No eSpeak NG library (or its data) to speak with."""


class EngineFailed(Exception):
    """The library is there but would not start or render."""


class TooLong(EngineFailed):
    """A phrase rendered past the size limit: its samples are refused."""


@dataclass(frozen=True)
class Library:
    """A libespeak-ng file and its espeak-ng-data folder (None: the library's own default)."""

    path: Path
    data: Path | None


def find_library(path: str | None = None) -> Library:
    """The library to use: `path` (else $COBI_COMPANION_ESPEAK), else the wheel's, else the
    system's; EngineMissing if there is none."""
    asked = path if path is not None else os.environ.get(LIBRARY_ENV)
    if asked:
        if not Path(asked).is_file():
            raise EngineMissing(f"no eSpeak NG library at {asked}")
        return Library(Path(asked), _system_data())
    wheel = _wheel_library()
    if wheel is not None:
        return wheel
    found = ctypes.util.find_library("espeak-ng")
    if found is None:
        raise EngineMissing("no eSpeak NG: neither the espeakng-loader wheel nor the system's "
                            "libespeak-ng1 is installed")
    return Library(Path(found), _system_data())


def _wheel_library() -> Library | None:
    try:
        import espeakng_loader  # type: ignore[import-untyped]  # no type hints
    except ImportError:
        return None
    library = Path(espeakng_loader.get_library_path())
    data = Path(espeakng_loader.get_data_path())
    return Library(library, data) if library.is_file() and data.is_dir() else None


def _system_data() -> Path | None:
    for pattern in _SYSTEM_DATA:
        for folder in sorted(glob.glob(pattern)):
            return Path(folder)
    return None


_STARTED: dict[Path, Espeak] = {}
_STARTING = threading.Lock()


def espeak_for(library: Library | None = None) -> Espeak:
    """The process's engine of `library` (else the one `find_library` finds), started once."""
    chosen = library or find_library()
    with _STARTING:
        started = _STARTED.get(chosen.path)
        if started is None:
            started = _STARTED[chosen.path] = Espeak(chosen)
        return started


class Espeak:
    """eSpeak NG, started on `library`: `render(text, language)` is the phrase's samples.
    Made by `espeak_for`: the library is one per process."""

    def __init__(self, library: Library | None = None) -> None:
        self.library = library or find_library()
        self._lock = threading.Lock()
        self._samples = bytearray()
        self._limit: int | None = None      # bytes of samples one render may give
        self._over = False
        self._language: str | None = None
        self._style: tuple[int, int] | None = None     # (words a minute, amplitude) set
        try:
            self._lib = ctypes.CDLL(str(self.library.path))
        except OSError as exc:
            raise EngineMissing(f"cannot load {self.library.path}: {exc}") from None
        self._lib.espeak_Info.restype = ctypes.c_char_p
        self._lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p,
                                                ctypes.c_int]
        data = None if self.library.data is None else str(self.library.data).encode()
        self.rate = int(self._lib.espeak_Initialize(SYNCHRONOUS, 0, data, 0))
        if self.rate <= 0:
            raise EngineFailed(f"eSpeak NG would not start (data: {self.library.data})")
        version = self._lib.espeak_Info(None) or b"?"
        # What the cache keys its files by: another engine or rate renders another sound.
        self.name = f"espeak-ng {version.decode(errors='replace')} {self.rate}" \
            f" {fingerprint(tuple(VOICES))}"        # and a changed respelling (words/sounds.py)
        # Kept here: the library calls it for as long as it runs.
        self._callback = _Callback(self._take)
        self._lib.espeak_SetSynthCallback(self._callback)

    def _take(self, wave: ctypes._Pointer[ctypes.c_short], count: int,
              events: int | None) -> int:
        if count > 0 and not self._over:
            if self._limit is not None and len(self._samples) + count * 2 > self._limit:
                self._over = True       # kept no further, even by a library that goes on
            else:
                self._samples += ctypes.string_at(wave, count * 2)
        return 1 if self._over else 0       # 0: go on; 1: stop the render

    def render(self, text: str, language: str, limit: int | None = None,
               wpm: int = NORMAL_WPM, amplitude: int = AMPLITUDE) -> bytes:
        """`text` said in `language` at `wpm` words a minute and eSpeak's `amplitude`, as
        16-bit little-endian mono samples at `rate`; TooLong past `limit` bytes of samples
        (None: no limit)."""
        if language not in VOICES:
            raise ValueError(f"unknown language {language!r}")
        encoded = respelled(text, language).encode("utf-8")   # the words it says wrong
        with self._lock:
            if language != self._language:
                if self._lib.espeak_SetVoiceByName(VOICES[language].encode()) != 0:
                    raise EngineFailed(f"eSpeak NG has no {language!r} voice")
                self._language, self._style = language, None   # a voice sets its own rate
            if (wpm, amplitude) != self._style:
                # the engine's own loudness: no Python touches a sample after it
                self._lib.espeak_SetParameter(RATE, wpm, 0)
                self._lib.espeak_SetParameter(VOLUME, amplitude, 0)
                self._style = (wpm, amplitude)
            self._samples, self._limit, self._over = bytearray(), limit, False
            status = self._lib.espeak_Synth(encoded, len(encoded) + 1, 0, 0, 0,
                                            CHARS_UTF8, None, None)
            if self._over:
                self._samples = bytearray()
                raise TooLong(f"{text!r} renders to over {limit} bytes of sound")
            if status != 0:
                raise EngineFailed(f"eSpeak NG could not say {text!r} (status {status})")
            return bytes(self._samples)
