"""The Tank Game's worked examples of fire at soft targets, with the dice they tell."""
from __future__ import annotations

import pytest
from cobi_companion.rules.battle import Piece
from cobi_companion.rules.card import Kind
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import ScriptedDice
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, fire, he_weapon


def squad(book, key: str, figures: int = 1, side: Side = Side.ALLIES) -> Piece:
    card = book.get(key)
    return Piece(f"{card.short} 1", side, card, figures=figures)


def gunner(figures: int = 1) -> Piece:
    card = validated_card({"id": "mc-gunner", "name": "MG gunner", "kind": "figure"})
    return Piece("Gunner 1", Side.AXIS, card, figures=figures)


def test_pistol_at_the_motorcycle_gunner_misses(book):
    shooter = squad(book, "pistol-soldier")
    plan = SoftPlan(shooter, book.get("pistol-soldier").weapon("pistol"),
                    (Covered(gunner(), 1, ("soft_vehicle",)),), book.table, range_cm=44)
    shot = fire(plan, ScriptedDice([3, 2]))
    attack = shot.attacks[0]
    assert [m.value for m in attack.modifiers] == [-2, -1]
    assert (attack.roll, attack.modified, attack.defender) == (3, 0, 2)
    assert attack.effect is Effect.MISS and shot.down == 0
    assert "pistol at 44 cm" in attack.modifiers[0].reason
    assert "example" in attack.modifiers[0].reason     # marked as taken from an example


def test_rifle_at_45_cm_kills_the_gunner(book):
    shooter = squad(book, "rifleman")
    plan = SoftPlan(shooter, book.get("rifleman").weapon("rifle"),
                    (Covered(gunner(), 1, ("soft_vehicle",)),), book.table, range_cm=45)
    shot = fire(plan, ScriptedDice([4, 3]))
    attack = shot.attacks[0]
    assert [m.value for m in attack.modifiers] == [2, -1]
    assert (attack.modified, attack.defender, attack.difference) == (5, 3, 2)
    assert attack.effect is Effect.DESTROYED
    assert shot.results[0].after.figures == 0 and shot.results[0].after.gone


def test_pz_iv_d_he_at_the_bofors_gun_crew_and_dog(book):
    tank = Piece("Pz IV D 1", Side.AXIS, book.get("pz-iv-d"))
    gun = Piece("Bofors 1", Side.ALLIES, book.get("bofors-37mm"), figures=3)
    plan = SoftPlan(tank, he_weapon(tank.card), (Covered(gun, 3, ("soft_cover",)),),
                    book.table, cover=True)
    # to hit 6, reload 3 (the example tells the reload last: the box rolls it second),
    # gun 4 v 3, gunner 1 4 v 3, gunner 2 1 v 3, dog 1 v 5
    shot = fire(plan, ScriptedDice([6, 3, 4, 3, 4, 3, 1, 3, 1, 5]))
    assert shot.to_hit is not None and shot.to_hit.modified == 5 and shot.hit
    assert [m.reason for m in shot.to_hit.modifiers] == ["HE: target in cover"]
    assert shot.reload is not None and not shot.reload.success and shot.reload.needed.low == 4
    assert "unloaded" in shot.firer_after.status.words()
    gun_attack, *crew = shot.attacks
    assert (gun_attack.modified, gun_attack.defender, gun_attack.difference) == (5, 3, 2)
    assert gun_attack.effect is Effect.DESTROYED
    assert [(a.modified, a.defender, a.difference) for a in crew] == [(5, 3, 2), (2, 3, -1),
                                                                      (2, 5, -3)]
    assert [a.hit for a in crew] == [True, False, False]
    result = shot.results[0]
    assert result.after.status.destroyed and result.after.figures == 2
    assert (shot.down, shot.attacked) == (2, 4)
    assert shot.to_dict()["summary"] == "2 of 4 down"


def test_medium_mg_two_shots_at_each_figure(book):
    mg = squad(book, "mg-gunner", side=Side.AXIS)
    targets = squad(book, "rifleman", figures=2)
    plan = SoftPlan(mg, book.get("mg-gunner").weapon("medium mg"),
                    (Covered(targets, 2, ("soft_cover",)),), book.table)
    shot = fire(plan, ScriptedDice([4, 2, 2, 5, 2, 3]))
    rows = [(a.target, a.shot, a.modified, a.defender, a.difference) for a in shot.attacks]
    assert rows == [("Rifle 1 figure 1", 1, 5, 2, 3),       # +3 is a kill: no second shot
                    ("Rifle 1 figure 2", 1, 3, 5, -2),
                    ("Rifle 1 figure 2", 2, 3, 3, 0)]       # 0 is no kill
    assert [a.hit for a in shot.attacks] == [True, False, False]
    assert shot.results[0].after.figures == 1
    assert shot.to_dict()["summary"] == "1 of 2 down"


@pytest.mark.parametrize("cm", [30, 43, 46, 120])
def test_a_range_the_table_does_not_hold_is_refused_naming_the_file(book, cm):
    # with "your table" (house rule soft_table=printed): our estimate is not read
    plan = SoftPlan(squad(book, "pistol-soldier"), book.get("pistol-soldier").weapon("pistol"),
                    (Covered(gunner(), 1),), book.table, range_cm=cm,
                    house=HouseRules(soft_table="printed"))
    with pytest.raises(Exception, match=r"soft-targets.toml\) has no pistol value for"):
        fire(plan, ScriptedDice([]))


def test_cards_of_the_examples_are_the_right_kinds(book):
    assert book.get("bofors-37mm").kind is Kind.GUN
    assert book.get("motorcycle-sidecar").kind is Kind.SOFT
    assert book.get("mg-gunner").weapon("Medium MG").shots == 2
