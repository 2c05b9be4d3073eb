"""Heard again: "Say it again" in the long-press menu, a wrong dice button that says whose
button it is, reminders after a quiet pause (Settings.remind_s, driven by the loop's ticks with
chosen times), and the menus read aloud under the cursor, on the real box with a recording
voice. What is said again is a prompt (kind "prompt"), never an outcome, so the voice never
cuts an outcome for it; an item under the cursor is kind "item"."""
from __future__ import annotations

import pytest
from cobi_companion.device.core.app import REMINDERS
from cobi_companion.device.ports.events import Tick
from cobi_companion.device.ports.speech import RecordingSpeech, Utterance

from ..conftest import EASY

FIRE = "Axis: press your button to fire. Front"
ARMOUR = "Allies: press your button for armour."


def listening(table, voice: str = "all", language: str = "en") -> RecordingSpeech:
    app = table.box.app
    app.speech = RecordingSpeech()
    app.settings.voice, app.settings.language = voice, language
    return app.speech


def to_the_shot(table_at, voice: str = "all", language: str = "en"):
    """An Easy battle at Tiger 1's shot at Sherman 1, waiting for the Axis button."""
    table = table_at([5, 2, 5, 3, 1], config=EASY)
    said = listening(table, voice, language)
    table.press("ok", "cw", "allies", "allies", "cw", "cw", "axis", "axis", "ok")
    table.press("axis", "allies", "ok", "ok")
    return table, said


def ticks(table, *times: float) -> None:
    """The loop's ticks at chosen times, each handled, drawn and its speech handed over."""
    for now in times:
        table.box.loop.handle_all([Tick(now)])


def test_a_wrong_dice_button_is_refused_and_whose_button_it_is_is_said_again(table_at):
    table, said = to_the_shot(table_at)
    assert said.texts[-1] == FIRE
    before = len(said.said)
    table.press("allies")                              # not the firer's button
    assert said.texts[before:] == [FIRE]               # as when it came up: the facing lit
    assert said.said[-1].kind == "prompt"
    table.press("axis")                                # the Axis fire; the Allies' armour next
    assert said.texts[-1] == ARMOUR
    table.press("axis")                                # waiting for the Allies' button
    assert said.texts[-1] == ARMOUR and said.said[-1].kind == "prompt"
    assert table.box.app.screen.prompt(table.box.app) is not None


def test_with_outcomes_only_a_wrong_button_only_buzzes(table_at):
    table, said = to_the_shot(table_at, voice="outcomes")
    before = len(said.said)
    table.press("allies")
    assert said.said[before:] == []


def test_say_it_again_repeats_the_last_thing_said_and_goes_back(table_at):
    table, said = to_the_shot(table_at)
    table.press("axis", "allies")                      # the outcome: destroyed
    outcome = said.said[-1]
    assert outcome.kind == "outcome" and "destroyed" in outcome.text
    shown = table.box.app.screen
    table.press("back")                                # the menu: its first row read
    assert table.view.items[:2] == ("Back to battle", "Say it again")
    assert said.texts[-1] == "Back to battle" and said.said[-1].kind == "item"
    table.press("cw")
    assert said.texts[-1] == "Say it again"
    table.press("ok")
    assert said.said[-1] == outcome                    # the outcome again, not the menu's words
    assert table.box.app.screen is shown               # back where the players were
    assert table.box.app.last_said == outcome


def test_say_it_again_before_anything_was_said_says_the_prompt(table_at):
    table, said = to_the_shot(table_at)
    app = table.box.app
    app.last_said = None                               # as on a box just switched on
    table.press("back", "cw", "ok")
    assert said.texts[-1] == FIRE


@pytest.mark.parametrize("pause", [20, 60])
def test_a_prompt_is_said_again_after_each_quiet_pause_a_few_times(table_at, pause):
    table, said = to_the_shot(table_at)
    table.box.app.settings.remind_s = pause
    before = len(said.said)
    ticks(table, 1000.0)                               # the pause starts at the first tick
    ticks(table, 1000.0 + pause - 1)
    assert said.said[before:] == []
    ticks(table, 1000.0 + pause)
    assert said.texts[before:] == [FIRE]
    assert said.said[-1].kind == "prompt"
    ticks(table, *(1000.0 + pause * n for n in range(2, REMINDERS + 4)))
    assert len(said.said) - before == REMINDERS        # then the box is quiet


