"""The box's dice, numbered: a die is the box's draw number n, and its face a function of n.

Why: the main loop draws a frame first and saves after it (a press never waits for the SD
card), so a die can be on the panel before the action it belongs to is saved. A plug pulled
in between brings the box back at the last saved action; a die rolled afresh then could come
out differently from the one the players saw ("it said HIT!"). Saving each die before it is
shown would put an fsync on every press (tens of ms on a Pi's card). Instead the face of draw
n is fixed in advance: HMAC-SHA256(the box's secret, n). The count of dice drawn is saved with
every action (`App.commit`, in the same transaction as the battle), so after a pulled plug
the box is back at the last action *and* its count, and the same choices draw the same
numbers: the same faces, with no write on the press.

The secret is the box's own (made once in its store, never shown), so the dice are as fair
and unforeseeable as the system's random source; the quick dice outside a battle draw from
the same count and are kept the same way. Dice the players roll themselves (real dice,
dialled in) are not the box's and are not numbered. A smart die's face is no function of its
number, but it takes one (`take`): the box keeps it by that number until the action's save
(App.thrown, ports/store.py), and a restart takes it again for the same number.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from cobi_companion.rules.dice import Dice, DiceExhausted, Need, check_face

FACE_BYTES = 252          # 42 × 6: a byte below this gives a fair face (byte % 6)


@runtime_checkable
class Numbered(Protocol):
    """A source of the box's dice by number: asked twice for the same number, the same face."""

    def face(self, number: int, need: Need) -> int: ...


def secret_face(secret: bytes, number: int, salt: int = 0) -> int:
    """The face of draw `number`: the first byte of HMAC-SHA256(secret, number) that is below
    252, mod 6 (exactly fair); none in all 32 bytes (one time in 10^57) hashes again."""
    message = number.to_bytes(8, "big") + salt.to_bytes(4, "big")
    for byte in hmac.new(secret, message, hashlib.sha256).digest():
        if byte < FACE_BYTES:
            return byte % 6 + 1
    return secret_face(secret, number, salt + 1)


class SecretDice:
    """The box's own dice: each face drawn from the box's secret and the die's number."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def face(self, number: int, need: Need) -> int:
        return secret_face(self.secret, number)


class ScriptedFrom:
    """Faces given in advance for the dice numbered from `first` on (the simulator's --dice):
    a simulator restarted in the same state folder with the same faces and `first` draws the
    same face for the same number. `first` None: the first number asked (the next die)."""

    def __init__(self, faces: Iterable[int], first: int | None = None) -> None:
        self.faces = [check_face(f) for f in faces]
        self.first = first

    def face(self, number: int, need: Need) -> int:
        if self.first is None:
            self.first = number
        at = number - self.first
        if not 0 <= at < len(self.faces):
            given = len(self.faces)
            where = f"ran out at the {need.words} roll" if at >= 0 else \
                f"the {need.words} roll is die {number}, before the first given ({self.first})"
            raise DiceExhausted(f"too few scripted dice: {given} face"
                                f"{'s' if given != 1 else ''} given, {where}", need)
        return self.faces[at]


class InOrder:
    """A plain dice source (the tests' scripted dice) taken in order, whatever the number."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def face(self, number: int, need: Need) -> int:
        return self.dice.roll(need)


def numbered(dice: Dice | Numbered) -> Numbered:
    return dice if isinstance(dice, Numbered) else InOrder(dice)


class Draws:
    """The box's dice as it rolls them: the next number's face, and the count so far (saved
    with every completed action, and where a restarted box starts counting)."""

    def __init__(self, source: Dice | Numbered, drawn: int = 0) -> None:
        self.source, self.drawn = numbered(source), drawn

    def roll(self, need: Need) -> int:
        face = check_face(self.source.face(self.drawn, need))
        self.drawn += 1
        return face

    def take(self) -> int:
        """The next number, for a face the box did not draw (a smart die's): counted as the
        box's own, so the count saved with an action covers it."""
        self.drawn += 1
        return self.drawn - 1
