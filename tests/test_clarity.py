"""The clarity command's pieces (bench/clarity.py; the command itself needs Debian's pocketsphinx
and is not part of the tests): the word error rate's arithmetic, the words as the dictionary
spells them, the grammar and its dictionary, the resampling to the recogniser's 16 kHz, the
dead air of a WAV made here, and the one line a machine without the recogniser gets, from the
command as a real process."""
from __future__ import annotations

import itertools
import math
import subprocess
import sys
import wave
from pathlib import Path
from typing import Any

import pytest

from tests.by_path import module_at

CLARITY = Path(__file__).resolve().parents[1] / "bench" / "clarity.py"
clarity: Any = module_at(CLARITY, "bench_clarity")


@pytest.mark.parametrize(("reference", "heard", "edits"), [
    ("tiger one hits", "tiger one hits", 0),
    ("tiger one hits", "tiger one misses", 1),               # one word swapped
    ("tiger one hits", "tiger hits", 1),                     # one left out
    ("tiger one hits", "tiger one hits hard", 1),            # one added
    ("axis go first", "", 3),                                # nothing heard
    ("", "weather clear", 2),
    ("allies your turn", "axis your turn allies", 2),
])
def test_the_edit_distance_counts_words_swapped_left_out_and_added(
        reference: str, heard: str, edits: int) -> None:
    assert clarity.edit_distance(reference.split(), heard.split()) == edits


def test_the_total_word_error_rate_weighs_each_utterance_by_its_words() -> None:
    pairs = [(["axis", "go", "first"], ["weather", "clear"]),          # 3 edits of 3
             (["both", "press", "your", "buttons"], ["both", "press", "your", "buttons"]),
             (["sherman", "one", "misses"], ["sherman", "one"])]       # 1 of 3
    assert clarity.error_rate(pairs) == pytest.approx(4 / 10)            # not (1 + 0 + 1/3)/3
    assert clarity.error_rate([]) == 0.0


def test_words_are_spelt_as_the_dictionary_spells_them() -> None:
    assert clarity.words_of("Tiger one hits! Sherman 1 is destroyed.") == \
        ["tiger", "one", "hits", "sherman", "one", "is", "destroyed"]
    assert clarity.words_of("Attack: 16 dice, 7TP; M4A1 won’t move") == \
        ["attack", "sixteen", "dice", "seven", "tp", "m", "four", "a", "one", "won't", "move"]
    assert clarity.number_words(125) == ["one", "hundred", "twenty", "five"]
    assert clarity.number_words(2040) == ["two", "thousand", "forty"]


def test_the_grammar_is_each_sentence_once_as_one_rule() -> None:
    text = clarity.grammar([["axis", "go", "first"], ["weather", "clear"], [],
                            ["axis", "go", "first"]])
    assert text.startswith("#JSGF V1.0;\ngrammar box;\n")
    assert text.endswith("public <sentence> = ( axis go first\n    | weather clear );\n")


def test_the_dictionary_has_the_words_and_spells_out_the_unknown(tmp_path: Path) -> None:
    cmudict = tmp_path / "cmudict.dict"
    cmudict.write_text("a AH\na(2) EY\nfire F AY ER\nfire(2) F AY R\nt T IY\np P IY\n"
                       "tiger T AY G ER\n", encoding="utf-8")
    known = clarity.read_dictionary(cmudict, {"fire", "tiger", "t", "p", "a"})
    assert known["fire"] == ["fire F AY ER", "fire(2) F AY R"]
    text, unknown = clarity.dictionary({"fire", "tp", "panzer"}, known)
    assert unknown == ["panzer", "tp"]
    assert text.splitlines() == ["fire F AY ER", "fire(2) F AY R",
                                 f"panzer {clarity.EXTRA_WORDS['panzer']}", "tp T IY P IY"]


