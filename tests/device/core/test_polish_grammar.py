"""Polish grammar from its own rules (issue 33): a word that agrees with a side agrees with the
side's number (Oś is one, Alianci and Niemcy many), a number said agrees with the gender of what
it counts (jedna figurka, jedno działo), and a noun after a number takes the form the
catalogue's plural rule picks (1 figurka, 2 figurki, 5 figurek, 22 figurki). Each slip the
audits found is tried through the box's own code: the voice's utterance of a log line, the log's
line, a screen's text. And the list of every Polish sentence (docs/sentences-pl.md) is the
one the catalogues make now."""
from __future__ import annotations

import itertools
import re
import string
import subprocess
import sys

import pytest
from cobi_companion.device.core import i18n, sentences
from cobi_companion.device.core.battle_log import by_side, entry, said, won
from cobi_companion.device.core.reasons import say
from cobi_companion.device.core.spoken import number, of_log, prompt, utterance
from cobi_companion.words import catalogue, languages
from cobi_companion.words.grammar import Number, SideName
from waiting import HANG_S


def heard(line_or_said, language: str = "pl") -> str:
    what = of_log(line_or_said) if not hasattr(line_or_said, "kind") else line_or_said
    assert what is not None
    return utterance(what, language).text


def logged(line, language: str = "pl") -> str:
    return said(line, language, lambda key, **values: i18n.text(language, key, **values),
                lambda note: say(language, note))


# ---- the slips the audits found ----

def test_a_plural_side_giving_up_is_logged_in_the_plural():
    assert logged(entry("log_gives_up", side="allies")) == "Alianci się poddają"
    assert logged(entry("log_gives_up", side="axis")) == "Oś się poddaje"


def test_the_turn_of_a_plural_side_is_theirs_not_yours():
    assert heard(prompt("say_turn", side="allies")) == "Alianci: wasza kolej."
    assert heard(prompt("say_turn", side="german")) == "Niemcy: wasza kolej."
    assert heard(prompt("say_turn", side="axis")) == "Oś: twoja kolej."


def test_a_plural_sides_button_on_the_cobra_screen_is_theirs(table_at):
    from cobi_companion.device.core.app import App

    app: App = table_at([]).box.app
    app.settings.language = "pl"
    assert app.t("press_to_roll", side=app.side_word("german", "cobra_")) == \
        "Niemcy: wasz przycisk"
    assert app.t("press_to_roll", side=app.side_word("axis")) == "Oś: twój przycisk"


@pytest.mark.parametrize(("guns", "expected"), [
    (1, "Zniszczono jedno działo."), (2, "Zniszczono dwa działa."),
    (5, "Zniszczono pięć dział.")])
def test_guns_destroyed_are_counted_as_neuter_guns(guns, expected):
    line = by_side("axis", entry("log_fires_weapon_guns", firer="Rifle 1", weapon="rifle",
                                 targets=("Rifle 2",), down=1, of=3, guns=guns))
    assert heard(line).endswith(expected)


@pytest.mark.parametrize(("down", "of", "expected"), [
    (1, 1, "Trafiona jedna spośród jednej figurki."),
    (2, 5, "Trafione dwie spośród pięciu figurek."),
    (5, 5, "Trafionych pięć spośród pięciu figurek."),
    (1, 22, "Trafiona jedna spośród 22 figurek."),
    (0, 3, "Trafionych zero spośród trzech figurek.")])
def test_figures_down_are_counted_as_feminine_figures(down, of, expected):
    line = by_side("axis", entry("log_fires_weapon", firer="Rifle 1", weapon="rifle",
                                 targets=("Rifle 2",), down=down, of=of))
    assert heard(line) == f"Rifle jeden strzela. {expected}"


@pytest.mark.parametrize(("down", "expected"), [
    (1, "jedną figurkę."), (2, "dwie figurki."), (5, "pięć figurek.")])
def test_a_tank_runs_over_figures_counted_in_the_accusative(down, expected):
    line = by_side("allies", entry("log_runs_over", tank="Sherman 1", pieces=("Rifle 1",),
                                   rolled=3, eliminated=down))
    assert heard(line) == f"Sherman jeden rozjeżdża {expected}"


