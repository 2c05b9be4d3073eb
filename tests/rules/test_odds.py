"""Exact odds: values checked by hand, refusals, and agreement with the closed forms."""
from __future__ import annotations

from fractions import Fraction

import pytest
from cobi_companion.rules.card import Facing
from cobi_companion.rules.dice_maths import (
    d6_plus_difference,
    d6_plus_difference_at_least,
    damage_dice,
    damage_dice_at_least,
)
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.odds import OUTCOMES
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect, Status
from cobi_companion.rules.tank import hard_fire


def test_check_values_from_the_notes():
    assert d6_plus_difference_at_least(0) == Fraction(73, 126)
    assert d6_plus_difference_at_least(1) == Fraction(53, 126)
    assert d6_plus_difference_at_least(3) == Fraction(781, 4536)
    assert d6_plus_difference_at_least(7) == Fraction(5443, 21 * 6**7)
    assert d6_plus_difference(-6) == Fraction(27215, 126 * 6**6)
    assert float(damage_dice(8, 8) + damage_dice(8, 9)) == pytest.approx(0.4111192, abs=5e-8)
    assert float(damage_dice_at_least(8, 11)) == pytest.approx(0.0825100, abs=5e-8)


def test_one_damage_die():
    # 1 -> 0; 2-5 -> 1; a 6 scores 1 and rolls again.
    assert damage_dice(1, 0) == Fraction(1, 6)
    assert damage_dice(1, 1) == Fraction(4, 6) + Fraction(1, 6) * Fraction(1, 6)
    assert damage_dice_at_least(1, 0) == 1


def test_tank_odds_by_hand(book):
    # 7TP (3-6, reload 4-6, 4 dice) at the Pz I front (armour 2, Destroy 1): destroyed when
    # the 4 dice score 3 or more.
    odds = hard_fire.odds(ShotPlan(book.get(2456), book.get(2474), Facing.FRONT))
    assert odds.hit == Fraction(4, 6) and odds.reload == Fraction(3, 6)
    assert odds.effects[Effect.DESTROYED] == Fraction(4, 6) * damage_dice_at_least(4, 3)
    assert odds.effects[Effect.NONE] == Fraction(4, 6) * (1 - damage_dice_at_least(4, 3))
    assert odds.effects[Effect.MISS] == Fraction(2, 6)
    assert sum(odds.effects.values()) == 1


def test_tank_odds_modifiers(book):
    plan = ShotPlan(book.get(2477), book.get(2464), Facing.FRONT, hull_down=True,
                    range_cm=101, crew_below_half=True)
    odds = hard_fire.odds(plan)
    assert odds.hit == Fraction(2, 6) and odds.reload == Fraction(1, 6)
    assert [m.value for m in odds.modifiers] == [-1, -1]


def test_a_weakened_tiger_has_no_weaken_or_gun_lost_left(book):
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.REAR,
                    target_status=Status(weakened=True))
    odds = hard_fire.odds(plan)
    assert odds.effects[Effect.WEAKENED] == 0 and odds.effects[Effect.GUN_DESTROYED] == 0
    hit = Fraction(4, 6)
    # Rear armour 8: net 1 immobilizes, net 2 and more destroys.
    assert odds.effects[Effect.IMMOBILIZED] == hit * damage_dice(9, 9)
    assert odds.effects[Effect.DESTROYED] == hit * damage_dice_at_least(9, 10)


def test_easy_odds_by_hand(book):
    # Sherman (damage 9) at the Tiger side (8, Destroy 5): net = 1 + the D6+ difference.
    odds = easy.odds(ShotPlan(book.get(2464), book.get(2477), Facing.SIDE))
    delta = 9 - 8
    assert odds.reload is None
    assert odds.effects[Effect.DESTROYED] == Fraction(4, 6) * d6_plus_difference_at_least(
        5 - delta)
    assert odds.effects[Effect.IMMOBILIZED] == Fraction(4, 6) * d6_plus_difference(1 - delta)
    assert sum(odds.effects.values()) == 1
    assert list(odds.effects) == list(OUTCOMES)


def test_easy_odds_damaged_target_is_the_hit_chance(book):
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.FRONT,
                    target_status=Status(gun_destroyed=True))
    odds = easy.odds(plan)
    assert odds.effects[Effect.DESTROYED] == odds.hit == Fraction(4, 6)


def test_odds_refuse_an_unknown_card_value(book):
    with pytest.raises(RulesError, match="2508"):
        hard_fire.odds(ShotPlan(book.get(2477), book.get(2508), Facing.FRONT))
