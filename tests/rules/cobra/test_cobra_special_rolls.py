"""Cobra's special rolls: Leclerc (15.1), the 15th Army's release (15.2) and the 2nd FJ
Division from Brest (15.3), alone and on the game's record."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra import special_rolls as rolls
from cobi_companion.rules.cobra import victory_points as vps
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import Refusal, RulesError


def refusal(call, *args, **kwargs) -> Refusal:
    with pytest.raises(RulesError) as raised:
        call(*args, **kwargs)
    return raised.value.code


@pytest.mark.parametrize(("die", "mutiny"), [(1, True), (2, False), (6, False)])
def test_15_1b_leclerc_mutinies_on_a_one(die, mutiny):
    assert rolls.leclerc(die).mutiny is mutiny


def test_15_1b_after_a_mutiny_no_more_rolls_and_one_a_game_turn():
    game = replace(CobraGame.start("cobra"), turn=20)
    game, result = rolls.leclerc_on(game, 3)
    assert not result.mutiny and not rolls.may_roll_leclerc(game)
    assert refusal(rolls.leclerc_on, game, 3) is CobraRefusal.SPECIAL_ONCE_A_TURN
    game, result = rolls.leclerc_on(replace(game, turn=21), 1)
    assert result.mutiny
    assert refusal(rolls.leclerc_on, replace(game, turn=22), 1) is CobraRefusal.LECLERC_MUTINIED


@pytest.mark.parametrize(("first_exit", "first"), [(None, 22), (18, 19), (21, 22), (23, 22)])
def test_15_2_attempts_from_the_turn_after_the_first_us_exit_or_game_turn_22(first_exit, first):
    assert rolls.release_from(first_exit) == first
    assert refusal(rolls.release, first - 1, first_exit, 0, 1) is CobraRefusal.RELEASE_NOT_YET
    assert rolls.release(first, first_exit, 0, 1).released


def test_15_2d_e_f_one_or_two_releases_the_next_division_and_an_hq_per_two():
    assert not rolls.release(22, None, 0, 3).released
    out = [rolls.release(22, None, n, 2) for n in range(4)]
    assert [(r.division, r.units, r.hq) for r in out] == [
        (49, 3, False), (347, 2, True), (348, 2, False), (245, 3, True)]
    assert refusal(rolls.release, 22, None, 4, 1) is CobraRefusal.RELEASE_ALL_OUT


def test_15_2b_one_attempt_a_game_turn_each_costing_the_german_player_one_vp():
    game = replace(CobraGame.start("cobra"), turn=21)
    game, _ = vps.record(game, "exit_us_west")       # the first US exit, GT 21
    assert not rolls.may_release(game)
    game = replace(game, turn=22)
    game, first = rolls.release_on(game, 5)
    assert not first.released and game.tracks.german_vp == -1
    assert game.tracks.allied_vp == 0                 # counted once (docs/rules-notes.md)
    assert refusal(rolls.release_on, game, 1) is CobraRefusal.RELEASE_ONCE_A_TURN
    game, second = rolls.release_on(replace(game, turn=23), 1)
    assert second.division == 49 and game.tracks.german_vp == -2
    assert rolls.next_division(game) == 347
    # a roll's VP is not taken back as a reported entry: the exit is
    game, taken = vps.undo(game)
    assert taken.source == "exit_us_west" and game.tracks.german_vp == -2


def test_15_3_brest_from_game_turn_26_minus_one_on_27():
    assert refusal(rolls.brest, 25, 1) is CobraRefusal.BREST_NOT_YET
    assert [rolls.brest(26, d).released for d in (1, 2, 3)] == [True, True, False]
    gt27 = rolls.brest(27, 3)
    assert (gt27.modified, gt27.released) == (2, True)
    assert rolls.brest(27, 1).released                # 0 after the -1: still 1-2 or less
    assert not rolls.brest(28, 3).released            # the -1 is GT 27's only


def test_15_3_no_roll_once_a_us_unit_has_exited_off_the_west_edge():
    west = (Exit(24, "us", "west", "unit"),)
    assert refusal(rolls.brest, 26, 1, west) is CobraRefusal.BREST_US_EXITED
    south = (Exit(24, "us", "south", "unit"),)
    assert rolls.brest(26, 1, south).released
    # exited on GT 26: the roll at the beginning of GT 26 was made, none on GT 27
    on_26 = (Exit(26, "us", "west", "unit"),)
    assert rolls.brest(26, 1, on_26).released
    assert refusal(rolls.brest, 27, 1, on_26) is CobraRefusal.BREST_US_EXITED


def test_15_3_released_once_or_entered_on_game_turn_19():
    game = replace(CobraGame.start("cobra"), turn=26)
    game, result = rolls.brest_on(game, 2)
    assert result.released and not rolls.may_roll_brest(replace(game, turn=27))
    assert refusal(rolls.brest_on, replace(game, turn=27), 1) is CobraRefusal.BREST_RELEASED
    entered = replace(CobraGame.start("cobra"), turn=19)
    entered, _ = vps.record(entered, "brest_entry")
    assert entered.tracks.allied_vp == 7
    assert refusal(rolls.brest_on, replace(entered, turn=26), 1) is CobraRefusal.BREST_RELEASED


def test_15_0_the_rolls_survive_a_save():
    game = replace(CobraGame.start("cobra"), turn=22)
    game, _ = rolls.release_on(game, 2)
    assert CobraGame.from_dict(game.to_dict()) == game
    assert refusal(rolls.leclerc, 7) is CobraRefusal.NOT_A_DIE_FACE
