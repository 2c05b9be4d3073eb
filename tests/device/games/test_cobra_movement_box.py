"""Cobra's movement allowance and replacements on the box: the MA dialled and shown big with
its steps (5.2c, 5.3b, 5.3c, 10.6, 12.1b), the MA increase and its air attack on the German
button (5.3d), the replacement steps of each side's Replacement Phase (12.2) with the German VP
of every tenth Allied step (16.1), saved after every action and resumed after a pulled plug.
Real app, store, screens and inputs, with scripted dice."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.replacements import Replacement
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame

from tests.device.games.test_cobra_box import saved, seed_game

C, OV, S = Weather.CLEAR, Weather.OVERCAST, Weather.STORM
# The step of each phase in a game turn without the landing (4.0).
STEP = {"german_replacement": 1, "german_initial": 2, "german_mechanized": 4,
        "allied_replacement": 6, "allied_initial": 7, "allied_mechanized": 9}


def at(turn: int, phase: str, weather: Weather = C, **more: object) -> CobraGame:
    """The Cobra scenario at `phase` of game turn `turn`, every turn so far in `weather`."""
    game = CobraGame.start("cobra")
    played = (weather,) * (turn - game.first_turn + 1)
    return replace(game, turn=turn, step=STEP[phase], weather=played,   # type: ignore[arg-type]
                   **more)


def resumed(table_at, tmp_path: Path, game: CobraGame, dice: list[int] | None = None):
    state = tmp_path / "state"
    seed_game(state, game)
    table = table_at(dice or [], state_dir=state)
    table.choose("Resume Cobra")
    return table


def log_lines(table) -> list[str]:
    return [english(loaded(line)) for line in saved(table)["log"]]


def test_5_3b_the_rules_example_overcast_6_is_4(table_at, tmp_path) -> None:
    """5.3b: "A German unit with a printed MA of 6 would have ... 4 MP in overcast weather";
    the knob starts on 6: OK shows it."""
    table = resumed(table_at, tmp_path, at(16, "german_initial", OV))
    table.choose("Movement allowance")
    table.press("ok")                                       # printed MA 6
    assert table.view.header.title == "Printed MA 6"
    assert table.view.items[0] == "MA 4: show"
    table.choose("MA 4")
    view = table.view
    assert isinstance(view, BigWord) and view.word == "4 MP"
    table.press("ok")
    assert table.view.lines == ("Printed: 6", "Overcast -1/3: 4")


def test_5_3b_10_6_12_1b_out_of_supply_and_replaced_in_clear(table_at, tmp_path) -> None:
    """5.3b: "the unit's MA is first halved, then the adjustments ... always round up"; 12.1b:
    "may not move more than half their current MA": 8 → 4 → clear 2 → 1."""
    table = resumed(table_at, tmp_path, at(16, "german_initial", C))
    table.choose("Movement allowance")
    table.press("cw", "cw", "ok")                           # printed MA 8
    assert table.view.items[0] == "MA 3: show"
    table.choose("- Out of supply")
    assert table.view.items[0] == "MA 2: show" and table.view.items[1] == "+ Out of supply"
    table.choose("- Got a replacement")
    table.choose("MA 1")
    table.press("ok")
    assert table.view.lines == ("Printed: 8", "No supply ½: 4", "Clear -2/3: 2",
                                "Replaced ½: 1")


def test_5_3c_the_first_german_turn_after_an_allied_exit(table_at, tmp_path) -> None:
    """5.3c: "In the first German Player Turn after any Allied unit has exited any map edge
    ... Clear: All units reduce their MA by one third": the exit in GT 16 gives 4 of 6 in the
    German turn of GT 17, and 2 again in GT 18 (the first turn only, docs/rules-notes.md)."""
    exits = (Exit(16, "us", "south"),)
    table = resumed(table_at, tmp_path, at(17, "german_initial", C, exits=exits))
    table.choose("Movement allowance")
    table.press("ok")
    assert table.view.items[0] == "MA 4: show"
    table.choose("MA 4")
    table.press("ok")
    assert table.view.lines[-1] == "After exit: 4"
    later = resumed(table_at, tmp_path / "later", at(18, "german_initial", C, exits=exits))
    later.choose("Movement allowance")
    later.press("ok")
    assert later.view.items[0] == "MA 2: show"


def test_5_3d_the_increase_and_its_air_attack(table_at, tmp_path) -> None:
    """5.3d: "If the unit increased its MA by two thirds, that unit suffers one step loss if
    the die roll result was 1 through 4"; the German button rolls; logged and saved."""
    table = resumed(table_at, tmp_path, at(16, "german_mechanized", C), dice=[3, 5])
    table.choose("Movement allowance")
    table.press("ok")
    assert table.view.items[-2:] == ("+1/3 MA, 1-2 hit", "+2/3 MA, 1-4 hit")
    table.choose("+2/3 MA")
    assert table.view.lines[:3] == ("MA 6 (+2/3)", "After the move: 1-4",
                                    "loses a step; no overrun")
    table.press("axis")
    view = table.view
    assert isinstance(view, BigWord) and view.word == "1 STEP LOST"
    assert log_lines(table)[-1] == "GT16 german MA +2/3 (6), air attack die 3: 1 STEP LOST"
    table.press("ok")
    table.choose("+1/3 MA")
    table.press("axis")
    assert table.view.word == "NO LOSS"                     # 5 on 1-2: no loss (5.3d2)


