"""Cobra's replacements (12.2) and the German VP for Allied replacement steps (16.1), through
the real game record: each test quotes the rule it rests on."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra import replacements as repl
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.replacements import Replacement, received, take, take_back
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import RulesError

ALLIED_REPLACEMENT = 6          # the Allied Replacement Phase's step in a game turn (no landing)


def at(scenario: str, turn: int, player: Nation, **more: object) -> CobraGame:
    """The game at `player`'s Replacement Phase of game turn `turn`."""
    game = CobraGame.start(scenario)
    played = (Weather.OVERCAST,) * (turn - game.first_turn + 1)
    step = 1 if player is Nation.GERMAN else ALLIED_REPLACEMENT
    game = replace(game, turn=turn, step=step, weather=played, **more)  # type: ignore[arg-type]
    assert game.phase.name == "replacement" and game.phase.player is player
    return game


@pytest.mark.parametrize(("turn", "mech_halves", "inf"), [
    (1, 0, 0), (2, 2, 2), (9, 2, 2), (10, 1, 2), (20, 1, 2), (21, 0, 1), (27, 0, 1)])
def test_12_2_the_german_replacements_by_game_turn(turn: int, mech_halves: int,
                                                   inf: int) -> None:
    """12.2a "On GTs 2 through 9 ... one mechanized and two infantry steps each GT"; 12.2b
    "On GTs 10 through 20 ... one half a mechanized step and two infantry steps"; 12.2c
    "Starting on GT 21 ... one infantry replacement step each GT"."""
    assert received(turn) == {"mech": mech_halves, "inf": inf}


def test_12_2b_half_a_mechanized_step_is_a_whole_one_every_second_turn() -> None:
    """12.2b "one half a mechanized step": the Cobra scenario's GT 15 has ½ on the track, no
    whole step; GT 16 has a whole one."""
    game = at("cobra", 15, Nation.GERMAN)
    first = repl.of_game(game, "german")
    assert first.left == {"mech": 0, "inf": 2} and first.to_dict()["on_track"]["mech"] == "½"
    with pytest.raises(RulesError) as refused:
        take(game, "german", "mech")
    assert refused.value.code is CobraRefusal.NO_REPLACEMENT_STEP
    assert refused.value.values == {"turn": 15, "step_kind": "mech", "on_track": "½"}
    later = at("cobra", 16, Nation.GERMAN)
    assert repl.of_game(later, "german").left == {"mech": 1, "inf": 2}
    game, taken = take(later, "german", "mech")
    assert taken.left.left["mech"] == 0 and game.replacements == (
        Replacement(16, "german", "mech"),)


def test_12_2d_one_mechanized_and_two_infantry_steps_a_turn() -> None:
    """12.2d "No more than one mechanized or two infantry steps may be used during any given
    turn", even with a step carried on the track."""
    carried = (Replacement(2, "german", "inf"),)         # GT 2 used one of two: one carried
    game = at("buildup", 3, Nation.GERMAN, replacements=carried)
    assert repl.of_game(game, "german").on_track == {"mech": 4, "inf": 3}
    assert repl.of_game(game, "german").left == {"mech": 1, "inf": 2}
    game, _ = take(game, "german", "inf")
    game, _ = take(game, "german", "inf")
    with pytest.raises(RulesError) as refused:
        take(game, "german", "inf")
    assert refused.value.code is CobraRefusal.REPLACEMENT_TURN_LIMIT


def test_12_2d_no_more_than_one_step_of_each_is_carried() -> None:
    """12.2d "The German player may accumulate no more than one step of each to use during
    future turns": GT 2 and 3 unused leave one mechanized and one infantry step, not two."""
    game = at("buildup", 4, Nation.GERMAN)
    assert repl.of_game(game, "german").carried == {"mech": 2, "inf": 1}


