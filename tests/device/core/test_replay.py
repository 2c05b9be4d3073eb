"""The box resolves a rule one die at a time by replaying it (device/core/replay.py): the dice it
rolls by itself go on inside one run of the rule, and what that gives is what rolling die by
die gives."""
from __future__ import annotations

import pytest
from cobi_companion.device.core.replay import Replay
from cobi_companion.rules.dice import (
    Aim,
    Dice,
    DiceError,
    DiceExhausted,
    Need,
    Roller,
    ScriptedDice,
)


def attack(dice: Dice) -> tuple[int, int]:
    """A rule of the shape of a shot: the Axis rolls on while it throws sixes (each 6 adds a
    die), then the Allies roll one die against the total."""
    total, number = 0, 1
    while True:
        face = dice.roll(Need(Roller.AXIS, Aim.DAMAGE, f"die {number}", number=number))
        total += face
        number += 1
        if face != 6:
            break
    return total, dice.roll(Need(Roller.ALLIES, Aim.ARMOUR, "armour"))


class Counted:
    """`attack`, counting how often the replay runs it."""

    def __init__(self) -> None:
        self.runs = 0

    def __call__(self, dice: Dice) -> tuple[int, int]:
        self.runs += 1
        return attack(dice)


def axis_rolls(faces: list[int]):
    """A `take` that rolls the Axis' dice from `faces` and waits at any other die."""
    given = iter(faces)

    def take(need: Need) -> int | None:
        return next(given) if need.roller is Roller.AXIS else None
    return take


def test_the_dice_the_box_rolls_go_on_in_one_run_of_the_rule() -> None:
    rule = Counted()
    replay = Replay(rule)
    need = replay.roll_while(axis_rolls([6, 6, 6, 2]))
    assert need is not None and need.roller is Roller.ALLIES        # waits for the Allies
    assert rule.runs == 1
    assert replay.faces == [6, 6, 6, 2]
    assert [n.words for n in replay.needs] == ["die 1", "die 2", "die 3", "die 4"]
    assert replay.result is None
    assert replay.roll_while(lambda need: 5) is None                  # the Allies' die
    assert rule.runs == 2 and replay.result == (20, 5)


def test_one_run_gives_what_rolling_die_by_die_gives() -> None:
    faces = [6, 3, 4]
    by_die: Replay[tuple[int, int]] = Replay(attack)
    for face in faces:
        need = by_die.need()
        assert need is not None
        by_die.add(face, need)
    assert by_die.need() is None
    at_once: Replay[tuple[int, int]] = Replay(attack)
    rolled = iter(faces)
    assert at_once.roll_while(lambda need: next(rolled)) is None
    assert (at_once.faces, at_once.needs, at_once.result) == \
        (by_die.faces, by_die.needs, by_die.result)


def test_a_need_found_before_is_not_run_for_again() -> None:
    rule = Counted()
    replay = Replay(rule)
    first = replay.need()
    assert first is not None and rule.runs == 1
    assert replay.need() == first and rule.runs == 1                  # no new face
    assert replay.roll_while(lambda need: None) == first and rule.runs == 1
    replay.add(2, first)
    second = replay.need()                                           # a new face: run again
    assert second is not None and second.roller is Roller.ALLIES and rule.runs == 2


def test_a_refused_need_taken_later_goes_in_first() -> None:
    """The Allies' die was waited for; their press rolls it and the rule goes on from there."""
    replay = Replay(attack)
    need = replay.roll_while(axis_rolls([3]))
    assert need is not None and need.roller is Roller.ALLIES
    assert replay.roll_while(lambda need: 4) is None
    assert replay.faces == [3, 4] and replay.needs[1] == need and replay.result == (3, 4)


def test_the_boxs_own_dice_running_out_is_an_error_not_a_wait() -> None:
    """A scripted dice source of the box (the simulator's, the tests') that runs out inside
    the run must not look like a rule waiting for a die."""
    box_dice = ScriptedDice([6])
    with pytest.raises(DiceExhausted):
        Replay(attack).roll_while(box_dice.roll)


def test_a_face_that_is_not_a_die_is_refused() -> None:
    with pytest.raises(DiceError, match="not a D6 face"):
        Replay(attack).roll_while(lambda need: 7)
