"""House rules (rules/house.py): each place where the texts disagree, the notes' reading by
default and the other reading chosen by the players, through the real rules.

Both texts invite it: "If both sides agree that a rule is silly or inaccurate we recommend that
you use your own changes" (Tank Game); "If you do not understand some of the rules or want to
change them, and your opponent agrees, then do it!" (Easy).
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import Facing, InfoCard
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.easy import fire as easy
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.house import BY_NAME, RULES, HouseRules, for_level, parse
from cobi_companion.rules.shot import ShotPlan
from cobi_companion.rules.status import Effect, Side, Status
from cobi_companion.rules.tank import hard_fire, soft_odds
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, fire, he_weapon

TEXT = HouseRules(sherman_reload="text")
NUMBER = HouseRules(easy_fields="number")
CARD_HE = HouseRules(he_modifier="card")
BOTH_PASS = HouseRules(easy_round="both_pass")


# ---- the table ----


def test_every_rule_has_a_field_whose_default_is_its_first_value_and_the_notes_reading():
    defaults = HouseRules()
    assert [row.name for row in RULES] == list(defaults.to_dict())
    assert all(defaults.value(row.name) == row.default for row in RULES)
    assert (defaults.sherman_reload, defaults.easy_fields, defaults.he_modifier,
            defaults.easy_round) == ("card", "meaning", "table", "one_each")
    assert all(len(row.explained) == len(row.values) >= 2 for row in RULES)
    assert defaults.changed() == {}


def test_each_level_lists_only_its_own_rules():
    assert [row.name for row in for_level("easy")] == ["easy_fields", "easy_round", "rough",
                                                      "road_reverse"]
    assert [row.name for row in for_level("tank")] == [
        "sherman_reload", "he_modifier", "soft_table", "extra_activation", "weapons",
        "fire_then_move", "match_score", "rough", "road_reverse", "open_top_reload",
        "soft_damage"]
    assert TEXT.changed("easy") == {} and TEXT.changed("tank") == {"sherman_reload": "text"}


def test_a_name_or_value_not_in_the_table_is_refused_naming_what_is_allowed():
    with pytest.raises(RulesError) as name:
        parse("sherman", "text")
    assert name.value.code is Refusal.UNKNOWN_HOUSE_RULE
    assert str(name.value) == ("unknown house rule 'sherman': choose sherman_reload, "
                               "easy_fields, he_modifier, easy_round, soft_table, "
                               "extra_activation, weapons, fire_then_move, match_score, "
                               "rough, road_reverse, open_top_reload, soft_damage")
    with pytest.raises(RulesError) as value:
        parse("sherman_reload", "paint")
    assert value.value.code is Refusal.HOUSE_RULE_VALUE
    assert str(value.value) == "house rule sherman_reload: 'paint' is not allowed: choose " \
                               "card, text"
    assert parse(" Sherman_Reload ", "TEXT") == ("sherman_reload", "text")


def test_a_save_keeps_them_and_an_old_or_newer_save_loads():
    chosen = HouseRules(sherman_reload="text", easy_round="both_pass")
    assert HouseRules.from_dict(chosen.to_dict()) == chosen
    assert HouseRules.from_dict({}) == HouseRules()                 # saved before them
    assert HouseRules.from_dict({"smoke": "on", "easy_fields": "number"}) == NUMBER  # newer
    with pytest.raises(RulesError):                  # another reading would change the battle
        HouseRules.from_dict({"easy_fields": "colour"})


def test_ok_on_the_box_turns_a_rule_through_its_values_and_back():
    once = HouseRules().toggled("easy_round")
    assert once.easy_round == "both_pass" and once.toggled("easy_round") == HouseRules()
    assert HouseRules().with_values([("he_modifier", "card"), ("he_modifier", "table")]) \
        == HouseRules()


# ---- sherman_reload: the card's 5-6, or the Kelly's Heroes example's 4-6 ----


def test_the_sherman_reloads_on_a_4_only_by_the_kellys_heroes_text(book):
    """Kelly's Heroes: "The Sherman rolls a 4 to reload, he has reloaded (he needs a 4-6)";
    the M1A1 card: "Reload die Roll 5-6"."""
    sherman, tiger = book.get("2464"), book.get("2477")

    def reloads(house: HouseRules) -> tuple[bool, dict[str, str]]:
        plan = ShotPlan(sherman, tiger, Facing.REAR, house=house)
        shot = hard_fire.fire(plan, ScriptedDice([2, 4]))          # a miss, then the reload
        assert shot.reload is not None
        return shot.reload.success, shot.to_dict()["house_rules"]
    assert reloads(HouseRules()) == (False, {})
    assert reloads(TEXT) == (True, {"sherman_reload": "text"})


def test_the_sherman_text_changes_no_other_gun(book):
    """The example's Tiger "needed a 5-6", as its card says: only the Sherman's differ."""
    tiger, sherman = book.get("2477"), book.get("2464")
    shot = hard_fire.fire(ShotPlan(tiger, sherman, Facing.FRONT, house=TEXT),
                          ScriptedDice([2, 4]))
    assert shot.reload is not None and not shot.reload.success
    assert shot.house_rules == ()


def test_the_reload_action_of_the_sherman_follows_the_rule(book):
    """Rule 13: "they may reload with a +2 added to the reload die score": 2 + 2 = 4."""
    sherman = book.get("2464")
    unloaded = Status(loaded=False)
    by_card = hard_fire.reload_action(sherman, unloaded, ScriptedDice([2]))
    by_text = hard_fire.reload_action(sherman, unloaded, ScriptedDice([2]), house=TEXT)
    assert (by_card.check.modified, by_card.after.loaded) == (4, False)
    assert (by_text.check.modified, by_text.after.loaded) == (4, True)
    assert by_text.to_dict()["house_rules"] == {"sherman_reload": "text"}


def test_the_exact_reload_chance_is_2_in_6_by_the_card_and_3_in_6_by_the_text(book):
    sherman, tiger = book.get("2464"), book.get("2477")
    card = hard_fire.odds(ShotPlan(sherman, tiger, Facing.REAR))
    text = hard_fire.odds(ShotPlan(sherman, tiger, Facing.REAR, house=TEXT))
    assert (card.reload, text.reload) == (Fraction(2, 6), Fraction(3, 6))
    assert (card.hit, card.effects) == (text.hit, text.effects)    # the shot itself is the same
    assert text.to_dict()["house_rules"] == {"sherman_reload": "text"}
    assert card.to_dict()["house_rules"] == {}


def test_the_shermans_he_fire_reloads_by_the_rule_too(book):
    """HE: "They then make a reload roll after firing as normal"."""
    sherman = Piece("Sherman 1", Side.ALLIES, book.get("2464"))
    gun = Piece("Bofors 1", Side.AXIS, book.get("bofors-37mm"), figures=3)
    plan = SoftPlan(sherman, he_weapon(sherman.card), (Covered(gun, 0),), book.table,
                    house=TEXT)
    shot = fire(plan, ScriptedDice([1, 4]))                         # a miss, reload 4
    assert shot.reload is not None and shot.reload.success
    assert soft_odds.odds(plan).reload == Fraction(1, 2)
    assert soft_odds.odds(replace(plan, house=HouseRules())).reload == Fraction(1, 3)


# ---- easy_fields: Destroy Gun and Weaken by meaning, or by the Easy text's numbers ----


def easy_card(**values: object) -> InfoCard:
    base = dict(set_number=9002, name="Test tank", gun_to_hit="1-6", damage=0, armour_front=0,
                armour_side=0, armour_rear=0, destroy=5, destroy_gun=4, weaken="2-3",
                immobilize=1)
    return validated_card({**base, **values})


def easy_shot(firer: tuple[int, ...], house: HouseRules) -> tuple[Effect, dict[str, str]]:
    """Damage 0 + the firer's D6+ against armour 0 + the target's D6+ of 1."""
    shot = easy.fire(ShotPlan(easy_card(), easy_card(), Facing.FRONT, house=house),
                     ScriptedDice([3, *firer, 1]))
    return shot.effect, shot.to_dict()["house_rules"]


@pytest.mark.parametrize(("firer", "meaning", "number"), [
    ((3,), Effect.WEAKENED, Effect.GUN_DESTROYED),      # net 2: Weaken 2-3, field (16)
    ((5,), Effect.GUN_DESTROYED, Effect.WEAKENED),      # net 4: Destroy Gun 4, field (15)
    ((2,), Effect.IMMOBILIZED, Effect.IMMOBILIZED),     # net 1: (17) is the same by both
    ((6, 1), Effect.DESTROYED, Effect.DESTROYED)])      # D6+ 6, net 5 ≥ (14)
def test_the_easy_text_by_number_swaps_destroy_gun_and_weaken(firer, meaning, number):
    """Easy: "If the result of the hit is equal to the point (15) on the card, the target is
    damaged" and "(16) ... the target loses its biggest gun"; the field list: "15 Damage to
    Destroy Gun", "16 Damage to Weaken Target"."""
    assert easy_shot(firer, HouseRules()) == (meaning, {})
    effect, said = easy_shot(firer, NUMBER)
    assert effect is number
    assert said == ({"easy_fields": "number"} if number is not meaning else {})


