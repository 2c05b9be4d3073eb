"""The box's voice, as audio: the real engine (eSpeak NG through ctypes), the phrase cache on
disk, real player processes, the real box. Sounds are checked as sound (their loudness and
length), a press while speaking by the order of what happened, never by timing."""
from __future__ import annotations

import array
import itertools
import logging
import math
import os
import subprocess
import sys
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.cards import CardBook
from cobi_companion.device.core.spoken import fixed_sentences, outcome, utterance
from cobi_companion.device.ports import audio_out
from cobi_companion.device.ports.audio_out import NoAudio, Player, find_player
from cobi_companion.device.ports.espeak import (
    EngineMissing,
    Espeak,
    amplitude,
    espeak_for,
    find_library,
)
from cobi_companion.device.ports.phrase_cache import read_wav
from cobi_companion.device.ports.speech import Utterance
from cobi_companion.device.ports.voice import Engine, SpeechFiles, Style, Voice, style_of

from ..conftest import read_only

# A test whose real `speech` processes read the shipped cards (their names are phrases) from the
# card snapshots of a first run, as every start after the first does (tests/conftest.py
# `checked_cards`): the cards are not what it is about, and each fresh cache folder checked
# them all again.
snapshot_cards = pytest.mark.usefixtures("checked_cards")

LOUD_RMS = 500              # speech is thousands; silence is 0
SECONDS_A_CHARACTER = 0.25  # eSpeak NG's normal rate is well under


@pytest.fixture(scope="module")
def espeak() -> Espeak:
    return espeak_for()


def rms(samples: bytes) -> float:
    values = array.array("h")
    values.frombytes(samples)
    return math.sqrt(sum(v * v for v in values) / max(1, len(values)))


def quiet_runs(samples: bytes, rate: int) -> list[int]:
    """The silences inside a sound, in milliseconds (10 ms windows), in order."""
    values = array.array("h")
    values.frombytes(samples)
    window = rate // 100
    runs, quiet = [], 0
    for at in range(0, len(values) + window, window):
        if at < len(values) and max(map(abs, values[at:at + window])) < 300:
            quiet += 1
            continue
        if quiet:
            runs.append(quiet * 10)
        quiet = 0
    return runs


def wait(test: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    """Wait for another thread or process to get somewhere (no timing is asserted)."""
    from cobi_companion.device.ports.audio_out import wait_until

    assert wait_until(test, timeout), f"never: {what}"


@pytest.mark.parametrize("language", ["en", "pl", "de"])
def test_every_fixed_sentence_renders_to_sound_of_a_plausible_length(espeak: Espeak,
                                                                     language: str) -> None:
    """The sentences rendered at the install (those with no value in them), as said."""
    sentences = fixed_sentences(language)
    assert len(sentences) > 20
    for text in sentences:
        samples = espeak.render(text, language)
        seconds = len(samples) / 2 / espeak.rate
        assert rms(samples) > LOUD_RMS, f"{text!r} is silent"
        assert 0.2 <= seconds <= 0.3 + SECONDS_A_CHARACTER * len(text), (text, seconds)


def test_polish_is_said_with_the_polish_voice(espeak: Espeak) -> None:
    """The same letters sound different in the two voices (the Polish one reads "trafia"
    as Polish)."""
    assert espeak.render("trafia", "pl") != espeak.render("trafia", "en")


def test_a_missing_library_is_said_as_such(tmp_path: Path) -> None:
    with pytest.raises(EngineMissing, match="no eSpeak NG library at"):
        find_library(str(tmp_path / "libespeak-ng.so.1"))


# ---- the cache ----

def engine_at(folder: Path) -> Engine:
    return Engine(find_library(), folder)


def test_the_cache_renders_once_and_then_only_what_is_new(tmp_path: Path) -> None:
    engine = engine_at(tmp_path / "cache")
    phrases = {"en": {"Tiger one", "hits!"}, "pl": {"Tiger jeden", "trafia!"}}
    assert engine.render_missing(phrases) == 4
    assert engine.render_missing(phrases) == 0
    assert len(list((tmp_path / "cache").glob("*.wav"))) == 4
    assert engine_at(tmp_path / "cache").render_missing(phrases) == 0     # kept on disk
    phrases["en"].add("Panther two")
    assert engine.render_missing(phrases) == 1
    assert not list((tmp_path / "cache").glob("*.tmp"))                   # written whole


def test_a_damaged_phrase_is_rendered_again(tmp_path: Path) -> None:
    engine, key = engine_at(tmp_path), Style().key("en")
    engine.render_missing({"en": {"Tiger one"}})
    path = engine.cache.path("en", "Tiger one", key)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])      # cut short, as by a power cut
    assert engine.cache.get("en", "Tiger one", key) is None
    assert engine.render_missing({"en": {"Tiger one"}}) == 1
    again = engine.cache.get("en", "Tiger one", key)
    assert again is not None and rms(again) > LOUD_RMS
    path.write_bytes(b"RIFF nonsense")
    assert engine.cache.missing("en", ["Tiger one"], key) == ["Tiger one"]


