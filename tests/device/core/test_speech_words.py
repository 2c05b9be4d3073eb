"""What the box says, heard through a recording voice on the real box: scripted battles (the
Easy level, the Tank Game) and a Cobra attack give the utterances in order, in English and in
Polish; the voice setting filters them; Polish agrees with a card's gender; and every phrase
said is one of the box's own words (`every_part`: a template's piece, a number, a card's
spoken name), never a raw label."""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import pytest
from cobi_companion.cards import CardBook
from cobi_companion.device.core import spoken
from cobi_companion.device.core.battle_log import by_side, entry, won
from cobi_companion.device.core.spoken import of_log, template_names, utterance
from cobi_companion.device.ports.speech import RecordingSpeech, Utterance
from cobi_companion.words import catalogue, languages

from ..conftest import EASY
from ..test_box import TIGER_VS_SHERMAN

SPEECH_WORDS = spoken.speech_keys()
# A battle numbers a card's pieces from 1 ("Tiger 1", "Tiger 2"); a roster holds no more.
MOST_OF_A_CARD = 9


def every_part(language: str, book: CardBook | None = None) -> set[str]:
    """Every phrase the box can say in `language`: each template's fixed pieces (every form
    its values can pick), the numbers (in every form a template asks), and the names of
    `book`'s cards as its pieces are labelled (a label and a number). The box renders whole
    sentences; the tests check with these that what it says is made of its own words."""
    found = {literal.strip() for text in _templates(language) for variant in _variants(text)
             for literal, _, _ in spoken._pieces(variant) if re.search(r"\w", literal)}
    forms = {"", *(form for text in _templates(language) for form in _numeral_forms(text))}
    found |= {spoken.number(n, language, form) for form in forms
              for n in range(spoken.MOST_SAID + 1)}
    names = {spoken.said_name(name, language, book) for name in _names(book)}
    return found | names | {spoken.capitalized(name) for name in names}


def _templates(language: str) -> Iterable[str]:
    """Every template the voice says in `language`, each form of each."""
    said = catalogue.load(language).messages
    yield from (spoken.template(key, language) for key in SPEECH_WORDS)
    yield from (text for key, text in said.items()
                if "|" in key and key.split("|")[0].startswith("say_"))


def _variants(text: str) -> list[str]:
    """`text` resolved in every way its values can pick its words."""
    fields = {name: len(spec.rpartition(":")[2].split("|"))
              for _, name, spec in spoken._pieces(text) if name is not None and "|" in spec}
    return [spoken._rewritten(text, dict(zip(fields, chosen, strict=True)).__getitem__)
            for chosen in itertools.product(*(range(count) for count in fields.values()))]


def _numeral_forms(text: str) -> set[str]:
    """The forms `text` asks its numbers in ({of:f-gen} "f-gen", {vp:m:punkt|...} "m")."""
    return {spec.rpartition(":")[0] if "|" in spec else spec
            for _, name, spec in spoken._pieces(text)
            if name is not None and name not in spoken.SIDES}


def _names(book: CardBook | None) -> Iterable[str]:
    if book is None:
        return ()
    return (f"{short} {n}" for card in book.sorted()
            for short in dict.fromkeys(card.short_in(language)
                                       for language in languages.codes())
            for n in range(1, MOST_OF_A_CARD + 1))


def heard(utterance: Utterance) -> str:
    """The utterance as one sentence, no space before a stop (Utterance.text)."""
    return utterance.text


def listening(table, language: str = "en", voice: str = "all") -> RecordingSpeech:
    app = table.box.app
    app.speech = RecordingSpeech()
    app.settings.language, app.settings.voice = language, voice
    return app.speech


def easy_battle(table_at, language: str, voice: str = "all") -> RecordingSpeech:
    """Easy: initiative Axis 5 v Allies 2; the Tiger destroys the Sherman (as test_box)."""
    table = table_at([5, 2, 4, 6, 6, 3, 4], config=EASY)
    said = listening(table, language, voice)
    table.press("ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok")
    table.press("axis", "allies")
    table.press("ok", "ok")
    table.press("axis")
    table.press("allies")
    table.press("ok")
    assert cached(said, language, table.box.app.book)
    return said


def cached(said: RecordingSpeech, language: str, book) -> bool:
    """Every phrase said is one of the box's own words (`every_part`) or a menu's (read from
    the panel): no raw label ("Pz IV D 1") reaches the voice. Punctuation alone (the ", "
    between a name and its side) is no phrase: the sentence joins it to the word before."""
    # a sentence's first letter is a capital ("Seven T P"), whatever its phrase's own case
    known = {part.lower() for part in every_part(language, book) | MENU_WORDS[language]}
    return all(part.lower() in known for u in said.said for part in u.parts
               if re.search(r"\w", part))