@pytest.mark.parametrize(("vp", "expected"), [
    (2, "Alianci zdobywają dwa punkty zwycięstwa."),
    (5, "Alianci zdobywają pięć punktów zwycięstwa."),
    (22, "Alianci zdobywają 22 punkty zwycięstwa."),
    (-1, "Alianci tracą jeden punkt zwycięstwa.")])
def test_victory_points_agree_with_the_side_and_their_count(vp, expected):
    assert heard(entry("log_vp", vp_source="allied_hq", vp=vp, track="allied_vp")) == expected


def test_the_winner_and_the_attacker_agree_in_the_log_and_the_voice():
    assert logged(won(by_side("allies", entry("log_passes")), "allies")) == \
        "Alianci: pas; Alianci wygrywają"
    assert logged(entry("log_attacks", attacker="allies", defender="axis")) == \
        "Alianci atakują, Oś broni się"
    assert heard(entry("log_attacks", attacker="axis", defender="allies")) == \
        "Oś atakuje. Alianci bronią się."
    assert heard(entry("log_initiative", round=1, side="allies")) == "Alianci zaczynają."


@pytest.mark.parametrize(("n", "expected"), [
    (1, "1 figurka"), (2, "2 figurki"), (5, "5 figurek"), (22, "22 figurki"), (12, "12 figurek")])
def test_a_screens_count_of_figures_takes_the_plural_rules_form(n, expected):
    assert i18n.text("pl", "figures_n", n=n) == expected


@pytest.mark.parametrize(("down", "of", "expected"), [
    (1, 2, "padła 1 z 2"), (2, 5, "padły 2 z 5"), (5, 5, "padło 5 z 5"),
    (22, 30, "padły 22 z 30")])
def test_the_verb_before_a_count_of_figures_down_agrees_with_it(down, of, expected):
    assert i18n.text("pl", "n_down", down=down, of=of) == expected
    line = by_side("axis", entry("log_fires_weapon", firer="Rifle 1", weapon="rifle",
                                 targets=("Rifle 2",), down=down, of=of))
    assert logged(line).endswith(f": {expected}")


# ---- the rules themselves ----

def test_a_counted_words_form_may_say_where_the_number_goes():
    from cobi_companion.words.grammar import Number

    assert format(Number(2, "pl"), "został #|zostały #|zostało #") == "zostały 2"
    assert format(Number(2, "pl"), "figurka|figurki|figurek") == "2 figurki"
    assert format(Number(2, "pl"), "f:figurka|figurki|figurek") == "2 figurki"   # the voice's
    assert heard(prompt("say_runs_over", tank="Sherman 1", down=1)) == \
        "Sherman jeden rozjeżdża jedną figurkę."


def test_a_number_in_a_gender_or_case_falls_back_to_the_forms_polish_writes():
    assert [number(1, "pl", form) for form in ("", "m", "f", "n", "f-gen", "m-gen", "f-acc")] \
        == ["jeden", "jeden", "jedna", "jedno", "jednej", "jednego", "jedną"]
    assert [number(2, "pl", form) for form in ("", "f", "f-gen", "f-acc")] == \
        ["dwa", "dwie", "dwóch", "dwie"]
    assert number(5, "pl", "f") == "pięć"
    assert number(1, "en", "f") == "one"          # English writes no forms


# The words that only a side of one says: with Alianci each is a slip.
SINGULAR_ONLY = ("poddaje", "strzela", "zaczyna", "wygrywa", "broni", "atakuje", "zdobywa",
                 "traci", "twoja", "twój", "twoje", "wciśnij ", "bronisz",
                 "kończy", "pasuje", "wystawia")
SIDE_VALUES = ("side", "winner", "attacker", "defender")


def _polish_side_templates() -> list[str]:
    messages = catalogue.load("pl").messages
    return sorted(key for key, text in messages.items()
                  if any(name in SIDE_VALUES for _, name, _, _ in string.Formatter().parse(text)))


def _plural_filled(key: str) -> str:
    """`key`'s Polish with every side Alianci and every other value a neutral sample."""
    base, _, form = key.partition("|")
    text = catalogue.text("pl", base, form or None)
    if base.startswith("say_"):
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        values = {name: "allies" if name in SIDE_VALUES else 2 for name in names}
        if base == "say_crt":
            return ""                               # its attacker and defender are losses
        return utterance(prompt(base, **values), "pl").text
    allies = SideName("Alianci", True, "allies")
    return string.Formatter().vformat(text, (), _Neutral(allies))


