"""The voice within bounds (issue 31): a phrase cache with a size limit that removes the least
used phrases, and the engine in a worker process of its own, so that a crash, a render that
never ends, endless sound or a memory hog cost only the voice. Real files, real processes and a
real shared library that misbehaves (built with gcc here); no timing is asserted: the limits are
set small and only what happened is checked."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.core.spoken import outcome
from cobi_companion.device.ports.espeak import EngineFailed, Library, TooLong, find_library
from cobi_companion.device.ports.phrase_cache import PhraseCache
from cobi_companion.device.ports.render_process import Limits, RenderProcess
from cobi_companion.device.ports.speech import Utterance
from cobi_companion.device.ports.voice import Engine, Style

from .test_voice import Gated, rms, wait

# ---- the cache's size limit ----

RATE = 16_000
SAMPLES = bytes(2 * RATE)                   # one second of sound: a 32 KB file
FILE = len(SAMPLES) + 44                    # with its WAV header
LONG_AGO = 1_000_000_000.0                  # 2001: a use long before any test runs


def cache_of(folder: Path, phrases: int) -> PhraseCache:
    """A cache with room for `phrases` one-second phrases."""
    return PhraseCache(folder, "test-voice", RATE, budget=phrases * FILE)


def used_at(cache: PhraseCache, text: str, when: float) -> None:
    os.utime(cache.path("en", text), (when, when))


def wav_bytes_in(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.glob("*.wav"))


def test_the_cache_keeps_to_its_limit_and_removes_the_least_used(tmp_path: Path) -> None:
    cache = cache_of(tmp_path, 10)
    for n in range(10):
        cache.put("en", f"phrase {n}", SAMPLES)
        used_at(cache, f"phrase {n}", LONG_AGO + n)     # phrase 0 the least recently used
    assert cache.evicted == 0 and wav_bytes_in(tmp_path) == 10 * FILE
    assert cache.get("en", "phrase 0") == SAMPLES       # said now: the most recently used
    cache.put("en", "phrase 10", SAMPLES)               # one past the limit
    assert wav_bytes_in(tmp_path) <= cache.budget
    kept = {n for n in range(11) if cache.path("en", f"phrase {n}").exists()}
    # Down to three quarters of the limit: the least used went, the one just said stayed.
    assert kept == {0, 5, 6, 7, 8, 9, 10}
    assert cache.evicted == 4 and cache.size() == wav_bytes_in(tmp_path)
    assert cache.get("en", "phrase 1") is None          # rendered again when next said


def test_filling_the_cache_far_past_its_limit_keeps_it_there(tmp_path: Path) -> None:
    """A stick of a thousand cards said one by one: the folder never grows past the limit,
    and it is listed for a trim about once in every quarter of the limit, not per phrase."""
    cache = cache_of(tmp_path, 20)
    listings = 0
    listing = cache._files

    def counted() -> list[tuple[Path, int, float]]:
        nonlocal listings
        listings += 1
        return listing()
    cache._files = counted  # type: ignore[method-assign]
    for n in range(400):
        cache.put("en", f"card {n}", SAMPLES)
        used_at(cache, f"card {n}", LONG_AGO + n)
        assert wav_bytes_in(tmp_path) <= cache.budget
    # 400 phrases, 5 freed by each trim (a quarter of 20): 76 trims, and the first count
    assert listings <= 1 + 400 // 5
    assert cache.path("en", "card 399").exists()
    assert not cache.path("en", "card 0").exists()


def test_a_cache_filled_before_it_had_a_limit_is_trimmed_at_the_start(tmp_path: Path) -> None:
    """The 6 GB folder of an older version: rendering ahead at the start trims it first."""
    old = cache_of(tmp_path, 1000)
    for n in range(30):
        old.put("en", f"card {n}", SAMPLES)
    engine = Engine(find_library(), tmp_path, budget=10 * FILE)
    assert engine.render_missing({"en": []}) == 0
    assert wav_bytes_in(tmp_path) <= 10 * FILE
    engine.close()


def test_a_cache_that_takes_no_file_keeps_little_in_memory(tmp_path: Path) -> None:
    """The phrases kept in memory when the folder takes no file have their own limit."""
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    cache = PhraseCache(blocked, "test-voice", RATE, memory_budget=3 * len(SAMPLES))
    for n in range(10):
        cache.put("en", f"card {n}", SAMPLES)
    assert cache.unwritable is not None
    assert [cache.get("en", f"card {n}") is not None for n in range(10)] == \
        [False] * 7 + [True] * 3


def test_rendering_ahead_stops_at_its_room(tmp_path: Path) -> None:
    """A stick of 3,000 cards does not render 3,000 names ahead: only what fits in half the
    cache's limit; the rest is rendered when said."""
    engine = Engine(find_library(), tmp_path, budget=2 * 1024 * 1024)
    names = [f"Tank number {n}" for n in range(3000)]
    done = engine.render_missing([("en", names)])
    assert 0 < done < 100
    assert wav_bytes_in(tmp_path) <= engine.budget // 2 + 200_000     # and the last one
    key = Style().key("en")
    assert engine.cache.missing("en", names, key)[0] == names[done]   # in their order
    said = engine.samples(Utterance("en", (names[-1],)))               # said: rendered now
    assert said and engine.cache.get("en", names[-1], key) == said
    engine.close()