def test_a_gun_lost_by_number_means_the_vehicle_cannot_fire():
    """"the target loses its biggest gun and may only fire with its secondary gun"."""
    shot = easy.fire(ShotPlan(easy_card(), easy_card(), Facing.FRONT, house=NUMBER),
                     ScriptedDice([3, 3, 1]))
    assert shot.target_after.gun_destroyed


def test_the_easy_odds_swap_exactly_the_two_effects():
    plan = ShotPlan(easy_card(), easy_card(), Facing.FRONT)
    meaning = easy.odds(plan).effects
    number = easy.odds(replace(plan, house=NUMBER))
    swapped = {**meaning, Effect.WEAKENED: meaning[Effect.GUN_DESTROYED],
               Effect.GUN_DESTROYED: meaning[Effect.WEAKENED]}
    assert number.effects == swapped and meaning[Effect.WEAKENED] != \
        meaning[Effect.GUN_DESTROYED]
    assert number.to_dict()["house_rules"] == {"easy_fields": "number"}


def test_the_field_numbers_change_nothing_in_the_tank_game(book):
    tiger = book.get("2477")
    plan = ShotPlan(tiger, tiger, Facing.REAR)
    assert hard_fire.odds(replace(plan, house=NUMBER)) == hard_fire.odds(plan)


