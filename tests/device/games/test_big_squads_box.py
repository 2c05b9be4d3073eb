"""Big squads on the box (issue 35, point 1): a squad of 8 is asked how many of its figures go
(the most that fit first), 5 of them fire once each, and the other 3 go in the extra
activation or a later turn. Before, a squad of more than 5 could never be activated. Real app,
store and screens with scripted dice."""
from __future__ import annotations

from cobi_companion.device.core.views import BigWord, Lines, Menu

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
    table.press("ok")                         # 5: nothing more fits, the activation starts
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
    table.press("ok", "ok")                   # Rifle 1: 5 of its 8 go
    table.choose("Hide")
    table.press("ok", "ok")                   # cover here: yes; enemy figure ≤ 30 cm: no
    view = table.view
    assert (view.word, view.detail) == ("HIDDEN", "hidden when all hide")
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
    table.press("ok", "ok")                   # Rifle 1: 5 of its 8 go
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
