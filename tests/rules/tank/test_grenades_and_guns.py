"""Issue 35, points 3-5: a hand grenade rolls its "To hit" first; a main gun without HE fires
at one figure or soft vehicle; a weapon value its card does not give is not known, not none."""
from __future__ import annotations

import tomllib
from dataclasses import replace
from fractions import Fraction

import pytest
from cobi_companion.cards.learned import toml_text
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import Aim, Need, ScriptedDice
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.house import DEFAULT, HouseRules
from cobi_companion.rules.status import Effect, Side, Status
from cobi_companion.rules.tank import choices, turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_fire import (
    Covered,
    SoftPlan,
    fire,
    gun_weapon,
    missing,
)
from cobi_companion.rules.tank.soft_odds import odds
from cobi_companion.rules.tank.soft_table import Lack, MissingValue, Wanted
from cobi_companion.rules.tank.soft_table_schema import validated_table

GRENADIER = validated_card({
    "id": "grenadier", "name": "Grenadier", "kind": "figure", "crew": 1,
    "weapons": [{"name": "rifle"}, {"name": "hand grenade", "template": "grenade"}]})
TRUCK = validated_card({"id": "truck", "name": "Truck", "kind": "soft", "crew": 1,
                        "armour_front": 0, "armour_side": 0, "armour_rear": 0, "armour_top": 0,
                        "destroy": 2, "destroy_gun": "-", "weaken": "-", "immobilize": 1})
PRINTED = HouseRules(soft_table="printed")
ESTIMATED_TO_HIT = ("estimate: 3-6, the only To hit the rules print (every gun's card, the HE "
                    "example)")


def piece(book, key, figures=None, side=Side.ALLIES, **status) -> Piece:
    card = book.get(key)
    return Piece(card.short, side, card, Status(**status),
                 figures if figures is not None else card.crew)


def throw(book, figures=2, house=DEFAULT, table=None) -> SoftPlan:
    thrower = Piece("Gren 1", Side.AXIS, GRENADIER, figures=1)
    return SoftPlan(thrower, GRENADIER.weapon("hand grenade"),
                    (Covered(piece(book, "rifleman", 3), figures, ("soft_cover",)),),
                    table or book.table, house=house)


# ---- point 3: a hand grenade rolls To hit on the Infantry Weapon Table first ----


def test_a_grenade_that_misses_its_to_hit_attacks_nobody(book):
    """Seed 000: hand grenades "use the 'To hit' die roll on the 'Infantry Weapon Table'"; our
    table's estimate is 3-6: a 2 misses, and no attack is rolled."""
    shot = fire(throw(book), ScriptedDice([2, 6, 1, 6, 1]))
    assert not shot.hit and shot.attacks == () and shot.down == 0
    assert shot.to_hit is not None and shot.to_hit.needed.low == 3
    # the table is not printed: the trace says whose value it is (our estimate)
    assert shot.to_dict()["to_hit"] == {"roll": 2, "modifiers": [], "modified": 2,
                                        "needed": 3, "range": "3-6",
                                        "source": ESTIMATED_TO_HIT}
    assert shot.faces == (2,)


def test_a_grenade_that_hits_attacks_each_figure_under_it(book):
    # To hit 5; figure 1: 4 +2 template -1 soft cover = 5 against 3, down; figure 2: 1+1 vs 5
    shot = fire(throw(book), ScriptedDice([5, 4, 3, 1, 5]))
    assert shot.hit and shot.to_hit is not None and shot.to_hit.roll == 5
    assert [a.effect.value for a in shot.attacks] == ["destroyed", "miss"]
    assert shot.down == 1 and shot.reload is None


def test_the_odds_of_a_grenade_include_its_to_hit(book):
    chances = odds(throw(book, figures=1))
    assert chances.hit == Fraction(2, 3)                      # 3-6
    per_figure = chances.pieces[0].per_figure
    assert per_figure is not None
    assert chances.all_down == Fraction(2, 3) * per_figure
    assert chances.to_dict()["hit_exact"] == "2/3"