class _Neutral(dict):
    def __init__(self, side: SideName) -> None:
        super().__init__()
        self.side = side

    def __missing__(self, name: str) -> object:
        return self.side if name in SIDE_VALUES else _Counted("X")


class _Counted(sentences.Sample):
    """A neutral sample, or where its template counts it ({n:kość|kości|kości}) the number 2
    with its word."""

    def __format__(self, spec: str) -> str:
        return format(Number(2, "pl"), spec) if "|" in spec else super().__format__(spec)


def test_every_polish_template_with_a_side_agrees_with_a_plural_side():
    keys = _polish_side_templates()
    assert "say_turn" in keys and "gives_up" in keys and "log_won" in keys
    slips = {}
    for key in keys:
        text = _plural_filled(key)
        found = [word for word in SINGULAR_ONLY if re.search(
            rf"\bAlianci\b[^.;!?]*\b{word.strip()}\b", text)]
        if found:
            slips[key] = (text, found)
    assert slips == {}


# ---- the sentences for a native speaker ----

@pytest.mark.parametrize("code", [code for code in languages.codes() if code != languages.SOURCE])
def test_each_languages_sentences_file_is_the_one_the_catalogues_make_now(code):
    """Every translation's file for its native speaker (docs/sentences-<code>.md) is there and
    current: a language added comes with its own (docs/translating.md, step 7)."""
    path = sentences.path_for(code)
    assert path.exists(), f"{path.name} is missing: run `python3 run.py sentences {code}`"
    assert path.read_text(encoding="utf-8") == sentences.document(code), \
        f"{path.name} is stale: run `python3 run.py sentences {code}`"


