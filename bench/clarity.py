"""How clearly the box speaks, measured by a machine listener (issue 34).

    python3 run.py clarity            # or: .venv/bin/python bench/clarity.py
    python3 run.py clarity --voices   # and the grammar's sentences in one piece with eSpeak's
                                      # en-us at 175, 160, 150 and 140 words a minute, en at 175
    python3 run.py clarity --narrow   # a grammar of the battles' sentences only
    python3 run.py clarity --language pl   # (or de) the dead air only: no recogniser for it

Plays a scripted battle of each game (the Easy level, the Tank Game, Cobra and its landing) in
the simulator as a real process (`cobi-companion sim --speech-dir`, voice "all", English) and
takes each utterance the box said: its WAV and its text. Only what --speech-dir writes is read,
so the command measures whatever the voice does inside.

Each utterance is scored by Debian's offline recogniser (`pocketsphinx_batch`, the
`pocketsphinx-en-us` model) in grammar mode: the grammar is every sentence the battles said and
every whole sentence of the voice's templates filled with the sentence file's samples, so the
recogniser picks the sentence that sounds nearest, and the word error rate (word edit distance
over the sentence's words) says how often that was another sentence or other words.
The same text rendered in one piece by the project's eSpeak (`espeak_for().render`) is scored
the same way, as the fair comparison. eSpeak's 22,050 Hz sound is resampled to the model's
16 kHz here (a windowed-sinc filter, pure Python), brought to one peak and its silence before
and after the words cut, and the recogniser listens with dither and without its silence loops
(LISTEN says why). The word error rate is also given apart for the outcomes and prompts and
for the menu items read aloud (`ends_with_item`).

Dead air: the share of 10 ms frames quieter than DEAD_AIR_DB under the utterance's loudest
frame, in the box's WAV and in the one piece; and the box's length over the one piece's (the
time the box adds is silence: the same words in more time).

Targets: word error rate at most 5 %; the box's length, and its share of dead air, at most 10 %
above the one piece's.
Exit codes: 0 measured (a MISS is a figure, not a failure), 1 a battle went off its script or
the recogniser failed, 3 (NOT_INSTALLED) no recogniser or model here: one line says so.
"""
from __future__ import annotations

import argparse
import array
import ctypes
import math
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
import wave
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

RECOGNISER = "pocketsphinx_batch"
MODEL = Path("/usr/share/pocketsphinx/model/en-us")
ACOUSTIC = MODEL / "en-us"
CMUDICT = MODEL / "cmudict-en-us.dict"
NOT_INSTALLED = 3
RATE = 16_000                       # the model's sample rate
FRAME_S = 0.010
DEAD_AIR_DB = 40.0                  # a frame this far under the loudest is dead air
# The recogniser's search beams, wider than its defaults (1e-48, 7e-29, 1e-48): with those the
# search often loses every path to the grammar's end on eSpeak's voice and hears nothing.
BEAMS = ("-beam", "1e-100", "-wbeam", "1e-80", "-pbeam", "1e-100")
# How the recogniser listens, so that it hears eSpeak's sound as a listener does (issue 34):
# - "-dither yes" (a fixed seed: the same figures each run): eSpeak's pauses are exact zeros,
#   whose log energy is the front end's floor; after the mean is taken out of the utterance
#   those frames pull the whole sentence's energy apart, and the silence model then swallowed
#   words ("Tiger one misses." heard "tiger one"). A room is never digitally silent.
# - "-fsgusefiller no": with the grammar's silence and filler loops the search explained 1.7 s
#   of "Axis: press your button to fire. Front" as <sil> and heard "tiger"; the correct
#   sentence scored better (a search error, not a confusion). Without them every sound must be
#   words of a sentence of the grammar: nothing can be left out unheard, so this is no leniency.
#   So the silence before the first word and after the last is cut first (`trimmed`): a
#   listener waits for the words, and the recogniser would make words of it ("Tiger one" with
#   eSpeak's end pause heard "tiger one hits").
LISTEN = ("-dither", "yes", "-seed", "1", "-fsgusefiller", "no")
PEAK = 16_000                       # every sound's loudest sample, before it is recognised
MARGIN_S = 0.05                     # the silence kept before the first word and after the last
TARGET_WER = 0.05
TARGET_LENGTH = 1.10
LANGUAGE = "en"                     # the model is US English: Polish and German are not scored
# The voices and rates compared for the engine's choice (--voices): eSpeak NG's names.
VOICES = (("en-us", 175), ("en-us", 160), ("en-us", 150), ("en-us", 140), ("en", 175))
# Names the dictionary lacks, as eSpeak says them (an unknown word is spelt out otherwise).
EXTRA_WORDS = {
    "leclerc": "L AH K L EH R K",
    "panzer": "P AE N Z ER",
}