# ---- the engine in its own process ----

# A stand-in for libespeak-ng: eSpeak NG's five calls the box makes, misbehaving on request.
# The text says how ("crash", "abort", "forever", "endless", "deaf", "hog"), or
# $FAKE_ESPEAK says it for every text; anything else renders a short tone. With
# $FAKE_ESPEAK_START it crashes as it starts.
FAKE_ESPEAK = r"""
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
typedef int (*callback_t)(short *, int, void *);
static callback_t callback;
int espeak_Initialize(int output, int length, const char *path, int options) {
    if (getenv("FAKE_ESPEAK_START") != NULL) raise(SIGSEGV);
    return 22050;
}
const char *espeak_Info(const char **path) { return "fake 1.0"; }
void espeak_SetSynthCallback(callback_t given) { callback = given; }
int espeak_SetVoiceByName(const char *name) { return 0; }
int espeak_SetParameter(int parameter, int value, int relative) { return 0; }
static int is(const char *text, const char *how) {
    const char *all = getenv("FAKE_ESPEAK");
    return strstr(text, how) != NULL || (all != NULL && strcmp(all, how) == 0);
}
int espeak_Synth(const char *text, size_t size, unsigned at, int type, unsigned end,
                 unsigned flags, unsigned *id, void *data) {
    static short wave[1024];
    for (int i = 0; i < 1024; i++) wave[i] = (short)((i % 64) * 256);
    if (is(text, "crash")) raise(SIGSEGV);
    if (is(text, "abort")) abort();
    if (is(text, "forever")) for (;;) pause();
    if (is(text, "endless")) { while (callback(wave, 1024, NULL) == 0) {} return 0; }
    if (is(text, "deaf")) for (;;) callback(wave, 1024, NULL);
    if (is(text, "hog")) for (;;) {
        char *more = malloc(1 << 20);
        if (more == NULL) for (;;) pause();
        memset(more, 1, 1 << 20);
    }
    callback(wave, 1024, NULL);
    return 0;
}
"""


@pytest.fixture(scope="module")
def fake_espeak(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler (gcc) to build a misbehaving speech library with")
    folder = tmp_path_factory.mktemp("fake-espeak")
    (folder / "fake.c").write_text(FAKE_ESPEAK)
    library = folder / "libfake-espeak.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(folder / "fake.c")],
                   check=True, timeout=120)
    return library


