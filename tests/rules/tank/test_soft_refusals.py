"""Fire at soft targets refuses, before any die, what the rules do not allow."""
from __future__ import annotations

from dataclasses import replace

import pytest
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.errors import RulesError
from cobi_companion.rules.status import Side, Status
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, fire, he_weapon


def piece(book, key, figures=None, side=Side.ALLIES, **status) -> Piece:
    card = book.get(key)
    return Piece(card.short, side, card, Status(**status),
                 figures if figures is not None else card.crew)


def rifle_at(book, covered: Covered, **firer_status) -> SoftPlan:
    firer = piece(book, "rifleman", 1, Side.AXIS, **firer_status)
    return SoftPlan(firer, firer.card.weapon("rifle"), (covered,), book.table, range_cm=45)


CASES = {
    "AP at a gun": lambda b: rifle_at(b, Covered(piece(b, "bofors-37mm"), 0)),
    "small arms at a tank": lambda b: rifle_at(b, Covered(piece(b, "2477"), 0)),
    "a tank's crew is inside": lambda b: SoftPlan(
        piece(b, "2477", side=Side.AXIS), he_weapon(b.get("2477")),
        (Covered(piece(b, "2464"), 2),), b.table),
    "hidden target": lambda b: rifle_at(b, Covered(piece(b, "rifleman", 2, hidden=True), 1)),
    "gone target": lambda b: rifle_at(b, Covered(piece(b, "rifleman", 0), 1)),
    "more figures than the squad": lambda b: SoftPlan(
        piece(b, "mg-gunner", 1, Side.AXIS), b.get("mg-gunner").weapon("medium mg"),
        (Covered(piece(b, "rifleman", 2), 3),), b.table),
    "two figures for a rifle": lambda b: rifle_at(b, Covered(piece(b, "rifleman", 3), 2)),
    "weapon not carried": lambda b: SoftPlan(
        piece(b, "rifleman", 1, Side.AXIS), b.get("mg-gunner").weapon("medium mg"),
        (Covered(piece(b, "rifleman", 2), 2),), b.table),
    "unloaded HE": lambda b: SoftPlan(
        piece(b, "pz-iv-d", side=Side.AXIS, loaded=False), he_weapon(b.get("pz-iv-d")),
        (Covered(piece(b, "rifleman", 2), 2),), b.table),
    "commander killed": lambda b: SoftPlan(
        piece(b, "pz-iv-d", side=Side.AXIS, commander_killed=True),
        he_weapon(b.get("pz-iv-d")), (Covered(piece(b, "rifleman", 2), 2),), b.table),
    "no HE on the card": lambda b: SoftPlan(
        piece(b, "2456", side=Side.AXIS), he_weapon(b.get("2456")),
        (Covered(piece(b, "rifleman", 2), 2),), b.table),
    "HE at a tank with an unknown HE modifier": lambda b: SoftPlan(
        piece(b, "pz-iv-d", side=Side.AXIS), he_weapon(b.get("pz-iv-d")),
        (Covered(piece(b, "2477"), 0),), b.table),
}
WHY = {
    "AP at a gun": "AP is not effective against guns",
    "small arms at a tank": "is a hard target",
    "a tank's crew is inside": "crew is inside",
    "hidden target": "is hidden",
    "gone target": "out of the fight",
    "more figures than the squad": "has 2 figures",
    "two figures for a rifle": "only template weapons attack several",
    "weapon not carried": "has no weapon 'medium MG'",
    "unloaded HE": "is unloaded",
    "commander killed": "lost its commander",
    "no HE on the card": "has no HE",
    "HE at a tank with an unknown HE modifier": "has no value for he_modifier",
}


@pytest.mark.parametrize("name", list(CASES))
def test_refused_before_any_die(book, name):
    if name == "no HE on the card":
        with pytest.raises(RulesError, match=WHY[name]):
            CASES[name](book)
        return
    dice = ScriptedDice([6] * 40)
    with pytest.raises(RulesError, match=WHY[name]):
        fire(CASES[name](book), dice)
    assert len(dice.left) == 40


def test_open_top_crew_is_reached_only_by_he_and_grenades(book):
    halftrack = validated_card({
        "id": "halftrack", "name": "Half-track", "kind": "open_top", "crew": 2,
        "armour_front": 1, "armour_side": 1, "armour_rear": 1, "armour_top": 0, "destroy": 3,
        "destroy_gun": "-", "weaken": "-", "immobilize": 1})
    target = Piece("Half-track 1", Side.ALLIES, halftrack, figures=2)
    with pytest.raises(RulesError, match="crew is in hard cover"):
        fire(rifle_at(book, Covered(target, 1, model=False)), ScriptedDice([6, 1]))
    mg = piece(book, "mg-gunner", 1, Side.AXIS)
    plan = SoftPlan(mg, mg.card.weapon("medium mg"), (Covered(target, 2, model=False),),
                    book.table)
    shot = fire(plan, ScriptedDice([]))      # an MG is small arms: the crew is not attacked
    assert shot.attacked == 0 and shot.attacks == ()


# ---- a tank commander sitting out in the turret ----


def test_a_commander_out_in_the_turret_is_a_figure_small_arms_can_kill(book):
    tiger = piece(book, "2477", commander_out=True)
    shot = fire(rifle_at(book, Covered(tiger, 1, model=False)), ScriptedDice([4, 2]))
    attack = shot.attacks[0]
    assert (attack.target, attack.modified, attack.defender) == ("Tiger commander", 6, 2)
    after = shot.results[0].after
    assert after.status.commander_killed and not after.status.commander_out
    assert after.figures == tiger.figures == 5           # the crew stays: a new commander
    assert shot.to_dict()["targets"][0]["status_after"] == ["commander_killed"]


def test_a_commander_who_survives_stays_out(book):
    tiger = piece(book, "2477", commander_out=True)
    shot = fire(rifle_at(book, Covered(tiger, 1, model=False)), ScriptedDice([1, 6]))
    assert shot.down == 0 and shot.results[0].after.status.commander_out


def test_a_template_attacks_the_tank_and_its_commander_out(book):
    mg = piece(book, "mg-gunner", 1, Side.AXIS)
    tiger = piece(book, "2477", commander_out=True)
    none = replace(mg.card.weapon("medium mg"), given=None)   # its card says none
    plan = SoftPlan(mg, none, (Covered(tiger, 1),), book.table)
    shot = fire(plan, ScriptedDice([2, 5, 3, 1]))   # no damage dice: the tank takes nothing
    assert [(a.target, a.shot) for a in shot.attacks] == [
        ("Tiger", 1), ("Tiger commander", 1), ("Tiger commander", 2)]
    assert "no damage dice" in shot.attacks[0].reason
    assert shot.results[0].after.status.commander_killed and shot.down == 1


@pytest.mark.parametrize(("status", "figures", "why"), [
    ({}, 1, "only a commander sitting out in the turret"),
    ({"commander_out": True}, 2, "one figure outside, its commander"),
])
def test_only_one_commander_out_is_a_figure(book, status, figures, why):
    tiger = piece(book, "2477", **status)
    mg = piece(book, "mg-gunner", 1, Side.AXIS)
    plan = SoftPlan(mg, mg.card.weapon("medium mg"), (Covered(tiger, figures),), book.table)
    dice = ScriptedDice([6] * 4)
    with pytest.raises(RulesError, match=why):
        fire(plan, dice)
    assert len(dice.left) == 4
