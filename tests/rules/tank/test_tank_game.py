"""Tank Game fire at hard targets: modifiers, reload, damage dice, effect order, refusals."""
from __future__ import annotations

import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card import Facing, InfoCard
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import DiceExhausted, ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect, Side, Status
from cobi_companion.rules.tank import hard_fire, scoring


def card(**values) -> InfoCard:
    base = dict(set_number=9001, name="Test tank", gun_to_hit="3-6", reload="4-6", damage=1,
                armour_front=0, armour_side=0, armour_rear=0, armour_top=0, destroy=5,
                destroy_gun=4, weaken="2-3", immobilize=1)
    return validated_card({**base, **values})


def shoot(target_status: Status | None = None, damage_faces: tuple[int, ...] = (2,),
          **target_values) -> tuple[Effect, Status]:
    """One die of damage against armour 0: the net is the number of scoring faces."""
    attacker = card(damage=len(damage_faces))
    target = card(**target_values)
    shot = hard_fire.fire(ShotPlan(attacker, target, Facing.FRONT,
                                   target_status=target_status or Status()),
                          ScriptedDice([6, 6, *damage_faces]))
    return shot.effect, shot.target_after


@pytest.mark.parametrize(("net", "effect"), [
    (0, Effect.NONE), (1, Effect.IMMOBILIZED), (2, Effect.WEAKENED), (3, Effect.WEAKENED),
    (4, Effect.GUN_DESTROYED), (5, Effect.DESTROYED), (6, Effect.DESTROYED)])
def test_effect_of_each_result_on_a_fresh_target(net, effect):
    faces = (2,) * net + (1,) * (net == 0)
    assert shoot(damage_faces=faces)[0] is effect


@pytest.mark.parametrize("before", [Status(weakened=True), Status(gun_destroyed=True)])
@pytest.mark.parametrize("net", [2, 3, 4])
def test_second_major_hit_destroys(before, net):
    assert shoot(before, (2,) * net)[0] is Effect.DESTROYED


def test_immobilize_twice_adds_nothing_and_does_not_destroy_a_weakened_tank():
    effect, after = shoot(Status(weakened=True, immobilized=True), (2,))
    assert effect is Effect.IMMOBILIZED
    assert after == Status(weakened=True, immobilized=True)


def test_gun_destroyed_marks_the_target():
    effect, after = shoot(Status(), (2, 2, 2, 2))
    assert effect is Effect.GUN_DESTROYED and after.gun_destroyed and after.damaged


def test_a_dash_band_never_applies():
    effect, _ = shoot(Status(), (2, 2, 2, 2), destroy_gun="-")
    assert effect is Effect.NONE


@pytest.mark.parametrize(("range_cm", "modified"), [(None, 3), (99.5, 3), (100, 3),
                                                    (100.5, 2), (180, 2)])
def test_over_100_cm_is_minus_one(book, range_cm, modified):
    plan = ShotPlan(book.get(2477), book.get(2464), Facing.FRONT, range_cm=range_cm)
    shot = hard_fire.fire(plan, ScriptedDice([3, 6] + [2] * 40))
    assert shot.to_hit.modified == modified
    assert shot.hit is (modified >= 3)


def test_hull_down_and_range_add_up(book):
    plan = ShotPlan(book.get(2477), book.get(2464), Facing.FRONT, hull_down=True, range_cm=120)
    shot = hard_fire.fire(plan, ScriptedDice([4, 6]))
    assert shot.to_hit.modified == 2 and not shot.hit
    assert [m.value for m in shot.to_hit.modifiers] == [-1, -1]


def test_reload_after_a_miss_and_crew_below_half(book):
    plan = ShotPlan(book.get(2456), book.get(2477), Facing.FRONT, crew_below_half=True)
    shot = hard_fire.fire(plan, ScriptedDice([1, 4]))
    assert shot.effect is Effect.MISS
    assert shot.reload is not None and shot.reload.modified == 3 and not shot.reload.success
    assert shot.attacker_after.words() == ["unloaded"]
    assert shot.faces == (1, 4)  # a miss rolls no damage dice


def test_an_unloaded_gun_cannot_fire(book):
    plan = ShotPlan(book.get(2477), book.get(2464), Facing.FRONT,
                    attacker_status=Status(loaded=False))
    with pytest.raises(RulesError, match="unloaded: it must reload"):
        hard_fire.fire(plan, ScriptedDice([6] * 30))


def test_a_lost_gun_cannot_fire(book):
    plan = ShotPlan(book.get(2477), book.get(2464), Facing.FRONT,
                    attacker_status=Status(gun_destroyed=True))
    with pytest.raises(RulesError, match="lost its gun"):
        hard_fire.fire(plan, ScriptedDice([6] * 30))


def test_unarmed_and_destroyed(book):
    with pytest.raises(RulesError, match="no gun"):
        hard_fire.fire(ShotPlan(book.get(2474), book.get(2477), Facing.FRONT),
                       ScriptedDice([6] * 30))
    with pytest.raises(RulesError, match="already destroyed"):
        hard_fire.fire(ShotPlan(book.get(2477), book.get(2474), Facing.FRONT,
                                target_status=Status(destroyed=True)), ScriptedDice([6] * 30))


def test_too_few_dice_names_the_roll(book):
    plan = ShotPlan(book.get(2477), book.get(2464), Facing.FRONT)
    with pytest.raises(DiceExhausted, match="ran out at the damage die 1 roll"):
        hard_fire.fire(plan, ScriptedDice([4, 5]))


def test_reload_action(book):
    tiger = book.get(2477)
    failed = hard_fire.reload_action(tiger, Status(loaded=False), ScriptedDice([2]))
    assert failed.check.modified == 4 and not failed.after.loaded
    low_crew = hard_fire.reload_action(tiger, Status(loaded=False), ScriptedDice([4]), True)
    assert low_crew.check.modified == 5 and low_crew.after.loaded
    with pytest.raises(RulesError, match="nothing to reload"):
        hard_fire.reload_action(tiger, Status(gun_destroyed=True), ScriptedDice([6]))


def test_winner_when_every_enemy_is_destroyed(book):
    battle = Battle("tank").add(book.get(2477), Side.AXIS).add(book.get(2464), Side.ALLIES)
    battle = battle.add(book.get(2464), Side.ALLIES)
    assert scoring.winner(battle) is None
    battle = battle.with_status("Sherman 1", Status(destroyed=True))
    battle = battle.with_status("Sherman 2", Status(immobilized=True))
    assert scoring.winner(battle) is None  # immobilized is still in the fight
    battle = battle.with_status("Sherman 2", Status(destroyed=True))
    assert scoring.winner(battle) is Side.AXIS
