"""Carpet bombing is planned a game turn ahead (14.3a, c, d), and the tracks count the missions
of the period still to come (14.3f); the other three AP kept off its front (14.3e)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.cobra.combat import Nation, carpet_odds, roll
from cobi_companion.rules.cobra.notes import Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.tables import Weather
from cobi_companion.rules.cobra.turns import CobraGame, sequence
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError


def at_combat(turn: int, key: str = "cobra", weather: Weather = Weather.CLEAR) -> CobraGame:
    game = CobraGame.start(key)
    played = tuple([weather] * (turn - game.first_turn + 1))
    step = next(i for i, p in enumerate(sequence(key, turn))
                if p.name == "combat" and p.player is Nation.ALLIED)
    return CobraGame(game.scenario, turn, step, played, game.tracks, game.last)


def next_turn(game: CobraGame) -> CobraGame:
    """The same game at the next game turn's Allied Combat Phase."""
    return replace(at_combat(game.turn + 1, game.scenario), carpets=game.carpets,
                   carpet_plan=game.carpet_plan, carpet_cancelled=game.carpet_cancelled)


def test_a_carpet_bombing_not_planned_is_refused():
    """14.3a: "The Allied player must write down the target hex of a carpet bombing at the
    start of the Allied Combat Phase one game turn before he wants the mission to be carried
    out": so never on a scenario's first turn."""
    first = at_combat(15)
    with pytest.raises(RulesError, match="planned one game turn before") as refused:
        first.check_support(carpet_odds())
    assert refused.value.code is CobraRefusal.CARPET_NOT_PLANNED
    with pytest.raises(RulesError, match="planned one game turn before"):
        carpet_odds(turn=16, weather=Weather.CLEAR, planned=False)


def test_planned_the_turn_before_it_is_flown_and_the_plan_is_spent():
    """14.3d: "At the beginning of the immediately following Allied Combat Phase ... the Allied
    player cancels or conducts the carpet bombing mission as planned the previous game turn"."""
    game = at_combat(15).plan_carpet()
    assert game.carpet_plan == 16
    with pytest.raises(RulesError, match="planned one game turn before"):
        game.check_support(carpet_odds())                # not this turn: the next
    flying = next_turn(game)
    flying.check_support(carpet_odds())
    flown, _ = flying.pay_attack(carpet_odds(), None)
    assert (flown.carpets, flown.carpet_plan) == ((16,), None)
    again = CobraGame.from_dict(flown.plan_carpet().to_dict())
    assert again.carpet_plan == 17                        # the next one, for GT 17


def test_a_plan_is_only_made_in_the_allied_combat_phase_for_a_turn_that_may_fly():
    game = at_combat(15)
    with pytest.raises(RulesError, match="start of the Allied Combat Phase"):
        replace(game, step=0).plan_carpet()
    with pytest.raises(RulesError, match="before game turn 5"):
        at_combat(3, "campaign").plan_carpet()
    assert at_combat(4, "campaign").plan_carpet().carpet_plan == 5
    spent = replace(at_combat(9, "campaign"), carpets=(6,))
    with pytest.raises(RulesError, match="no carpet bombing mission left"):
        spent.plan_carpet()
    with pytest.raises(RulesError, match="planned already for game turn 16"):
        game.plan_carpet().plan_carpet()


def test_a_cancelled_mission_waits_for_the_next_allied_combat_phase():
    """14.3c: "If the mission is cancelled the Allied player must wait until the next Allied
    Combat Phase prior to planning another carpet bombing mission"."""
    now = next_turn(at_combat(15).plan_carpet())
    with pytest.raises(RulesError, match="conduct or cancel"):
        now.plan_carpet()
    cancelled = now.cancel_carpet()
    assert (cancelled.carpet_plan, cancelled.carpet_cancelled) == (None, 16)
    with pytest.raises(RulesError, match="cancelled this turn") as refused:
        cancelled.plan_carpet()
    assert refused.value.code is CobraRefusal.CARPET_CANCELLED_WAIT
    assert next_turn(cancelled).plan_carpet().carpet_plan == 18
    assert cancelled.carpets == ()                        # not counted (14.3f)
    with pytest.raises(RulesError, match="no carpet bombing is planned"):
        cancelled.cancel_carpet()


def test_the_track_counts_the_missions_still_to_come():
    """14.3f: "a total of two more carpet bombing attacks between GT 15 and the end of the
    game": one flown on GT 16 leaves one to come, not none."""
    flown, _ = next_turn(at_combat(15).plan_carpet()).pay_attack(carpet_odds(), None)
    carpet = next(b for b in flown.budgets() if b.kind == "carpet")
    assert (carpet.given, carpet.used, carpet.left) == (2, 1, 1)
    assert flown.carpet_flown_now


def test_carpet_bombing_says_where_the_other_three_ap_may_go():
    """14.3e: "The remaining three AP may not be used by the nationality on whose front (that
    side of the AAB) the carpet bombing is occurring"."""
    combat = roll(carpet_odds(), ScriptedDice([4]))
    assert combat.notes[-1].why is Why.CARPET_OTHER_FRONT


def test_a_game_saved_before_the_plan_was_kept_loads():
    data = at_combat(16).to_dict()
    for key in ("carpet_plan", "carpet_cancelled", "automatic"):
        del data[key]
    game = CobraGame.from_dict(data)
    assert (game.carpet_plan, game.carpet_cancelled, game.automatic) == (None, None, False)