def test_a_press_starts_the_pause_again(table_at):
    table, said = to_the_shot(table_at)
    ticks(table, 1000.0, 1015.0)
    table.press("cw")                                  # the armour turned: "Side"
    assert said.texts[-1] == "Side" and said.said[-1].kind == "item"
    before = len(said.said)
    ticks(table, 1021.0)                               # 21 s after the first tick, not after
    ticks(table, 1040.0)                               # the press (its first tick: 1021)
    assert said.said[before:] == []
    ticks(table, 1041.0)
    assert said.texts[before:] == ["Axis: press your button to fire. Side"]


@pytest.mark.parametrize(("remind", "voice"), [(0, "all"), (20, "outcomes"), (20, "off")])
def test_no_reminder_when_off_or_with_the_prompts_not_said(table_at, remind, voice):
    table, said = to_the_shot(table_at, voice=voice)
    table.box.app.settings.remind_s = remind
    before = len(said.said)
    ticks(table, 1000.0, 1020.0, 1060.0, 1200.0)
    assert said.said[before:] == []


def test_the_knob_reads_each_item_and_outcomes_only_reads_none(table_at):
    table, said = to_the_shot(table_at)
    table.press("back")                                # back to the vehicle's menu
    assert said.texts[-1] == "Fire at Sherman one"
    table.press("cw")
    assert said.texts[-1] == "Fire at Sherman two"
    table.press("cw")
    assert said.texts[-1] == "Move"
    table.press("back")
    assert said.texts[-1] == "Tiger one, Axis"
    table.press("cw", "cw")
    assert said.texts[-2:] == ["Tiger two, Axis", "Pass"]
    assert {u.kind for u in said.said[-4:]} == {"item"}
    quiet, heard = to_the_shot(table_at, voice="outcomes")
    quiet.press("back", "cw", "cw", "back", "cw")
    assert heard.said == []


def test_polish_items_by_their_spoken_names(table_at):
    table, said = to_the_shot(table_at, language="pl")
    assert said.texts[-1] == "Oś: wciśnij przycisk, żeby strzelić. Przód"
    table.press("back")
    assert said.texts[-1] == "Ogień: Sherman jeden"
    table.press("back")
    assert said.texts[-1] == "Tygrys jeden, Oś"


def test_the_settings_read_their_switches_in_words(table_at):
    table = table_at([], config=EASY)
    said = listening(table, language="pl")
    table.press("cw", "cw")                            # Settings
    table.press("ok")
    table.press("cw", "cw", "cw", "cw", "cw")          # Sound (after the dice rows)
    assert said.texts[-1] == "Dźwięk: włączone"        # the panel's "wł." in words
    table.press("cw", "cw", "cw", "cw")                # Remind (after Volume and Speed)
    assert said.texts[-1] == "Przypominaj: co dwadzieścia sekund"
    table.press("ok")
    assert table.box.app.settings.remind_s == 60
    assert said.texts[-1] == "Przypominaj: co minutę"     # in words, as twenty is
    table.press("ok")
    assert table.box.app.settings.remind_s == 0
    assert said.texts[-1] == "Przypominaj: wyłączone"


def test_an_item_joined_after_a_prompt_is_a_prompt_and_after_an_outcome_an_outcome():
    item = Utterance("en", ("Tiger one, Axis",), "item")
    assert Utterance("en", ("Axis: press.",), "prompt").then(item).kind == "prompt"
    assert Utterance("en", ("Miss.",), "outcome").then(item).kind == "outcome"
    assert item.then(item).kind == "item"


def test_a_saved_remind_setting_is_one_of_the_allowed_pauses():
    from cobi_companion.device.box import setting_problem

    assert setting_problem("remind_s", 60) is None and setting_problem("remind_s", 0) is None
    assert setting_problem("remind_s", 30) == "'30' is not one of 0, 20, 60"
    assert setting_problem("remind_s", "20") == "str, not int"


def to_the_sides_menu(table_at, voice: str = "all"):
    """An Easy battle just after the initiative: the Axis' menu of vehicles, Tiger 1 lit."""
    table = table_at([5, 2, 5, 3, 1], config=EASY)
    said = listening(table, voice)
    table.press("ok", "cw", "allies", "allies", "cw", "cw", "axis", "axis", "ok")
    table.press("axis", "allies")
    return table, said


TURN = "Axis: your turn. Tiger one, Axis"


