"""Every sentence the box can show or say in one language, for a native speaker to read: `python3
run.py sentences pl` (= `python -m cobi_companion.device.core.sentences pl`) writes
docs/sentences-<code>.md, with the language's own notes for its reviewer (locale/<code>/
notes.md) if it has any. Each key of the catalogues, grouped (screens, log, refusals, notes,
voice), with its template (and each of its forms) filled with sample values that try every form:
a count of 1, 2, 5 and 22, each side (one side and many), each gender a voice template has a
form for. The voice's sentences are made by its own code (core/spoken.py), the others by the
panel's (core/i18n.py).

A test makes the committed file again in memory and compares (tests/device/core/
test_polish_grammar.py)."""
from __future__ import annotations

import string
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

from cobi_companion.cards import CardBook
from cobi_companion.device.core import i18n, spoken
from cobi_companion.device.ports.speech import Utterance
from cobi_companion.words import catalogue, languages
from cobi_companion.words.grammar import Listed, Number, SideName, side_is_many
from cobi_companion.words.sounds import respelled

ROOT = Path(__file__).resolve().parents[2]

# The groups of keys, by the start of their keys; the rest are the screens'.
GROUPS = (("Log", "log_"), ("Refusals", "refusal_"), ("Notes", "note_"),
          ("Voice", "say_"), ("Numbers said", "number_"))

# The counts a counted word is tried with: one, few, many, and a few again past 20.
COUNTS = (1, 2, 5, 22)

# The value names that name a side, and the sides each is tried with (one, many).
SIDE_NAMES = frozenset({"side", "winner", "attacker", "defender", "playing", "nation", "said"})
SIDES = ("axis", "allies")
COBRA = ("german", "allied")
# The templates of Cobra's sides (their names are the "cobra_" words).
COBRA_KEYS = frozenset({"log_cobra_phase", "log_attack", "log_overrun", "refusal_shifts_disagree",
                        "refusal_modifier_wrong_side"})

# Sample values of the names most templates use; any other is shown as ⟨name⟩.
PIECES = {"label": "Tiger 1", "firer": "Tiger 1", "target": "Sherman 2", "tank": "Sherman 1",
          "name": "Tiger 1", "spotter": "Sherman 1"}
NUMBERS = frozenset({"n", "most", "count", "down", "of", "left", "lost", "landed", "guns",
                     "steps", "vp", "total", "made", "first", "last", "turn", "round", "die",
                     "figures", "eliminated", "rolled", "used", "need", "have", "size",
                     "battles", "number", "recorded", "given", "us", "british", "german",
                     "allied", "extra", "low", "high", "levels", "increase", "printed",
                     "level", "units", "division", "cm", "ma", "difference", "columns", "gain",
                     "threshold", "spread", "net", "value", "modifier", "drm", "exited", "old",
                     "new", "next", "span", "limit", "counted", "hit", "kill", "faces",
                     "members", "cost"})


# The losses a Cobra combat result is said with (core/spoken_log.py `_loss`), each tried.
LOSSES = (spoken.outcome("say_loss_steps", steps=2), spoken.outcome("say_loss_none"),
          spoken.outcome("say_loss_all"), spoken.outcome("say_loss_steps", steps=1))
LOSS_KEYS = frozenset({"say_crt", "say_defender", "say_attrition"})
GENDERS = ("m", "f", "n")
# The voice's templates that are pieces of a sentence ("bez strat"), never said alone, and the
# menu's rows read aloud under the cursor ("say_item...": "Sound: on"), which are no sentences.
PIECES_OF_SENTENCES = ("say_loss_", "say_side_", "say_weather_", "say_dir_", "say_item")


@cache
def shipped_book() -> CardBook:
    """The shipped cards: the voice says a piece by its card's spoken name ("Tygrys jeden")."""
    from cobi_companion.cards.loader import load_cards

    return load_cards([])


def piece_of(gender: str, language: str) -> str:
    """A sample label of a piece whose card's spoken name in `language` is of `gender`, for a
    voice template's form of that gender; ⟨gender⟩ where no shipped card is."""
    for card in shipped_book().sorted():
        said = card.speech.gender_in(language) if card.speech else None
        if said is not None and said.value == gender:
            return f"{card.short} 2"
    return f"⟨{gender}⟩ 2"