def test_with_your_table_the_to_hit_is_wanted_before_any_die(book):
    plan = throw(book, house=PRINTED, table=validated_table({
        "weapons": {"hand grenade": {"template": {"modifier": 2}}},
        "situations": {"soft_cover": {"modifier": -1}}}))
    assert missing(plan) == (Wanted(Lack.TO_HIT, "hand grenade"),)
    dice = ScriptedDice([6] * 6)
    with pytest.raises(MissingValue) as refused:
        fire(plan, dice)
    assert refused.value.code is TankRefusal.TABLE_NO_TO_HIT and len(dice.left) == 6
    learned = replace(plan, table=plan.table.answered(Wanted(Lack.TO_HIT, "hand grenade"), 4,
                                                      "learned at the table"))
    assert missing(learned) == ()
    assert not fire(learned, ScriptedDice([3])).hit                # 4-6: a 3 misses
    assert odds(learned).hit == Fraction(1, 2)


def test_a_learned_to_hit_is_written_and_read_back(book):
    table = book.table.answered(Wanted(Lack.TO_HIT, "stick grenade"), 5, "learned")
    text = toml_text(table.learned)
    assert 'to_hit = { needs = 5, source = "learned" }' in text
    again = validated_table(tomllib.loads(text))
    assert again.to_hit("stick grenade").needs == 5


def test_a_table_file_may_give_a_to_hit_from_1_to_6():
    with pytest.raises(ValueError, match="needs"):
        validated_table({"weapons": {"grenade": {"to_hit": {"needs": 7}}}})


# ---- point 4: a main gun without HE fires at one figure or soft vehicle ----


def gun_at(book, target: Covered, cm=30.0, **status) -> SoftPlan:
    """The 7TP's gun; our table's estimate for a main gun: +2 to 100 cm (the rifle's)."""
    tp = piece(book, "2456", side=Side.AXIS, **status)
    return SoftPlan(tp, gun_weapon(tp.card), (target,), book.table, range_cm=cm)


def test_the_7tp_fires_its_gun_at_one_figure_and_reloads(book):
    """"First check to see if the weapon has a template (if None), then only one figure or
    soft vehicle is the target": the 7TP's card says Damage HE Modifier none. Attacker 4 + 2
    (our table) = 6 against 2: down; its reload die, thrown with the attacker's, is 3 (needs
    4-6): unloaded."""
    shot = fire(gun_at(book, Covered(piece(book, "rifleman", 3), 1)), ScriptedDice([4, 3, 2]))
    assert shot.down == 1 and shot.to_hit is None
    assert shot.reload is not None and (shot.reload.roll, shot.reload.success) == (3, False)
    assert not shot.firer_after.status.loaded
    assert shot.to_dict()["reload"]["loaded"] is False


def test_the_7tp_at_a_soft_vehicle_rolls_the_difference_as_damage_dice(book):
    """"If the target was soft vehicles ... Use the difference between the attacker roll and
    the defender roll as the number of damage dice": 6 + 2 against 2, six dice; the gun has
    damage dice (Damage 4), so a result of destroyed destroys."""
    truck = Piece("Truck 1", Side.ALLIES, TRUCK, figures=1)
    shot = fire(gun_at(book, Covered(truck, 0)), ScriptedDice([6, 5, 2, 2, 2, 2, 2, 2, 2]))
    attack = shot.attacks[0]
    assert attack.difference == 6 and attack.damage is not None
    assert attack.effect.value == "destroyed"
    assert shot.reload is not None and shot.reload.success


def test_the_odds_of_the_7tp_gun_at_a_figure_include_its_reload(book):
    chances = odds(gun_at(book, Covered(piece(book, "rifleman", 3), 1)))
    assert chances.hit == 1 and chances.reload == Fraction(1, 2)
    assert chances.all_down == Fraction(26, 36)       # 2 + a die against a die


