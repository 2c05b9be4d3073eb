"""Cobra weather: columns, streak modifiers, forced turns and the seed's turns 18–22."""
from __future__ import annotations

import pytest
from cobi_companion.rules.cobra.tables import CobraTables, Weather
from cobi_companion.rules.cobra.weather import (
    column,
    determine,
    effects,
    forced,
    modifier,
    parse_history,
)
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from hypothesis import given
from hypothesis import strategies as st

C, OV, S = Weather.CLEAR, Weather.OVERCAST, Weather.STORM
# The two cells of column C the seed reveals (5.3 example); the rest left unfilled.
SEEN = CobraTables(weather={"C": {"1": "storm", "2": "", "3": "", "4": "clear", "5": "",
                                  "6": ""}})


def test_turn_21_after_three_clear_turns_rolls_5_minus_1_on_column_c():
    history = [OV, S, C, C, C]                 # game turns 16–20; 18, 19 and 20 clear
    result = determine(21, history, ScriptedDice([5]), SEEN)
    assert (result.column, result.die, result.modifier, result.modified) == ("C", 5, -1, 4)
    assert result.weather == C


def test_turn_22_the_modifier_grows_and_0_reads_as_the_lowest_row():
    history = [OV, S, C, C, C, C]              # turn 21 was clear too
    result = determine(22, history, ScriptedDice([2]), SEEN)
    assert (result.modifier, result.modified, result.row, result.weather) == (-2, 0, 1, S)


def test_after_the_storm_no_modifier():
    assert modifier([C, C, C, C, S])[0] == 0


def test_three_non_clear_turns_give_plus_1_growing():
    assert modifier([C, OV, S, OV])[0] == 1
    assert modifier([C, OV, S, OV, OV])[0] == 2
    assert modifier([OV, S, C])[0] == 0


@given(st.lists(st.sampled_from([C, OV, S]), max_size=12))
def test_the_modifier_follows_the_run_of_the_last_turns(history):
    drm, _ = modifier(history)
    if drm:
        run = len(history) - next((i for i in range(len(history) - 1, -1, -1)
                                   if (history[i] == C) != (history[-1] == C)), -1) - 1
        assert abs(drm) == run - 2 and (drm < 0) == (history[-1] == C)


def test_forced_turns():
    assert forced(1, []) is not None and forced(1, [])[0] == C
    assert forced(2, [C])[0] == OV
    assert forced(6, [C, OV, C, OV, OV])[0] == S
    assert forced(6, [C, OV, S, OV, OV]) is None
    assert forced(17, [S, S, S])[0] == OV
    result = determine(1, [], ScriptedDice([]))
    assert result.die is None and result.weather == C and "5.3" in result.forced_note


def test_turn_6_needs_the_turns_before_it():
    with pytest.raises(RulesError, match="turns 1 to 5"):
        forced(6, [C, OV])


def test_columns():
    assert column(15, [C, C])[0] == "A"
    assert column(15, [S, S])[0] == "B"
    assert column(19, [OV, S, S])[0] == "B"
    assert column(20, [S, S])[0] == "C"


def test_without_the_owners_row_the_weather_is_left_to_the_player():
    result = determine(21, [C, C, C], ScriptedDice([6]), SEEN)
    assert (result.modified, result.row, result.weather) == (5, 5, None)
    assert determine(16, [C], ScriptedDice([3]), CobraTables()).weather is None


def test_above_the_highest_row_reads_the_highest():
    table = CobraTables(weather={"A": {"1-2": "storm", "3-4": "overcast", "5-6": "clear"}})
    result = determine(17, [OV, S, OV], ScriptedDice([6]), table)
    assert (result.modified, result.row, result.weather) == (7, 6, C)


def test_history_words():
    assert parse_history("clear, storms,overcast") == [C, S, OV]
    with pytest.raises(RulesError, match="allowed: clear, overcast, storm"):
        parse_history("sunny")
    with pytest.raises(RulesError, match="only 2 turns"):
        determine(3, [C, OV, C], ScriptedDice([1]))


def test_game_turn_1_has_no_air_points_and_no_carpet_bombing():
    """17.3.10: "The Allied player receives no AP on GT 1"; 14.3f: carpet bombing "during GTs 5
    through 14"; 14.4: "GT 1: 0 NSP"."""
    first = determine(1, [], ScriptedDice([])).to_dict()["effects"]
    assert (first["allied_air_points"], first["air_rule"]) == (0, "17.3.10")
    assert (first["naval_points"], first["carpet_bombing"]) == (0, False)
    later = effects(C, 5)
    assert (later["allied_air_points"], later["naval_points"], later["carpet_bombing"]) == \
        (6, 3, True)
    assert effects(C, 4)["carpet_bombing"] is False and effects(S, 16)["naval_points"] == 1
