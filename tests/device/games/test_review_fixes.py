"""The review's defects after issue 29: a resumed squad keeps its shots lit, only Done firing
ends a squad's fire, the piece menu lights no action that ends the activation after a
refusal, a refusal before the questions, the target fired at last lit, where the repeat's
target is, and the questions' hints."""
from __future__ import annotations

from cobi_companion.device.core.views import Lines, Menu

from .test_press_budget import SQUAD_DICE
from .test_tank_game_box import new_battle


def test_a_resumed_squad_mid_fire_lights_fire_not_all_done(table_at, tmp_path):
    first = table_at(SQUAD_DICE)
    new_battle(first, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    first.press("ok", "ok", "ok", "ok", "ok", "axis", "allies", "ok")   # figure 1: down
    assert first.view.header.title == "Shot 2 of 3"
    first.close()
    again = table_at(SQUAD_DICE[4:])
    again.press("ok")                                  # Resume battle: the last outcome
    while not (isinstance(again.view, Menu) and again.view.header.title == "Rifle 1 (3)"):
        again.press("ok")
    assert again.view.items[again.view.index] == "Fire"
    again.press("ok")
    assert again.view.header.title == "Shot 2 of 3"


def squad_fired(table_at):
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    table.press("ok")                                  # Rifle 1 alone: its menu
    table.press("ok", "ok", "ok", "ok", "axis", "allies", "ok")
    for _ in (2, 3):
        table.press("axis", "allies", "ok")
    assert table.view.header.title == "Rifle 1 (3)" and table.view.hint == "fired"
    return table


def test_back_on_the_piece_menu_lights_no_action_that_ends_or_is_done_at_once(table_at):
    table = squad_fired(table_at)
    assert table.view.items[table.view.index] == "All done"    # all its shots fired
    table.choose("Hide")
    table.press("back")                                # the question left: back on its menu
    assert table.view.header.title == "Rifle 1 (3)"
    lit = table.view.items[table.view.index]
    assert lit not in ("All done", "Take cover"), lit


def test_with_no_repeat_offered_a_long_press_does_not_end_the_squads_fire(table_at):
    # Pistol 1's only figure falls to the first shot: the next figure chooses again, and a
    # long press on that choice must not lose its shot (only Done firing ends the fire).
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 2), ("Soldier with pistol", "allies", 1),
               ("Soldier with pistol", "allies", 2))
    table.press("ok")                                  # Rifle 1 alone: its menu
    table.press("ok", "ok", "ok", "ok", "axis", "allies", "ok")     # figure 1: Pistol 1 down
    assert isinstance(table.view, Menu) and table.view.header.title == "Shot 2 of 2"
    assert table.view.items == ("Pistol 2 (2)", "Done firing")
    table.press("back")
    assert isinstance(table.view, Menu) and table.view.header.title == "Shot 2 of 2"
    table.choose("Done firing")
    assert table.view.header.title == "Rifle 1 (2)" and table.view.hint == "fired"


def test_a_rifle_is_not_offered_a_soft_vehicle_whose_card_has_no_armour(table_at):
    # The motorbike's card gives no armour: a rifle's shot at it would be refused after the
    # situation, the facing and the range; it is not offered (the pistol soldier is).
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 1), ("Motorcycle with side-car", "allies"),
               ("Soldier with pistol", "allies", 1))
    table.press("ok", "ok")                            # Rifle 1 alone, Fire
    assert isinstance(table.view, Menu)
    assert "Motorbike 1" not in table.view.items, table.view.items
    assert "Pistol 1 (1)" in table.view.items


def test_pass_and_power_questions_say_what_each_answer_does(table_at):
    # As End battle's question does (widgets.confirm): no keeps playing, yes says what it does.
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 1), ("Soldier with pistol", "allies", 1))
    table.choose("Pass")
    assert table.view.header.title == "Pass this turn?"
    assert table.view.hint == "no: nothing is lost"
    table.press("cw")
    assert table.view.hint == "yes: next turn"
    table.press("ccw", "ok", "back")                   # no: the pick again; the battle menu
    table.choose("Settings")
    for row, hint in (("Restart", "yes: restart, game kept"),
                      ("Power off", "yes: off, the game is kept")):
        table.choose(row)
        assert table.view.hint == "no: nothing is lost"
        table.press("cw")
        assert table.view.hint == hint
        table.press("ccw", "ok")                       # no: back on the settings
        assert table.view.header.title == "Settings"


def test_the_squads_repeat_says_where_its_target_is(table_at):
    # The first figure fired at Pistol 1 in soft cover: the repeat says so, as it reuses it.
    table = table_at(SQUAD_DICE)
    new_battle(table, ("Rifleman", "axis", 3), ("Soldier with pistol", "allies", 3))
    table.press("ok", "ok", "ok", "cw", "ok", "ok", "axis", "allies", "ok")
    assert isinstance(table.view, Lines) and table.view.header.title == "Shot 2 of 3"
    assert table.view.lines[:2] == ("Pistol 1 (2) · 45 cm", "in soft cover"), table.view.lines