def test_an_utterance_is_said_as_one_sentence_rendered_once(tmp_path: Path,
                                                            espeak: Espeak) -> None:
    """One breath: the whole text in one call of the engine (no pause between its phrases
    but its punctuation's), kept in the cache by its style: said again, it is not rendered."""
    engine = engine_at(tmp_path)
    said = Utterance("en", ("Tiger one", "hits!", "Sherman two", "is destroyed."))
    style = style_of("normal", 80)
    whole = engine.samples(said, style)
    # (eSpeak NG's sound differs by a sample here and there from one render to the next)
    direct = espeak.render(said.text, "en", wpm=style.wpm, amplitude=style.amplitude)
    assert len(whole) == pytest.approx(len(direct), rel=0.01)
    assert rms(whole) == pytest.approx(rms(direct), rel=0.02)
    # one pause, where the "!" is (0.34 s), none between the phrases said in one breath
    assert [ms for ms in quiet_runs(whole, engine.rate) if ms >= 150] == \
        [pytest.approx(340, abs=100)]
    assert engine.cache.get("en", said.text, style.key("en")) == whole
    assert engine.cache.get("en", "Tiger one", style.key("en")) is None     # no pieces
    before = engine.process.started if engine.process else 0
    engine.close()                      # the engine gone: only the cache can say it now
    assert engine.samples(said, style) == whole
    assert engine.cache.get("en", said.text, Style().key("en")) is None    # louder: another
    assert (engine.process.started if engine.process else 0) == before


def test_a_sentence_ends_with_its_last_word_not_a_pause(espeak: Espeak) -> None:
    """Pauses come from the punctuation inside a sentence, none is added after it: the pause
    eSpeak adds at the end (its END_PAUSE) was dead air before the next sentence."""
    values = array.array("h")
    values.frombytes(espeak.render("Sherman one hits! Tiger one cannot move.", "en"))
    last = max(i for i, value in enumerate(values) if abs(value) > LOUD_RMS)
    assert (len(values) - last) / espeak.rate < 0.05


def test_the_slower_speed_says_the_same_sentence_longer(espeak: Espeak) -> None:
    text = "Tiger one hits! Sherman two is destroyed."
    normal, slower = (espeak.render(text, "en", wpm=style_of(speed, 100).wpm)
                      for speed in ("normal", "slower"))
    assert len(slower) > 1.15 * len(normal)


@pytest.mark.parametrize("language", ["en", "pl", "de"])
def test_each_volume_step_is_six_db_below_the_next(espeak: Espeak, language: str) -> None:
    """The settings' steps (20 % to 100 %) even to the ear: eSpeak's own amplitude, its
    loudness measured on the real engine's sound; the top step is eSpeak's default."""
    text = {"en": "Tiger one fires at Sherman two. Sherman two is destroyed!",
            "pl": "Tiger jeden strzela do Shermana dwa. Sherman dwa zniszczony!",
            "de": "Tiger eins schießt auf Sherman zwei. Sherman zwei ist zerstört!"}[language]
    loudness = [rms(espeak.render(text, language, amplitude=amplitude(volume)))
                for volume in (20, 40, 60, 80, 100)]
    steps = [20 * math.log10(louder / quieter)
             for quieter, louder in itertools.pairwise(loudness)]
    assert steps == [pytest.approx(6.0, abs=1.0)] * 4, steps
    assert loudness[-1] == pytest.approx(rms(espeak.render(text, language)), rel=0.02)
    assert amplitude(0) == 0


