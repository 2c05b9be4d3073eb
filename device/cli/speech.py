"""`speech render`, `speech say` and `speech check`: the box's voice from the command line. The
installer renders the phrase cache with `render` (as the box's user), `check` says in three
lines whether the box can speak, and `say` tries the voice with one sentence.

A missing engine or player is no mistake of the command line: it is said in one line, exit 1.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cobi_companion.device.cli.checked import Folder, NewFile, Whole
from cobi_companion.device.cli.errors import UsageError
from cobi_companion.words import languages

if TYPE_CHECKING:
    from cobi_companion.device.ports.voice import Engine, Style

LANGUAGES = languages.codes()
SAY_TIMEOUT_S = 60.0


def speech(args: argparse.Namespace) -> int:
    raise UsageError("speech needs a subcommand: render, say or check (see cobi-companion "
                     "speech --help)")


def _engine(args: argparse.Namespace) -> Engine:
    from cobi_companion.device.ports.espeak import find_library
    from cobi_companion.device.ports.phrase_cache import default_folder
    from cobi_companion.device.ports.voice import Engine

    cache = getattr(args, "cache", None)
    return Engine(find_library(), Path(cache).expanduser() if cache else default_folder())


def _phrases(args: argparse.Namespace, languages: tuple[str, ...]) -> dict[str, list[str]]:
    """The sentences rendered ahead: those with no value in them (the voice says each
    sentence whole, and one with a piece or a die in it is rendered when first said)."""
    from cobi_companion.device.core.spoken import fixed_sentences

    return {language: fixed_sentences(language) for language in languages}


def _style() -> Style:
    """How the box says them before its players choose: the settings' default volume and
    speed (the cache keeps each volume and speed apart)."""
    from cobi_companion.device.core.app import Settings
    from cobi_companion.device.ports.voice import style_of

    return style_of(Settings().speed, Settings().volume)


def _no_engine(run: Callable[[], int]) -> int:
    from cobi_companion.device.ports.espeak import EngineFailed, EngineMissing

    try:
        return run()
    except (EngineMissing, EngineFailed) as exc:
        print(f"cobi-companion: {exc}", file=sys.stderr)
        return 1


def render(args: argparse.Namespace) -> int:
    """Fill the cache; print what was rendered, what was there, and the time it took."""
    def run() -> int:
        engine = _engine(args)
        languages = (args.language,) if args.language else LANGUAGES
        for language, phrases in _phrases(args, languages).items():
            start = time.monotonic()
            missing = len(engine.cache.missing(language, phrases, _style().key(language)))
            done = engine.render_missing({language: phrases}, style=_style())
            took = time.monotonic() - start
            # Past half the cache's limit the rest waits until it is said (so many cards).
            later = f", {missing - done} rendered when said" if missing > done else ""
            print(f"{language}: {len(phrases)} sentences, {done} rendered, "
                  f"{len(phrases) - missing} already in the cache{later} ({took:.1f} s)")
        print(f"cache: {engine.cache_folder}")
        unwritable = engine.cache.unwritable
        if unwritable is not None:      # rendered, but nothing kept: the install must say so
            print(f"the cache took no file: {unwritable}", file=sys.stderr)
            return 1
        return 0
    return _no_engine(run)


def say(args: argparse.Namespace) -> int:
    """Say TEXT through the player (waiting until it ends), or write it to --out."""
    from cobi_companion.device.ports.phrase_cache import wav_bytes

    text = args.text.strip()
    if not text:
        raise UsageError("say: TEXT is empty; allowed: a sentence, like \"Tiger one hits!\"")

    def run() -> int:
        from cobi_companion.device.ports.voice import style_of

        engine = _engine(args)
        samples = engine.render(text, args.language, style_of("normal", args.volume))
        if args.out:
            Path(args.out).write_bytes(wav_bytes(samples, engine.rate))
            print(f"{args.out}: {len(samples) / 2 / engine.rate:.2f} s")
            return 0
        return _play(samples, engine.rate)
    return _no_engine(run)


def _play(samples: bytes, rate: int) -> int:
    from cobi_companion.device.ports.audio_out import NoAudio, Player, find_player, wait_until

    try:
        player = Player(find_player())
    except NoAudio as exc:
        print(f"cobi-companion: {exc}", file=sys.stderr)
        return 1
    player.play(samples, rate)
    # Until the player has started, then until it ends.
    wait_until(lambda: player.playing is not None, SAY_TIMEOUT_S)
    wait_until(lambda: player.playing is None or player.playing.poll() is not None,
               SAY_TIMEOUT_S)
    player.close()
    if player.failed:
        print(f"cobi-companion: the player failed: {player.failed}", file=sys.stderr)
        return 1
    return 0


def check(args: argparse.Namespace) -> int:
    """One line each: the engine, the player, the cache; exit 1 if any is missing."""
    from cobi_companion.device.ports.audio_out import NoAudio, find_player
    from cobi_companion.device.ports.espeak import EngineFailed, EngineMissing

    good = True
    engine: Engine | None = None
    try:
        engine = _engine(args)
        print(f"engine: {engine.cache.voice} ({engine.library.path})")
    except (EngineMissing, EngineFailed) as exc:
        print(f"engine: missing: {exc}")
        good = False
    try:
        print(f"player: {' '.join(find_player())}")
    except NoAudio as exc:
        print(f"player: missing: {exc}")
        good = False
    if engine is None:
        print("cache: not checked (no engine)")
        return 1
    phrases = _phrases(args, LANGUAGES)
    missing = sum(len(engine.cache.missing(language, texts, _style().key(language)))
                  for language, texts in phrases.items())
    total = sum(len(texts) for texts in phrases.values())
    print(f"cache: {total - missing} of {total} sentences in {engine.cache_folder}"
          + (f"; {missing} missing: run cobi-companion speech render" if missing else ""))
    return 0 if good and not missing else 1


# ---- the options: added to the command's parser when it is first used ----

def _cache(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache", metavar="DIR", type=Folder("a folder for the phrase cache",
                                                              new=True),
                        help="the voice's phrase cache (default: $CACHE_DIRECTORY/voice on the "
                             "box, else ~/.cache/cobi-companion/voice)")


def render_options(parser: argparse.ArgumentParser) -> None:
    _cache(parser)
    parser.add_argument("--language", choices=languages.codes(),
                        help="only this language (default: every one)")


def say_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", metavar="TEXT", help="a sentence to say")
    parser.add_argument("--language", choices=languages.codes(), default=languages.SOURCE,
                        help=f"its language (default: {languages.SOURCE})")
    parser.add_argument("--out", metavar="FILE", type=NewFile("a file for the WAV"),
                        help="write it as a WAV file instead of playing it")
    parser.add_argument("--volume", type=Whole(0, 100, "a volume"), default=100, metavar="N",
                        help="0-100 (default 100)")


def check_options(parser: argparse.ArgumentParser) -> None:
    _cache(parser)
