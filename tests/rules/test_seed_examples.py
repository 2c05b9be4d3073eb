"""Every worked example in the seeds, through the rules engine with scripted dice."""
from __future__ import annotations

import pytest
from cobi_companion.rules.card import Facing
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect, Status
from cobi_companion.rules.tank import hard_fire


def test_easy_sherman_destroys_pz_iv(book):
    # 002: to hit 5 (needs 3+); 9 + D6+ 6,6,3 (= 7) = 16; armour 6 + D6+ 4 = 10; 6 >= 4.
    shot = easy.fire(ShotPlan(book.get(2464), book.get(2508), Facing.FRONT),
                     ScriptedDice([5, 6, 6, 3, 4]))
    assert shot.hit and shot.to_hit.roll == 5
    assert shot.damage is not None and shot.armour is not None
    assert (shot.damage.base, shot.damage.rolls, shot.damage.rolled) == (9, (6, 6, 3), 7)
    assert shot.damage.total == 16
    assert (shot.armour.value, shot.armour.rolls, shot.armour.total) == (6, (4,), 10)
    assert shot.net == 6 and shot.effect is Effect.DESTROYED
    assert shot.target_after.destroyed
    used = {(c.card, c.field): c.value for c in shot.card_values}
    assert used == {(2464, "gun_to_hit"): "3-6", (2464, "damage"): "9",
                    (2508, "armour_front"): "6", (2508, "destroy"): "4"}


def test_d6_plus_examples():
    from cobi_companion.rules.trace import Tally

    for faces, value in [([6, 5], 6), ([6, 6, 5], 7), ([6, 6, 6, 4], 8), ([6, 6, 6, 6, 5], 9),
                         ([4], 4), ([1], 1)]:
        rolls, rolled = easy.d6_plus(Tally(ScriptedDice(faces)), "firer")
        assert rolls == tuple(faces) and rolled == value


def test_easy_movement_route(book):
    # 002: 22 cm forward, 6 cm driven, a 90° turn costs 2 x 5: 6 cm left; rough: 1 cm left.
    sherman = book.get(2464)
    assert allowance(sherman, moved=6, turns=2).cm == 6
    assert allowance(sherman, moved=6, turns=2, rough=True).cm == 1
    assert allowance(sherman, turns=4).cm == 2            # turning back costs 20 cm
    assert allowance(sherman, road=True).cm == 32         # road all the way: +10
    assert allowance(sherman, reverse=True).cm == 10


def test_the_road_bonus_is_never_given_to_a_move_across_rough_ground(book):
    """002: "If the vehicle is travelling only on a road surface, add the number of cm in point
    (5)"; a move over "difficult ground (pile of rubble, marsh, river, etc.)" is not only on
    road. Refused, not added up to 22 - 5 + 10."""
    with pytest.raises(RulesError, match="whole move on road") as refused:
        allowance(book.get(2464), rough=True, road=True)
    assert refused.value.code is Refusal.ROAD_AND_ROUGH


def test_tank_7tp_damage_dice_against_pz_i(book):
    # 000: 7TP rolls 4 dice 1,3,5,6 (3 damage), extra 6 (4), extra 2 (5); Pz I front 2: 3.
    shot = hard_fire.fire(ShotPlan(book.get(2456), book.get(2474), Facing.FRONT),
                          ScriptedDice([3, 4, 1, 3, 5, 6, 6, 2]))
    assert shot.damage is not None
    assert shot.damage.rolls == (1, 3, 5, 6, 6, 2) and shot.damage.extra == 2
    assert shot.damage.total == 5 and shot.net == 3
    assert shot.effect is Effect.DESTROYED  # Pz I: Destroy 1


def test_tank_7tp_damage_a_final_one_scores_nothing(book):
    # "(If we had rolled a 1, the total damage would have been 4 damage instead.)"
    shot = hard_fire.fire(ShotPlan(book.get(2456), book.get(2474), Facing.FRONT),
                          ScriptedDice([3, 4, 1, 3, 5, 6, 6, 1]))
    assert shot.damage is not None and shot.damage.total == 4


def test_tank_hull_down_7tp_needs_4(book):
    plan = ShotPlan(book.get(2456), book.get(2474), Facing.FRONT, hull_down=True)
    for face in range(1, 7):
        shot = hard_fire.fire(plan, ScriptedDice([face, 4, 2, 2, 2, 2]))
        assert shot.hit is (face >= 4)
        assert shot.to_hit.modified == face - 1
        assert [m.value for m in shot.to_hit.modifiers] == [-1]


def test_kellys_heroes(book):
    sherman, tiger = book.get(2464), book.get(2477)
    plan = ShotPlan(sherman, tiger, Facing.REAR)
    # The Sherman misses with a 2, then reloads with a 4: the card's 5-6 wins over the text's
    # "he needs a 4-6", so the gun is unloaded.
    miss = hard_fire.fire(plan, ScriptedDice([2, 4]))
    assert miss.effect is Effect.MISS and miss.net is None
    assert miss.reload is not None and not miss.reload.success
    assert miss.attacker_after.words() == ["unloaded"]
    # The Tiger misses with a 2 and fails its reload with a 2: unloaded, cannot fire.
    tiger_shot = hard_fire.fire(ShotPlan(tiger, sherman, Facing.FRONT), ScriptedDice([2, 2]))
    assert not tiger_shot.attacker_after.loaded
    # First hit: 3 to hit, 5 reloads; 9 dice 3,6,4,4,6,3,1,2,4 = 8 + extras 4,2 = 10; 10 - 8 = 2.
    first = hard_fire.fire(plan, ScriptedDice([3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2]))
    assert first.reload is not None and first.reload.success
    assert first.damage is not None and first.damage.total == 10 and first.net == 2
    assert first.effect is Effect.WEAKENED and first.target_after.words() == ["weakened"]
    # The Tiger reloads doing nothing else: 4 + 2 = 6, it needed 5-6.
    reloaded = hard_fire.reload_action(tiger, Status(loaded=False), ScriptedDice([4]))
    assert reloaded.check.modified == 6 and reloaded.after.loaded
    # Second hit: 4,2,1,4,2,2,3,6,6 = 8, extras 5,6 = 10, extra 4 = 11; 11 - 8 = 3: Weaken on
    # a weakened Tiger is a second major hit, destroyed.
    second = hard_fire.fire(ShotPlan(sherman, tiger, Facing.REAR,
                                     target_status=first.target_after),
                            ScriptedDice([4, 5, 4, 2, 1, 4, 2, 2, 3, 6, 6, 5, 6, 4]))
    assert second.damage is not None
    assert second.damage.rolls == (4, 2, 1, 4, 2, 2, 3, 6, 6, 5, 6, 4)
    assert second.damage.total == 11 and second.net == 3
    assert second.effect is Effect.DESTROYED
    assert "second major hit" in second.reason
    assert second.target_after.words() == ["weakened", "destroyed"]