# The rows read aloud under the cursor (voice "all") that are the panel's own words, not the
# voice's templates: the roster's cards by their spoken names, the facings, the menus' rows
# and questions.
MENU_WORDS = {"en": {"Seven T P", "Panzer One", "Tiger", "Sherman", "Front", "Side", "Rear",
                     "Fire", "No", "All done", "Behind cover?", "Over 100 cm?"},
              "pl": {"Siedem T P", "Panzer jedynka", "Tygrys", "Sherman", "Przód", "Bok", "Tył",
                     "Ogień", "Nie", "Gotowe", "Za osłoną?", "Ponad 100 cm?"}}
# The roster's knob read aloud: three steps on, two back; a card's row again with each side's
# count once a dice button adds a piece.
ROSTER = {"en": ["Seven T P", "Sherman", "Panzer One", "Tiger", "Tiger, Axis: one", "Panzer One",
                 "Sherman", "Sherman, Allies: one"],
          "pl": ["Siedem T P", "Sherman", "Panzer jedynka", "Tygrys", "Tygrys, Oś: jeden",
                 "Panzer jedynka", "Sherman", "Sherman, Alianci: jeden"]}
# The items lit as the battle goes (the firer, the target, the facing after the prompt).
EASY_ITEMS = {"en": ("Tiger one, Axis", "Fire at Sherman one", " Front"),
              "pl": ("Tygrys jeden, Oś", "Ogień: Sherman jeden", " Przód")}


def with_items(language: str, said: list[str]) -> list[str]:
    """The Easy battle's outcomes and prompts with the items read aloud among them."""
    firer, target, facing = EASY_ITEMS[language]
    return [*ROSTER[language], *said[:2], firer, target, said[2] + facing, *said[3:]]


EASY_EN = ["Both: press your buttons.",
           "Axis go first.",
           "Axis: press your button to fire.",
           "Tiger one hits!",
           "Allies: press your button for armour.",
           "Sherman one is destroyed.",
           "Axis win!"]
EASY_PL = ["Gracze: wciśnijcie przyciski.",
           "Oś zaczyna.",
           "Oś: wciśnij przycisk, żeby strzelić.",
           "Tygrys jeden trafia!",
           "Alianci: wciśnijcie przycisk, żeby rzucić na pancerz.",
           "Sherman jeden zniszczony.",
           "Oś wygrywa!"]


@pytest.mark.parametrize(("language", "expected"), [("en", EASY_EN), ("pl", EASY_PL)])
def test_an_easy_battle_is_said_in_order(table_at, language, expected):
    assert [heard(u) for u in easy_battle(table_at, language).said] == \
        with_items(language, expected)


def test_outcomes_only_says_no_prompts_and_off_says_nothing(table_at):
    outcomes = easy_battle(table_at, "en", "outcomes")
    assert [heard(u) for u in outcomes.said] == ["Axis go first.", "Tiger one hits!",
                                                 "Sherman one is destroyed.", "Axis win!"]
    assert {u.kind for u in outcomes.said} == {"outcome"}
    assert easy_battle(table_at, "en", "off").said == []


TANK_EN = ["Both: press your buttons.",
           "Axis attack. Allies defend and go first.",
           "Allies: press your button to fire.",
           "Sherman one hits!",
           "Sherman one reloads.",
           "Tiger one is weakened."]
TANK_PL = ["Gracze: wciśnijcie przyciski.",
           "Oś atakuje. Alianci bronią się i zaczynają.",
           "Alianci: wciśnijcie przycisk, żeby strzelić.",
           "Sherman jeden trafia!",
           "Sherman jeden przeładowuje.",
           "Tygrys jeden osłabiony."]


# The Tank Game's items read aloud: the piece who goes (by name and side), its action, the
# target, the questions hull down and over 100 cm said with their answer (no), the armour
# turned front, side, rear; then the activation's last row (and, after whose turn it is, the
# Axis piece lit).
TANK_ITEMS = {"en": ("Sherman one, Allies", "Fire", "Fire at Tiger one", "Behind cover? No",
                     "Over 100 cm? No", "Front", "Side", "Rear", "All done",
                     "Axis: your turn. Tiger one, Axis"),
              "pl": ("Sherman jeden, Alianci", "Ogień", "Ogień: Tygrys jeden", "Za osłoną? Nie",
                     "Ponad 100 cm? Nie", "Przód", "Bok", "Tył", "Gotowe",
                     "Oś: twoja kolej. Tygrys jeden, Oś")}