def test_a_read_only_cache_still_speaks_and_says_why_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A cache that takes no file (read only, as an SD card with errors; a full disk is the
    same OSError) keeps the phrases in memory: the box says what it can, the journal says
    once why."""
    folder = tmp_path / "cache"
    with read_only(folder):
        engine = engine_at(folder)
        with caplog.at_level(logging.WARNING, "cobi-companion"):
            samples = engine.samples(Utterance("en", ("Tiger one", "hits!")))
            engine.samples(Utterance("en", ("Tiger two", "misses.")))
        assert rms(samples) > LOUD_RMS
        kept = engine.cache.get("en", "Tiger one hits!", Style().key("en"))
        assert kept == samples                                          # kept in memory
        assert not list(folder.iterdir())
    notes = [r.getMessage() for r in caplog.records if "not written" in r.getMessage()]
    assert len(notes) == 1, notes


# ---- the player ----

# A player that starts (its pid noted), then waits for its gate before reading the sound: a
# sound that plays until the test lets it end.
GATED_PLAYER = """
import os, sys, time
from pathlib import Path
from typing import Any
gate, started, out = map(Path, sys.argv[1:4])
with started.open("a") as notes:
    notes.write(f"{os.getpid()}\\n")
while not gate.exists():
    time.sleep(0.01)
out.write_bytes(sys.stdin.buffer.read())
"""


class Gated:
    """A gated player's command line and its files."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.script, self.gate = folder / "player.py", folder / "gate"
        self.started, self.out = folder / "started", folder / "out.wav"
        self.script.write_text(GATED_PLAYER)
        self.command = [sys.executable, str(self.script), str(self.gate), str(self.started),
                        str(self.out)]

    def starts(self) -> int:
        return len(self.started.read_text().split()) if self.started.exists() else 0


@pytest.fixture
def gated(tmp_path: Path) -> Gated:
    return Gated(tmp_path / "player")


@pytest.fixture
def voice_of(tmp_path: Path) -> Iterator[Callable[[list[str]], Voice]]:
    made: list[Voice] = []

    def make(command: list[str]) -> Voice:
        made.append(Voice(engine_at(tmp_path / "cache"), Player(command), volume=100))
        return made[-1]
    yield make
    for voice in made:
        voice.close()


def playing(voice: Voice) -> subprocess.Popen[bytes]:
    assert voice.player is not None
    process = voice.player.playing
    assert process is not None
    return process


def test_a_press_while_speaking_is_handled_at_once(table_at: Callable[..., Any],
                                                   gated: Gated,
                                                   voice_of: Callable[[list[str]], Voice]
                                                   ) -> None:
    """The player still plays (it waits for its gate) while the box handles presses and draws
    their frames: the order proves the main loop did not wait for the sound."""
    voice = voice_of(gated.command)
    table = table_at([], speech=voice)
    app = table.box.app
    app.settings.voice = "outcomes"        # the knob's step reads no item over the outcome
    app.speak(outcome("say_hit", firer="Tiger 1"))
    app.save()                     # as the main loop does once the frame is drawn
    wait(lambda: gated.starts() == 1, "the player started")
    before = table.view
    table.press("cw")
    assert table.view != before
    assert playing(voice).poll() is None          # the sound had not ended
    gated.gate.touch()
    wait(lambda: playing(voice).poll() is not None, "the player ended")
    heard = read_wav(gated.out.read_bytes(), voice.engine.rate)
    said = voice.engine.samples(utterance(outcome("say_hit", firer="Tiger 1"), "en"),
                                style_of(app.settings.speed, app.settings.volume))
    assert heard == said        # rendered at the settings' volume, played as rendered


def test_a_new_utterance_cuts_the_old_one_short(gated: Gated,
                                                voice_of: Callable[[list[str]], Voice]) -> None:
    voice = voice_of(gated.command)
    voice.say(Utterance("en", ("Tiger one", "hits!")))
    wait(lambda: gated.starts() == 1, "the first player started")
    first = playing(voice)
    voice.say(Utterance("en", ("Sherman two", "misses.")))
    wait(lambda: gated.starts() == 2, "the second player started")
    assert first.wait(timeout=120) == -9           # killed, not played out
    assert not gated.out.exists()
    gated.gate.touch()
    wait(lambda: playing(voice).poll() is not None, "the second player ended")
    assert read_wav(gated.out.read_bytes(), voice.engine.rate) == voice.engine.samples(
        Utterance("en", ("Sherman two", "misses.")))


