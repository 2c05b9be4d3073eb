"""Cobra's victory points and special rolls on the box: what happened reported from the
tracks (16.1, 16.2, 18.0) and taken back, the 15th Army (15.2), Brest (15.3) and Leclerc
(15.1) at their phases on their side's button, saved and resumed. Real app, store, screens
and inputs on gpiozero's mock pins, with scripted dice."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cobi_companion.device.core.views import BigWord, Menu
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame

from tests.device.games.test_cobra_box import saved, seed_game


def on(turn: int, step: int, key: str = "cobra", **more) -> CobraGame:
    """A game at `step` of game turn `turn`, this turn's weather known past its phase."""
    game = CobraGame.start(key)
    played = (Weather.OVERCAST,) * (turn - game.first_turn + (1 if step else 0))
    return replace(CobraGame(game.scenario, turn, step, played, game.tracks, game.last), **more)


def resumed(table_at, state: Path, game: CobraGame, dice: list[int] | None = None):
    seed_game(state, game)
    table = table_at(dice or [], state_dir=state)
    table.choose("Resume Cobra")
    return table


def test_16_2_an_exit_reported_on_game_turn_21_gives_4_vp_and_is_taken_back(table_at, tmp_path):
    table = resumed(table_at, tmp_path / "state", on(21, 7))
    table.choose("Tracks")
    table.choose("Victory points")
    assert "+4 All: US mech. division exits west" in table.view.items
    table.choose("+4 All: US mech. division exits west")
    view = table.view
    assert isinstance(view, BigWord) and (view.word, view.detail) == ("+4 VP",
                                                                       "16.2: game turn 21")
    state = saved(table)["cobra"]
    assert state["tracks"]["allied_vp"] == 4
    assert state["exits"] == [{"turn": 21, "nation": "us", "edge": "west",
                               "kind": "mech_division"}]
    table.press("ok")
    assert table.view.items[0] == "Take back: US mech. division exits west"
    assert table.view.index == 8            # on the source again: another is one press
    table.choose("Take back")
    assert table.view.word == "TAKEN BACK"
    state = saved(table)["cobra"]
    assert state["tracks"]["allied_vp"] == 0 and state["exits"] == []


def test_16_1_several_units_dialled_at_once_and_a_once_a_turn_source_refused(table_at,
                                                                             tmp_path):
    table = resumed(table_at, tmp_path / "state", on(3, 1, "campaign"))
    table.choose("Tracks")
    table.choose("Victory points")
    table.choose("+1 Ger: Allied inf. regiment or brigade eliminated")
    table.press("cw", "cw", "ok")                              # three of them
    assert table.view.word == "+3 VP"
    table.press("ok")
    table.choose("+1 Ger: Cherbourg German at the start of the turn")
    table.press("ok")
    table.choose("+1 Ger: Cherbourg German at the start of the turn")
    assert table.view.lines[0] == ("Cherbourg German at the start of the turn: already "
                                   "scored in game turn 3 (16.1)")
    assert saved(table)["cobra"]["tracks"]["german_vp"] == 4


def test_16_0_the_reported_vp_survive_a_restart(table_at, tmp_path):
    state = tmp_path / "state"
    table = resumed(table_at, state, on(20, 1))
    table.choose("Tracks")
    table.choose("Victory points")
    table.choose("-15 Ger: 4th Panzer Division brought in")      # 18.0
    assert saved(table)["cobra"]["tracks"]["german_vp"] == -15
    again = table_at([], state_dir=state)
    again.choose("Resume Cobra")
    assert again.steps                       # the last outcome again first
    again.press("ok")
    again.choose("Tracks")
    assert again.view.items[3] == "German VP -15"
    again.choose("Victory points")
    assert again.view.items[0] == "Take back: 4th Panzer Division brought in"


def test_15_2_the_15th_army_in_the_german_initial_movement_phase(table_at, tmp_path):
    exits = (Exit(21, "us", "south", "unit"),)                  # the first US exit, GT 21
    table = resumed(table_at, tmp_path / "state", on(22, 2, exits=exits), [2])
    assert table.view.header.title == "3/5 Movement"
    table.choose("15th Army (15.2)")
    assert table.view.lines[:2] == ("1-2: 49th Inf. Div.", "costs 1 German VP")
    table.press("axis")
    view = table.view
    assert (view.word, view.detail) == ("RELEASED", "49th: 3 units, NE edge")
    state = saved(table)["cobra"]
    assert state["tracks"]["german_vp"] == -1
    assert state["scoresheet"]["rolls"] == [{"turn": 22, "kind": "release", "die": 2,
                                             "success": True}]
    table.press("ok")
    assert isinstance(table.view, Menu) and "15th Army (15.2)" not in table.view.items


def test_15_2_not_offered_before_game_turn_22_without_a_us_exit(table_at, tmp_path):
    table = resumed(table_at, tmp_path / "state", on(21, 2))
    assert "15th Army (15.2)" not in table.view.items


def test_15_3_brest_at_the_beginning_of_game_turn_27_minus_one(table_at, tmp_path):
    table = resumed(table_at, tmp_path / "state", on(27, 0), [3])
    assert table.view.items[:2] == ("Brest (15.3)", "Roll the weather")
    table.press("ok")
    assert table.view.lines[:2] == ("1-2: 2nd FJ, west edge", "game turn 27: die -1")
    table.press("axis")
    assert (table.view.word, table.view.detail) == ("RELEASED", "2nd FJ: 2 units, west edge")
    table.press("ok")
    assert table.view.items[0] == "Roll the weather"


def test_15_3_no_brest_roll_after_a_us_exit_off_the_west_edge(table_at, tmp_path):
    exits = (Exit(22, "us", "west", "unit"),)
    table = resumed(table_at, tmp_path / "state", on(26, 0, exits=exits))
    assert table.view.items[0] == "Roll the weather"


def test_15_1_leclerc_in_the_allied_initial_movement_phase(table_at, tmp_path):
    table = resumed(table_at, tmp_path / "state", on(20, 7), [1])
    assert table.view.items[:4] == ("Movement allowance", "Overrun", "Next phase",
                                    "Leclerc (15.1)")
    table.choose("Leclerc (15.1)")
    table.press("allies")
    assert (table.view.word, table.view.detail) == ("TO PARIS!", "2nd FF Armd exits east")
    table.press("ok")
    assert "Leclerc (15.1)" not in table.view.items
    assert saved(table)["cobra"]["scoresheet"]["rolls"][0]["success"] is True


def test_15_in_polish(table_at, tmp_path):
    table = resumed(table_at, tmp_path / "state", on(26, 0), [6])
    table.box.app.settings.language = "pl"
    table.press("ok", "axis")
    assert table.view.word == "ZATRZYMANA"
