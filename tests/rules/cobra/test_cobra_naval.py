"""Cobra's naval support at range (14.4b, 14.4c, 14.4d): what a column costs, what one attack
and one game turn can pay, and storms."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra.combat import Nation, Unit, odds, parse_shift
from cobi_companion.rules.cobra.naval import NavalRange, naval_columns
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame, sequence
from cobi_companion.rules.errors import RulesError

NEAR, FAR = NavalRange.NEAR, NavalRange.FAR


def naval(columns: int, at: NavalRange, turn: int = 16, weather: Weather | None = None):
    return odds([Unit(6)], [Unit(2)], [parse_shift(f"naval:+{columns}")], turn=turn,
                weather=weather, naval_range=at)


def allied_combat(turn: int, weather: Weather, key: str = "cobra") -> CobraGame:
    game = CobraGame.start(key)
    step = next(i for i, p in enumerate(sequence(key, turn))
                if p.name == "combat" and p.player is Nation.ALLIED)
    return CobraGame(game.scenario, turn, step, (weather,) * (turn - game.first_turn + 1),
                     game.tracks, game.last)


def test_14_4d_a_column_at_four_to_six_hexes_costs_two_points():
    """14.4c: "within three hexes ... each NSP assigned enables a one column shift"; 14.4d:
    "within four to six hexes ... two NSP are required to enable a one column shift"."""
    assert naval(1, NEAR).naval_points == 1
    assert naval(2, NEAR).naval_points == 2
    far = naval(1, FAR)
    assert far.naval_points == 2 and far.column == "4:1"
    assert far.to_dict()["naval_range"] == "far" and far.to_dict()["naval_rule"] == "14.4d"
    assert "naval_range" not in odds([Unit(6)], [Unit(2)]).to_dict()   # no naval shift


def test_14_4b_a_far_target_takes_one_column_at_most():
    """14.4b: "A maximum of two NSP may be committed to one attack": +2 far would be four."""
    assert naval_columns(NEAR) == (0, 1, 2) and naval_columns(FAR) == (0, 1)
    with pytest.raises(RulesError, match=r"naval \+2 at 4 to 6 hexes needs 4 naval points") \
            as refused:
        naval(2, FAR, turn=2)
    assert refused.value.code is CobraRefusal.NAVAL_FAR_MOST


def test_14_4_in_storms_a_far_target_gets_none():
    """14.4 "Important: During storms weather conditions no more than one NSP may be used":
    a column at four to six hexes needs two."""
    assert naval(1, NEAR, weather=Weather.STORM).naval_points == 1
    with pytest.raises(RulesError) as refused:
        naval(1, FAR, weather=Weather.STORM)
    assert refused.value.code is CobraRefusal.NAVAL_FAR_IN_STORMS
    with pytest.raises(RulesError) as near:
        naval(2, NEAR, weather=Weather.STORM)
    assert near.value.code is CobraRefusal.NAVAL_IN_STORMS


def test_the_turns_points_pay_two_a_far_column():
    """14.4: "GT 4 through 10: 3 NSP", "GT 11 through 27: 2 NSP"; "They must be used on the game
    turn they are received": near +1 then far +1 spends GT 4's three; on GT 16 a far column
    after a near one finds one point left, and needs two."""
    game = allied_combat(4, Weather.CLEAR, "campaign")
    game, _ = game.pay_attack(naval(1, NEAR, turn=4), None)
    game, _ = game.pay_attack(naval(1, FAR, turn=4), None)
    assert (game.naval_used, game.naval_left) == (3, 0)
    late = allied_combat(16, Weather.CLEAR)
    late, _ = late.pay_attack(naval(1, NEAR), None)
    with pytest.raises(RulesError, match="1 naval support points left this game turn, this "
                                         "needs 2") as refused:
        late.check_support(naval(1, FAR))
    assert refused.value.code is CobraRefusal.NAVAL_POINTS_LEFT


def test_no_naval_points_on_game_turn_1_at_any_range():
    """14.4: "GT 1: 0 NSP"."""
    with pytest.raises(RulesError) as refused:
        naval(1, FAR, turn=1)
    assert refused.value.code is CobraRefusal.NAVAL_POINTS_TURN
