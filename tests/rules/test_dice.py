"""Dice sources: random, scripted and manual."""
from __future__ import annotations

from collections import Counter

import pytest
from cobi_companion.rules.dice import (
    DiceError,
    DiceExhausted,
    ManualDice,
    RandomDice,
    ScriptedDice,
    parse_faces,
)


def test_scripted_dice_in_order_then_a_clear_error():
    dice = ScriptedDice([3, 5])
    assert [dice.roll("to hit"), dice.roll("reload")] == [3, 5]
    with pytest.raises(DiceExhausted, match="too few scripted dice: 2 faces given, ran out at "
                                            "the damage die 1 roll"):
        dice.roll("damage die 1")


def test_scripted_faces_must_be_faces():
    with pytest.raises(DiceError, match="7 is not a D6 face"):
        ScriptedDice([1, 7])
    with pytest.raises(DiceError, match="'x' is not a D6 face"):
        parse_faces("3,x")
    assert parse_faces("3, 5 6") == [3, 5, 6]


def test_manual_dice_asks_with_the_purpose():
    asked: list[str] = []
    dice = ManualDice(lambda purpose: asked.append(purpose) or 4)
    assert dice.roll("to hit") == 4 and asked == ["to hit"]
    with pytest.raises(DiceError):
        ManualDice(lambda purpose: 0).roll("reload")


def test_random_dice_gives_every_face():
    dice = RandomDice()
    counts = Counter(dice.roll("test") for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 6000 rolls: each face 1000 ± 5 sigma (sigma ≈ 28.9)
    assert all(855 < n < 1145 for n in counts.values())