def test_on_a_sides_menu_a_reminder_says_whose_turn_and_the_lit_piece(table_at):
    table, said = to_the_sides_menu(table_at)
    table.box.app.settings.remind_s = 20
    # the outcome, then the item on its own (the knob cuts it, never the outcome)
    assert [(each.text, each.kind) for each in said.said[-2:]] == [
        ("Axis go first.", "outcome"), ("Tiger one, Axis", "item")]
    before = len(said.said)
    ticks(table, 1000.0, 1019.0)
    assert said.said[before:] == []
    ticks(table, 1020.0, 1040.0, 1060.0, 1080.0)
    assert said.texts[before:] == [TURN] * REMINDERS
    assert {each.kind for each in said.said[before:]} == {"prompt"}


def test_a_wrong_dice_button_on_a_sides_menu_says_whose_turn_it_is(table_at):
    table, said = to_the_sides_menu(table_at)
    table.press("allies")                              # no last shot to fire again: refused
    assert said.texts[-1] == TURN and said.said[-1].kind == "prompt"
    table.press("ok")                                  # Tiger 1's actions
    table.press("axis")
    assert said.texts[-1] == "Axis: your turn. Fire at Sherman one"


def test_a_question_is_said_with_its_answer_and_the_knob_says_the_answer(table_at):
    table, said = to_the_sides_menu(table_at)
    table.press("cw", "cw", "ok")                      # Pass: asked first
    assert table.view.header.title == "Pass this turn?"
    assert said.texts[-1] == "Pass this turn? No" and said.said[-1].kind == "item"
    table.press("cw")
    assert said.texts[-1] == "Yes"
    table.box.app.settings.remind_s = 20
    ticks(table, 1000.0, 1020.0)                       # a reminder: the question again
    assert said.texts[-1] == "Pass this turn? Yes" and said.said[-1].kind == "prompt"


def test_say_it_again_after_the_language_was_switched_says_it_in_the_new_one(table_at):
    table, said = to_the_shot(table_at)
    table.press("axis", "allies")                      # the outcome: destroyed
    english = said.said[-1]
    table.box.app.settings.language = "pl"             # as the settings' Language row does
    table.press("back", "cw", "ok")
    again = said.said[-1]
    assert (again.language, again.kind) == ("pl", english.kind)
    assert "zniszczon" in again.text and again.text != english.text
    table.box.app.settings.language = "en"
    table.press("back", "cw", "ok")                    # and back: the English words again
    assert said.said[-1] == english


def test_with_the_voice_off_say_it_again_stays_in_its_place_dimmed_and_says_why(table_at):
    table, said = to_the_sides_menu(table_at, voice="off")
    table.press("back")
    assert table.view.items[:2] == ("Back to battle", "Say it again")
    assert table.view.dimmed == (1,)
    table.press("cw")
    assert table.view.hint == "not now · OK = why"
    table.press("ok")
    assert "The voice is off." in " ".join(table.view.lines)
    table.press("ok")                                  # back to the menu, on its row
    assert table.view.items[1] == "Say it again" and table.view.index == 1
    assert said.said == []


def test_a_roll_off_pressed_again_by_the_side_that_rolled_names_the_other_side(table_at):
    table = table_at([5, 2, 5, 3, 1], config=EASY)
    said = listening(table)
    table.press("ok", "cw", "allies", "cw", "cw", "axis", "ok")
    assert said.texts[-1] == "Both: press your buttons."
    table.press("axis")
    table.press("axis")                                # rolled already: whose button is left
    assert said.texts[-1] == "Allies: press your button."


def test_the_roster_reads_each_sides_count_after_a_button_adds_a_piece(table_at):
    table = table_at([], config=EASY)
    said = listening(table)
    table.press("ok", "cw")
    assert said.texts[-1] == "Sherman"
    table.press("allies")
    assert said.texts[-1] == "Sherman, Allies: one"
    table.press("axis", "allies")
    assert said.texts[-1] == "Sherman, Axis: one, Allies: two"
    table.press("ccw", "ccw", "ccw")                   # Rules (before Remove), OK changes it
    rules = said.texts[-1]
    assert rules.startswith("Rules")
    table.press("ok")
    assert said.texts[-1].startswith("Rules") and said.texts[-1] != rules


@pytest.mark.parametrize(("language", "label", "heard"), [
    ("en", "Paratroops 1/9", "Paratroops: one of nine"),
    ("pl", "Spadochroniarze 1/9", "Spadochroniarze: jeden z dziewięciu"),
    ("de", "Fallschirmjäger 2/9", "Fallschirmjäger: zwei von neun")])
def test_a_count_on_the_panel_is_said_in_words(language, label, heard):
    from cobi_companion.device.core.saying import said_item
    from cobi_companion.device.core.spoken import utterance

    assert utterance(said_item(label), language).text == heard
