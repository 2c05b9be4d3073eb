"""Easy level: to hit inside the range, D6+ damage against D6+ armour, damaged means doomed."""
from __future__ import annotations

import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card import Facing
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.easy.refusals import EasyRefusal
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.levels import rule_set
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect, Side, Status


def test_to_hit_is_inside_the_range(book):
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.FRONT)
    for face in range(1, 7):
        shot = easy.fire(plan, ScriptedDice([face, 1, 1]))
        assert shot.hit is (face >= 3)
        assert shot.reload is None  # no reloading at the Easy level


def test_any_hit_destroys_a_damaged_vehicle_without_a_damage_roll(book):
    for before in (Status(weakened=True), Status(gun_destroyed=True)):
        plan = ShotPlan(book.get(2456), book.get(2477), Facing.FRONT, target_status=before)
        shot = easy.fire(plan, ScriptedDice([3]))
        assert shot.effect is Effect.DESTROYED and shot.faces == (3,)
        assert shot.damage is None and "any further hit" in shot.reason


def test_effects_by_result(book):
    # Sherman (damage 9) at the Tiger's front (12); dice: to hit, firer's D6+, target's D6+.
    # Tiger: Destroy 5, Destroy Gun 4, Weaken 2-3, Immobilize 1.
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.FRONT)
    shot = easy.fire(plan, ScriptedDice([3, 6, 6, 6, 1, 1]))
    assert shot.net == 9 + 8 - (12 + 1) == 4 and shot.effect is Effect.GUN_DESTROYED
    assert shot.target_after.gun_destroyed
    shot = easy.fire(plan, ScriptedDice([3, 5, 1]))
    assert shot.net == 1 and shot.effect is Effect.IMMOBILIZED
    shot = easy.fire(plan, ScriptedDice([3, 6, 4, 1]))
    assert shot.net == 2 and shot.effect is Effect.WEAKENED
    shot = easy.fire(plan, ScriptedDice([3, 6, 6, 6, 6, 1, 1]))
    assert shot.net == 5 and shot.effect is Effect.DESTROYED
    shot = easy.fire(plan, ScriptedDice([3, 1, 5]))
    assert shot.net == -7 and shot.effect is Effect.NONE


def test_easy_has_no_modifiers(book):
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.FRONT, hull_down=True)
    with pytest.raises(RulesError, match="Easy level has no modifiers"):
        easy.fire(plan, ScriptedDice([6]))
    with pytest.raises(RulesError, match="Easy level has no modifiers"):
        easy.odds(plan)


def test_easy_hits_front_side_or_rear_never_top(book):
    """The Polish original: "Jeśli przodem, to ... (10). Jeśli cel ustawiony był bokiem ...
    (11), a jeśli tyłem to patrz (12)": front, side and rear; the top armour is the Tank
    Game's. Refused before any die is rolled, and the odds refuse it too."""
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.TOP)
    dice = ScriptedDice([6, 6, 6])
    with pytest.raises(RulesError, match="front, side or rear") as refused:
        easy.fire(plan, dice)
    assert refused.value.code is EasyRefusal.EASY_NO_TOP and dice.used == 0
    with pytest.raises(RulesError, match="front, side or rear"):
        easy.odds(plan)
    assert easy.FACINGS == rule_set("easy").facings == (Facing.FRONT, Facing.SIDE, Facing.REAR)
    assert Facing.TOP in rule_set("tank").facings


def test_a_gunless_vehicle_cannot_fire(book):
    plan = ShotPlan(book.get(2464), book.get(2477), Facing.FRONT,
                    attacker_status=Status(gun_destroyed=True))
    with pytest.raises(RulesError, match="lost its gun"):
        easy.fire(plan, ScriptedDice([6]))


def test_unknown_card_value_names_card_file_and_field(book):
    plan = ShotPlan(book.get(2464), book.get(2508), Facing.FRONT)
    with pytest.raises(RulesError) as info:
        easy.fire(plan, ScriptedDice([5, 2, 4]))  # 9 + 2 - (6 + 4) = 1: needs Destroy Gun
    message = str(info.value)
    assert "2508" in message and "2508-pz-iv-h.toml" in message and "destroy_gun" in message


def test_initiative_ties_roll_again():
    result = easy.initiative(ScriptedDice([4, 4, 2, 2, 1, 5]))
    assert result.rolls == ((4, 4), (2, 2), (1, 5)) and result.winner is Side.ALLIES
    assert easy.initiative(ScriptedDice([6, 1])).winner is Side.AXIS


def test_winner_destroys_or_immobilizes_every_enemy(book):
    battle = Battle("easy").add(book.get(2477), Side.AXIS).add(book.get(2464), Side.ALLIES)
    battle = battle.add(book.get(2456), Side.ALLIES)
    assert easy.winner(battle) is None
    battle = battle.with_status("Sherman 1", Status(destroyed=True))
    assert easy.winner(battle) is None
    battle = battle.with_status("7TP 1", Status(immobilized=True))
    assert easy.winner(battle) is Side.AXIS


def test_a_damaged_partial_card_needs_no_armour(book):
    plan = ShotPlan(book.get(2464), book.get(2508), Facing.SIDE,
                    target_status=Status(weakened=True))
    assert easy.fire(plan, ScriptedDice([4])).effect is Effect.DESTROYED
    assert easy.odds(plan).effects[Effect.DESTROYED] == easy.odds(plan).hit
    with pytest.raises(RulesError, match="armour_side"):
        easy.fire(ShotPlan(book.get(2464), book.get(2508), Facing.SIDE), ScriptedDice([4]))
