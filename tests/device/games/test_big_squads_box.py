"""Big squads on the box (issue 35, point 1): a squad of 8 is asked how many of its figures go
(the most that fit first), 5 of them fire once each, and the other 3 go in the extra
activation or a later turn. Before, a squad of more than 5 could never be activated. Real app,
store and screens with scripted dice."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.device.config import Config
from cobi_companion.device.core.views import BigWord, Lines, Menu

from ..conftest import QUICK_HOLDS
from .test_tank_game_box import AXIS_FIRST, logged, new_battle, pieces, saved

# Rifle 1 fires at Pistol 1 at the range the dial opens on (45 cm, the rifle's +2): each
# shot is the firer's die then the target's.
FIVE_SHOTS = [4, 3, 1, 6, 1, 6, 1, 6, 1, 6]


def big_squad(table, language: str = "en") -> None:
    """The Axis: Rifle 1 (8 figures) and a Tiger; the Allies: 5 pistol soldiers."""
    if language != "en":
        table.box.app.settings.language = language
    new_battle(table, ("Rifleman", "axis", 8), ("Tiger I", "axis"),
               ("Soldier with pistol", "allies", 5))


def test_five_of_a_squad_of_eight_fire_and_the_other_three_go_later(table_at):
    table = table_at([*AXIS_FIRST, *FIVE_SHOTS])
    big_squad(table)
    assert table.view.items == ("Rifle 1 (8)", "Tiger 1", "Pass")
    table.press("ok")                         # Rifle 1: more figures than fit
    view = table.view
    assert isinstance(view, BigWord) and (view.header.title, view.word, view.detail) == (
        "Rifle 1 (8)", "5", "how many go? · OK")
    table.press("cw")
    assert table.view.word == "5"             # no more than fit
    table.press("ok")                         # 5: the Tiger could still join beside 4
    assert table.view.items[table.view.index] == "Go!"
    table.press("ok")                         # Go!: the 5 alone
    assert table.view.header.title == "Rifle 1 (5/8)"
    assert logged(table)[-1] == "axis activates: Rifle 1 (5/8)"
    assert saved(table)["turn"]["activations"][0]["pieces"] == [
        {"piece": "Rifle 1", "count": 5, "model": False, "of": 8}]
    table.choose("Fire")
    assert table.view.header.title == "Shot 1 of 5"          # once a figure that went
    table.press("ok", "ok", "ok", "axis", "allies", "ok")
    for shot in (2, 3, 4, 5):
        assert table.view.header.title == f"Shot {shot} of 5"
        table.press("axis", "allies", "ok")
    assert isinstance(table.view, Menu) and table.view.hint == "fired"
    assert pieces(table)["Pistol 1"] == (4, [])
    assert len([line for line in logged(table) if "Rifle 1 fires" in line]) == 5
    table.choose("All done")                  # it fired: no extra activation
    assert table.view.header.side == "allies"
    table.choose("Pass")
    table.choose("yes")                       # the Allies pass
    # the next Axis turn: the whole squad may go again; the Tiger first, then 3 figures
    assert table.view.header.side == "axis" and table.view.items[:2] == ("Rifle 1 (8)",
                                                                          "Tiger 1")
    table.choose("Tiger 1")
    table.choose("Rifle 1")
    assert (table.view.word, table.view.header.title) == ("4", "Rifle 1 (8)")  # 4 + the tank
    table.press("ccw", "ok")
    assert logged(table)[-1] == "axis activates: Tiger 1, Rifle 1 (3/8)"
    assert table.view.items[:2] == ("Tiger 1", "Rifle 1 (3/8)")


def test_the_rest_of_the_squad_goes_in_the_extra_activation_and_hides(table_at):
    table = table_at(AXIS_FIRST)
    big_squad(table)
    table.press("ok", "ok", "ok")             # Rifle 1: 5 of its 8 go; Go! (lit)
    table.choose("Hide")
    table.press("ok", "ok")                   # cover here: yes; enemy figure ≤ 30 cm: no
    view = table.view
    assert (view.word, view.detail) == ("5 HIDE", "3 to go")
    table.press("ok")
    assert pieces(table)["Rifle 1"] == (8, [])               # 3 still stand
    table.choose("All done")
    table.press("ok")                         # One more go: yes
    assert table.view.items[:2] == ("Rifle 1 (3/8)", "Tiger 1")
    table.choose("Rifle 1")                   # the 3 left fit: no question
    assert table.view.hint == "3 of 5 picked"
    table.choose("Go!")
    assert logged(table)[-1] == "axis extra activation: Rifle 1 (3/8)"
    table.choose("Hide")
    table.press("ok", "ok")
    assert (table.view.word, table.view.detail) == ("HIDDEN", "")
    table.press("ok")
    assert pieces(table)["Rifle 1"] == (8, ["hidden"])       # all 8 lie down now


def test_the_question_in_polish(table_at):
    table = table_at(AXIS_FIRST)
    big_squad(table, "pl")
    table.press("ok")
    view = table.view
    assert isinstance(view, BigWord) and (view.word, view.detail) == ("5", "ilu idzie? · OK")
    table.press("ok")
    assert isinstance(table.view, Lines | Menu)


def test_a_big_squad_gets_on_in_two_goes(table_at):
    table = table_at(AXIS_FIRST)
    big_squad(table)
    table.press("ok", "ok", "ok")             # Rifle 1: 5 of its 8 go; Go! (lit)
    table.choose("Get on")
    table.choose("Tiger 1")
    assert saved(table)["pieces"][0].get("riding") is None   # 3 still walk
    table.choose("All done")
    table.press("ok")                         # One more go: yes
    table.choose("Rifle 1")
    table.choose("Go!")
    table.choose("Get on")
    table.choose("Tiger 1")
    assert saved(table)["pieces"][0]["riding"]["vehicle"] == "Tiger 1"


# ---- the reviewer's findings: counts shown by the house rule, the pick order, part hidden ----


def same_pieces() -> Config:
    """The box of these tests, its battles with the house rule extra_activation = same_pieces:
    a piece of the turn's first activation may go again, whole, in the extra one."""
    return replace(QUICK_HOLDS, house_rules={"extra_activation": "same_pieces"})


