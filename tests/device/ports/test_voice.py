"""The box's voice, as audio: the real engine (eSpeak NG through ctypes), the phrase cache on
disk, real player processes, the real box. Sounds are checked as sound (their loudness and
length), a press while speaking by the order of what happened, never by timing."""
from __future__ import annotations

import array
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
from cobi_companion.device.core.spoken import every_part, outcome, utterance
from cobi_companion.device.ports.audio_out import NoAudio, Player, find_player, scaled
from cobi_companion.device.ports.espeak import EngineMissing, Espeak, espeak_for, find_library
from cobi_companion.device.ports.phrase_cache import read_wav
from cobi_companion.device.ports.speech import Utterance
from cobi_companion.device.ports.voice import Engine, SpeechFiles, Voice

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


def wait(test: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    """Wait for another thread or process to get somewhere (no timing is asserted)."""
    from cobi_companion.device.ports.audio_out import wait_until

    assert wait_until(test, timeout), f"never: {what}"


@pytest.mark.parametrize("language", ["en", "pl"])
def test_every_phrase_renders_to_sound_of_a_plausible_length(espeak: Espeak, book: CardBook,
                                                             language: str) -> None:
    phrases = every_part(language, book)
    assert len(phrases) > 50
    for text in sorted(phrases):
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
    engine = engine_at(tmp_path)
    engine.render_missing({"en": {"Tiger one"}})
    path = engine.cache.path("en", "Tiger one")
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])      # cut short, as by a power cut
    assert engine.cache.get("en", "Tiger one") is None
    assert engine.render_missing({"en": {"Tiger one"}}) == 1
    again = engine.cache.get("en", "Tiger one")
    assert again is not None and rms(again) > LOUD_RMS
    path.write_bytes(b"RIFF nonsense")
    assert engine.cache.missing("en", ["Tiger one"]) == ["Tiger one"]


def test_joined_phrases_are_the_cached_sounds_with_a_gap(tmp_path: Path) -> None:
    engine = engine_at(tmp_path)
    said = Utterance("en", ("Tiger one", "hits!"))
    joined = engine.samples(said)
    first, second = (engine.cache.get("en", part) for part in said.parts)
    assert first is not None and second is not None
    assert joined.startswith(first) and joined.endswith(second)
    gap = joined[len(first):len(joined) - len(second)]
    assert gap and set(gap) == {0}


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
        assert engine.cache.get("en", "Tiger one") is not None        # kept in memory
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
    said = voice.engine.samples(utterance(outcome("say_hit", firer="Tiger 1"), "en"))
    assert heard == scaled(said, app.settings.volume)       # at the settings' volume


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


def test_the_volume_scales_the_samples(espeak: Espeak) -> None:
    samples = espeak.render("Tiger one hits!", "en")
    assert scaled(samples, 100) == samples
    assert rms(scaled(samples, 50)) == pytest.approx(rms(samples) / 2, rel=0.01)
    assert rms(scaled(samples, 0)) == 0


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
    assert voice.player.failed is not None and "audio open error" in voice.player.failed


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


def sim_speaking(tmp_path: Path, env: dict[str, str], book: CardBook
                 ) -> tuple[int, list[str], list[Path]]:
    """The README's tank battle in a real `sim` process, saying outcomes only, with
    --speech-dir: its exit, the texts written and the WAVs."""
    from cobi_companion.device.core.battle_state import TankBattle
    from cobi_companion.device.core.spoken import of_log

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
    said = [of_log(line) for line in battle.log]
    expected = [utterance(what, "en").text for what in said if what is not None]
    texts = [path.read_text(encoding="utf-8").strip() for path in sorted(spoken.glob("*.txt"))]
    assert texts == expected and len(texts) >= 2
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
    voice.engine.render_missing({"pl": {"Tiger jeden", "trafia!"}})
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
        assert int(phrases.split()[0]) == int(rendered.split()[0]) > 50
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
