"""Exact soft-target odds against every way the dice can fall, walked one roll at a time."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from cobi_companion.rules.battle import Piece, Ride
from cobi_companion.rules.card import Facing, InfoCard, Kind, Weapon
from cobi_companion.rules.card_schema import validated_card
from cobi_companion.rules.dice import DiceExhausted, ScriptedDice
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank.soft_fire import Covered, SoftPlan, fire, he_weapon
from cobi_companion.rules.tank.soft_odds import attack_hits, odds
from cobi_companion.rules.tank.soft_table_schema import validated_table


def outcomes(plan: SoftPlan, key, depth: int = 6) -> tuple[dict[object, Fraction], Fraction]:
    """P(key(fire)) from every prefix of faces that resolves (weight 6^-len), walking up to
    `depth` faces; and the chance left unwalked (exploding damage dice never end).

    Counted in whole numbers of 6^-depth, made Fractions once at the end: the same sums.

    A prefix is fired with 1s after it up to `depth` faces. The dice are rolled in order and
    a fire reads only the faces it rolled, so a fire that rolls `used` faces is the fire of
    the prefix of that length (the faces, then 1s), and every shorter prefix on the way ran
    out of faces: their other children (2 to 6) are walked in turn. A fire that runs out at
    `depth` faces is the chance left. The same walk, the same fire of each prefix that
    resolves, without a fire of each prefix that runs out."""
    counts: dict[object, int] = {}
    left = 0
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        length = len(faces)
        dice = ScriptedDice([*faces, *[1] * (depth - length)])
        try:
            shot = fire(plan, dice)
        except DiceExhausted:
            shot, used = None, depth + 1
        else:
            used = max(dice.used, length)
        for short in range(length, min(used, depth)):  # the prefixes that ran out
            stack.extend([*faces, *[1] * (short - length), f] for f in range(2, 7))
        if used > depth:
            left += 1
        else:
            value = key(shot)
            counts[value] = counts.get(value, 0) + 6 ** (depth - used)
    whole = 6 ** depth
    return {value: Fraction(count, whole) for value, count in counts.items()}, \
        Fraction(left, whole)


def assert_within(exact: dict[object, Fraction], walked: dict[object, Fraction],
                  left: Fraction) -> None:
    for value in set(exact) | set(walked):
        low = walked.get(value, Fraction(0))
        assert low <= exact.get(value, Fraction(0)) <= low + left, value


TABLE = validated_table({
    "weapons": {"he": {"template": {"modifier": 2}}, "mg": {"template": {"modifier": 1}},
                "rifle": {"ranges": [{"from_cm": 0, "to_cm": 60, "modifier": 0}]}},
    "situations": {"soft_cover": {"modifier": -1}, "soft_vehicle": {"modifier": -1},
                   "hard_cover": {"modifier": -2}}})


def card(**values) -> InfoCard:
    return validated_card(values)


FIGURE = card(id="fig", name="Figure", kind="figure", weapons=[{"name": "rifle", "damage": 1}])
MG = card(id="mg", name="MG", kind="figure",
          weapons=[{"name": "mg", "template": "mg", "shots": 2, "damage": 1}])
GUN = card(id="gun", name="Gun", kind="gun", crew=2)
TRUCK = card(id="truck", name="Truck", kind="soft", armour_side=1, destroy=2, immobilize=1,
             destroy_gun="-", weaken="-")
TANK = card(id="tank", name="Tank", gun_to_hit="3-6", reload="4-6", damage=2, he_modifier=1,
            armour_front=0, armour_side=1, armour_rear=0, armour_top=0, destroy=2, weaken=1,
            destroy_gun="-", immobilize="-")


def piece(c: InfoCard, figures: int | None = None, side: Side = Side.ALLIES) -> Piece:
    return Piece(c.name, side, c, figures=figures if figures is not None else c.crew)


@pytest.mark.parametrize("modifier, hits", [(0, Fraction(15, 36)), (1, Fraction(21, 36)),
                                            (-6, Fraction(0)), (6, Fraction(1))])
def test_one_attack(modifier, hits):
    assert attack_hits(modifier) == hits


def plans() -> list[SoftPlan]:
    shooter = piece(FIGURE, 1, Side.AXIS)
    mg = Piece("MG", Side.AXIS, MG, figures=1)
    tank = Piece("Tank", Side.AXIS, TANK)
    return [
        SoftPlan(shooter, FIGURE.weapon("rifle"), (Covered(piece(FIGURE, 3), 1),), TABLE,
                 range_cm=20),
        SoftPlan(mg, MG.weapon("mg"), (Covered(piece(FIGURE, 2), 1, ("soft_cover",)),
                                       Covered(piece(GUN), 0)), TABLE),
        SoftPlan(mg, MG.weapon("mg"), (Covered(piece(TRUCK), 0, (), Facing.SIDE),
                                       Covered(piece(TANK), 0, (), Facing.SIDE)), TABLE),
        SoftPlan(tank, he_weapon(TANK), (Covered(piece(GUN), 1, ("soft_cover",)),), TABLE,
                 cover=True, range_cm=120),
        SoftPlan(tank, he_weapon(TANK), (Covered(piece(TRUCK), 0, (), Facing.SIDE),), TABLE),
        # issue 18: figures riding in a soft and in an open-top vehicle (the seat's modifier
        # is added, not asked), the crew of a destroyed gun attacked as figures, and HE with
        # the gun's own HE modifier (+1 here, the table's row +2: house rule he_modifier)
        SoftPlan(shooter, FIGURE.weapon("rifle"), (Covered(rider(Kind.SOFT), 1),), TABLE,
                 range_cm=20),
        SoftPlan(tank, he_weapon(TANK), (Covered(rider(Kind.OPEN_TOP), 2),
                                         Covered(rider(Kind.HARD), 1)), TABLE),
        SoftPlan(mg, MG.weapon("mg"), (Covered(gun_crew(), 2, model=False),), TABLE),
        SoftPlan(tank, he_weapon(TANK), (Covered(piece(FIGURE, 2), 2, ("soft_cover",)),),
                 TABLE, house=HouseRules(he_modifier="card")),
    ]


def rider(kind: Kind) -> Piece:
    """Two figures riding a vehicle of this kind."""
    return replace(piece(FIGURE, 2), riding=Ride("Carrier", kind))


def gun_crew() -> Piece:
    """A destroyed gun whose two crew figures fight on."""
    gun = piece(GUN)
    return replace(gun, status=replace(gun.status, destroyed=True), figures=2)


@pytest.mark.parametrize("plan", plans(), ids=["rifle", "mg-figures", "mg-vehicles", "he-gun",
                                               "he-truck", "rifle-rider-soft",
                                               "he-riders-open-top-and-on-top", "mg-gun-crew",
                                               "he-card-modifier"])
def test_down_distribution_is_exact(plan):
    walked, left = outcomes(plan, lambda shot: shot.down)
    got = odds(plan)
    assert sum(got.down) == 1
    assert_within(dict(enumerate(got.down)), walked, left)
    if left == 0:      # no damage dice: the walk is complete and must match exactly
        assert {k: p for k, p in enumerate(got.down) if p} == walked


def test_vehicle_effects_are_exact():
    plan = SoftPlan(piece(FIGURE, 1, Side.AXIS), FIGURE.weapon("rifle"),
                    (Covered(piece(TRUCK), 0, (), Facing.SIDE),), TABLE, range_cm=20)
    index = next(i for i, c in enumerate(plan.targets) if c.piece.card is TRUCK)
    walked, left = outcomes(plan, lambda shot: shot.results[index].model_effect
                            if shot.results else None, depth=7)
    got = odds(plan)
    model = got.pieces[index].model
    assert model is not None and sum(model.values()) == 1
    missed = walked.pop(None, Fraction(0))    # the HE to-hit roll missed: nothing attacked
    assert missed <= 1 - got.hit <= missed + left
    assert_within({e: got.hit * p for e, p in model.items()}, walked, left)
    assert left < Fraction(1, 25)     # the bounds above are tight enough to mean something


def test_weapon_without_damage_dice_immobilizes_instead_of_destroying():
    rifle = Weapon(name="rifle")
    plan = SoftPlan(piece(FIGURE, 1, Side.AXIS), rifle,
                    (Covered(piece(TRUCK), 0, (), Facing.SIDE),), TABLE, range_cm=10)
    # 6 against 1: +5, five damage dice all 2s = 5 - armour 1 = 4 >= destroy 2
    shot = fire(plan, ScriptedDice([6, 1, 2, 2, 2, 2, 2]))
    attack = shot.attacks[0]
    assert attack.net == 4 and attack.effect is Effect.IMMOBILIZED
    assert "no damage dice" in attack.reason
    assert odds(plan).pieces[0].model[Effect.DESTROYED] == 0