@dataclass(frozen=True)
class Script:
    """A battle played by its keys and dice, as the docs make their frames."""

    name: str
    keys: str
    dice: str


SCRIPTS = (
    Script("Easy", "ok,cw,allies,ccw,allies,cw,cw,cw,axis,axis,ok,axis,allies,ok,ok,axis,ok,ok,"
           "ok,allies,ok,axis,allies,axis,allies,ok", "5,2,2,1,4,3,5,3,6,4"),
    Script("Easy to its end", "ok,cw,allies,cw,cw,axis,ok,axis,allies,ok,ok,axis,allies,ok",
           "5,2,4,6,1,1"),
    Script("Tank Game", "ok,ccw,ok,cw,cw,allies,cw,cw,axis,ok,axis,allies,ok,ok,ok,ok,ok,cw,ok,"
           "cw,cw,allies,ok,ok,ok,ok,ok,ok,ok,axis,ok,ok,allies,ok",
           "4,2,5,6,3,6,4,4,6,3,1,2,4,2,5,1,5,6,5,5,5,5,5,5,5,5,5,5,2,3"),
    Script("Cobra", "cw,cw,cw,cw,ok,ok,ok,axis,ok,ok,ok,ok,cw,ok,back,cw,ok,ok,ok,ccw,ok,axis,ok,"
           "back,cw,cw,ok,ok,ok,cw,cw,cw,cw,ok,ok,ok,ok,ccw,ccw,ok,ok,ok,cw,cw,ok,ok,ccw,ccw,ok,"
           "ok,axis,ok,ok,cw,cw,cw,ok,cw,cw,cw,cw,cw,cw,cw,cw,cw,ok,ok,ccw,ccw,ok,cw,cw,cw,cw,cw,"
           "ok", "4,3,5"),
    Script("Cobra landing", "cw,cw,cw,cw,ok,cw,cw,cw,ok,ok,cw,ok,allies,allies,ok,ok,ok,back,cw,"
           "cw,ok,ok,cw,cw,ok,axis,ok", "5,4,3"),
)


@dataclass(frozen=True)
class Said:
    """One utterance of a battle: its text and its WAV."""

    battle: str
    number: int
    text: str
    wav: Path


