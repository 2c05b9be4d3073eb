"""Every rule asks for its dice with a typed need: who rolls, what for, the piece, figure and
shot. The box chooses the button from these, never from the words."""
from __future__ import annotations

from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import Facing
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import hard_fire, soft_fire
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, he_weapon


class Recording(ScriptedDice):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(faces)
        self.needs: list[Need] = []

    def roll(self, need: Need) -> int:
        self.needs.append(need)
        return super().roll(need)


def kinds(dice: Recording) -> list[tuple[Roller, Aim]]:
    return [(n.roller, n.aim) for n in dice.needs]


def test_an_easy_shot_the_firer_rolls_to_hit_and_damage_the_target_its_armour(book):
    plan = ShotPlan(book.get("2477"), book.get("2464"), Facing.FRONT)
    dice = Recording([6, 6, 2, 3])
    easy.fire(plan, dice)
    assert kinds(dice) == [(Roller.FIRER, Aim.TO_HIT), (Roller.FIRER, Aim.DAMAGE),
                           (Roller.FIRER, Aim.EXTRA), (Roller.TARGET, Aim.ARMOUR)]
    assert [n.words for n in dice.needs] == ["to hit", "firer D6+", "firer D6+ after a 6",
                                             "target D6+"]


def test_a_tank_game_shot_is_all_the_firers(book):
    plan = ShotPlan(book.get("2477"), book.get("2464"), Facing.FRONT)
    dice = Recording([6, 6] + [1] * 20)
    hard_fire.fire(plan, dice)
    assert dice.needs[:2] == [Need(Roller.FIRER, Aim.TO_HIT, "to hit"),
                              Need(Roller.FIRER, Aim.RELOAD, "reload")]
    assert {n.roller for n in dice.needs} == {Roller.FIRER}
    assert dice.needs[2] == Need(Roller.FIRER, Aim.DAMAGE, "damage die 1", number=1)


def test_initiative_each_side_rolls_its_own_die_and_a_tie_rolls_again():
    dice = Recording([3, 3, 5, 2])
    result = easy.initiative(dice)
    assert result.winner is Side.AXIS and result.rolls == ((3, 3), (5, 2))
    assert [n.roller for n in dice.needs] == [Roller.AXIS, Roller.ALLIES] * 2
    assert easy.roll_off(4, 4) is None
    assert easy.roll_off(2, 5) is Side.ALLIES and easy.roll_off(6, 1) is Side.AXIS


def test_soft_fire_names_the_piece_figure_and_shot_of_each_opposed_die(book):
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    plan = SoftPlan(tank, he_weapon(tank.card), (Covered(gun, 3, ("soft_cover",)),),
                    book.table, cover=True)
    dice = Recording([6, 3, 4, 3, 4, 3, 1, 3, 1, 5])
    soft_fire.fire(plan, dice)
    assert kinds(dice)[:2] == [(Roller.FIRER, Aim.TO_HIT), (Roller.FIRER, Aim.RELOAD)]
    opposed = dice.needs[2:]
    assert [(n.roller, n.aim) for n in opposed[:2]] == [(Roller.ATTACKER, Aim.ATTACK),
                                                        (Roller.DEFENDER, Aim.DEFENCE)]
    assert {n.piece for n in opposed} == {"Bofors 1"}
    assert [n.figure for n in opposed] == [None, None, 1, 1, 2, 2, 3, 3]
    assert all(n.shot is None for n in opposed)          # HE fires once at each
    assert opposed[2].words == "attacker D6: Bofors 1 figure 1"


def test_the_opposed_roll_goes_to_the_defender_on_a_tie(book):
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    covered = Covered(gun, 3, ())
    assert soft_fire.beats(5, 4) and not soft_fire.beats(4, 4)
    assert soft_fire.opposed_effect(covered, 2, 4, 4).value == "miss"
    assert soft_fire.opposed_effect(covered, 2, 5, 4).value == "destroyed"
    assert soft_fire.opposed_effect(covered, None, 5, 4).value == "destroyed"   # the gun


def test_over_100_cm_as_the_players_call_is_minus_one_without_a_made_up_distance(book):
    called = ShotPlan(book.get("2477"), book.get("2464"), Facing.FRONT, over_range=True)
    measured = ShotPlan(book.get("2477"), book.get("2464"), Facing.FRONT, range_cm=120)
    near = ShotPlan(book.get("2477"), book.get("2464"), Facing.FRONT, range_cm=100)
    assert [m.value for m in hard_fire.to_hit_modifiers(called)] == [-1]
    assert "players' call" in hard_fire.to_hit_modifiers(called)[0].reason
    assert [m.value for m in hard_fire.to_hit_modifiers(measured)] == [-1]
    assert hard_fire.to_hit_modifiers(near) == ()
    # a measured distance decides, whatever was called
    both = ShotPlan(book.get("2477"), book.get("2464"), Facing.FRONT, range_cm=80,
                    over_range=True)
    assert hard_fire.to_hit_modifiers(both) == ()


def test_hiding_with_the_players_yes_or_no(book):
    import pytest
    from cobi_companion.rules.errors import RulesError
    from cobi_companion.rules.tank.hiding import can_hide

    squad = Piece("Rifle 1", Side.ALLIES, book.get("rifleman"), figures=2)
    check = can_hide(squad, True, enemy_near=False)
    assert check.cover and check.distance is None and "players' call" in check.reason
    with pytest.raises(RulesError, match="not more than 30 cm away"):
        can_hide(squad, True, enemy_near=True)