def tone(hz: float, rate: int, seconds: float, amplitude: int = 10_000) -> list[int]:
    return [round(amplitude * math.sin(2 * math.pi * hz * n / rate))
            for n in range(round(rate * seconds))]


def test_resampling_keeps_the_pitch_and_the_length() -> None:
    out = clarity.resample(tone(1000, 22_050, 0.5), 22_050, 16_000)
    assert len(out) == 8000
    rising = sum(1 for a, b in itertools.pairwise(out) if a < 0 <= b)
    assert rising in (499, 500)                                    # still 1 kHz
    assert 9_500 < max(out[200:-200]) < 10_500                      # and as loud


def test_resampling_leaves_out_what_the_new_rate_cannot_hold() -> None:
    # 9 kHz is over 16 kHz's Nyquist: taken sample by sample it would fold down to 7 kHz.
    out = clarity.resample(tone(9000, 22_050, 0.2), 22_050, 16_000)
    assert max(abs(value) for value in out[200:-200]) < 200            # under 2 % left


def write_wav(path: Path, samples: list[int], rate: int) -> None:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(b"".join(value.to_bytes(2, "little", signed=True) for value in samples))


def test_dead_air_is_the_share_of_quiet_frames_of_a_wav(tmp_path: Path) -> None:
    rate = 22_050
    # 0.3 s of sound, 0.2 s of a hiss 50 dB under it, 0.5 s of sound: 20 % dead air.
    hiss = [30 * (1 if n % 2 else -1) for n in range(round(rate * 0.2))]
    path = tmp_path / "said.wav"
    write_wav(path, tone(440, rate, 0.3) + hiss + tone(440, rate, 0.5), rate)
    got_rate, samples = clarity.read_wav(path)
    assert got_rate == rate and len(samples) == round(rate * 1.0)
    assert clarity.dead_air(samples, rate) == pytest.approx(0.2, abs=0.011)
    assert clarity.dead_air([0] * 2205, rate) == 1.0                   # silence is all dead air
    assert clarity.dead_air(tone(440, rate, 0.5), rate) == 0.0


def test_the_recogniser_s_lines_are_read_by_utterance() -> None:
    heard = clarity.read_hypotheses("axis go first (box-000 -4594)\n (box-001 -4594)\n"
                                    "weather clear (one-002 -512)\n")
    assert heard == {"box-000": ["axis", "go", "first"], "box-001": [],
                     "one-002": ["weather", "clear"]}


def test_without_the_recogniser_the_command_says_so_in_one_line(tmp_path: Path) -> None:
    # A PATH with nothing on it: no pocketsphinx_batch, as on a machine without Debian's.
    run = subprocess.run([sys.executable, str(CLARITY)], capture_output=True, text=True,
                         env={"PATH": str(tmp_path)}, timeout=60)
    assert run.returncode == clarity.NOT_INSTALLED == 3
    assert run.stdout.splitlines() == [
        "clarity: pocketsphinx_batch is not installed (Debian: sudo apt install pocketsphinx "
        "pocketsphinx-en-us); nothing measured"]
    assert run.stderr == ""


def test_the_wide_grammar_takes_the_voice_s_whole_sentences_only() -> None:
    assert clarity.whole_sentence("Tiger one hits! Sherman two is destroyed.")
    assert clarity.whole_sentence("Weather: clear")
    for part in ("Allies", "clear", "loses two", "all lost", "⟨name⟩ hits!"):
        assert not clarity.whole_sentence(part), part
    said = clarity.voice_sentences()
    assert "Both: press your buttons." in said and "Tiger one misses." in said
    assert "Germans: press your button to roll." in said     # Cobra's side too
    assert all(clarity.whole_sentence(text) for text in said)
    assert len(said) == len(set(said)) > 50


RECOGNISER_MISSING = clarity.recogniser_missing()