@pytest.mark.parametrize(("language", "expected"), [("en", TANK_EN), ("pl", TANK_PL)])
def test_a_tank_game_shot_and_the_turn_are_said_in_order(table_at, language, expected):
    table = table_at([4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    said = listening(table, language)
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok", "ok", "cw", "cw", "allies")
    table.press("ok", "ok")                   # End activation: the Axis turn
    sherman, fire, tiger, hull, over, facing, side, rear, done, turn = TANK_ITEMS[language]
    assert [heard(u) for u in said.said] == [
        *ROSTER[language], *expected[:2], sherman, fire, tiger, hull, over,
        f"{expected[2]} {facing}", side, rear, *expected[3:], done, turn]
    assert cached(said, language, table.box.app.book)


def test_a_card_without_gender_says_the_neutral_polish_form():
    line = by_side("axis", entry("log_fires_at", firer="Tiger 1", target="Sherman 2",
                                 facing="front", effect="destroyed"))
    said = of_log(line)
    assert said is not None
    assert heard(utterance(said, "pl")) == "Tiger jeden trafia! Zniszczono: Sherman dwa."
    assert heard(utterance(said, "en")) == "Tiger one hits! Sherman two is destroyed."


def test_a_cobra_attack_result_is_said_in_words():
    line = entry("log_game_turn", turn=2, line=entry(
        "log_paid", line=entry("log_attack", nation="allied", odds=entry("log_carpet_odds"),
                               die=4, result="1/e"), cost=1, track="us"))
    said = of_log(line)
    assert said is not None
    assert heard(utterance(said, "en")) == "Attack! Attacker: loses one step. Defender: all lost."
    assert heard(utterance(said, "pl")) == \
        "Atak! Atakujący: traci jeden stopień. Obrońca: wyeliminowany."
    unread = of_log(entry("log_withdrawal", die=3, result=entry("read_crt")))
    assert unread is not None
    assert heard(utterance(unread, "en")) == "Withdrawal attack! Read the result on your table."


@pytest.mark.parametrize(("vp", "en", "pl"), [
    (1, "Allies gain one victory point.", "Alianci zdobywają jeden punkt zwycięstwa."),
    (3, "Allies gain three victory points.", "Alianci zdobywają trzy punkty zwycięstwa."),
    (-1, "Allies lose one victory point.", "Alianci tracą jeden punkt zwycięstwa."),
])
def test_victory_points_are_said_one_or_many(vp, en, pl):
    said = of_log(entry("log_vp", vp_source="allied_hq", vp=vp, track="allied_vp"))
    assert said is not None
    assert (heard(utterance(said, "en")), heard(utterance(said, "pl"))) == (en, pl)


def test_a_failed_reload_after_a_shot_is_said():
    # Tank Game: "The Tiger rolls a 2 to reload, he has NOT reloaded ... mark the Tiger as
    # unloaded."
    line = by_side("allies", entry("log_fires_at", firer="Sherman 1", target="Tiger 1",
                                   facing="front", effect="miss", reload="unloaded"))
    said = of_log(line)
    assert said is not None
    assert heard(utterance(said, "en")) == "Sherman one misses. Sherman one must reload."
    assert heard(utterance(said, "pl")) == "Sherman jeden pudłuje. Sherman jeden musi przeładować."


def test_an_exit_for_no_victory_points_is_not_said():
    # 16.2: a fifth US division exits for 0 VP; "lose zero victory points" would be wrong
    assert of_log(entry("log_vp", vp_source="us_exit", vp=0, track="allied_vp")) is None


def test_moves_and_settings_are_not_said():
    assert of_log(by_side("axis", entry("log_moves", label="Tiger 1"))) is None
    assert of_log(entry("log_house_rules", rules=())) is None


def test_both_languages_name_the_same_values_and_gendered_forms_too():
    for key in SPEECH_WORDS:
        names = template_names(key)
        assert names["en"] == names["pl"], key
    forms = [key for key in catalogue.load("pl").messages if key.startswith("say_") and "|" in key]
    assert forms                    # Polish adjectives by the piece's gender
    for key in forms:
        assert spoken.GENDER_OF in catalogue.text("pl", key), key
        assert spoken.GENDER_OF in template_names(key.split("|")[0])["pl"], key


def test_punctuation_alone_is_joined_to_the_word_before_it():
    """A template's piece that is punctuation alone (the ", " of "{item}, {side}", the "." after
    a value) is said as the sentence's punctuation, never a word of its own."""
    from cobi_companion.device.core.saying import item

    lit = item("say_item_piece", item="Tiger 1", side="axis")
    assert utterance(lit, "en").text == "Tiger one, Axis"
    for language in ("en", "pl", "de"):
        said = utterance(lit, language)
        assert "," in said.parts and not re.search(r"\s[,.!?:;]", said.text), said


def test_every_template_is_used_by_the_code():
    from pathlib import Path

    code = "".join(path.read_text(encoding="utf-8")
                   for path in Path(spoken.__file__).parents[1].rglob("*.py")
                   if path.name != "spoken.py")
    worded = {"say_side_", "say_weather_", "say_dir_"}
    unused = [key for key in SPEECH_WORDS
              if f'"{key}"' not in code and not any(key.startswith(w) for w in worded)]
    assert unused == []


def test_every_said_log_key_has_its_templates():
    from cobi_companion.device.core.spoken_log import EFFECTS, RESULTS

    assert set(EFFECTS.values()) | set(RESULTS.values()) <= set(SPEECH_WORDS)
    said = of_log(won(by_side("allies", entry("log_runs_over_guns", tank="Sherman 1",
                                               pieces=("Rifle 1",), rolled=3, eliminated=2,
                                               guns=1)), "allies"))
    assert said is not None
    assert heard(utterance(said, "en")) == \
        "Sherman one runs over: two down. Guns destroyed: one."


def test_polish_agrees_with_the_gender_a_card_gives(tmp_path):
    from cobi_companion.cards import load_cards

    (tmp_path / "pz.toml").write_text(
        'set_number = 9001\nname = "Katyusha"\nlabel = "Katyusha"\n'
        '[speech]\nen = "Katyusha"\npl = "Katiusza"\ngender = "f"\n', encoding="utf-8")
    book = load_cards([tmp_path])
    line = entry("log_fires_at", firer="Tiger 1", target="Katyusha 2", facing="front",
                 effect="destroyed")
    said = of_log(line)
    assert said is not None
    assert heard(utterance(said, "pl", book)) == "Tygrys jeden trafia! Katiusza dwa zniszczona."
    assert set(utterance(said, "pl", book).parts) <= every_part("pl", book)


def test_a_language_may_give_the_name_a_gender_of_its_own(tmp_path):
    """`gender` is every language's, `gender_pl` the Polish name's where it differs: the
    Polish voice agrees with its own (a French translator's gender_fr leaves Polish alone)."""
    from cobi_companion.cards import load_cards

    (tmp_path / "how.toml").write_text(
        'set_number = 9003\nname = "Howitzer"\nlabel = "Howitzer"\n'
        '[speech]\nen = "Howitzer"\npl = "Haubica"\ngender = "m"\ngender_pl = "f"\n',
        encoding="utf-8")
    book = load_cards([tmp_path])
    speech = book.cards["9003"].speech
    assert speech is not None
    assert (speech.gender_in("pl"), speech.gender_in("de")) == ("f", "m")
    line = entry("log_fires_at", firer="Tiger 1", target="Howitzer 1", facing="front",
                 effect="destroyed")
    said = of_log(line)
    assert said is not None
    assert heard(utterance(said, "pl", book)) == "Tygrys jeden trafia! Haubica jeden zniszczona."
    assert speech.to_plain() == {"en": "Howitzer", "pl": "Haubica", "gender": "m",
                                 "gender_pl": "f"}


def test_a_broken_speech_table_is_reported_and_the_card_still_loads(tmp_path):
    from cobi_companion.cards import check, load_cards

    path = tmp_path / "odd.toml"
    path.write_text('set_number = 9002\nname = "Odd tank"\nlabel = "Odd"\n'
                    '[speech]\npl = "Dziwny"\ngender = "x"\nloud = 1\n', encoding="utf-8")
    book = load_cards([tmp_path])
    assert book.cards["9002"].speech is None          # played without its speech
    problems = {(p.field, p.message) for p in book.problems if p.path == str(path)}
    assert ("speech.gender", "'x' is not allowed; allowed: the name's grammatical gender, "
            "which a language's words may agree with: m, f or n") in problems
    assert any(field == "speech.loud" and "allowed fields: en, pl, de, gender" in message
               for field, message in problems)
    cards, found = check(path)
    assert [card.key for card in cards] == ["9002"] and len(found) == 2


def test_the_volume_row_stays_within_100_percent():
    from cobi_companion.device.games.settings import next_volume

    assert [next_volume(v) for v in (20, 80, 100)] == [40, 100, 20]
    assert [next_volume(v) for v in (50, 70, 90)] == [70, 90, 100]    # a config's 50
    assert next_volume(0) == 20