def test_your_table_asks_for_the_main_guns_value(book):
    plan = replace(gun_at(book, Covered(piece(book, "rifleman", 3), 1)), house=PRINTED)
    assert missing(plan) == (Wanted(Lack.RANGE, "main gun", 30.0),)


@pytest.mark.parametrize(("target", "why"), [
    (lambda b: Covered(piece(b, "rifleman", 3), 2), "only template weapons attack several"),
    (lambda b: Covered(piece(b, "bofors-37mm"), 0), "AP is not effective against guns"),
])
def test_the_gun_without_he_has_one_target_and_no_gun(book, target, why):
    dice = ScriptedDice([6] * 4)
    with pytest.raises(RulesError, match=why):
        fire(gun_at(book, target(book)), dice)
    assert len(dice.left) == 4


def test_the_gun_without_he_fires_loaded_and_only_from_a_card_without_he(book):
    with pytest.raises(RulesError, match="is unloaded"):
        fire(gun_at(book, Covered(piece(book, "rifleman", 3), 1), loaded=False),
             ScriptedDice([6] * 3))
    with pytest.raises(RulesError) as has_he:
        gun_weapon(book.get("2477"))
    assert has_he.value.code is TankRefusal.MAIN_GUN_HAS_HE


def test_the_reload_die_is_thrown_with_the_attackers(book):
    """The box's attacker press throws both of its dice, then the defender's: no press more."""
    asked: list[Need] = []

    class Recorded(ScriptedDice):
        def roll(self, need: Need) -> int:
            asked.append(need)
            return super().roll(need)
    fire(gun_at(book, Covered(piece(book, "rifleman", 3), 1)), Recorded([4, 3, 2]))
    assert [n.aim for n in asked] == [Aim.ATTACK, Aim.RELOAD, Aim.DEFENCE]


# ---- point 5: a weapon value the card does not give is refused, not read as none ----


def mg_over_tiger(book, weapon=None) -> SoftPlan:
    mg = piece(book, "mg-gunner", 1, Side.AXIS)
    return SoftPlan(mg, weapon or mg.card.weapon("medium mg"), (Covered(piece(book, "2477"), 0),),
                    book.table)


def test_an_mg_whose_damage_dice_are_not_known_is_refused_before_any_die(book):
    dice = ScriptedDice([6] * 4)
    with pytest.raises(RulesError) as refused:
        fire(mg_over_tiger(book), dice)
    assert refused.value.code is TankRefusal.WEAPON_VALUE_MISSING and len(dice.left) == 4
    assert "mg-gunner.toml" in str(refused.value) and "damage" in str(refused.value)
    with pytest.raises(RulesError, match="has no value for its medium MG's damage"):
        odds(mg_over_tiger(book))


def test_an_mg_whose_card_says_none_does_nothing_to_a_tank(book):
    mg = book.get("mg-gunner").weapon("medium mg")
    none = validated_card({"id": "mg2", "name": "MG", "kind": "figure", "crew": 1, "weapons": [
        {"name": "medium MG", "template": "mg", "shots": 2, "damage": "none"}]}).weapons[0]
    assert not mg.known("damage") and none.known("damage")
    shot = fire(mg_over_tiger(book, none), ScriptedDice([]))
    assert shot.attacks[0].effect.value == "none"


# ---- the review: a weapon's damage dice not known at a soft vehicle; a gun's HE not known ----


def mg_over_truck(book, weapon=None) -> SoftPlan:
    mg = piece(book, "mg-gunner", 1, Side.AXIS)
    truck = Piece("Truck 1", Side.ALLIES, TRUCK, figures=1)
    return SoftPlan(mg, weapon or mg.card.weapon("medium mg"), (Covered(truck, 0),), book.table)


