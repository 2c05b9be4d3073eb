"""House rules on the box: chosen on the roster's House rules row before a battle (the config's
[house_rules] first), saved with the battle, logged at its start, on the status board, kept
after a pulled plug, and played by: the Easy round of the Polish text ("Jeśli obaj gracze jeden
po drugim oddadzą swą Inicjatywę, to cała Runda się kończy": the round ends when both players
give up the initiative one after the other)."""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.device.core.battle_state import TankBattle
from cobi_companion.device.core.views import Menu
from cobi_companion.device.sim import drain
from cobi_companion.rules.house import HouseRules

from ..conftest import EASY, QUICK_HOLDS

BOTH_PASS = replace(EASY, house_rules={"easy_round": "both_pass"})


def easy_roster(table) -> None:
    """New battle: Tiger for the Axis, Sherman for the Allies."""
    table.to_card("Tiger I")
    table.press("axis")
    table.to_card("Sherman M4A1")
    table.press("allies")


def test_the_list_shows_the_levels_rules_and_ok_changes_one(table_at):
    table = table_at([], config=EASY)
    table.press("ok")                                        # New battle: the Easy roster
    assert "House rules: none" in table.view.items
    table.choose("House rules")
    assert table.view.header.title == "House rules"
    assert table.view.items == ("Card (15)/(16): by meaning", "Round ends: one each",
                                "Rough: once", "Road backward: yes", "Done")
    assert table.view.hint == "Destroy Gun: gun lost · Weaken: damaged"
    table.press("ok")                                        # OK: the next value
    assert table.view.items[0] == "Card (15)/(16): by number"
    assert table.view.hint == "Field 15: damaged · 16: gun lost"
    table.choose("Done")
    assert "House rules: 1 changed" in table.view.items
    table.choose("Rules")                                    # the Tank Game lists its own
    table.choose("House rules")
    assert table.view.items == ("Sherman reload: card 5-6", "HE at figures: table +2",
                                "Soft targets: our table", "One more go: new pieces",
                                "Weapons: every one", "Fire, then move: yes",
                                "Match: winner", "Rough: once", "Road backward: yes",
                                "Open-top reload: 2 crew", "Soft damage: total", "Done")


def test_a_battle_keeps_its_house_rules_in_its_save_log_and_status_board(table_at, tmp_path):
    table = table_at([5, 2], config=BOTH_PASS)              # the config's house rules
    table.press("ok")
    assert "House rules: 1 changed" in table.view.items
    easy_roster(table)
    table.press("ok")
    saved = table.box.store.load_battle()
    assert saved["house_rules"]["easy_round"] == "both_pass"
    assert saved["log"][1] == {"key": "log_house_rules", "values": {"rules": [
        {"key": "log_house_rule", "values": {"rule": "easy_round",
                                             "choice": "easy_round_both_pass"}}]}}
    table.press("axis", "allies")                            # initiative: Axis 5 v 2
    table.press("back")
    table.choose("All pieces")
    assert table.view.lines[-2:] == ("House rules: 1 changed", "· Round ends: both pass")
    table.press("ok")
    table.press("back")
    table.choose("What happened")
    # the rule's name in words, as the list says it, not the config file's key (easy_round)
    assert "house rules: Round ends: both pass" in table.view.lines
    table.close()
    again = table_at([], config=EASY)                       # a pulled plug; the config changed
    assert again.box.app.state is not None
    assert again.box.app.state.house == HouseRules(easy_round="both_pass")


def pass_turn(table) -> None:
    table.choose("Pass")
    table.choose("yes")


