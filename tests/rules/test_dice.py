"""Dice sources: random, scripted and manual."""
from __future__ import annotations

from collections import Counter

import pytest
from cobi_companion.rules.dice import (
    RELOAD,
    TO_HIT,
    Aim,
    DiceError,
    DiceExhausted,
    ManualDice,
    Need,
    RandomDice,
    Roller,
    ScriptedDice,
    parse_faces,
)
from cobi_companion.rules.tank.hard_fire import damage_die


def test_scripted_dice_in_order_then_a_clear_error():
    dice = ScriptedDice([3, 5])
    assert [dice.roll(TO_HIT), dice.roll(RELOAD)] == [3, 5]
    with pytest.raises(DiceExhausted, match="too few scripted dice: 2 faces given, ran out at "
                                            "the damage die 1 roll") as raised:
        dice.roll(damage_die(1))
    assert raised.value.need == Need(Roller.FIRER, Aim.DAMAGE, "damage die 1", number=1)


def test_scripted_faces_must_be_faces():
    with pytest.raises(DiceError, match="7 is not a D6 face"):
        ScriptedDice([1, 7])
    with pytest.raises(DiceError, match="'x' is not a D6 face"):
        parse_faces("3,x")
    assert parse_faces("3, 5 6") == [3, 5, 6]


def test_manual_dice_asks_with_the_need():
    asked: list[Need] = []
    dice = ManualDice(lambda need: asked.append(need) or 4)
    assert dice.roll(TO_HIT) == 4 and asked == [TO_HIT] and str(asked[0]) == "to hit"
    with pytest.raises(DiceError):
        ManualDice(lambda need: 0).roll(RELOAD)


def test_random_dice_gives_every_face():
    dice = RandomDice()
    counts = Counter(dice.roll(Need(Roller.EITHER, Aim.QUICK, "test")) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 6000 rolls: each face 1000 ± 5 sigma (sigma ≈ 28.9)
    assert all(855 < n < 1145 for n in counts.values())
