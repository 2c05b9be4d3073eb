"""Dice sources. The rules never roll by themselves: every face comes from a `Dice` source.

A source is asked for one D6 face at a time, with the purpose of the roll ("to hit",
"reload", "damage die 3", ...) so a manual source can say what it is asking for.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Protocol


class DiceError(Exception):
    """A dice source cannot give the face the rules ask for."""


class DiceExhausted(DiceError):
    """A scripted source has no faces left; `purpose` is the roll that found none."""

    def __init__(self, message: str, purpose: str = "") -> None:
        super().__init__(message)
        self.purpose = purpose


class Dice(Protocol):
    def roll(self, purpose: str) -> int:
        """Return one D6 face (1..6) for the roll described by `purpose`."""
        ...


def check_face(face: int) -> int:
    if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
        raise DiceError(f"{face!r} is not a D6 face: a face is a whole number from 1 to 6")
    return face


class RandomDice:
    """Fair dice from the operating system's random source (`secrets`)."""

    def roll(self, purpose: str) -> int:
        return secrets.randbelow(6) + 1


class ScriptedDice:
    """Faces given in advance, consumed in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = [check_face(f) for f in faces]
        self.used = 0

    def roll(self, purpose: str) -> int:
        if self.used >= len(self.faces):
            given = len(self.faces)
            raise DiceExhausted(
                f"too few scripted dice: {given} face{'s' if given != 1 else ''} given, "
                f"ran out at the {purpose} roll", purpose
            )
        face = self.faces[self.used]
        self.used += 1
        return face

    @property
    def left(self) -> list[int]:
        return self.faces[self.used:]


class ManualDice:
    """Faces a player rolled with real dice; `ask(purpose)` returns the face they read."""

    def __init__(self, ask: Callable[[str], int]) -> None:
        self.ask = ask

    def roll(self, purpose: str) -> int:
        return check_face(self.ask(purpose))


def parse_faces(text: str) -> list[int]:
    """Read '3,5,6' (commas or spaces) into faces, or raise DiceError naming the bad item."""
    faces: list[int] = []
    for item in text.replace(",", " ").split():
        if not item.isdigit():
            raise DiceError(f"{item!r} is not a D6 face: a face is a whole number from 1 to 6")
        faces.append(check_face(int(item)))
    return faces