def test_the_round_ends_after_one_action_each_by_the_english_text(table_at):
    """English: "When both players have had a chance to take an action, the round is over"."""
    table = table_at([5, 2, 1], config=EASY)
    table.press("ok")
    easy_roster(table)
    table.press("ok", "axis", "allies")                      # Axis has the initiative
    pass_turn(table)
    assert table.view.header.side == "allies"
    table.choose("Sherman 1")
    table.choose("Fire")
    table.tap("allies")                                      # a 1: a miss
    drain(table.box)
    assert table.view.word == "MISS"
    table.press("ok")
    assert table.view.header.title == "Who goes first?"           # round 2: roll again
    assert table.box.app.state.round == 2


def test_the_round_ends_only_when_both_pass_in_a_row_by_the_polish_text(table_at):
    table = table_at([5, 2, 1], config=BOTH_PASS)
    table.press("ok")
    easy_roster(table)
    table.press("ok", "axis", "allies")
    pass_turn(table)
    table.choose("Sherman 1")
    table.choose("Fire")
    table.tap("allies")
    drain(table.box)
    table.press("ok")                                        # a pass, then a shot: go on
    assert isinstance(table.view, Menu) and table.view.header.side == "axis"
    assert table.box.app.state.round == 1
    pass_turn(table)
    assert table.view.header.side == "allies" and table.box.app.state.round == 1
    pass_turn(table)                                         # both passed one after the other
    assert table.view.header.title == "Who goes first?" and table.box.app.state.round == 2


def test_a_battle_saved_before_house_rules_loads_with_the_notes_readings(table_at):
    table = table_at([5, 2], config=QUICK_HOLDS)
    table.press("ok")
    table.to_card("Tiger I")
    table.press("axis")
    table.to_card("Sherman M4A1")
    table.press("allies", "ok")
    saved = table.box.store.load_battle()
    old = {key: value for key, value in saved.items()
           if key not in ("house_rules", "passed", "format")}
    state = TankBattle.from_dict(old, table.box.app.book)
    assert state.level == "tank"            # played then with the values dialled: your table
    assert state.house == HouseRules(soft_table="printed")
    assert state.passed == [False] * len(state.acted)
    assert TankBattle.from_dict(saved, table.box.app.book).to_dict() == {
        key: value for key, value in saved.items() if key != "format"}   # the box adds it


def test_a_tank_game_saved_before_our_table_resumes_with_the_values_dialled(table_at):
    # Before soft_table, the Tank Game took the values the players dialled (your table): a box
    # updated mid-battle must not switch that battle to our estimate without a word.
    from .test_tank_game_box import new_battle
    table = table_at([5, 2], config=QUICK_HOLDS)
    new_battle(table, ("Rifleman", "axis", 2), ("Soldier with pistol", "allies", 1))
    saved = table.box.store.load_battle()
    assert saved["house_rules"]["soft_table"] == "estimate"          # a battle of today
    assert TankBattle.from_dict(saved, table.box.app.book).house.soft_table == "estimate"
    old = {**saved, "house_rules": {k: v for k, v in saved["house_rules"].items()
                                    if k != "soft_table"}}
    assert TankBattle.from_dict(old, table.box.app.book).house.soft_table == "printed"
    older = {k: v for k, v in saved.items() if k != "house_rules"}
    assert TankBattle.from_dict(older, table.box.app.book).house.soft_table == "printed"


def test_any_house_rule_is_six_turns_of_the_knob_away_at_most(table_at):
    """Eleven Tank Game rules and Done: the list wraps round, so the farthest rule from the
    first is six turns either way, then one OK changes it (the press budget of a parent's
    screen, off the main path)."""
    table = table_at([], config=EASY)
    table.press("ok")
    table.choose("Rules")
    table.choose("House rules")
    items = table.view.items
    assert len(items) == 12
    farthest = max(min(i, len(items) - i) for i in range(len(items) - 1))
    assert farthest <= 6
    table.press(*["ccw"] * 2)                                # the last rule, from the first
    assert table.view.items[table.view.index] == "Soft damage: total"
    table.press("ok")
    assert table.view.items[table.view.index] == "Soft damage: die only"
    assert table.view.hint == "Dice: attack die less defence"