@pytest.fixture
def worker_of(fake_espeak: Path) -> Iterator[Callable[..., RenderProcess]]:
    made: list[RenderProcess] = []

    def make(**limits: Any) -> RenderProcess:
        made.append(RenderProcess(Library(fake_espeak, None), Limits(**limits)))
        made[-1].start()
        return made[-1]
    yield make
    for worker in made:
        worker.close()


def test_an_engine_crash_costs_the_phrase_and_a_new_worker_renders_on(
        worker_of: Callable[..., RenderProcess]) -> None:
    worker = worker_of(restarts=2)
    assert worker.render("Tiger one", "en")
    for crash, signal in (("crash", "SIGSEGV"), ("abort", "SIGABRT")):
        with pytest.raises(EngineFailed, match=f"ended \\(signal {signal}\\)"):
            worker.render(f"Tiger {crash}", "en")
        assert worker.render("Tiger one", "en")         # a new worker
    assert worker.started == 3
    with pytest.raises(EngineFailed, match="broke the speech engine before"):
        worker.render("Tiger crash", "en")              # not tried again
    assert worker.started == 3
    with pytest.raises(EngineFailed, match="ended"):
        worker.render("Panther crash", "en")            # a third crash: no restart is left
    with pytest.raises(EngineFailed, match="failed too often"):
        worker.render("Tiger one", "en")
    assert worker.started == 3