@pytest.mark.skipif(RECOGNISER_MISSING is not None, reason=str(RECOGNISER_MISSING))
def test_the_recogniser_hears_a_sentence_of_the_grammar(tmp_path: Path) -> None:
    # The real pieces end to end: eSpeak's sound at 22,050 Hz, resampled, through pocketsphinx
    # in grammar mode. A clear short sentence of a grammar of two is heard right.
    rate, samples = clarity.one_piece(["Both: press your buttons."])["Both: press your buttons."]
    assert rate == 22_050
    sentences = [clarity.words_of("Both: press your buttons."),
                 clarity.words_of("Tiger one misses.")]
    heard, unknown = clarity.recognise({"said-1": clarity.resample(samples, rate)}, sentences,
                                       tmp_path)
    assert heard == {"said-1": ["both", "press", "your", "buttons"]} and unknown == []
    assert "public <sentence> = ( both press your buttons" in (tmp_path / "box.jsgf").read_text()


# What the box said in the Easy battle before the recogniser was made to listen as a listener
# does: a prompt with its item heard "tiger", an outcome heard without its last word.
BATTLE_SAID = ("Axis: press your button to fire. Front", "Tiger one misses.")
BATTLE_GRAMMAR = (*BATTLE_SAID, "Tiger", "Tiger one", "Tiger one, Axis", "Fire", "Front", "Rear",
                  "No", "Both: press your buttons.", "Fire at Sherman one")


@pytest.mark.skipif(RECOGNISER_MISSING is not None, reason=str(RECOGNISER_MISSING))
@pytest.mark.parametrize("amplitude", [51, 100])           # the box's volume 80 %, and 100 %
def test_the_recogniser_hears_the_box_s_prompt_and_outcome_at_either_loudness(
        tmp_path: Path, amplitude: int) -> None:
    # The real eSpeak and pocketsphinx: with the recogniser's defaults (digital silence, the
    # silence loops, no loudness adjusted) the first was heard "tiger" and the second "tiger
    # one"; now each is heard as said, as loud or as quiet as the box says it.
    from cobi_companion.device.ports.espeak import espeak_for

    engine = espeak_for()
    sounds = {f"said-{n}": clarity.resample(clarity.samples_of(
        engine.render(text, "en", amplitude=amplitude)), engine.rate)
        for n, text in enumerate(BATTLE_SAID)}
    heard, _ = clarity.recognise(sounds, [clarity.words_of(text) for text in BATTLE_GRAMMAR],
                                 tmp_path)
    assert heard == {f"said-{n}": clarity.words_of(text) for n, text in enumerate(BATTLE_SAID)}


def test_every_sound_is_heard_at_one_loudness() -> None:
    quiet, loud = [0, 300, -1000, 0, 500], [0, 3000, -10000, 0, 5000]
    assert list(clarity.normalised(quiet)) == list(clarity.normalised(loud)) \
        == [0, 4800, -16000, 0, 8000]                         # the loudest at PEAK, 0 stays 0
    assert list(clarity.normalised([0, 0, 0])) == [0, 0, 0]    # silence is not made loud
    assert max(clarity.normalised([32767, -32768])) <= 32767


def test_the_silence_before_and_after_the_words_is_cut_but_not_between_them() -> None:
    # 16 kHz: 10 ms frames of 160 samples. 0.3 s of silence, a word, 0.2 s of pause, a word,
    # 0.4 s of silence: cut to 50 ms either side, the pause kept.
    word = [8000, -8000] * 800                                        # 0.1 s
    sound = [0] * 4800 + word + [0] * 3200 + word + [0] * 6400
    cut = clarity.trimmed(sound)
    assert list(cut) == [0] * 800 + word + [0] * 3200 + word + [0] * 800
    assert list(clarity.trimmed([0] * 1600)) == [0] * 1600            # silence stays as it is
    hum = [0] * 1600 + [50, -50] * 80 + [0] * 1600 + word + [0] * 1600   # -44 dB: cut too
    assert list(clarity.trimmed(hum)) == [0] * 800 + word + [0] * 800