# ---- he_modifier: the table's HE template row, or the gun's own HE modifier ----


def he_at_gun(firer: InfoCard, house: HouseRules, book) -> SoftPlan:
    tank = Piece("Tank 1", Side.AXIS, firer)
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    return SoftPlan(tank, he_weapon(firer), (Covered(gun, 3, ("soft_cover",)),), book.table,
                    house=house)


def test_the_gun_card_he_modifier_replaces_the_table_row(book):
    """The HE example: "Looking at the Soft Targets Table he sees his HE template modifier.
    (This value is +2)"; the cards: "Damage HE Modifier (HE Template)"."""
    strong = replace(book.get("2477"), set_number=9003, he_modifier=4)
    table, card = he_at_gun(strong, HouseRules(), book), he_at_gun(strong, CARD_HE, book)
    dice = [6, 6, 1, 3, 1, 3, 1, 3, 1, 3]          # hit, reload, then 1 v 3 at each
    by_table, by_card = fire(table, ScriptedDice(dice)), fire(card, ScriptedDice(dice))
    assert [a.modifiers[0].value for a in by_table.attacks] == [2] * 4
    assert [a.modifiers[0].value for a in by_card.attacks] == [4] * 4
    assert by_table.down == 0 and by_card.down == 4                 # 1+2-1 = 2, 1+4-1 = 4
    assert by_card.to_dict()["house_rules"] == {"he_modifier": "card"}
    assert by_table.to_dict()["house_rules"] == {}
    # the exact odds follow: a figure falls when the defender's D6 is below the attack
    assert soft_odds.odds(table).pieces[0].per_figure == soft_odds.attack_hits(+1)
    assert soft_odds.odds(card).pieces[0].per_figure == soft_odds.attack_hits(+3)


def test_a_card_without_the_he_value_refuses_before_any_die(book):
    """The Pz IV D of the HE example has no printed card: no number is invented."""
    plan = he_at_gun(book.get("pz-iv-d"), CARD_HE, book)
    with pytest.raises(RulesError) as refused:
        fire(plan, ScriptedDice([]))
    assert refused.value.code is Refusal.NO_CARD_VALUE
    assert refused.value.values["field"] == "he_modifier"
    assert fire(he_at_gun(book.get("pz-iv-d"), HouseRules(), book),
                ScriptedDice([1, 4])).reload is not None    # the table's row still fires it


def test_a_machine_guns_template_keeps_its_table_row(book):
    mg = Piece("MG 1", Side.AXIS, book.get("mg-gunner"), figures=2)
    squad = Piece("Rifle 1", Side.ALLIES, book.get("rifleman"), figures=2)
    plan = SoftPlan(mg, mg.card.weapons[0], (Covered(squad, 2),), book.table, house=CARD_HE)
    assert soft_odds.odds(plan) == soft_odds.odds(replace(plan, house=HouseRules()))


# ---- easy_round: one action each, or until both pass one after the other ----


@pytest.mark.parametrize(("passes", "one_each", "both_pass"), [
    ([False], False, False),
    ([False, False], True, False),
    ([True, False], True, False),
    ([False, True], True, False),
    ([True, True], True, True),
    ([False, True, True], True, True),
    ([False, False, True, False, True], True, False)])
def test_the_round_ends_by_the_english_or_the_polish_text(passes, one_each, both_pass):
    """English: "When both players have had a chance to take an action, the round is over";
    Polish: "Jeśli obaj gracze jeden po drugim oddadzą swą Inicjatywę, to cała Runda się
    kończy" (when both players give up the initiative one after the other)."""
    assert easy.round_over(passes, HouseRules()) is one_each
    assert easy.round_over(passes, BOTH_PASS) is both_pass


def test_every_rule_is_explained_in_one_line():
    assert all("\n" not in line and len(line) < 100 for row in BY_NAME.values()
               for line in row.explained)