def path_for(code: str) -> Path:
    return ROOT / "docs" / f"sentences-{code}.md"


def notes_for(code: str) -> list[str]:
    """A language's own notes for its reviewer, beside its catalogue (locale/<code>/notes.md:
    how the box speaks to a side, say), if it has any."""
    path = catalogue.LOCALE / code / "notes.md"
    return [*path.read_text(encoding="utf-8").splitlines(), ""] if path.exists() else []


class Sample(str):
    """A sample text for a template's value: the rules' own key ({x:key}, English's log) is the
    text itself."""

    def __format__(self, spec: str) -> str:
        return str(self) if spec in ("", "key") else format(str(self), spec)


def _fields(text: str) -> dict[str, str]:
    """The value names of a template and the spec each is written with (the last one)."""
    return {name: spec or "" for _, name, spec, _ in string.Formatter().parse(text)
            if name is not None}


def _sides(key: str, name: str) -> tuple[str, ...]:
    found: tuple[str, ...]
    if key.startswith("say_vp") or key in COBRA_KEYS:
        found = COBRA
    elif key.startswith("say_"):            # the voice says Cobra's Germans too
        found = (*SIDES, "german")
    else:
        found = SIDES
    # the defender is the other side first ("Oś atakuje. Alianci bronią się.")
    return (*found[1:], found[0]) if name == "defender" else found


def _tries(key: str, fields: Mapping[str, str]) -> Iterator[dict[str, object]]:
    """The values a template is filled with: each varied value tried in turn (every side,
    every count), the others at their first sample."""
    options = {name: _options(key, name, spec) for name, spec in fields.items()}
    first = {name: tried[0] for name, tried in options.items()}
    yield first
    for name, tried in options.items():
        for other in tried[1:]:
            yield _two_sides(first | {name: other})


# A side's opponent: an attacker is never its own defender in a sample.
OPPONENT = {"axis": "allies", "allies": "axis", "german": "allies", "allied": "german"}


def _two_sides(values: dict[str, object]) -> dict[str, object]:
    attacker = values.get("attacker")
    if isinstance(attacker, str) and values.get("defender") == attacker:
        return values | {"defender": OPPONENT.get(attacker, attacker)}
    return values


def _options(key: str, name: str, spec: str) -> list[object]:
    if key in LOSS_KEYS and name in ("attacker", "defender", "loss"):
        return list(LOSSES)
    if name in SIDE_NAMES:
        return list(_sides(key, name))
    if spec == "and":
        return [("Tiger 1", "Sherman 2")]
    if name == "weather":
        return ["clear"] if key.startswith("say_") else ["⟨weather⟩"]
    if name == "direction" and key.startswith("say_"):     # a scatter direction's word
        return ["northeast"]
    if "|" in spec or name in NUMBERS or spec.endswith("d"):
        return list(COUNTS)
    return [PIECES.get(name, f"⟨{name}⟩")]


def _panel_value(code: str, name: str, value: object) -> object:
    if isinstance(value, int):
        return Number(value, code)
    if isinstance(value, tuple):
        return Listed(value, code)
    if name in SIDE_NAMES and value in (*SIDES, *COBRA):
        prefix = "cobra_" if value in COBRA else ""
        return SideName(i18n.text(code, prefix + str(value)), side_is_many(str(value)),
                        str(value))
    return Sample(str(value))


def _voice_value(name: str, value: object, key: str) -> spoken.SpokenValue:
    if isinstance(value, spoken.Spoken):
        return value
    if name == "then":
        return spoken.outcome("say_wins", side="allies")
    if name == "result":
        return spoken.outcome("say_beach_held") if key == "say_beach" else spoken.outcome(
            "say_crt", attacker=spoken.outcome("say_loss_none"),
            defender=spoken.outcome("say_loss_steps", steps=2))
    if name in ("effect", "first"):
        return spoken.outcome("say_destroyed", target="Sherman 2")
    if isinstance(value, tuple):
        return str(value[0])
    return value if isinstance(value, int | str) else str(value)


