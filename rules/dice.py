"""Dice sources. The rules never roll by themselves: every face comes from a `Dice` source.

A source is asked for one D6 face at a time with a `Need`: who rolls it, what it is for, the
piece, figure and shot it concerns, and the words for it ("to hit", "reload", "damage die 3",
...). A box decides whose button to wait for from the need, never from its words; a manual
source shows the words.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from cobi_companion.rules.numbers import echo, whole


class Roller(StrEnum):
    """Who rolls a die: a role in the action, or a side named by the rule itself."""

    FIRER = "firer"          # the player whose piece fires (to hit, reload, damage)
    TARGET = "target"        # the player whose piece is fired at (Easy: the armour D6+)
    ATTACKER = "attacker"    # soft targets and Cobra combat: the attacking player
    DEFENDER = "defender"    # soft targets and overrun: the player whose figures are attacked
    AXIS = "axis"            # a side by name (initiative, the Cobra weather)
    ALLIES = "allies"
    EITHER = "either"        # anyone at the table (the quick dice)


class Aim(StrEnum):
    """What a die is for."""

    TO_HIT = "to_hit"
    RELOAD = "reload"
    DAMAGE = "damage"        # Tank Game damage dice; Easy: the firer's D6+
    ARMOUR = "armour"        # Easy: the target's D6+
    EXTRA = "extra"          # a D6+ rolled again after a 6
    INITIATIVE = "initiative"
    ATTACK = "attack"        # a soft-target attack: the attacker's D6
    DEFENCE = "defence"      # a soft-target attack: the defender's D6
    OVERRUN = "overrun"      # a figure run over by a tank
    WEATHER = "weather"
    COMBAT = "combat"
    EXTENSION = "extension"  # Cobra: does the campaign go on to game turn 28?
    LECLERC = "leclerc"      # Cobra 15.1: does Leclerc head for Paris?
    RELEASE = "release"      # Cobra 15.2: is a 15th Army division released?
    BREST = "brest"          # Cobra 15.3: is the 2nd FJ Division released from Brest?
    QUICK = "quick"          # a die rolled for its own sake
    AIR_ATTACK = "air_attack"    # Cobra: the air attack on a German unit that increased its MA
    SCATTER = "scatter"      # Cobra: does a paratroop unit scatter, and where (17.3.2)


@dataclass(frozen=True)
class Need:
    """One die a rule asks for."""

    roller: Roller
    aim: Aim
    words: str                  # shown on a panel, logged, and named when dice run out
    piece: str = ""             # the piece's label, where the die is about one
    figure: int | None = None   # the figure of a squad (1 = a vehicle's commander)
    shot: int | None = None     # a machine gun's shot at that figure
    number: int | None = None   # the die's number in a series (damage dice, extras counted)

    def __str__(self) -> str:
        return self.words


# The firer's own dice in a shot.
TO_HIT = Need(Roller.FIRER, Aim.TO_HIT, "to hit")
RELOAD = Need(Roller.FIRER, Aim.RELOAD, "reload")


class DiceError(Exception):
    """A dice source cannot give the face the rules ask for."""


class DiceExhausted(DiceError):
    """A scripted source has no faces left; `need` is the roll that found none."""

    def __init__(self, message: str, need: Need) -> None:
        super().__init__(message)
        self.need = need


class Dice(Protocol):
    def roll(self, need: Need) -> int:
        """Return one D6 face (1..6) for the roll `need` describes."""
        ...


# The six faces of a D6.
D6_FACES = frozenset(range(1, 7))


def check_face(face: int) -> int:
    if type(face) is int and face in D6_FACES:  # the usual face, checked at once
        return face
    if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
        raise DiceError(f"{face!r} is not a D6 face: a face is a whole number from 1 to 6")
    return face


class RandomDice:
    """Fair dice from the operating system's random source (`secrets`)."""

    def roll(self, need: Need) -> int:
        return secrets.randbelow(6) + 1


class ScriptedDice:
    """Faces given in advance, consumed in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        given = list(faces)
        # Thousands of plain ints from 1 to 6 (a test's or the simulator's script) are
        # checked at once, in C: every one an int (not a bool, nor a float equal to one) and
        # a face. Anything else is checked face by face, for the first that is not one.
        if set(map(type, given)) <= {int} and D6_FACES.issuperset(given):
            self.faces = given
        else:
            self.faces = [check_face(f) for f in given]
        self.used = 0

    def roll(self, need: Need) -> int:
        if self.used >= len(self.faces):
            given = len(self.faces)
            raise DiceExhausted(
                f"too few scripted dice: {given} face{'s' if given != 1 else ''} given, "
                f"ran out at the {need.words} roll", need
            )
        face = self.faces[self.used]
        self.used += 1
        return face

    @property
    def left(self) -> list[int]:
        return self.faces[self.used:]


class ManualDice:
    """Faces a player rolled with real dice; `ask(need)` returns the face they read."""

    def __init__(self, ask: Callable[[Need], int]) -> None:
        self.ask = ask

    def roll(self, need: Need) -> int:
        return check_face(self.ask(need))


def parse_faces(text: str) -> list[int]:
    """Read '3,5,6' (commas or spaces) into faces, or raise DiceError naming the bad item."""
    faces: list[int] = []
    for item in text.replace(",", " ").split():
        face = whole(item, 1, 6)
        if face is None:
            raise DiceError(f"{echo(item)} is not a D6 face: a face is a whole number from 1 "
                            f"to 6")
        faces.append(face)
    return faces