def test_5_3d_no_increase_in_storms_and_none_for_the_allies(table_at, tmp_path) -> None:
    """5.3d: "During overcast or clear weather, German units may increase their MA"."""
    table = resumed(table_at, tmp_path, at(16, "german_initial", S))
    table.choose("Movement allowance")
    table.press("ok")
    assert table.view.items == ("MA 6: show", "- Out of supply", "- Got a replacement")
    allied = resumed(table_at, tmp_path / "allied", at(16, "allied_initial", C))
    allied.choose("Movement allowance")
    allied.press("ok")
    assert not any("/3 MA" in item for item in allied.view.items)


def test_5_2c_british_infantry_in_the_allied_mechanized_phase(table_at, tmp_path) -> None:
    """5.2c: British and Canadian infantry "may move up to two-thirds (6 MP) of their printed
    MA during the Allied Mechanized Movement Phase"."""
    table = resumed(table_at, tmp_path, at(16, "allied_mechanized", C))
    table.choose("Movement allowance")
    table.press("cw", "cw", "cw", "ok")                     # printed MA 9
    assert table.view.items[0] == "MA 9: show"
    table.choose("- Br./Can. inf. div.")
    table.choose("MA 6")
    table.press("ok")
    assert table.view.lines == ("Brit. inf. ⅔: 6",)


def test_12_2b_the_german_steps_of_game_turn_16(table_at, tmp_path) -> None:
    """12.2b: "On GTs 10 through 20, the German player receives one half a mechanized step and
    two infantry steps each GT"; 12.2d "No more than one mechanized or two infantry steps"
    (GT 15 took none: ½ and one infantry step carried, 12.2d)."""
    table = resumed(table_at, tmp_path, at(16, "german_replacement"))
    table.choose("Replacements")
    assert table.view.items == ("Mech. step (1 left)", "Infantry step (2 left)",
                                "Repl. mech 1 inf 3")
    table.choose("Mech. step")
    assert table.view.items[:2] == ("Take back: Mech. step", "Mech. step (0 left)")
    assert table.view.index == 1                              # on the step again
    assert saved(table)["cobra"]["replacements"] == [
        {"turn": 16, "side": "german", "kind": "mech"}]
    assert log_lines(table)[-1] == "GT16 german replacement step, mech"
    table.choose("Mech. step")
    assert table.view.header.title == "Not possible"
    assert table.view.lines[0].startswith("no more than one mechanized or two infantry")
    table.press("ok")
    assert table.view.items[1] == "Mech. step (0 left)"


def test_12_2_the_british_limit_and_16_1_the_tenth_allied_step(table_at, tmp_path) -> None:
    """12.2: "The British player may replace no more than two infantry steps per turn starting
    with the GT 20"; 16.1: "1: For every 10 Allied replacement steps used during play"."""
    before = tuple(Replacement(19, "us", "inf") for _ in range(8))
    table = resumed(table_at, tmp_path, at(20, "allied_replacement", replacements=before))
    table.choose("Replacements")
    assert table.view.items[2] == "Brit. infantry (2 left)"       # nothing to take back yet
    assert table.view.items[-1] == "Allied steps 8, VP at 10"
    table.choose("Brit. infantry")
    table.choose("Brit. infantry")
    view = table.view
    assert isinstance(view, BigWord) and view.word == "GERMAN VP +1"
    assert saved(table)["cobra"]["tracks"]["german_vp"] == 1
    assert log_lines(table)[-1] == "GT20 british replacement step, inf; 10 Allied replacement " \
        "steps: German VP +1 (16.1)"
    table.press("ok")
    table.choose("Brit. infantry")
    assert table.view.lines[0] == "from game turn 20 the British replace no more than 2 " \
        "infantry steps a turn (12.2)"


def test_the_steps_taken_survive_a_pulled_plug(table_at, tmp_path) -> None:
    """12.2d: the steps taken this turn still count after a restart: the second infantry
    step is the last one."""
    table = resumed(table_at, tmp_path, at(16, "german_replacement"))
    table.choose("Replacements")
    table.choose("Infantry step")
    table.close()
    again = table_at([], state_dir=tmp_path / "state")
    again.choose("Resume Cobra")
    again.choose("Replacements")
    assert again.view.items[2] == "Infantry step (1 left)"