def test_a_player_without_a_sound_device_gives_the_notice(tmp_path: Path,
                                                          voice_of: Callable[[list[str]], Voice]
                                                          ) -> None:
    """aplay on a Pi with no sound card fitted ends at once with its complaint."""
    script = tmp_path / "aplay.py"
    script.write_text("import sys\nprint('aplay: main:831: audio open error: No such file or "
                      "directory', file=sys.stderr)\nsys.exit(1)\n")
    voice = voice_of([sys.executable, str(script)])
    assert voice.notice is None
    voice.say(Utterance("en", ("Tiger one",)))
    wait(lambda: voice.notice is not None, "the notice")
    assert voice.notice == "voice_no_audio"
    assert voice.player is not None and voice.player.failed is not None
    assert "audio open error" in voice.player.failed


def test_no_player_is_found_when_there_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(NoAudio):
        find_player({"COBI_COMPANION_PLAYER": "none"})
    with pytest.raises(NoAudio, match="no player 'no-such-player'"):
        find_player({"COBI_COMPANION_PLAYER": "no-such-player -q"})
    monkeypatch.setenv("PATH", "")
    with pytest.raises(NoAudio, match="alsa-utils"):
        find_player({})


# ---- the box without a voice, and the simulator's --speech-dir ----

def test_a_box_without_an_engine_plays_on_with_the_notice(
        table_at: Callable[..., Any], gated: Gated, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("COBI_COMPANION_ESPEAK", str(tmp_path / "nowhere.so"))
    monkeypatch.setenv("COBI_COMPANION_PLAYER", " ".join(gated.command))
    table = table_at([4, 2, 5, 6, 3, 6])
    app = table.box.app
    assert app.speech.notice == "voice_no_engine"
    before = table.view
    app.speak(outcome("say_hit", firer="Tiger 1"))
    table.press("ok", "cw")
    assert table.view != before
    assert gated.starts() == 0


def test_a_box_without_a_player_plays_on_with_the_notice(
        table_at: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COBI_COMPANION_PLAYER", "none")
    table = table_at([4, 2, 5, 6, 3, 6])
    app = table.box.app
    assert app.speech.notice == "voice_no_audio"
    before = table.view
    table.press("ok", "cw")
    assert table.view != before


TANK_BATTLE = ("ok,ccw,ok,cw,cw,allies,cw,cw,axis,ok,axis,allies,ok,ok,ok,ok,ok,cw,ok,cw,cw,"
               "allies,ok,ok,ok,ok,ok,ok,ok,axis,ok,ok,allies,ok")
TANK_DICE = "4,2,5,6,3,6,4,4,6,3,1,2,4,2,5,1,5,6,5,5,5,5,5,5,5,5,5,5,2,3"


TANK_SAID = ["Axis attack. Allies defend and go first.",
             "Sherman one hits!", "Sherman one reloads.", "Tiger one is weakened.",
             "Tiger one misses.", "Tiger one reloads.",
             "Sherman one hits!", "Sherman one reloads.", "Tiger one cannot move."]


def sim_speaking(tmp_path: Path, env: dict[str, str], book: CardBook
                 ) -> tuple[int, list[str], list[Path]]:
    """The README's tank battle in a real `sim` process, saying outcomes only, with
    --speech-dir: its exit, the texts written and the WAVs."""
    from cobi_companion.device.core.battle_state import TankBattle

    config = tmp_path / "config.toml"
    config.write_text('[game]\nvoice = "outcomes"\n')
    spoken, state = tmp_path / "spoken", tmp_path / "state.json"
    run = subprocess.run(
        [sys.executable, "-m", "cobi_companion.device.cli", "sim", "--config", str(config),
         "--state-dir", str(tmp_path / "box"), "--speech-dir", str(spoken), "--state-json",
         str(state), "--keys", TANK_BATTLE, "--dice", TANK_DICE],
        capture_output=True, text=True, timeout=120, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr
    import json

    battle = TankBattle.from_dict(json.loads(state.read_text())["battle"], book)
    assert len(battle.log) >= 4
    texts = [path.read_text(encoding="utf-8").strip() for path in sorted(spoken.glob("*.txt"))]
    # each outcome as its frame shows it (a shot's hit, its reload, then its effect)
    assert texts == TANK_SAID
    assert [p.stem for p in sorted(spoken.glob("*.txt"))] == [
        f"{n:04d}" for n in range(1, len(texts) + 1)]
    return run.returncode, texts, sorted(spoken.glob("*.wav"))


def test_the_sim_writes_each_utterance_as_a_wav_and_its_text_in_order(tmp_path: Path,
                                                                     book: CardBook) -> None:
    _, texts, wavs = sim_speaking(tmp_path, {"COBI_COMPANION_PLAYER": "none"}, book)
    assert [p.stem for p in wavs] == [f"{n:04d}" for n in range(1, len(texts) + 1)]
    for path, text in zip(wavs, texts, strict=True):
        with wave.open(str(path)) as file:
            samples = file.readframes(file.getnframes())
            seconds = file.getnframes() / file.getframerate()
        assert rms(samples) > LOUD_RMS
        assert 0.2 <= seconds <= 0.3 + SECONDS_A_CHARACTER * len(text), (text, seconds)


def test_the_sim_without_an_engine_writes_the_texts_and_plays_on(tmp_path: Path,
                                                                 book: CardBook) -> None:
    _, texts, wavs = sim_speaking(tmp_path, {"COBI_COMPANION_ESPEAK": str(tmp_path / "no.so"),
                                             "COBI_COMPANION_PLAYER": "none"}, book)
    assert texts and wavs == []


def test_speech_files_pass_each_utterance_on_to_the_voice(tmp_path: Path, gated: Gated,
                                                          voice_of: Callable[[list[str]], Voice]
                                                          ) -> None:
    """--speech-dir with the computer's audio: a tee."""
    voice = voice_of(gated.command)
    # The cache warm, as the box's (two threads rendering one phrase at once may each get
    # a slightly different sound from eSpeak NG).
    voice.engine.render_missing({"pl": {"Tiger jeden trafia!"}})
    files = SpeechFiles(tmp_path / "spoken", voice.engine, voice, volume=100)
    files.say(Utterance("pl", ("Tiger jeden", "trafia!")))
    wait(lambda: gated.starts() == 1, "the player started")
    gated.gate.touch()
    wait(lambda: gated.out.exists() and playing(voice).poll() is not None, "played")
    files.close()
    assert (tmp_path / "spoken" / "0001.txt").read_text(encoding="utf-8") == \
        "Tiger jeden trafia!\n"
    with wave.open(str(tmp_path / "spoken" / "0001.wav")) as file:
        written = file.readframes(file.getnframes())
    assert read_wav(gated.out.read_bytes(), voice.engine.rate) == written


MDWE = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
# PR_SET_MDWE (65), PR_MDWE_REFUSE_EXEC_GAIN (1): what the unit's MemoryDenyWriteExecute=yes
# asks of the kernel (or of seccomp, on an older systemd): no memory both written and run.
if libc.prctl(65, 1, 0, 0, 0) != 0:
    print("no PR_SET_MDWE:", ctypes.get_errno())
    sys.exit(3)
from cobi_companion.device.ports.espeak import espeak_for
print(len(espeak_for().render("Tiger jeden trafia!", "pl")))
"""


def test_the_engine_renders_under_memory_deny_write_execute() -> None:
    """The ctypes callback the samples come through is a libffi closure: it must not need
    memory both written and run, which the unit forbids (systemd/README.md)."""
    run = subprocess.run([sys.executable, "-c", MDWE], capture_output=True, text=True,
                         timeout=60)
    if run.returncode == 3:
        pytest.skip(f"this kernel has no PR_SET_MDWE (Linux 6.3 added it): {run.stdout}")
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) > 22050          # over half a second of sound


@snapshot_cards
def test_speech_render_fills_the_cache_once_then_check_finds_it_whole(
        tmp_path: Path, cli_process: Any, gated: Gated) -> None:
    """The installer's `speech render`, as a real process: everything the first time,
    nothing the second; `speech check` then finds the cache whole, and the player."""
    cache = str(tmp_path / "cache")
    first = cli_process("speech", "render", "--cache", cache)
    assert first.code == 0, first.err
    lines = first.out.splitlines()
    counts = [line.split(":")[1].split(",")[:2] for line in lines[:2]]
    assert [line[:3] for line in lines[:2]] == ["en:", "pl:"]
    for phrases, rendered in counts:
        # the sentences with no value in them ("Beach held."): the others are rendered when
        # first said
        assert int(phrases.split()[0]) == int(rendered.split()[0]) >= 20
    again = cli_process("speech", "render", "--cache", cache)
    assert [line.split(",")[1] for line in again.out.splitlines()[:2]] == \
        [" 0 rendered"] * 2
    check = cli_process("speech", "check", "--cache", cache,
                        env={"COBI_COMPANION_PLAYER": " ".join(gated.command)})
    assert check.code == 0, check.out
    assert check.out.splitlines()[1] == f"player: {' '.join(gated.command)}"
    assert "missing" not in check.out
    missing = cli_process("speech", "check", "--cache", cache,
                          env={"COBI_COMPANION_ESPEAK": str(tmp_path / "no.so")})
    assert missing.code == 1
    assert missing.out.splitlines()[0].startswith("engine: missing: no eSpeak NG library")


def test_every_engine_of_a_library_is_the_one_started_in_the_process(tmp_path: Path) -> None:
    """The library is one per process: a second start would set its own callback, and the
    library would call it after its owner is gone (a crash, once seen in the full test run)."""
    import gc

    first = engine_at(tmp_path / "a")
    first.render_missing({"en": {"Tiger one"}})
    del first
    gc.collect()
    second = engine_at(tmp_path / "b")
    assert rms(second.render("Tiger one", "en")) > LOUD_RMS
    assert espeak_for() is espeak_for(find_library())


@snapshot_cards
def test_speech_render_into_a_folder_that_takes_no_file_fails(
        tmp_path: Path, cli_process: Any) -> None:
    """install.sh notes "the voice's phrases were not rendered now" on a failed render: one
    whose cache took no file must not say it succeeded."""
    # /proc takes no folder, even from root (a read-only folder would not stop root)
    result = cli_process("speech", "render", "--language", "en", "--cache",
                         f"/proc/cobi-cache-{tmp_path.name}")
    assert result.code == 1
    assert "the cache took no file" in result.err


# ---- what cuts what: outcomes, prompts, items ----

# A player whose sounds each wait for their own turnstile: the n-th started writes what it
# got to out<n>.wav once the test creates go<n> (never a sleep-based assert).
TURNSTILE_PLAYER = """
import sys, time
from pathlib import Path
folder = Path(sys.argv[1])
with (folder / "started").open("a") as notes:
    notes.write("x\\n")
n = len((folder / "started").read_text().split())
while not (folder / f"go{n}").exists():
    time.sleep(0.01)
(folder / f"out{n}.wav").write_bytes(sys.stdin.buffer.read())
"""


class Turnstiles:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        (folder / "player.py").write_text(TURNSTILE_PLAYER)
        self.command = [sys.executable, str(folder / "player.py"), str(folder)]

    def starts(self) -> int:
        started = self.folder / "started"
        return len(started.read_text().split()) if started.exists() else 0

    def go(self, n: int) -> None:
        (self.folder / f"go{n}").touch()

    def out(self, n: int) -> Path:
        return self.folder / f"out{n}.wav"


def heard_as(voice: Voice, path: Path, said: Utterance) -> bool:
    return read_wav(path.read_bytes(), voice.engine.rate) == voice.engine.samples(
        said, style_of(voice.speed, voice.volume))


def test_a_prompt_waits_for_the_outcome_and_only_the_latest_is_kept(
        tmp_path: Path, voice_of: Callable[[list[str]], Voice]) -> None:
    gates = Turnstiles(tmp_path / "turnstiles")
    voice = voice_of(gates.command)
    hit = Utterance("en", ("Tiger one", "hits!"))
    first, latest = (Utterance("en", (side, ": press your button."), "prompt")
                     for side in ("Axis", "Allies"))
    voice.say(hit)
    wait(lambda: gates.starts() == 1, "the outcome's player started")
    voice.say(first)
    voice.say(latest)               # replaces the first while both wait
    gates.go(1)
    wait(lambda: gates.starts() == 2, "the prompt's player started")
    assert heard_as(voice, gates.out(1), hit)           # said whole, never cut
    gates.go(2)
    wait(lambda: gates.out(2).exists() and playing(voice).poll() is not None, "played")
    assert heard_as(voice, gates.out(2), latest)
    assert gates.starts() == 2                          # the first prompt was never said


def test_an_outcome_cuts_a_prompt_and_an_item_cuts_a_prompt(
        tmp_path: Path, voice_of: Callable[[list[str]], Voice]) -> None:
    gates = Turnstiles(tmp_path / "turnstiles")
    voice = voice_of(gates.command)
    voice.say(Utterance("en", ("Axis", ": press your button."), "prompt"))
    wait(lambda: gates.starts() == 1, "the prompt's player started")
    prompt = playing(voice)
    item = Utterance("en", ("Tiger one",), "item")
    voice.say(item)
    wait(lambda: gates.starts() == 2, "the item's player started")
    assert prompt.wait(timeout=120) == -9               # the item killed the prompt
    lit = playing(voice)
    miss = Utterance("en", ("Sherman two", "misses."))
    voice.say(miss)
    wait(lambda: gates.starts() == 3, "the outcome's player started")
    assert lit.wait(timeout=120) == -9                  # the outcome killed the item
    gates.go(3)
    wait(lambda: gates.out(3).exists() and playing(voice).poll() is not None, "played")
    assert heard_as(voice, gates.out(3), miss)
    assert not gates.out(1).exists() and not gates.out(2).exists()    # killed unheard


# ---- a speaker plugged in later ----

def test_a_sound_card_plugged_in_later_is_found_without_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    monkeypatch.setattr(audio_out, "SOUND_CARDS", cards)
    bin_dir, heard = tmp_path / "bin", tmp_path / "heard.wav"
    bin_dir.mkdir()
    (bin_dir / "aplay").write_text(f"#!/bin/sh\nexec /bin/cat > {heard}\n")
    (bin_dir / "aplay").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.delenv("COBI_COMPANION_PLAYER", raising=False)
    with pytest.raises(NoAudio, match="no sound card"):
        find_player()
    voice = Voice(engine_at(tmp_path / "cache"), None, volume=100,
                  find_player=lambda: Player(find_player()))
    try:
        assert voice.notice == "voice_no_audio"
        voice.say(Utterance("en", ("Tiger one", "hits!")))
        wait(lambda: voice.handled == 1, "the first utterance taken")
        assert voice.player is None and voice.notice == "voice_no_audio"
        cards.write_text(" 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi\n")   # plugged in
        said = Utterance("en", ("Sherman two", "misses."))
        voice.say(said)
        wait(lambda: voice.handled == 2 and voice.player is not None
             and voice.player.ended(1), "the second utterance played")
        assert heard_as(voice, heard, said)
        assert voice.notice is None
    finally:
        voice.close()


def test_the_notice_clears_by_itself_when_a_sound_card_is_plugged_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing said: the start menu's notice looks again, at most every few seconds (a clock
    the test moves)."""
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    monkeypatch.setattr(audio_out, "SOUND_CARDS", cards)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aplay").write_text("#!/bin/sh\nexec /bin/cat > /dev/null\n")
    (bin_dir / "aplay").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.delenv("COBI_COMPANION_PLAYER", raising=False)
    now = [100.0]
    voice = Voice(engine_at(tmp_path / "cache"), None, find_player=lambda: Player(find_player()),
                  clock=lambda: now[0])
    try:
        now[0] += 10
        assert voice.notice == "voice_no_audio"         # looked: still none
        cards.write_text(" 0 [Device         ]: USB-Audio - USB Audio Device\n")
        now[0] += 1
        assert voice.notice == "voice_no_audio"         # not looked again yet
        now[0] += 5
        assert voice.notice is None and voice.player is not None
    finally:
        voice.close()