def test_the_sentences_command_writes_the_file_as_a_real_process(tmp_path):
    out = tmp_path / "sentences.md"
    done = subprocess.run([sys.executable, "-m", "cobi_companion.device.core.sentences", "pl",
                           str(out)], capture_output=True, text=True, timeout=HANG_S)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"wrote {out}\n", "")
    assert out.read_text(encoding="utf-8") == sentences.document("pl")
    done = subprocess.run([sys.executable, "-m", "cobi_companion.device.core.sentences", "xx"],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("usage: python3 run.py")


def test_the_sentences_file_tries_every_form_and_fills_every_template():
    text = sentences.document("pl")
    assert "cannot be filled" not in text
    for sentence in ("Oś się poddaje", "Alianci się poddają", "Niemcy: wasza kolej.",
                     "1 figurka", "2 figurki", "5 figurek", "22 figurki",
                     "Panzer jedynka dwa zniszczona.", "Siedem T P dwa zniszczony.",
                     "Obrońca: wyeliminowany.",
                     "  - Bunt! Leclerc rusza na Paryż.\n    - eSpeak reads: Bunt! Leklerk"):
        assert sentence in text, sentence       # each gender by a piece of it; respellings
    assert "Sherman dwa zniszczona." not in text


def test_the_sentences_of_any_language_can_be_made():
    assert "## Voice" in sentences.document("en")
    assert "## Voice" in sentences.document("de")


# ---- through the box: a Polish Tank Game the Allies give up ----

@pytest.mark.parametrize(("gives_up", "asked", "won", "logged_first"), [
    ("Alianci się poddają", "Alianci się poddają?", "WYGRYWA: OŚ",
     "Alianci się poddają; Oś wygrywa"),
    ("Oś się poddaje", "Oś się poddaje?", "WYGRYWAJĄ: ALIANCI",
     "Oś się poddaje; Alianci wygrywają")])
def test_a_side_giving_up_is_asked_shown_and_logged_in_its_number(table_at, gives_up, asked,
                                                                   won, logged_first):
    from ..conftest import QUICK_HOLDS
    from ..test_box import TIGER_VS_SHERMAN
    from .test_battle_log import TANK_TURNS, in_language, read_log

    table = table_at(TANK_TURNS, config=in_language(QUICK_HOLDS, "pl"))
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.press("back")                          # the long press menu
    table.choose("Poddaj się")
    table.choose(gives_up)
    assert table.view.header.title == asked
    table.choose("tak")
    assert table.view.word == won
    assert read_log(table)[0] == logged_first


# ---- issue 34: the slips a listener still heard, and the rules that keep them out ----

def test_a_cobra_side_eliminated_is_said_eliminated_not_all_lost():
    line = entry("log_attack", nation="allied", odds=entry("log_carpet_odds"), die=4,
                 result="1/e")
    assert heard(line) == "Atak! Atakujący: traci jeden stopień. Obrońca: wyeliminowany."
    assert heard(line, "de") == \
        "Angriff! Angreifer: verliert eine Stufe. Verteidiger: vernichtet."


@pytest.mark.parametrize(("result", "said"), [("log_held", "Plaża utrzymana."),
                                               ("log_abandoned", "Plaża opuszczona.")])
def test_the_beach_is_named_once(result, said):
    line = entry("log_beach_check", landing="omaha", lost=2, landed=5, result=entry(result))
    assert heard(line) == f"{said} Straty: dwa stopnie z pięciu."
    one = entry("log_beach_check", landing="omaha", lost=1, landed=1, result=entry(result))
    assert heard(one) == f"{said} Straty: jeden stopień z jednego."


@pytest.mark.parametrize(("steps", "pl", "de"), [
    (1, "traci jeden stopień", "verliert eine Stufe"),
    (2, "traci dwa stopnie", "verliert zwei Stufen"),
    (5, "traci pięć stopni", "verliert fünf Stufen")])
def test_a_loss_of_steps_is_counted_with_its_noun(steps, pl, de):
    line = entry("log_attack", nation="allied", odds=entry("log_carpet_odds"), die=4,
                 result=f"-/{steps}")
    assert heard(line).endswith(f"Obrońca: {pl}.")
    assert heard(line, "de").endswith(f"Verteidiger: {de}.")


def test_a_german_side_as_a_sentences_subject_has_its_article():
    assert heard(entry("log_attacks", attacker="axis", defender="allies"), "de") == \
        "Die Achse greift an. Die Alliierten verteidigen sich."
    assert heard(entry("log_initiative", round=1, side="allies"), "de") == \
        "Die Alliierten fangen an."
    assert heard(entry("log_vp", vp_source="allied_hq", vp=2, track="german_vp"), "de") == \
        "Die Deutschen bekommen zwei Siegpunkte."
    assert heard(prompt("say_turn", side="axis"), "de") == "Achse: du bist dran."   # a call


def voice_sentences(code: str) -> list[tuple[str, str]]:
    """Every sentence of the voice's templates in `code` (each form, every sample), with its
    key: what docs/sentences-<code>.md lists under "Voice"."""
    return [(key, sentence) for key in catalogue.every_key()
            if key.startswith("say_") and "|" not in key
            for form in sentences._forms(code, key)
            for sentence in sentences.filled(code, key, form)]


PIECES_OF_SENTENCES = sentences.PIECES_OF_SENTENCES


@pytest.mark.parametrize("code", ["pl", "de", "en"])
def test_every_sentence_said_ends_as_a_sentence_and_names_no_word_twice(code):
    for key, sentence in voice_sentences(code):
        assert "(cannot be filled" not in sentence, (key, sentence)
        words = re.findall(r"\w+", sentence.lower())
        doubled = [a for a, b in itertools.pairwise(words) if a == b]
        assert not doubled, (key, sentence)
        if key.startswith(PIECES_OF_SENTENCES):
            continue
        assert sentence[-1] in ".!?", (key, sentence)
        for start in [*re.findall(r"[.!?] (\w)", sentence), sentence[0]]:
            assert not start.islower(), (key, sentence)


def test_a_sentence_starting_with_a_pieces_name_starts_with_a_capital():
    line = by_side("axis", entry("log_fires_at", firer="7TP 1", target="Tiger 2",
                                 facing="front", effect="miss"))
    from cobi_companion.cards.loader import load_cards

    assert utterance(of_log(line), "pl", load_cards([])).text == "Siedem T P jeden pudłuje."


@pytest.mark.parametrize("code", ["pl", "de"])
def test_the_sentences_file_lists_every_voice_template_and_each_of_its_forms(code):
    voice = sentences.path_for(code).read_text(encoding="utf-8").split("## Voice")[1]
    said = catalogue.load(code).messages
    keys = [key for key in catalogue.every_key() if key.startswith("say_")]
    forms = [key for key in said if key.startswith("say_") and "|" in key]
    assert keys and all(f"### {key}\n" in voice for key in keys if "|" not in key)
    assert all(f"- `{key}`: " in voice for key in forms), forms
