"""No dead ends at the table: a slip costs nothing and a child's roll is never spent on a screen.
The real box on mock pins, pressed as players would."""
from __future__ import annotations

from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll

from ..conftest import EASY

# New battle at the Easy level: a Tiger for the Axis, a Sherman for the Allies, start.
TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]


def test_a_piece_added_by_mistake_is_removed_from_the_roster(table_at):
    table = table_at([], config=EASY)
    table.press("ok", "cw", "allies", "allies")        # two Shermans: one too many
    assert table.view.items[1] == "Sherman · Allies 2"
    assert table.view.items[-1] == "Remove a piece"
    table.choose("Remove a piece")
    assert table.view.items == ("Sherman 1 · Allies", "Sherman 2 · Allies")
    table.choose("Sherman 2")
    assert isinstance(table.view, Menu) and table.view.items[1] == "Sherman · Allies 1"
    assert table.view.index == 1                      # back on the card it came from
    table.press("back", "cw", "ok")                   # a long press, yes: the start screen
    assert table.view.items[0] == "New battle"


def test_the_roster_shows_the_battles_labels_and_what_each_card_cannot_do(table_at):
    table = table_at([], config=EASY)
    table.press("ok")
    assert table.view.items == ("7TP", "Sherman", "Pz I · no gun", "Tiger",
                                "Pz IV · numbers missing", "Pz IV D · numbers missing",
                                "House rules: none",
                                "Rules: Easy")
    table.press("cw", "cw")
    assert table.view.hint == "Pz 1b"                 # the card's own name, below
    table.press("axis")
    table.press("ccw", "allies", "ok", "axis", "allies")
    assert table.box.app.state is not None
    assert [p.label for p in table.box.app.state.battle.pieces] == ["Pz I 1", "Sherman 1"]


def test_a_held_button_adds_the_piece_off_the_map(table_at):
    table = table_at([])                              # the Tank Game
    table.press("ok", "cw", "cw", "cw", "axis_long")
    piece = table.box.app.screen.battle.pieces[-1]
    assert piece.label == "Tiger 1" and piece.status.off_map
    assert len(table.box.app.screen.battle.pieces) == 1   # the hold added one, not two


def test_a_tie_says_so_and_the_next_press_rolls_again(table_at):
    table = table_at([3, 3, 5, 2], config=EASY)
    table.press(*TIGER_VS_SHERMAN, "axis")
    table.tap("allies")                               # 3 : 3
    assert isinstance(table.view, Roll) and table.view.caption == "TIE — roll again"
    table.tap("axis")                                 # on the tie's screen: the new roll
    assert table.view.needed == "5 : ?"
    table.press("allies")
    assert isinstance(table.view, Menu) and table.view.header.side == "axis"


def test_a_dice_button_on_a_result_rolls_the_next_roll_or_beeps(table_at):
    # The Tiger hits; on the steps, the Allies' button is the armour roll the steps lead to.
    table = table_at([5, 2, 5, 3, 6, 4], config=EASY)
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok", "ok")
    table.tap("axis")                                 # to hit and damage: the steps start
    table.tap("allies")                               # at once: the Sherman's armour
    *rolls, outcome = table.steps
    assert [v.total for v in rolls] == ["HIT", "= 19", "= 14"]
    assert isinstance(outcome, BigWord) and outcome.word == "DESTROYED"
    table.press("ok")                                 # skips to the outcome
    assert isinstance(table.view, BigWord) and table.view.word == "DESTROYED"
    cues = []
    table.box.app.sound.play = cues.append
    table.press("axis")                               # no roll is next: a beep, nothing more
    assert table.view.word == "DESTROYED" and cues == ["error"]
    table.press("ok")
    assert isinstance(table.view, BigWord) and "AXIS WIN" in table.view.word


def test_the_knob_goes_back_through_the_steps(table_at):
    table = table_at([5, 2, 5, 3, 6, 4], config=EASY)
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok", "ok", "axis", "allies")
    assert isinstance(table.view, BigWord)            # the steps played to the outcome
    table.press("ccw")
    assert isinstance(table.view, Roll) and table.view.caption == "Armour"
    table.press("ccw", "ccw")
    assert table.view.caption == "To hit"
    table.press("ok")                                 # one press: the outcome again
    assert isinstance(table.view, BigWord) and table.view.word == "DESTROYED"


def test_pass_asks_first_and_no_goes_back(table_at):
    table = table_at([5, 2], config=EASY)
    table.press(*TIGER_VS_SHERMAN, "axis", "allies")
    table.choose("Pass")
    assert table.view.header.title == "Pass this turn?" and table.view.index == 0
    table.press("ok")                                 # no
    assert table.view.items == ("Tiger 1", "Pass") and table.view.header.side == "axis"
    table.choose("Pass")
    table.choose("yes")
    assert table.view.header.side == "allies"


def test_a_refused_action_returns_to_its_choice_with_the_reason(table_at):
    # The Pz I's card gives it no gun: its Fire says why and goes back to its choice.
    table = table_at([5, 2], config=EASY)
    table.press("ok", "cw", "cw", "axis", "ccw", "allies", "ok", "axis", "allies")
    table.choose("Pz I 1")
    assert table.view.items == ("Move", "Fire") and table.view.dimmed == (1,)   # Fire: last,
    table.choose("Fire")                                          # dimmed; OK says why
    assert isinstance(table.view, Lines) and "no gun" in " ".join(table.view.lines)
    table.press("ok")
    assert table.view.header.title == "Pz I 1" and table.view.items == ("Move", "Fire")
    assert table.box.app.state.active.value == "axis"       # the turn is not lost