@pytest.mark.parametrize(("text", "item"), [
    ("Fire", True), ("Tiger one, Axis", True), ("Axis: press your button to fire. Front", True),
    ("Tiger one misses.", False), ("Axis win!", False), ("Both: press your buttons.", False),
    ("Say it again?", False),
])
def test_a_menu_item_is_told_from_a_sentence_by_its_end(text: str, item: bool) -> None:
    assert clarity.ends_with_item(text) is item


@pytest.mark.long
def test_a_battle_is_played_by_a_real_sim_and_its_utterances_taken(tmp_path: Path) -> None:
    easy = next(script for script in clarity.SCRIPTS if script.name == "Easy to its end")
    said = clarity.play(easy, tmp_path / "easy")
    assert said, "the box said nothing"
    assert [one.number for one in said] == list(range(1, len(said) + 1))
    assert all(one.text and one.wav.stat().st_size > 44 for one in said)
    assert any("win" in one.text for one in said)             # played to its end
    rate, samples = clarity.read_wav(said[0].wav)
    assert rate > 0 and clarity.dead_air(samples, rate) < 1         # a sound, not silence


def test_a_battle_off_its_script_is_said_to_be(tmp_path: Path) -> None:
    script = clarity.Script("Off", "ok,nonsense", "1")
    with pytest.raises(RuntimeError, match="Off: the sim ended with"):
        clarity.play(script, tmp_path / "off")


def test_the_voices_are_rendered_with_their_voice_and_rate(tmp_path: Path) -> None:
    # --voices' child, as a real process with the real eSpeak: one sentence at two rates and
    # in two voices. Slower is longer; en-us is another sound than en.
    sounds = {}
    for voice, rate in (("en", 175), ("en", 150), ("en-us", 175)):
        folder = tmp_path / f"{voice}-{rate}"
        subprocess.run([sys.executable, str(CLARITY), "--render", voice, str(rate), str(folder)],
                       input="Tiger one hits!\nBoth: press your buttons.", text=True,
                       check=True, timeout=60)
        assert sorted(path.name for path in folder.iterdir()) == ["0001.wav", "0002.wav"]
        sounds[voice, rate] = clarity.read_wav(folder / "0002.wav")
    assert {rate for rate, _ in sounds.values()} == {22_050}
    assert len(sounds["en", 150][1]) > 1.1 * len(sounds["en", 175][1])
    assert sounds["en-us", 175][1] != sounds["en", 175][1]


def test_the_totals_weigh_the_words_and_the_seconds(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    said = [clarity.Said("Easy", 1, "Axis go first.", tmp_path / "0001.wav"),
            clarity.Said("Easy", 2, "Tiger one misses.", tmp_path / "0002.wav")]
    rows = [clarity.Row(said[0], ["no", "mutiny"], ["axis", "go", "first"], 1.5, 1.0, 0.6, 0.3),
            clarity.Row(said[1], ["tiger", "one", "misses"], ["tiger", "one", "misses"],
                        1.0, 1.0, 0.2, 0.2)]
    clarity.totals(rows)
    lines = capsys.readouterr().out.splitlines()
    assert "box 50.0%, one piece 0.0%" in lines[1] and lines[1].endswith("MISS")   # 3 of 6
    assert lines[2].endswith("outcomes and prompts: box 50.0%, one piece 0.0% (2 utterances)")
    assert lines[3].endswith("menu items read aloud: box 0.0%, one piece 0.0% (0 utterances)")
    assert "box 2.50 s, one piece 2.00 s: 1.25× (worst 1.50×" in lines[4]
    assert "box 0.80 s (32%), one piece 0.50 s (25%): 1.28× the share" in lines[5]
    unscored = [clarity.Row(said[1], None, None, 1.0, 1.0, 0.2, 0.2)]
    clarity.totals(unscored)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("word error rate: not scored")
    assert lines[2].endswith("PASS") and lines[3].endswith("PASS")            # 1.00× each
