"""One Cobra replacement step taken, as the game saves it (`CobraGame.replacements`).

Kept apart from `replacements.py`, which works out what may be taken from the game, so that the
game holds its steps without importing the module that reads the game (no import circle).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import RulesError
from ..saved import Data
from .movement import ARMIES
from .refusals import CobraRefusal

SIDES = ARMIES                            # who takes replacement steps: every army
KINDS = ("mech", "inf")
ALLIED = ("us", "british")


@dataclass(frozen=True)
class Replacement(Data):
    """One replacement step taken: in which game turn, by whom, of which kind."""

    turn: int
    side: str
    kind: str

    def __post_init__(self) -> None:
        for name, value, allowed in (("side", self.side, SIDES), ("kind", self.kind, KINDS)):
            if value not in allowed:
                raise RulesError(CobraRefusal.UNKNOWN_REPLACEMENT,
                                 field=name, value=value, choices=allowed)
