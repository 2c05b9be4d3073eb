"""The box's wiring of the house rules (rules/house.py), each played through the buttons with
the config's [house_rules] and scripted dice: every test fails if the box stops passing the
battle's house rules to the rules it plays by."""
from __future__ import annotations

from cobi_companion.device.config import Config

from .test_tank_game_box import ALLIES_FIRST, new_battle


def give_up(table, side: str) -> None:
    table.press("back")
    table.choose("Give up")
    table.choose(f"{side} give")
    table.choose("yes")


def test_a_match_counts_both_teams_by_the_configs_match_score(table_at):
    """match_score = both: "New match" starts with the config's house rules, each battle
    records the loser's figures, and the result adds them (5 + 5 each: a draw)."""
    table = table_at([*ALLIES_FIRST, *ALLIES_FIRST],
                     config=Config(house_rules={"match_score": "both"}))
    table.press("ccw", "ok")                  # New match (last on the start screen)
    assert "House rules: 1 changed" in table.view.items
    new_battle(table, ("Tiger I", "axis"), ("Sherman M4A1", "allies"), start=())
    give_up(table, "Allies")                  # team 1 (Axis) wins with the Tiger's 5
    assert table.view.word == "AXIS WIN!"
    table.press("ok", "ok")                   # the figures left; battle 1 of 2
    assert table.view.lines[1] == "team 1 won, 5 left"
    table.press("ok")                         # battle 2, the sides swapped
    table.press("axis", "allies", "ok")
    give_up(table, "Axis")                    # team 2 (the Axis now) gives up: team 1 wins
    table.press("ok", "ok")
    saved = table.box.store.load_battle()
    assert [b["loser_figures"] for b in saved["match"]["record"]["battles"]] == [5, 5]
    assert (table.view.word, table.view.detail) == ("DRAW", "10 : 10")   # winner only: 10 : 0