def test_12_2_the_british_infantry_limit_from_game_turn_20() -> None:
    """12.2 Exception: "The British player may replace no more than two infantry steps per
    turn starting with the GT 20"; the US as many as he wishes."""
    game = at("cobra", 20, Nation.ALLIED)
    for _ in range(2):
        game, _ = take(game, "british", "inf")
    with pytest.raises(RulesError) as refused:
        take(game, "british", "inf")
    assert refused.value.code is CobraRefusal.BRITISH_INFANTRY_LIMIT
    game, _ = take(game, "british", "mech")
    for _ in range(5):
        game, taken = take(game, "us", "inf")
    assert taken.left.left == {"mech": None, "inf": None}
    early = at("cobra", 19, Nation.ALLIED)
    for _ in range(3):
        early, _ = take(early, "british", "inf")
    assert len(early.replacements) == 3


def test_16_1_one_german_vp_for_every_10_allied_steps() -> None:
    """16.1 "1: For every 10 Allied replacement steps used during play": the tenth step adds
    1 German VP, the ninth and the eleventh none."""
    before = tuple(Replacement(16, "us", "inf") for _ in range(9))
    game = at("cobra", 17, Nation.ALLIED, replacements=before)
    game, tenth = take(game, "us", "mech")
    assert tenth.vp is not None and tenth.vp.why is Why.REPLACEMENT_VP
    assert game.tracks.german_vp == 1 and tenth.left.german_vp == 1
    game, eleventh = take(game, "british", "inf")
    assert eleventh.vp is None and game.tracks.german_vp == 1
    assert eleventh.to_dict()["left"]["next_vp_at"] == 20


def test_12_0_replacements_only_in_the_sides_replacement_phase() -> None:
    """12.0 "During each Replacement Phase, the active player may take replacements"."""
    game = at("cobra", 16, Nation.GERMAN)
    with pytest.raises(RulesError) as allied:
        take(game, "us", "inf")
    assert allied.value.code is CobraRefusal.REPLACEMENT_PHASE_ONLY
    with pytest.raises(RulesError) as moving:
        take(game.advance(), "german", "inf")
    assert moving.value.code is CobraRefusal.REPLACEMENT_PHASE_ONLY


def test_the_steps_taken_are_saved_and_an_old_save_loads() -> None:
    """12.0: the steps taken survive a save; a game saved before replacements were kept loads
    with none taken."""
    game, _ = take(at("cobra", 16, Nation.GERMAN), "german", "inf")
    assert CobraGame.from_dict(game.to_dict()) == game
    old = game.to_dict()
    del old["replacements"]
    assert CobraGame.from_dict(old).replacements == ()
    with pytest.raises(RulesError) as refused:
        Replacement.from_dict({"turn": 16, "side": "french", "kind": "inf"})
    assert refused.value.code is CobraRefusal.UNKNOWN_REPLACEMENT


def test_12_0_the_last_step_of_the_phase_is_taken_back_with_its_16_1_vp() -> None:
    """12.0 "the active player may take replacements": a step pressed by mistake is taken back,
    the last of this phase only, and a tenth Allied step's German VP with it (16.1)."""
    before = tuple(Replacement(16, "us", "inf") for _ in range(9))
    game = at("cobra", 17, Nation.ALLIED, replacements=before)
    with pytest.raises(RulesError) as nothing:
        take_back(game)                       # the steps of game turn 16 are not this phase's
    assert nothing.value.code is CobraRefusal.NO_STEP_TO_TAKE_BACK
    game, _ = take(game, "british", "inf")
    assert game.tracks.german_vp == 1
    game, step, vp = take_back(game)
    assert (step.side, step.kind, vp, game.tracks.german_vp) == ("british", "inf", True, 0)
    assert game.replacements == before
    game, _ = take(game, "us", "mech")
    game, _ = take(game, "us", "inf")
    game, step, vp = take_back(game)
    assert (step.kind, vp, game.tracks.german_vp) == ("inf", False, 1)