def test_an_engine_that_crashes_as_it_starts_is_tried_a_few_times_only(
        fake_espeak: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_ESPEAK_START", "crash")
    engine = Engine(Library(fake_espeak, None), tmp_path, limits=Limits(restarts=2))
    for _ in range(5):
        with pytest.raises(EngineFailed):
            engine.samples(Utterance("en", ("Tiger one",)))
    assert engine.process is not None and engine.process.started == 3
    with pytest.raises(EngineFailed, match="failed too often"):
        engine.samples(Utterance("en", ("Tiger one",)))


def test_a_render_that_never_ends_is_killed_at_its_time_limit(
        worker_of: Callable[..., RenderProcess]) -> None:
    worker = worker_of(time_limit=0.5)
    first = worker._process
    assert first is not None
    with pytest.raises(EngineFailed, match=r"took longer than 0\.5 s"):
        worker.render("forever", "en")
    assert first.poll() is not None                     # killed
    worker.time_limit = 120.0          # a phrase that ends: no deadline a busy machine meets
    assert worker.render("Tiger one", "en")


def test_endless_sound_is_refused_at_the_size_limit(
        worker_of: Callable[..., RenderProcess]) -> None:
    """A library that stops when told is refused past `max_seconds` and the worker goes on;
    one that does not stop keeps nothing more and meets the time limit."""
    worker = worker_of(max_seconds=2.0, time_limit=120.0)
    first = worker._process
    with pytest.raises(TooLong, match="over 88200 bytes"):
        worker.render("endless", "en")
    assert worker._process is first and worker.render("Tiger one", "en")
    worker.time_limit = 2.0            # "deaf" never stops: only the time limit ends it
    with pytest.raises(EngineFailed, match="took longer than"):
        worker.render("deaf", "en")


def test_a_phrase_too_long_is_said_as_a_short_silence(fake_espeak: Path, tmp_path: Path
                                                      ) -> None:
    """The voice goes on: the sentence past the size limit is a short silence (kept: it is
    not tried again), the next one is said."""
    engine = Engine(Library(fake_espeak, None), tmp_path, limits=Limits(max_seconds=2.0))
    said = engine.samples(Utterance("en", ("Tiger one", "endless")))
    assert said == bytes(2 * engine.rate // 10)
    assert engine.cache.get("en", "Tiger one endless", Style().key("en")) == said
    assert rms(engine.samples(Utterance("en", ("Tiger one",)))) > 0
    engine.close()


def test_a_worker_taking_too_much_memory_is_killed(
        worker_of: Callable[..., RenderProcess]) -> None:
    worker = worker_of(memory_limit=64 * 1024 * 1024, time_limit=120.0)
    with pytest.raises(EngineFailed, match="MB of memory"):
        worker.render("hog", "en")
    assert worker.render("Tiger one", "en")


def test_the_box_speaking_through_a_crashing_engine_plays_on_with_the_notice(
        table_at: Callable[..., Any], fake_espeak: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The real box and its real voice: the engine crashes on every phrase; the box handles
    the presses and the settings say why nothing is heard."""
    gated = Gated(tmp_path / "player")
    monkeypatch.setenv("COBI_COMPANION_ESPEAK", str(fake_espeak))
    monkeypatch.setenv("FAKE_ESPEAK", "crash")
    monkeypatch.setenv("COBI_COMPANION_PLAYER", " ".join(gated.command))
    table = table_at([4, 2, 5, 6, 3, 6])
    app = table.box.app
    assert app.speech.notice is None
    app.speak(outcome("say_hit", firer="Tiger 1"))
    app.save()
    wait(lambda: app.speech.notice == "voice_no_engine", "the notice")
    before = table.view
    table.press("ok", "cw")
    assert table.view != before
    assert gated.starts() == 0


TANK_BATTLE = ("ok,ccw,ok,cw,cw,allies,cw,cw,axis,ok,axis,allies,ok,ok,ok,ok,ok,cw,ok,cw,cw,"
               "allies,ok,ok,ok,ok,ok,ok,ok,axis,ok,ok,allies,ok")
TANK_DICE = "4,2,5,6,3,6,4,4,6,3,1,2,4,2,5,1,5,6,5,5,5,5,5,5,5,5,5,5,2,3"


@pytest.mark.parametrize("how", ["crash", "abort"])
def test_the_sim_with_a_crashing_engine_plays_the_battle_to_its_end(
        tmp_path: Path, fake_espeak: Path, how: str) -> None:
    """A real `sim` process saying every outcome through an engine that crashes on each: the
    battle is played to its end, every text written, no sound, and the journal says why."""
    config = tmp_path / "config.toml"
    config.write_text('[game]\nvoice = "outcomes"\n')
    spoken = tmp_path / "spoken"
    run = subprocess.run(
        [sys.executable, "-m", "cobi_companion.device.cli", "sim", "--config", str(config),
         "--state-dir", str(tmp_path / "box"), "--speech-dir", str(spoken),
         "--keys", TANK_BATTLE, "--dice", TANK_DICE],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "COBI_COMPANION_ESPEAK": str(fake_espeak), "FAKE_ESPEAK": how,
             "COBI_COMPANION_PLAYER": "none"})
    assert run.returncode == 0, run.stderr
    assert len(list(spoken.glob("*.txt"))) >= 2
    assert not list(spoken.glob("*.wav"))
    assert "the speech engine" in run.stderr


def test_the_voice_speaks_again_after_a_crash(fake_espeak: Path, tmp_path: Path) -> None:
    """The notice stays while nothing can be said; the next phrase starts a new worker, is
    heard, and the notice goes."""
    from cobi_companion.device.ports.audio_out import Player
    from cobi_companion.device.ports.voice import Voice

    gated = Gated(tmp_path / "player")
    voice = Voice(Engine(Library(fake_espeak, None), tmp_path / "cache"),
                  Player(gated.command), volume=100)
    try:
        voice.say(Utterance("en", ("Tiger crash",)))
        wait(lambda: voice.notice == "voice_no_engine", "the notice")
        assert gated.starts() == 0
        voice.say(Utterance("en", ("Tiger one",)))
        wait(lambda: gated.starts() == 1, "the player started")
        assert voice.notice is None
        process = voice.engine.process
        assert process is not None and process.started == 2
    finally:
        gated.gate.touch()
        voice.close()


def test_a_worker_let_go_without_close_ends(fake_espeak: Path) -> None:
    import gc

    worker = RenderProcess(Library(fake_espeak, None))
    worker.start()
    process = worker._process
    assert process is not None and process.poll() is None
    del worker
    gc.collect()
    assert process.returncode is not None           # killed and reaped