def test_the_pick_shows_a_squad_that_may_go_again_whole(table_at):
    # Before, the pick asked the rule without the house rule: "Rifle 1 (0/4)" for a squad of
    # 4 that may go again whole, "Rifle 1 (3/8)" above a dial offering 5.
    table = table_at(AXIS_FIRST, config=same_pieces())
    new_battle(table, ("Rifleman", "axis", 4), ("Rifleman", "axis", 8),
               ("Soldier with pistol", "allies", 5))
    table.choose("Rifle 1 (4)")               # Rifle 2 could join with one figure
    table.choose("Rifle 2 (8)")
    table.press("ok")                         # 1 of its 8 goes: the activation starts
    assert logged(table)[-1] == "axis activates: Rifle 1 (4), Rifle 2 (1/8)"
    table.choose("All done")
    table.press("ok")                         # One more go: yes
    assert table.view.items[:2] == ("Rifle 1 (4)", "Rifle 2 (8)")
    table.choose("Rifle 1 (4)")
    table.choose("Rifle 2 (8)")               # one fits beside the 4: how many go?
    assert (table.view.header.title, table.view.word) == ("Rifle 2 (8)", "1")


def five_rifles_and_a_tiger(table) -> None:
    new_battle(table, ("Rifleman", "axis", 5), ("Tiger I", "axis"),
               ("Soldier with pistol", "allies", 5))


def test_four_of_a_squad_of_five_and_the_tank_the_squad_first(table_at):
    # "the Axis player may activate the five figures or four of the figures and the tank".
    # Before, the squad of 5 picked first filled the activation and started it by itself.
    table = table_at(AXIS_FIRST)
    five_rifles_and_a_tiger(table)
    table.choose("Rifle 1 (5)")               # 5 of 5: the Tiger could still join
    view = table.view
    assert isinstance(view, Menu) and view.hint == "5 of 5 picked"
    assert view.items[view.index] == "Go!"    # lit: one OK starts it as it is
    table.choose("Tiger 1")                   # it fits if the squad sends 4: how many go?
    view = table.view
    assert isinstance(view, BigWord) and (view.header.title, view.word) == ("Rifle 1 (5)", "4")
    table.press("cw")
    assert table.view.word == "4"             # no more than fit beside the tank
    table.press("ok")                         # nothing more fits: the activation starts
    assert logged(table)[-1] == "axis activates: Rifle 1 (4/5), Tiger 1"


def test_four_of_a_squad_of_five_and_the_tank_the_tank_first(table_at):
    table = table_at(AXIS_FIRST)
    five_rifles_and_a_tiger(table)
    table.choose("Tiger 1")
    table.choose("Rifle 1 (5)")
    assert (table.view.header.title, table.view.word) == ("Rifle 1 (5)", "4")
    table.press("ok")
    assert logged(table)[-1] == "axis activates: Tiger 1, Rifle 1 (4/5)"


def test_the_squad_of_five_alone_with_the_tiger_about(table_at):
    table = table_at(AXIS_FIRST)
    five_rifles_and_a_tiger(table)
    table.press("ok", "ok")                   # Rifle 1 (5); Go! (lit)
    assert logged(table)[-1] == "axis activates: Rifle 1 (5)"


def test_a_squad_of_five_with_no_model_to_join_still_starts_by_itself(table_at):
    table = table_at(AXIS_FIRST)
    new_battle(table, ("Rifleman", "axis", 5), ("Soldier with pistol", "allies", 5))
    table.press("ok")
    assert logged(table)[-1] == "axis activates: Rifle 1 (5)"


@pytest.mark.parametrize(("language", "part", "rest"), [
    ("en", "5 HIDE", "3 to go"), ("pl", "5 UKRYTYCH", "jeszcze 3"),
    ("de", "5 VERSTECKT", "noch 3")])
def test_part_of_a_squad_hiding_says_how_many_hid(table_at, language, part, rest):
    # Before: "HIDDEN" in big letters when 5 of the 8 lay down.
    table = table_at(AXIS_FIRST)
    big_squad(table, language)
    table.press("ok", "ok", "ok")             # Rifle 1: 5 of its 8 go; Go! (lit)
    table.press("cw", "cw", "ok")             # Hide
    table.press("ok", "ok")                   # cover here: yes; enemy figure ≤ 30 cm: no
    assert (table.view.word, table.view.detail) == (part, rest)
