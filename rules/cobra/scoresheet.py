"""What a Cobra game keeps of its victory points and special rolls: each VP the players
reported (16.1, 16.2, 18.0), so that a wrong entry can be taken back and the rules' limits
counted (once a game turn, once a game, at most 12 or four divisions), and each special roll
made (15.1 Leclerc, 15.2 the 15th Army, 15.3 Brest)."""
from __future__ import annotations

from dataclasses import dataclass

from ..saved import Data
from .exits import Exit


@dataclass(frozen=True)
class Award(Data):
    """VP scored in game turn `turn` from the source `source` (victory_points.SOURCES): `vp`
    on the German or the Allied track (`side`), for `count` units; the exit it recorded."""

    turn: int
    source: str
    side: str                 # "german" or "allied": whose track moved
    vp: int
    count: int = 1
    exit: Exit | None = None


@dataclass(frozen=True)
class SpecialRoll(Data):
    """One special roll: in which game turn, which (leclerc, release, brest), the die, and
    whether it came off (a mutiny, a division released, the 2nd FJ released)."""

    turn: int
    kind: str
    die: int
    success: bool


@dataclass(frozen=True)
class Scoresheet(Data):
    awards: tuple[Award, ...] = ()
    rolls: tuple[SpecialRoll, ...] = ()

    def rolled(self, kind: str) -> tuple[SpecialRoll, ...]:
        return tuple(r for r in self.rolls if r.kind == kind)

    def scored(self, source: str) -> tuple[Award, ...]:
        return tuple(a for a in self.awards if a.source == source)