def filled(code: str, key: str, form: str | None) -> list[str]:
    """The sentences of `key` (its `form`) in `code`, made as the box makes them."""
    text = catalogue.text(code, key, form)
    found: list[str] = []
    for values in _tries(key, _fields(text)):
        if form in GENDERS and spoken.GENDER_OF in values:      # a piece of the form's gender
            values = values | {spoken.GENDER_OF: piece_of(form, code)}
        try:
            if key.startswith(("say_", "number_")):
                said = {name: _voice_value(name, value, key) for name, value in values.items()}
                phrases = spoken.phrases(text, said, code, shipped_book())
                whole = not key.startswith(PIECES_OF_SENTENCES)
                found.append(Utterance(code, spoken.sentence_case(phrases) if whole
                                       else phrases).text)
            else:
                found.append(text.format(**{name: _panel_value(code, name, value)
                                            for name, value in values.items()}))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            found.append(f"(cannot be filled with samples: {error!r})")
    return list(dict.fromkeys(found))


def _group(key: str) -> str:
    return next((title for title, start in GROUPS if key.startswith(start)), "Screens")


def _forms(code: str, key: str) -> list[str | None]:
    said = catalogue.load(code).messages
    return [None, *sorted(other.split("|", 1)[1] for other in said
                          if other.startswith(f"{key}|"))]


def document(code: str) -> str:
    """The whole file for `code`."""
    language = languages.get(code)
    lines = [f"# Every sentence of the box in {language.name} ({code})", "",
             f"Made by `python3 run.py sentences {code}` from the catalogues (words/locale); do "
             "not edit it by hand. Each key: its English, its template, then the template filled "
             "with sample values (counts 1, 2, 5, 22; each side; each form). ⟨name⟩ is a value "
             "the box fills in.", ""]
    lines += ["How a template agrees (the same in every language's catalogue):", "",
              "- `{side:poddaje|poddają}`: the word for a side of one (Oś), then for a side of "
              "many (Alianci, Niemcy).",
              "- `{n:figurka|figurki|figurek}`: the number, then its word in the form the "
              "catalogue's plural rule picks; a `#` in a form is where the number goes: "
              "`{n:padła #|padły #|padło #}`.",
              "- In the voice (`say_...`) a number may ask for a form: `{guns:n}` (gender m, f, "
              "n), `{of:f-gen}` (a case, gen or acc, or both); the catalogue writes the numbers "
              "that differ as `number_1|f` (jedna), `number_1|f-gen` (jednej), `number_2|gen` "
              "(dwóch): a form falls back to its case, then its gender, then the number.",
              "- `say_destroyed|f`: a voice template's form for a piece of that gender (its "
              "card's `[speech]` gender), shown with a shipped piece of that gender.",
              "- `{side:the}`: a side in a form of its own where the catalogue writes one "
              "(`say_side_axis|the`: German \"Die Achse\" as a sentence's subject).",
              "- The voice says the pieces by their cards' spoken names. \"eSpeak reads\": the "
              "sentence as the speech engine is given it, with the words it says wrong "
              "respelled (words/locale/<code>/sounds.txt); the box shows and writes the real "
              "spelling.", ""]
    lines += notes_for(code)
    keys = [key for key in catalogue.every_key() if "|" not in key]
    for title in ("Screens", *(title for title, _ in GROUPS)):
        lines += [f"## {title}", ""]
        for key in (key for key in keys if _group(key) == title):
            lines += [f"### {key}", "", f"English: `{catalogue.text(languages.SOURCE, key)}`", ""]
            for form in _forms(code, key):
                shown = key if form is None else f"{key}|{form}"
                lines.append(f"- `{shown}`: `{catalogue.text(code, key, form)}`")
                for sentence in filled(code, key, form):
                    lines.append(f"  - {sentence}")
                    if respelled(sentence, code) != sentence:      # words/locale/<code>/sounds.txt
                        lines.append(f"    - eSpeak reads: {respelled(sentence, code)}")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2) or args[0] not in languages.codes():
        print(f"usage: python3 run.py sentences LANGUAGE [FILE] (a language of "
              f"{', '.join(languages.codes())}; the file docs/sentences-LANGUAGE.md)",
              file=sys.stderr)
        return 2
    path = Path(args[1]) if len(args) == 2 else path_for(args[0])
    path.write_text(document(args[0]), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
