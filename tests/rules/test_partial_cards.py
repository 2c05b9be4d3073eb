"""Partial cards: a card file that lacks values the rules may need. A result that cannot need
the missing value resolves; a refusal that every hit would meet comes before any die; one that
depends on the dice comes only when the rolled result needs the value; and the odds agree.

The rules read a damage result against Destroy ("A score the same or higher then (Damage to
Destroy Target) means the target is destroyed") and the bands ("A score the same as (Damage to
Destroy Gun) ..."): the card schema allows only values of 0 or more for each, so a result
below 0 is none of them.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import CardValueMissing, Facing
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank import hard_fire, soft_fire, soft_odds
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, he_weapon

# Only its front armour and Destroy are known, as in the Easy example (2508); and a tank of
# which only the front armour is known.
ARMOUR_ONLY = validated_card({"id": "armour-only", "name": "Armour only", "armour_front": 2})


def test_easy_a_result_below_0_resolves_on_a_card_without_bands(book):
    """Easy: "After subtracting of the value of the armor from the total damage, we get the
    result of the hit": 9 + 1 - (6 + 5) = -1 is under Destroy 4 and every band."""
    plan = ShotPlan(book.get(2464), book.get(2508), Facing.FRONT)
    shot = easy.fire(plan, ScriptedDice([5, 1, 5]))
    assert (shot.net, shot.effect) == (-1, Effect.NONE)
    assert shot.reason.endswith("-1: no effect (below 0)")
    with pytest.raises(CardValueMissing, match="destroy_gun"):   # 9 + 2 - (6 + 4) = 1
        easy.fire(plan, ScriptedDice([5, 2, 4]))


def test_tank_game_a_result_below_0_needs_no_destroy(book):
    """Tank Game: 3 damage dice scoring 1 against front armour 2 is -1: no Destroy needed."""
    plan = ShotPlan(book.get(2477), ARMOUR_ONLY, Facing.FRONT)
    dice = [6, 6] + [2] + [1] * (book.get(2477).damage - 1)
    shot = hard_fire.fire(plan, ScriptedDice(dice))
    assert (shot.net, shot.effect) == (-1, Effect.NONE)
    # 2 points: a result of 0 needs Destroy, refused only after the dice that reached it
    with pytest.raises(CardValueMissing, match="destroy"):
        hard_fire.fire(plan, ScriptedDice([6, 6, 2, 2] + [1] * 20))
    # the odds cannot be worked out without it: some result needs it
    with pytest.raises(CardValueMissing, match="destroy"):
        hard_fire.odds(plan)


def test_a_value_every_hit_needs_is_refused_before_any_die(book):
    """The armour hit: every hit's net is the damage less it."""
    dice = ScriptedDice([6] * 20)
    with pytest.raises(CardValueMissing, match="armour_side"):
        hard_fire.fire(ShotPlan(book.get(2477), ARMOUR_ONLY, Facing.SIDE), dice)
    with pytest.raises(CardValueMissing, match="armour_side"):
        easy.fire(ShotPlan(book.get(2464), book.get(2508), Facing.SIDE), dice)
    assert dice.used == 0


def no_damage_gun(he_modifier: int = 0) -> Piece:
    card = validated_card({"id": "popgun", "name": "Popgun", "kind": "hard", "crew": 3,
                           "gun_to_hit": "2-6", "reload": "2-6", "damage": 0,
                           "he_modifier": he_modifier, "armour_front": 1, "destroy": 1})
    return Piece("Popgun 1", Side.AXIS, card, figures=3)


def test_no_damage_dice_need_no_target_values(book):
    """A gun whose card gives 0 damage dice scores nothing: 0 - armour 2 is below 0 whatever
    Destroy is, so neither the shot nor its odds ask for it."""
    plan = ShotPlan(no_damage_gun().card, ARMOUR_ONLY, Facing.FRONT)
    shot = hard_fire.fire(plan, ScriptedDice([6, 6]))
    assert (shot.net, shot.effect) == (-2, Effect.NONE)
    odds = hard_fire.odds(plan)
    assert odds.effects[Effect.NONE] == odds.hit and odds.kill == 0


def test_he_without_damage_dice_needs_nothing_of_a_hard_target(book):
    """"If a hard target is covered by a template use ... the Damage HE Modifier for HE": an HE
    modifier of 0 rolls no damage dice, so the tank's unknown armour and Destroy are needed by
    no result, and neither the fire nor its odds refuse."""
    firer = no_damage_gun()
    tank = Piece("Pz IV D 1", Side.ALLIES, book.get("pz-iv-d"))      # no armour known
    plan = SoftPlan(firer, he_weapon(firer.card), (Covered(tank),), book.table)
    fired = soft_fire.fire(plan, ScriptedDice([6, 6]))
    assert fired.results[0].model_effect is Effect.NONE
    chances = soft_odds.odds(plan)
    assert chances.pieces[0].model is not None
    assert chances.pieces[0].model[Effect.NONE] == 1 and chances.down[0] == 1


def test_he_asks_the_guns_damage_only_of_a_result_that_destroys(book):
    """"Only a weapon with damage dice can destroy": HE's damage dice are the card's, asked only
    when the result destroys (else immobilized)."""
    card = validated_card({"id": "he-only", "name": "HE only", "kind": "hard", "crew": 3,
                           "gun_to_hit": "2-6", "reload": "2-6", "he_modifier": 2})
    firer = Piece("HE 1", Side.AXIS, card, figures=3)
    target = Piece("Armour 1", Side.ALLIES, validated_card(
        {"id": "tank", "name": "Tank", "armour_front": 1, "destroy": 2, "destroy_gun": "-",
         "weaken": "-", "immobilize": "-"}))
    plan = SoftPlan(firer, he_weapon(firer.card), (Covered(target),), book.table)
    low = soft_fire.fire(plan, ScriptedDice([6, 6, 2, 1]))        # 1 - 1 = 0: no effect
    assert low.results[0].model_effect is Effect.NONE
    with pytest.raises(CardValueMissing, match="damage"):          # 6 2, extra 2: 3 - 1 = 2
        soft_fire.fire(plan, ScriptedDice([6, 6, 6, 2, 2]))
    with pytest.raises(CardValueMissing, match="damage"):          # the odds need it
        soft_odds.odds(plan)


def test_he_with_an_unknown_he_modifier_is_refused_before_any_die(book):
    """Every hit on a tank under HE rolls the HE modifier as damage dice."""
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    plan = SoftPlan(tank, he_weapon(tank.card), (Covered(Piece("Tiger 1", Side.ALLIES,
                                                               book.get(2477), figures=5)),),
                    book.table)
    dice = ScriptedDice([6] * 10)
    with pytest.raises(CardValueMissing, match="he_modifier"):
        soft_fire.fire(plan, dice)
    assert dice.used == 0
    with pytest.raises(CardValueMissing, match="he_modifier"):
        soft_odds.odds(plan)


def test_odds_without_damage_dice_are_exact(book):
    plan = ShotPlan(no_damage_gun().card, ARMOUR_ONLY, Facing.FRONT)
    odds = hard_fire.odds(plan)
    assert sum(odds.effects.values(), Fraction(0)) == 1
