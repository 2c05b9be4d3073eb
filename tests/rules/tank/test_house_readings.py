"""The readings players argue about, each a house rule (rules/house.py): the default keeps the
reading of docs/rules-notes.md, the other value changes what the rules do, and the trace names
the house rule that changed something."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.movement import allowance
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank import scoring, soft_fire, soft_odds, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.scoring import BattleResult, Match, Score, Team
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan
from cobi_companion.rules.tank.turns import GUN

TRUCK = validated_card({"id": "truck", "name": "Truck", "kind": "soft", "crew": 1,
                        "armour_front": 0, "armour_side": 0, "armour_rear": 0, "armour_top": 0,
                        "destroy": 9, "destroy_gun": "-", "weaken": "-", "immobilize": 1})


def refusal(call) -> object:
    with pytest.raises(RulesError) as raised:
        call()
    return raised.value.code


@pytest.fixture
def field(book) -> Battle:
    """Axis: Tiger 1, Rifle 1 (3); Allies: Sherman 1, Truck 1."""
    battle = Battle("tank")
    for card, side, figures in ((book.get("2477"), Side.AXIS, None),
                                (book.get("rifleman"), Side.AXIS, 3),
                                (book.get("2464"), Side.ALLIES, None), (TRUCK, Side.ALLIES, None)):
        battle = battle.add(card, side, figures)
    return battle


def axis() -> turns.Turn:
    return turns.first_turn(Side.AXIS)


# 1. extra_activation: "the same pieces again" -----------------------------------------------


def test_the_extra_activation_takes_new_pieces_or_by_the_house_rule_the_same(field):
    turn = turns.end_activation(turns.activate(axis(), field, ["Tiger 1"]))   # no fire
    assert refusal(lambda: turns.activate(turn, field, ["Tiger 1"])) \
        is TankRefusal.ALREADY_ACTIVATED
    same = HouseRules(extra_activation="same_pieces")
    again = turns.activate(turn, field, ["Tiger 1"], house=same)
    assert again.current is not None and again.current.extra
    assert again.current.house_rules == (("extra_activation", "same_pieces"),)
    assert "house rule extra_activation = same_pieces" in again.current.text()
    # kept in a save, and a save without it loads as before
    saved = turns.Turn.from_dict(again.to_dict())
    assert saved.current is not None and saved.current.house_rules == again.current.house_rules
    # a third activation is still refused: one extra, whoever is in it
    done = turns.end_activation(again)
    assert refusal(lambda: turns.activate(done, field, ["Rifle 1"], house=same)) \
        is TankRefusal.ACTIVATIONS_USED


# 2. weapons: one weapon a piece ------------------------------------------------------------


RIFLE_NO_DAMAGE = validated_card({"id": "rifleman", "name": "Rifleman", "kind": "figure",
                                  "crew": 1, "weapons": [{"name": "rifle", "damage": "none"}]})
GRENADIER = validated_card({"id": "grenadier", "name": "Grenadier", "kind": "figure",
                            "weapons": [{"name": "rifle"},
                                        {"name": "grenade", "template": "grenade"}]})
TIGER_MG = validated_card({"id": "tiger-mg", "name": "Tiger", "kind": "hard", "crew": 5,
                           "gun_to_hit": "3-6", "reload": "5-6", "damage": 5,
                           "weapons": [{"name": "MG", "template": "mg", "mount": "hull"}]})


def test_each_weapon_once_or_by_the_house_rule_one_weapon_a_figure():
    battle = Battle("tank").add(GRENADIER, Side.AXIS, 2)
    turn = turns.activate(axis(), battle, ["Grenadier 1"])
    for _ in range(2):
        turn = turns.shoot(turn, battle, "Grenadier 1", "rifle")
    current, squad = turn.current, battle.get("Grenadier 1")
    assert current is not None
    turns.check_shot(turn, battle, "Grenadier 1", "grenade")   # each weapon once a figure
    assert turns.shots_left(current, squad) == 2
    one = HouseRules(weapons="one")                              # each figure has fired
    assert turns.shots_left(current, squad, one) == 0
    assert refusal(lambda: turns.check_shot(turn, battle, "Grenadier 1", "grenade", one)) \
        is TankRefusal.ONE_WEAPON


def test_a_tank_fires_its_gun_and_mg_or_by_the_house_rule_only_one_weapon():
    battle = Battle("tank").add(TIGER_MG, Side.AXIS)
    turn = turns.shoot(turns.activate(axis(), battle, ["Tiger 1"]), battle, "Tiger 1", GUN)
    turns.check_shot(turn, battle, "Tiger 1", "MG")
    with pytest.raises(RulesError) as refused:         # a model: one weapon, no "a figure"
        turns.check_shot(turn, battle, "Tiger 1", "MG", HouseRules(weapons="one"))
    assert refused.value.code is TankRefusal.ONE_WEAPON_MODEL
    assert str(refused.value) == ("Tiger 1 has fired: a vehicle or gun fires one weapon in an "
                                  "activation (house rule)")


# 3. fire_then_move --------------------------------------------------------------------------


def test_a_piece_that_fired_may_move_or_by_the_house_rule_not(field):
    turn = turns.activate(axis(), field, ["Tiger 1"])
    turn, battle = turns.fire(turn, field, "Tiger 1")
    turns.move(turn, battle, "Tiger 1")
    assert refusal(lambda: turns.move(turn, battle, "Tiger 1", house=HouseRules(
        fire_then_move="refused"))) is TankRefusal.FIRED_NO_MOVE


# 4. match_score -----------------------------------------------------------------------------


def test_the_match_scores_the_winners_or_by_the_house_rule_both_teams(field):
    # battle 1: Axis (team 1) wins with 5, Allies had 6 left; battle 2: Axis (team 2) wins with 4
    axis_won = BattleResult(Side.AXIS, Side.ALLIES, Score(Side.AXIS, ()), 6)
    first = BattleResult(Side.AXIS, Side.ALLIES, Score(Side.AXIS, (
        scoring.ScoreLine("Tiger 1", field.get("Tiger 1").kind, 5, "vehicle"),)), 6)
    second = BattleResult(Side.AXIS, None, Score(Side.AXIS, (
        scoring.ScoreLine("Tiger 1", field.get("Tiger 1").kind, 4, "vehicle"),)), 3)
    match = Match((first, second))
    assert match.totals() == {Team.ONE: 5, Team.TWO: 4}
    both = HouseRules(match_score="both")
    assert match.totals(both) == {Team.ONE: 5 + 3, Team.TWO: 4 + 6}
    assert match.result(both).winner is Team.TWO and "match_score = both" in match.result(
        both).reason
    assert match.result().winner is Team.ONE
    assert BattleResult.from_dict(first.to_dict()) == first
    old = first.to_dict()
    del old["loser_figures"]                   # a battle saved before: the rules' reading
    assert BattleResult.from_dict(old).loser_figures == 0
    assert axis_won.figures == 0
    assert scoring.battle_result(field, gave_up=Side.ALLIES).loser_figures == 5 + 1  # crews


# 5. and 6. movement: rough once or a patch, road backward --------------------------------------


def test_rough_ground_once_or_by_the_house_rule_each_patch(book):
    tiger = book.get("2477")
    once = allowance(tiger, rough=3)
    each = allowance(tiger, rough=3, house=HouseRules(rough="each"))
    assert once.cm == tiger.move_forward - 5 and once.house_rules == ()
    assert each.cm == tiger.move_forward - 15 and each.house_rules == (("rough", "each"),)
    assert allowance(tiger, rough=True, house=HouseRules(rough="each")).cm == once.cm


def test_the_road_bonus_backward_or_by_the_house_rule_forward_only(book):
    tiger = book.get("2477")
    allowed = allowance(tiger, reverse=True, road=True)
    forward_only = allowance(tiger, reverse=True, road=True,
                             house=HouseRules(road_reverse="forward_only"))
    assert allowed.cm == tiger.move_backward + 10
    assert forward_only.cm == tiger.move_backward
    assert forward_only.house_rules == (("road_reverse", "forward_only"),)
    assert allowance(tiger, road=True, house=HouseRules(road_reverse="forward_only")).cm == \
        tiger.move_forward + 10


# 8. soft_damage: the raw or the modified difference -----------------------------------------


def test_a_soft_vehicle_takes_the_modified_or_by_the_house_rule_the_raw_difference(book,
                                                                                  field):
    # the shipped rifle's damage dice are not known (a destroying result would be refused):
    # this rifle's card says none, so the odds are exact
    rifle = replace(field.get("Rifle 1"), card=RIFLE_NO_DAMAGE)
    truck = field.get("Truck 1")
    plan = SoftPlan(rifle, rifle.card.weapon("rifle"), (Covered(truck, 0),), book.table,
                    range_cm=45)                      # rifle at 45 cm: +2
    modified = soft_fire.fire(plan, ScriptedDice([5, 3, 1, 1, 1, 1]))   # 7 against 3: 4 dice
    assert modified.attacks[0].damage is not None and modified.attacks[0].damage.dice == 4
    assert modified.house_rules == ()
    raw_plan = SoftPlan(rifle, rifle.card.weapon("rifle"), (Covered(truck, 0),), book.table,
                        range_cm=45, house=HouseRules(soft_damage="raw"))
    raw = soft_fire.fire(raw_plan, ScriptedDice([5, 3, 1, 1]))         # 5 − 3: 2 dice
    assert raw.attacks[0].damage is not None and raw.attacks[0].damage.dice == 2
    assert ("soft_damage", "raw") in raw.house_rules
    nothing = soft_fire.fire(raw_plan, ScriptedDice([3, 3]))           # 5 against 3: a hit
    assert nothing.attacks[0].effect is Effect.NONE and "no damage dice" in \
        nothing.attacks[0].reason
    # the odds follow it: fewer dice, so less chance of the truck immobilized
    odds, raw_odds = soft_odds.odds(plan), soft_odds.odds(raw_plan)
    assert raw_odds.pieces[0].model is not None and odds.pieces[0].model is not None
    assert raw_odds.pieces[0].model[Effect.MISS] == odds.pieces[0].model[Effect.MISS]
    assert raw_odds.pieces[0].model[Effect.NONE] > odds.pieces[0].model[Effect.NONE]
    assert sum(raw_odds.pieces[0].model.values(), Fraction(0)) == 1
    assert ("soft_damage", "raw") in raw_odds.house_rules


def test_soft_damage_raw_is_named_only_where_it_changed_the_dice(book, field):
    """Without modifiers the die as rolled is the modified result: the house rule changed
    nothing, and neither the fire nor its odds name it; the attack says its raw dice typed."""
    rifle, truck = field.get("Rifle 1"), field.get("Truck 1")
    even = SoftPlan(rifle, rifle.card.weapon("rifle"), (Covered(truck, 0, ("soft_cover",)),),
                    book.table, range_cm=120, house=HouseRules(soft_damage="raw"))  # +1 -1
    fired = soft_fire.fire(even, ScriptedDice([5, 3, 1, 1]))
    assert fired.attacks[0].damage is not None and fired.attacks[0].damage.dice == 2
    assert fired.attacks[0].raw_dice == 2 and not fired.attacks[0].raw_changed
    assert fired.house_rules == () and soft_odds.odds(even).house_rules == ()
    plus_two = replace(even, targets=(Covered(truck, 0),), range_cm=45)
    missed = soft_fire.fire(plus_two, ScriptedDice([1, 3]))              # 3 against 3: miss
    assert missed.house_rules == ()
    nothing = soft_fire.fire(plus_two, ScriptedDice([3, 3]))             # 5 against 3: 0 raw
    assert (nothing.attacks[0].raw_dice, nothing.attacks[0].raw_changed) == (0, True)
    assert nothing.house_rules == (("soft_damage", "raw"),)
