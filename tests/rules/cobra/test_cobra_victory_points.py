"""Cobra's victory points from what the players report (16.1, 16.2, 17.3.2 step 5e, 18.0): each
source's value, side, scenarios and game turns, the exits by game turn, the limits, and the
VP put on the game's tracks and taken back."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra import victory_points as vps
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.errors import Refusal, RulesError


def refused(code: Refusal, *args, **kwargs) -> RulesError:
    with pytest.raises(RulesError) as raised:
        vps.score(*args, **kwargs)
    assert raised.value.code is code, str(raised.value)
    return raised.value


@pytest.mark.parametrize(("turn", "vp"), [(15, 5), (20, 5), (21, 4), (22, 3), (23, 2),
                                          (24, 2), (25, 1), (27, 1)])
def test_16_2_a_us_mechanized_division_off_the_west_edge_by_game_turn(turn, vp):
    scored = vps.score("cobra", turn, vps.parse_event("exit:us:west:mech_division"))
    assert (scored.vp, scored.source.side, scored.source.rule) == (vp, "allied", "16.2")
    assert scored.exit == Exit(turn, "us", "west", "mech_division")


def test_16_2_four_us_divisions_at_most():
    four = tuple(Exit(20, "us", "west", "mech_division") for _ in range(4))
    scored = vps.score("cobra", 21, "exit_us_mech", exits=four[:3])
    assert scored.vp == 4
    fifth = vps.score("cobra", 21, "exit_us_mech", exits=four)
    assert (fifth.vp, fifth.why) == (0, vps.Why.EXIT_FIFTH_DIVISION)
    assert fifth.exit is not None                       # recorded all the same


def test_16_2_a_british_mechanized_division_east_by_the_end_of_game_turn_26():
    assert vps.score("cobra", 26, "exit_british_mech").vp == 4
    late = vps.score("cobra", 27, "exit_british_mech")
    assert (late.vp, late.why) == (0, vps.Why.EXIT_TOO_LATE)


@pytest.mark.parametrize(("event", "side", "vp"), [
    ("allied_regiment", "german", 1), ("allied_hq", "german", 2),
    ("allied_division", "german", 3),
    ("german_division_hq", "allied", 1), ("german_panzer", "allied", 1),
    ("german_division", "german", 1), ("german_mech_division", "german", 2)])
def test_16_1_and_16_2_units_eliminated_and_full_divisions(event, side, vp):
    scored = vps.score("cobra", 18, event, count=2)
    assert (scored.source.side, scored.vp) == (side, 2 * vp)


def test_16_1_us_units_not_exited_three_each_twelve_at_most():
    assert vps.score("cobra", 26, "us_not_exited", count=3).vp == 9
    capped = vps.score("cobra", 26, "us_not_exited", count=5)
    assert (capped.vp, capped.why) == (12, vps.Why.CAPPED)
    refused(CobraRefusal.VP_NOT_THIS_TURN, "cobra", 25, "us_not_exited")


def test_16_1_no_us_hq_exited_west_by_game_turn_25_reads_the_exits():
    assert vps.score("cobra", 25, "no_us_hq_exited").vp == 3
    refused(CobraRefusal.VP_HQ_EXITED, "cobra", 26, "no_us_hq_exited",
            exits=(Exit(24, "us", "west", "hq"),))
    # a US HQ off the south edge, or after GT 25, is not one off the west edge by GT 25
    assert vps.score("cobra", 27, "no_us_hq_exited", exits=(
        Exit(24, "us", "south", "hq"), Exit(26, "us", "west", "hq"))).vp == 3


def test_16_1_cherbourg_once_each_game_turn_from_game_turn_2_in_the_longer_scenarios():
    game = replace(CobraGame.start("campaign"), turn=2)
    game, scored = vps.record(game, "cherbourg_held")
    assert (scored.vp, game.tracks.german_vp) == (1, 1)
    with pytest.raises(RulesError) as again:
        vps.record(game, "cherbourg_held")
    assert again.value.code is CobraRefusal.VP_ONCE_A_TURN
    game, _ = vps.record(replace(game, turn=3), "cherbourg_held")
    assert game.tracks.german_vp == 2
    refused(CobraRefusal.VP_NOT_THIS_TURN, "campaign", 1, "cherbourg_held")
    refused(CobraRefusal.VP_NOT_IN_SCENARIO, "cobra", 16, "cherbourg_held")


def test_16_2_the_build_up_objectives_once():
    assert [vps.score("buildup", 14, key).vp for key in ("caen", "cherbourg", "st_lo")] == \
        [20, 10, 15]
    refused(CobraRefusal.VP_NOT_IN_SCENARIO, "campaign", 14, "caen")


def test_18_0_the_variant_counters_cost_the_german_player_vp_below_zero():
    game = replace(CobraGame.start("cobra"), turn=20)
    for key in ("variant_4th_panzer", "variant_507", "variant_505", "variant_654"):
        game, _ = vps.record(game, key)
    assert game.tracks.german_vp == -15 - 3 - 3 - 2
    assert game.tracks.allied_vp == 0
    with pytest.raises(RulesError) as twice:
        vps.record(game, "variant_654")
    assert twice.value.code is CobraRefusal.VP_ONCE_A_GAME
    # 18.0 "any scenario that their dates of arrival are part of": not the Build-Up
    refused(CobraRefusal.VP_NOT_IN_SCENARIO, "buildup", 14, "variant_fjv")
    refused(CobraRefusal.VP_NOT_THIS_TURN, "cobra", 21, "variant_4th_panzer")
    refused(CobraRefusal.VP_NOT_THIS_TURN, "cobra", 15, "variant_fjv")


def test_15_3_the_optional_brest_entry_gives_the_allies_7_vp_on_game_turn_19():
    scored = vps.score("cobra", 19, "brest_entry")
    assert (scored.vp, scored.source.side, scored.source.rule) == (7, "allied", "15.3")
    refused(CobraRefusal.VP_NOT_THIS_TURN, "cobra", 20, "brest_entry")


def test_17_3_2_step_5e_an_abandoned_beach_is_scored_by_the_landing_not_reported():
    """17.3.2 step 5e: "For each beach (not beach hex) abandoned ... 10 VP": the landing's
    beach check adds them, so reporting them as well would count them twice."""
    with pytest.raises(RulesError) as refused_twice:
        vps.score("campaign", 1, "beach_abandoned")
    assert refused_twice.value.code is CobraRefusal.VP_UNKNOWN_SOURCE


def test_16_2_an_exit_is_recorded_on_the_game_and_taken_back_with_its_vp():
    game = replace(CobraGame.start("cobra"), turn=22)
    game, _ = vps.record(game, "exit_us_mech")
    game, _ = vps.record(game, "allied_hq")
    assert game.exits == (Exit(22, "us", "west", "mech_division"),)
    assert (game.tracks.allied_vp, game.tracks.german_vp) == (3, 2)
    game, taken = vps.undo(game)
    assert taken.source == "allied_hq" and game.tracks.german_vp == 0
    game, taken = vps.undo(game)
    assert game.exits == () and game.tracks.allied_vp == 0
    with pytest.raises(RulesError) as nothing:
        vps.undo(game)
    assert nothing.value.code is CobraRefusal.VP_NOTHING_TO_UNDO


def test_16_0_a_saved_game_keeps_its_awards_and_an_older_save_loads():
    game = replace(CobraGame.start("cobra"), turn=22)
    game, _ = vps.record(game, "exit_us_mech")
    assert CobraGame.from_dict(game.to_dict()) == game
    older = CobraGame.start("cobra").to_dict()
    del older["scoresheet"]
    assert CobraGame.from_dict(older).scoresheet.awards == ()


def test_16_0_the_menu_offers_the_scenarios_sources_of_the_game_turn():
    cobra = {s.key for s in vps.offered("cobra", 20)}
    assert {"exit_us_mech", "variant_4th_panzer", "allied_hq"} <= cobra
    assert not cobra & {"caen", "cherbourg_held", "release_attempt", "brest_entry"}
    assert "caen" in {s.key for s in vps.offered("buildup", 14)}


def test_16_0_an_unknown_event_is_refused_with_the_choices():
    error = refused(CobraRefusal.VP_UNKNOWN_SOURCE, "cobra", 16, "paint")
    assert "allied_hq" in error.values["choices"]
    with pytest.raises(RulesError) as exit_error:
        vps.parse_event("exit:us:north:unit")
    assert exit_error.value.code is CobraRefusal.UNKNOWN_EXIT
    refused(CobraRefusal.VP_ONE_AT_A_TIME, "cobra", 20, "exit_us_mech", count=2)


def test_16_1_replacement_vp_are_counted_not_reported():
    """16.1: "1: For every 10 Allied replacement steps used during play": the box adds it as
    the steps are taken (rules/cobra/replacements.py), so it is no event to report as well,
    which would count it twice."""
    with pytest.raises(RulesError) as refused:
        vps.score("cobra", 16, "replacements")
    assert refused.value.code is CobraRefusal.VP_UNKNOWN_SOURCE


@pytest.mark.parametrize(("key", "turn", "code"), [
    ("cobra", 2, CobraRefusal.NOT_A_SCENARIO_TURN), ("cobra", 28, CobraRefusal.NOT_A_SCENARIO_TURN),
    ("buildup", 20, CobraRefusal.NOT_A_SCENARIO_TURN)])
def test_2_5_a_vp_is_scored_in_a_game_turn_of_the_scenario(key, turn, code):
    """2.5, 17.0: Cobra plays game turns 15-27, the Build-Up 1-14, the campaign 1-27 and
    28 when it goes on (17.3a)."""
    with pytest.raises(RulesError) as refused_turn:
        vps.score(key, turn, "allied_hq")
    assert refused_turn.value.code is code
    assert vps.score("campaign", 28, "allied_hq").vp == 2


def test_an_exit_recorded_after_the_game_turn_is_refused():
    """16.2: the exit VP are by the game turn of the exit: an exit recorded on a later turn
    than the one scored cannot be."""
    with pytest.raises(RulesError) as later:
        vps.score("cobra", 20, "exit_us_mech", exits=(Exit(26, "us", "west"),))
    assert later.value.code is CobraRefusal.EXIT_AFTER_TURN