# --- words ----------------------------------------------------------------------------------

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> list[str]:
    """`n` (0 to 999,999) as the words a speaker says: 125 -> one hundred twenty five."""
    if n < 20:
        return [_ONES[n]]
    if n < 100:
        return [_TENS[n // 10], *([_ONES[n % 10]] if n % 10 else [])]
    if n < 1000:
        rest = number_words(n % 100) if n % 100 else []
        return [_ONES[n // 100], "hundred", *rest]
    rest = number_words(n % 1000) if n % 1000 else []
    return [*number_words(n // 1000), "thousand", *rest]


def words_of(text: str) -> list[str]:
    """The words of `text` as the dictionary spells them: lower case, no punctuation, numbers
    as words, a word of letters and digits split there (7TP: seven tp)."""
    words: list[str] = []
    for token in re.findall(r"[a-z']+|\d+", text.lower().replace("’", "'")):
        token = token.strip("'")
        if token.isdigit():
            words += number_words(int(token))
        elif token:
            words.append(token)
    return words


def edit_distance(reference: Sequence[str], heard: Sequence[str]) -> int:
    """Words substituted, left out and added to make `heard` out of `reference`."""
    row = list(range(len(heard) + 1))
    for i, said in enumerate(reference, 1):
        diagonal, row[0] = row[0], i
        for j, word in enumerate(heard, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1,
                                           diagonal + (said != word))
    return row[-1]


def error_rate(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> float:
    """The word error rate of (reference, heard) pairs together: edits over reference words."""
    edits = words = 0
    for reference, heard in pairs:
        edits += edit_distance(reference, heard)
        words += len(reference)
    return edits / words if words else 0.0


# --- the grammar and its dictionary -----------------------------------------------------------

def whole_sentence(text: str) -> bool:
    """Whether a filled template is a sentence the box says by itself: not a part of others
    (a side's name, the weather, "loses two": each a word or two in small letters), nor one
    the samples could not fill (⟨name⟩ left, or "(cannot be filled...)")."""
    return text[:1].isupper() and len(text.split()) > 1 and "⟨" not in text


def voice_sentences() -> list[str]:
    """Every sentence the voice's templates make in English filled with the sentence file's
    samples (`run.py sentences`: Tiger 1, Sherman 2, each side, counts 1, 2, 5, 22), but those
    with a value it leaves unfilled."""
    from cobi_companion.device.core.sentences import filled
    from cobi_companion.words import catalogue

    messages = catalogue.load(LANGUAGE).messages
    found: list[str] = []
    for key in catalogue.every_key():
        if not key.startswith("say_") or "|" in key:
            continue
        forms = [None, *sorted(other.split("|", 1)[1] for other in messages
                               if other.startswith(f"{key}|"))]
        for form in forms:
            found += [text for text in filled(LANGUAGE, key, form) if whole_sentence(text)]
    return list(dict.fromkeys(found))


def grammar(sentences: Iterable[Sequence[str]]) -> str:
    """A JSGF grammar whose one rule is any one of `sentences` (each a list of words)."""
    alternatives = sorted({" ".join(words) for words in sentences if words})
    body = "\n    | ".join(alternatives)
    return f"#JSGF V1.0;\ngrammar box;\npublic <sentence> = ( {body} );\n"


def read_dictionary(path: Path, wanted: set[str]) -> dict[str, list[str]]:
    """The pronunciations of `wanted` in a CMU dictionary file (word(2) variants kept)."""
    found: dict[str, list[str]] = {}
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            head, _, phones = line.partition(" ")
            if head.split("(")[0] in wanted:
                found.setdefault(head.split("(")[0], []).append(f"{head} {phones.strip()}")
    return found


def dictionary(words: set[str], known: dict[str, list[str]]) -> tuple[str, list[str]]:
    """The dictionary of `words` (lines of `known`, else EXTRA_WORDS, else the word spelt out
    letter by letter) and the words that were not in `known`."""
    lines, unknown = [], []
    for word in sorted(words):
        if word in known:
            lines += known[word]
            continue
        unknown.append(word)
        phones = EXTRA_WORDS.get(word)
        if phones is None:
            letters = [known[letter][0].split(" ", 1)[1] for letter in word if letter in known]
            phones = " ".join(letters) or "SIL"
        lines.append(f"{word} {phones}")
    return "".join(f"{line}\n" for line in lines), unknown


# --- sound ------------------------------------------------------------------------------------

def read_wav(path: Path) -> tuple[int, array.array[int]]:
    """The rate and the 16-bit mono samples of a WAV file."""
    with wave.open(str(path), "rb") as wav:
        if wav.getsampwidth() != 2 or wav.getnchannels() != 1:
            raise ValueError(f"{path}: not 16-bit mono")
        samples = array.array("h", wav.readframes(wav.getnframes()))
        rate = wav.getframerate()
    if sys.byteorder == "big":
        samples.byteswap()
    return rate, samples


def samples_of(pcm: bytes) -> array.array[int]:
    samples = array.array("h", pcm)
    if sys.byteorder == "big":
        samples.byteswap()
    return samples


def _kernels(rate_in: int, rate_out: int, half: int) -> tuple[int, int, list[list[float]]]:
    """The filter of `resample`: for each of the `up` phases of an output sample between two
    input samples, 2*half taps of a Hann-windowed sinc cut off at 0.9 of the lower Nyquist."""
    gcd = math.gcd(rate_in, rate_out)
    up, down = rate_out // gcd, rate_in // gcd
    cutoff = 0.9 * min(rate_in, rate_out) / 2 / rate_in     # cycles per input sample
    kernels = []
    for phase in range(up):
        offset = phase * down % up / up                   # the output's place past a sample
        taps = []
        for k in range(-half + 1, half + 1):
            t = k - offset
            sinc = 2 * cutoff * (math.sin(2 * math.pi * cutoff * t) / (2 * math.pi * cutoff * t)
                                 if t else 1.0)
            taps.append(sinc * (0.5 + 0.5 * math.cos(math.pi * t / half)))
        kernels.append(taps)
    return up, down, kernels


def resample(samples: Sequence[int], rate_in: int, rate_out: int = RATE,
             half: int = 12) -> array.array[int]:
    """`samples` at `rate_in` as 16-bit samples at `rate_out`, low-passed first so that
    nothing above the new Nyquist folds down (a windowed sinc, 2*half taps)."""
    if rate_in == rate_out:
        return array.array("h", samples)
    up, down, kernels = _kernels(rate_in, rate_out, half)
    padded = [0] * half + list(samples) + [0] * half
    out = array.array("h")
    for n in range(len(samples) * up // down):
        base = n * down // up                             # the input sample at or before n
        taps = kernels[n % up]
        value = sum(map(operator.mul, taps, padded[base + 1:base + 1 + 2 * half]))
        out.append(max(-32768, min(32767, round(value))))
    return out


def normalised(samples: Sequence[int], peak: int = PEAK) -> array.array[int]:
    """`samples` scaled so that the loudest is `peak` (silence as it is). A listener adjusts to
    loudness, the recogniser does not: the box at volume 80 % (eSpeak's amplitude 51) was heard
    worse than the same sentence at 100 ("Both: press your buttons." heard "no"), so every
    sound is heard at one loudness and only the words make the difference."""
    loudest = max(map(abs, samples), default=0)
    if loudest == 0:
        return array.array("h", samples)
    gain = peak / loudest
    return array.array("h", (max(-32768, min(32767, round(s * gain))) for s in samples))


def trimmed(samples: Sequence[int], rate: int = RATE,
            margin_s: float = MARGIN_S) -> array.array[int]:
    """`samples` from MARGIN_S before the first frame that is no dead air (DEAD_AIR_DB under
    the loudest) to MARGIN_S after the last one; the pauses between words kept."""
    size = max(1, round(rate * FRAME_S))
    levels = frame_levels(samples, rate)
    loudest = max(levels, default=0.0)
    if loudest == 0:
        return array.array("h", samples)
    floor = loudest * 10 ** (-DEAD_AIR_DB / 20)
    heard = [index for index, level in enumerate(levels) if level >= floor]
    margin = round(margin_s * rate)
    start = max(0, heard[0] * size - margin)
    return array.array("h", samples[start:(heard[-1] + 1) * size + margin])


def write_raw(samples: array.array[int], path: Path) -> None:
    """Headerless 16-bit little-endian samples, as the recogniser's -adcin reads them."""
    copy = array.array("h", samples)
    if sys.byteorder == "big":
        copy.byteswap()
    path.write_bytes(copy.tobytes())


def frame_levels(samples: Sequence[int], rate: int) -> list[float]:
    """The RMS of each whole FRAME_S frame."""
    size = max(1, round(rate * FRAME_S))
    levels = []
    for start in range(0, len(samples) - size + 1, size):
        frame = samples[start:start + size]
        levels.append(math.sqrt(sum(s * s for s in frame) / size))
    return levels


def dead_air(samples: Sequence[int], rate: int, below_db: float = DEAD_AIR_DB) -> float:
    """The share of FRAME_S frames `below_db` under the loudest frame (all of it for silence)."""
    levels = frame_levels(samples, rate)
    loudest = max(levels, default=0.0)
    if loudest == 0:
        return 1.0
    floor = loudest * 10 ** (-below_db / 20)
    return sum(level < floor for level in levels) / len(levels)


# --- the battles ------------------------------------------------------------------------------

def companion() -> Path:
    """The venv's cobi-companion, beside the Python that runs this."""
    return Path(sys.executable).parent / "cobi-companion"


def play(script: Script, folder: Path, language: str = LANGUAGE) -> list[Said]:
    """`script` played by a real `cobi-companion sim` with voice "all" in `language`; what it
    said.
    RuntimeError if the process failed (a script the screens no longer follow)."""
    folder.mkdir(parents=True)
    config = folder / "config.toml"
    config.write_text(f'[game]\nlanguage = "{language}"\nvoice = "all"\n', encoding="utf-8")
    said = folder / "said"
    env = {**os.environ, "XDG_CONFIG_HOME": str(folder / "config"),
           "XDG_DATA_HOME": str(folder / "data"), "XDG_CACHE_HOME": str(folder / "cache")}
    run = subprocess.run([str(companion()), "sim", "--config", str(config), "--state-dir",
                          str(folder / "state"), "--speech-dir", str(said), "--keys", script.keys,
                          "--dice", script.dice], capture_output=True, text=True, env=env,
                         stdin=subprocess.DEVNULL)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["?"])[-1]
        raise RuntimeError(f"{script.name}: the sim ended with {run.returncode}: {last}")
    return [Said(script.name, int(text.stem), text.read_text(encoding="utf-8").strip(),
                 text.with_suffix(".wav"))
            for text in sorted(said.glob("*.txt")) if text.with_suffix(".wav").is_file()]


# --- the recogniser ---------------------------------------------------------------------------

def recogniser_missing(path: str | None = None) -> str | None:
    """Why the recogniser cannot run here (one line), or None."""
    if shutil.which(RECOGNISER, path=path) is None:
        return (f"clarity: {RECOGNISER} is not installed (Debian: sudo apt install pocketsphinx "
                f"pocketsphinx-en-us); nothing measured")
    if not (ACOUSTIC.is_dir() and CMUDICT.is_file()):
        return (f"clarity: the recogniser's US English model is not in {MODEL} (Debian: sudo "
                f"apt install pocketsphinx-en-us); nothing measured")
    return None


def recognise(sounds: dict[str, array.array[int]], sentences: list[list[str]],
              folder: Path) -> tuple[dict[str, list[str]], list[str]]:
    """What the recogniser heard in each of `sounds` (16 kHz samples by an id of letters,
    digits and dashes), in grammar mode over `sentences`; and the words not in its dictionary."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, samples in sounds.items():
        write_raw(trimmed(normalised(samples)), folder / f"{name}.raw")
    words = {word for sentence in sentences for word in sentence}
    known = read_dictionary(CMUDICT, words | set("abcdefghijklmnopqrstuvwxyz"))
    text, unknown = dictionary(words, known)
    (folder / "box.dict").write_text(text, encoding="utf-8")
    (folder / "box.jsgf").write_text(grammar(sentences), encoding="utf-8")
    (folder / "box.ctl").write_text("".join(f"{name}\n" for name in sounds), encoding="utf-8")
    hyp = folder / "box.hyp"
    run = subprocess.run([RECOGNISER, "-hmm", str(ACOUSTIC), "-dict", str(folder / "box.dict"),
                          "-jsgf", str(folder / "box.jsgf"), "-ctl", str(folder / "box.ctl"),
                          "-cepdir", str(folder), "-cepext", ".raw", "-adcin", "yes",
                          "-samprate", str(RATE), *BEAMS, *LISTEN, "-hyp", str(hyp),
                          "-logfn", str(folder / "recogniser.log")],
                         capture_output=True, text=True)
    if run.returncode != 0 or not hyp.is_file():
        raise RuntimeError(f"{RECOGNISER} failed ({run.returncode}): see "
                           f"{folder / 'recogniser.log'}")
    return read_hypotheses(hyp.read_text(encoding="utf-8")), unknown


def read_hypotheses(text: str) -> dict[str, list[str]]:
    """pocketsphinx's -hyp file: a line `words (id score)` each."""
    heard = {}
    for line in text.splitlines():
        found = re.fullmatch(r"(.*?)\s*\((\S+)\s+-?\d+\)\s*", line)
        if found:
            heard[found[2]] = found[1].split()
    return heard


# --- eSpeak in one piece ----------------------------------------------------------------------

def one_piece(texts: Iterable[str],
              language: str = LANGUAGE) -> dict[str, tuple[int, array.array[int]]]:
    """Each text rendered whole by the project's eSpeak, as the box's language says it."""
    from cobi_companion.device.ports.espeak import espeak_for

    engine = espeak_for()
    return {text: (engine.rate, samples_of(engine.render(text, language))) for text in texts}


def render_voice(texts: list[str], voice: str, rate: int, folder: Path) -> None:
    """Each of `texts` rendered whole with eSpeak NG's `voice` at `rate` words a minute, as
    folder/0001.wav...: eSpeak's library straight, in a process of its own (the library has
    one state a process; the box's engine keeps its own voice)."""
    from cobi_companion.device.ports.espeak import find_library

    library = find_library()
    lib = ctypes.CDLL(str(library.path))
    data = None if library.data is None else str(library.data).encode()
    sample_rate = int(lib.espeak_Initialize(2, 0, data, 0))    # 2: synchronous
    pcm = bytearray()

    def take(wave_: ctypes._Pointer[ctypes.c_short], count: int, events: int | None) -> int:
        if count > 0:
            pcm.extend(ctypes.string_at(wave_, count * 2))
        return 0

    callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int,
                                ctypes.c_void_p)(take)
    lib.espeak_SetSynthCallback(callback)
    if lib.espeak_SetVoiceByName(voice.encode()) != 0:
        raise RuntimeError(f"eSpeak NG has no voice {voice!r}")
    lib.espeak_SetParameter(1, rate, 0)                        # 1: espeakRATE
    folder.mkdir(parents=True, exist_ok=True)
    for number, text in enumerate(texts, 1):
        pcm.clear()
        encoded = text.encode()
        lib.espeak_Synth(encoded, len(encoded) + 1, 0, 0, 0, 1 | 0x1000, None, None)
        with wave.open(str(folder / f"{number:04d}.wav"), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(sample_rate)
            wav.writeframes(bytes(pcm))


# --- the report -------------------------------------------------------------------------------

def mark(ok: bool) -> str:
    return "PASS" if ok else "MISS"


@dataclass(frozen=True)
class Row:
    """One utterance's figures; `heard` and `heard_whole` None where nothing was scored."""

    said: Said
    heard: list[str] | None
    heard_whole: list[str] | None
    length: float               # seconds of the box's sound
    whole_length: float         # the same text's, in one piece
    air: float                  # seconds of dead air in it
    whole_air: float


def measure(saids: list[Said], work: Path, voices: bool, narrow: bool, language: str) -> None:
    """Score and print every utterance of `saids`, then the totals (and the voices). The
    grammar: the sentences said, and unless `narrow` every sentence of the voice too. In
    another language than English only the dead air (the recogniser hears US English)."""
    texts = sorted({said.text for said in saids})
    whole = one_piece(texts, language)
    box = {said: read_wav(said.wav) for said in saids}
    scored = language == LANGUAGE
    others = [] if narrow or not scored else [text for text in voice_sentences()
                                               if text not in texts]
    sentences = [words_of(text) for text in [*texts, *others]]
    heard: dict[str, list[str]] = {}
    if scored:
        sounds = {f"box-{index:03d}": resample(box[said][1], box[said][0])
                  for index, said in enumerate(saids)}
        sounds |= {f"one-{index:03d}": resample(whole[text][1], whole[text][0])
                   for index, text in enumerate(texts)}
        heard, unknown = recognise(sounds, sentences, work / "recogniser")
        print(f"{len(saids)} utterances of {len(SCRIPTS)} battles ({len(texts)} sentences); the "
              f"grammar: those{'' if narrow else ' and every sentence of the voice'}, "
              f"{len({' '.join(words) for words in sentences})} sentences; words not in the "
              f"dictionary (spelt out): {', '.join(unknown) or 'none'}\n")
    else:
        print(f"{len(saids)} utterances of {len(SCRIPTS)} battles in {language!r}: the dead air "
              f"only (the recogniser hears US English)\n")
    rows = []
    for index, said in enumerate(saids):
        (rate, samples), (whole_rate, whole_samples) = box[said], whole[said.text]
        length, whole_length = len(samples) / rate, len(whole_samples) / whole_rate
        rows.append(Row(said, heard.get(f"box-{index:03d}") if scored else None,
                        heard.get(f"one-{texts.index(said.text):03d}") if scored else None,
                        length, whole_length, dead_air(samples, rate) * length,
                        dead_air(whole_samples, whole_rate) * whole_length))
    table(rows)
    totals(rows)
    if voices and scored:
        compare_voices([*texts, *others], sentences, work)


def _wer(reference: list[str], heard: list[str] | None) -> str:
    return "–" if heard is None else f"{error_rate([(reference, heard)]):.0%}"


def table(rows: list[Row]) -> None:
    print(f"{'battle':<16}{'#':>3}  {'WER box':>7} {'1 piece':>7}  {'box s':>6} {'1 piece':>7} "
          f"{'ratio':>6}  {'dead air box':>12} {'1 piece':>7}  text / heard")
    for row in rows:
        reference = words_of(row.said.text)
        print(f"{row.said.battle:<16}{row.said.number:>3}  {_wer(reference, row.heard):>7} "
              f"{_wer(reference, row.heard_whole):>7}  {row.length:>6.2f} "
              f"{row.whole_length:>7.2f} {row.length / row.whole_length:>5.2f}×  "
              f"{row.air / row.length:>12.0%} {row.whole_air / row.whole_length:>7.0%}  "
              f"{row.said.text}")
        if row.heard is not None and row.heard != reference:
            print(f"{'':>81}heard: {' '.join(row.heard) or '(nothing)'}")


def ends_with_item(text: str) -> bool:
    """Whether an utterance is a menu item read aloud, or ends with one (a prompt, then the
    item under the cursor: "Axis: press your button to fire. Front"): a sentence ends with its
    mark, an item has none ("Fire", "Tiger one, Axis")."""
    return not text.rstrip().endswith((".", "!", "?"))


def totals(rows: list[Row]) -> None:
    if rows[0].heard is not None:
        pairs = [(words_of(row.said.text), row.heard or []) for row in rows]
        wer = error_rate(pairs)
        wer_whole = error_rate((words_of(row.said.text), row.heard_whole or []) for row in rows)
        print(f"\ntotals          word error rate: box {wer:.1%}, one piece {wer_whole:.1%}  "
              f"(target <= {TARGET_WER:.0%})  {mark(wer <= TARGET_WER)}")
        for title, items in (("outcomes and prompts", False), ("menu items read aloud", True)):
            part = [row for row in rows if ends_with_item(row.said.text) == items]
            print(f"                  {title}: box "
                  f"{error_rate((words_of(r.said.text), r.heard or []) for r in part):.1%}, "
                  f"one piece "
                  f"{error_rate((words_of(r.said.text), r.heard_whole or []) for r in part):.1%}"
                  f" ({len(part)} utterances)")
    else:
        print("\ntotals          word error rate: not scored")
    length, whole = sum(row.length for row in rows), sum(row.whole_length for row in rows)
    air, whole_air = sum(row.air for row in rows), sum(row.whole_air for row in rows)
    worst = max(row.length / row.whole_length for row in rows)
    print(f"                length: box {length:.2f} s, one piece {whole:.2f} s: "
          f"{length / whole:.2f}× (worst {worst:.2f}×; target <= {TARGET_LENGTH:.2f}×)  "
          f"{mark(length / whole <= TARGET_LENGTH)}")
    share, whole_share = air / length, whole_air / whole
    print(f"                dead air: box {air:.2f} s ({share:.0%}), one piece {whole_air:.2f} s "
          f"({whole_share:.0%}): {share / whole_share:.2f}× the share (target <= "
          f"{TARGET_LENGTH:.2f}×)  {mark(share / whole_share <= TARGET_LENGTH)}")


def compare_voices(texts: list[str], sentences: list[list[str]], work: Path) -> None:
    """The word error rate of the same sentences in one piece, for each of VOICES."""
    print(f"\nthe grammar's {len(texts)} sentences, each once, in one piece by voice and rate "
          f"(words a minute):")
    for voice, rate in VOICES:
        folder = work / f"voice-{voice}-{rate}"
        subprocess.run([sys.executable, __file__, "--render", voice, str(rate), str(folder)],
                       input="\n".join(texts), text=True, check=True)
        sounds = {}
        for number in range(1, len(texts) + 1):
            wav_rate, samples = read_wav(folder / f"{number:04d}.wav")
            sounds[f"{voice}-{rate}-{number:03d}"] = resample(samples, wav_rate)
        heard, _ = recognise(sounds, sentences, folder / "recogniser")
        wer = error_rate((sentences[n], heard.get(f"{voice}-{rate}-{n + 1:03d}", []))
                         for n in range(len(texts)))
        seconds = sum(len(samples) for samples in sounds.values()) / RATE
        print(f"  {voice:<6} {rate:>3}: word error rate {wer:6.1%}, {seconds:6.2f} s of sound  "
              f"{mark(wer <= TARGET_WER)}")


def codes() -> list[str]:
    from cobi_companion.words.languages import codes

    return list(codes())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="clarity", description=__doc__.split("\n")[0])
    parser.add_argument("--voices", action="store_true",
                        help="also the sentences in one piece with en-us at 175 to 140, en at 175")
    parser.add_argument("--keep", metavar="DIR", help="keep the sounds and the grammar here")
    parser.add_argument("--narrow", action="store_true",
                        help="a grammar of the battles' sentences only (not every sentence "
                             "of the voice)")
    parser.add_argument("--language", default=LANGUAGE, choices=codes(),
                        help="the box's language (not English: the dead air only)")
    parser.add_argument("--render", nargs=3, metavar=("VOICE", "RATE", "DIR"),
                        help=argparse.SUPPRESS)    # --voices' child: texts on standard input
    args = parser.parse_args(argv)
    if args.render:
        voice, rate, folder = args.render
        render_voice(sys.stdin.read().splitlines(), voice, int(rate), Path(folder))
        return 0
    problem = recogniser_missing() if args.language == LANGUAGE else None
    if problem:
        print(problem)
        return NOT_INSTALLED
    with tempfile.TemporaryDirectory(prefix="clarity-") as temporary:
        work = Path(args.keep) if args.keep else Path(temporary)
        try:
            saids = [said for n, script in enumerate(SCRIPTS)
                     for said in play(script, work / f"battle-{n}", args.language)]
            measure(saids, work, args.voices, args.narrow, args.language)
        except RuntimeError as exc:
            print(f"clarity: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