def test_12_0_a_step_taken_by_mistake_is_taken_back_with_its_16_1_vp(table_at,
                                                                     tmp_path) -> None:
    """12.0: the steps are the player's choice, so a press too many is taken back; taking back
    the tenth Allied step takes back the German VP it gave (16.1 "For every 10 Allied
    replacement steps"), and the log says so."""
    before = tuple(Replacement(19, "us", "inf") for _ in range(9))
    table = resumed(table_at, tmp_path, at(20, "allied_replacement", replacements=before))
    table.choose("Replacements")
    table.choose("US infantry")
    assert table.view.word == "GERMAN VP +1"
    table.press("ok")
    assert table.view.items[0] == "Take back: US infantry"
    table.choose("Take back")
    assert (table.view.word, table.view.detail) == ("TAKEN BACK", "US infantry")
    state = saved(table)["cobra"]
    assert len(state["replacements"]) == 9 and state["tracks"]["german_vp"] == 0
    assert log_lines(table)[-1] == "GT20 us replacement step taken back, inf; German VP -1 " \
        "(16.1)"
    table.press("ok")
    assert table.view.items[0] == "US infantry (0 taken)"     # nothing left to take back


def test_the_tracks_show_the_german_replacements(table_at, tmp_path) -> None:
    """12.2a: "On GTs 2 through 9 ... one mechanized and two infantry steps each GT"."""
    game = CobraGame.start("campaign")
    game = replace(game, turn=5, step=1, weather=(C,) * 5)
    table = resumed(table_at, tmp_path, game)
    table.choose("Tracks")
    assert "Repl. mech 2 inf 3" in table.view.items         # one of each carried (12.2d)
    table.choose("Repl.")
    view = table.view
    assert isinstance(view, Lines) and view.lines[:2] == ("This GT: mech 1 inf 2",
                                                          "Track: mech 2 inf 3")


def test_17_3_6d_every_unit_in_supply_on_game_turns_1_and_2(table_at, tmp_path) -> None:
    """17.3.6d: "All Allied units are considered in supply throughout GTs 1 and 2"; 17.3.6:
    "All German units are automatically in supply during those game turns": no "Out of
    supply" to toggle, in the MA nor in an attack's units; on GT 3 again."""
    from cobi_companion.rules.cobra.turns import sequence

    def allied_initial(turn: int) -> CobraGame:
        game = CobraGame.start("campaign")
        step = next(i for i, p in enumerate(sequence("campaign", turn))
                    if p.name == "initial_movement" and p.player.value == "allied")
        return replace(game, turn=turn, step=step, weather=(C,) * turn)

    table = resumed(table_at, tmp_path, allied_initial(2))
    table.choose("Movement allowance")
    table.press("ok")
    assert not any("Out of supply" in item for item in table.view.items)
    later = resumed(table_at, tmp_path / "later", allied_initial(3))
    later.choose("Movement allowance")
    later.press("ok")
    assert any("Out of supply" in item for item in later.view.items)


def test_17_3_9_landed_this_turn_halves_the_allied_ma_on_gt_1_to_14(table_at, tmp_path) -> None:
    """17.3.9: "From GT 1 through 14, Allied units land with only half of their MA available
    for use that turn": a toggle in the campaign's Allied Movement Phases of GT 1-14; on GT 2
    a quarter of the printed MA (17.3.3b halved it already). Not on GT 15, nor in Cobra."""
    from cobi_companion.rules.cobra.turns import sequence

    def allied_initial(turn: int, key: str = "campaign") -> CobraGame:
        game = CobraGame.start(key)
        step = next(i for i, p in enumerate(sequence(key, turn))
                    if p.name == "initial_movement" and p.player.value == "allied")
        return replace(game, turn=turn, step=step, weather=(C,) * turn)

    table = resumed(table_at, tmp_path, allied_initial(2))
    table.choose("Movement allowance")
    table.press("ok")                                       # printed MA 6
    assert table.view.items[:2] == ("MA 3: show", "- Landed this turn")
    table.choose("- Landed this turn")
    assert table.view.items[:2] == ("MA 2: show", "+ Landed this turn")
    table.choose("MA 2")
    table.press("ok")
    assert table.view.lines == ("GT 1-2 ½: 3", "Landed ½: 2")
    for later in (allied_initial(15), allied_initial(16, "cobra")):
        table = resumed(table_at, tmp_path / f"t{later.turn}", later)
        table.choose("Movement allowance")
        table.press("ok")
        assert "- Landed this turn" not in table.view.items