def test_an_mg_whose_damage_dice_are_not_known_cannot_say_a_truck_is_only_immobilized(book):
    """"Only weapons with a positive damage die value can destroy vehicles, if the information
    card indicates destroyed and the weapon firing has no Damage Die value the target is
    Immobilized instead": the shipped medium MG's damage dice are not known, so a result of
    destroyed (6 + 2 against 1: seven dice of 2 = 7 ≥ Destroy 2) asks them and is refused."""
    with pytest.raises(RulesError) as refused:
        fire(mg_over_truck(book), ScriptedDice([6, 1, *[2] * 7]))
    assert refused.value.code is TankRefusal.WEAPON_VALUE_MISSING
    assert "has no value for its medium MG's damage" in str(refused.value)


def test_an_mg_whose_damage_is_not_known_still_misses_and_immobilizes_a_truck(book):
    """A result that does not destroy never asks the weapon's damage dice: 1 + 2 against 6 is a
    miss; 1 + 2 against 2 is one damage die, a 4, for 1: immobilized (Immobilize 1)."""
    assert fire(mg_over_truck(book), ScriptedDice([1, 6])).attacks[0].effect.value == "miss"
    assert fire(mg_over_truck(book), ScriptedDice([1, 2, 4])).attacks[0].effect.value \
        == "immobilized"


def test_the_odds_of_an_mg_not_known_at_a_truck_are_refused(book):
    """The odds cannot be exact without it: some result destroys, so they refuse."""
    with pytest.raises(RulesError) as refused:
        odds(mg_over_truck(book))
    assert refused.value.code is TankRefusal.WEAPON_VALUE_MISSING


def test_an_mg_whose_card_says_none_immobilizes_a_truck_instead(book):
    none = validated_card({"id": "mg2", "name": "MG", "kind": "figure", "crew": 1, "weapons": [
        {"name": "medium MG", "template": "mg", "shots": 2, "damage": "none"}]}).weapons[0]
    shot = fire(mg_over_truck(book, none), ScriptedDice([6, 1, *[2] * 7]))
    assert shot.attacks[0].effect.value == "immobilized"
    assert "no damage dice, so immobilized instead" in shot.attacks[0].reason
    assert odds(mg_over_truck(book, none)).pieces[0].model[Effect.DESTROYED] == 0


def test_a_gun_whose_he_modifier_is_not_known_is_a_part_card_not_a_gun_with_he(book):
    """The Pz IV H's card file gives no HE modifier: whether its gun has HE is not known, so
    the card is refused as a part card naming the field, not said to have HE."""
    card = book.get("2508")
    assert not card.known("he_modifier")
    with pytest.raises(RulesError) as refused:
        gun_weapon(card)
    assert refused.value.code is Refusal.NO_CARD_VALUE
    assert "he_modifier" in str(refused.value) or "HE" in str(refused.value)
    assert "2508" in str(refused.value)


def test_the_gun_without_he_fires_once_an_activation_as_the_main_gun(book):
    """Rule 10, each weapon once: the 7TP's gun fired at a tank (AP) is its main gun; asked
    again by the name of its shot at figures, it is the same gun and has fired."""
    battle = Battle("tank").add(book.get(2456), Side.AXIS).add(book.get(2477), Side.ALLIES) \
        .add(book.get("rifleman"), Side.ALLIES, 2)
    turn = turns.activate(turns.first_turn(Side.AXIS), battle, ["7TP 1"])
    turn = turns.shoot(turn, battle, "7TP 1", turns.GUN)
    gun = gun_weapon(battle.get("7TP 1").card)
    refused = choices.weapon(turn, battle, "7TP 1", gun)
    assert refused is not None and "has fired its main gun" in str(refused)


def test_the_gun_without_he_at_a_tank_fires_ap_not_a_soft_shot(book):
    """A tank is fire at hard targets: the main gun's AP reaches it, so the refusal says so,
    not that the gun "cannot harm it"."""
    with pytest.raises(RulesError) as refused:
        fire(gun_at(book, Covered(piece(book, "2477"), 0)), ScriptedDice([6] * 3))
    assert refused.value.code is TankRefusal.GUN_AT_HARD
    assert str(refused.value) == "Tiger is a hard target: the main gun fires AP at it, as " \
        "at any tank"
