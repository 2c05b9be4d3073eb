"""What a Cobra game keeps of its victory points and special rolls: each VP the players
reported (16.1, 16.2, 18.0), so that a wrong entry can be taken back and the rules' limits
counted (once a game turn, once a game, at most 12 or four divisions), and each special roll
made (15.1 Leclerc, 15.2 the 15th Army, 15.3 Brest)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .exits import Exit


@dataclass(frozen=True)
class Award:
    """VP scored in game turn `turn` from the source `source` (victory_points.SOURCES): `vp`
    on the German or the Allied track (`side`), for `count` units; the exit it recorded."""

    turn: int
    source: str
    side: str                 # "german" or "allied": whose track moved
    vp: int
    count: int = 1
    exit: Exit | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "source": self.source, "side": self.side, "vp": self.vp,
                "count": self.count, "exit": self.exit.to_dict() if self.exit else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Award:
        out = data.get("exit")
        return cls(int(data["turn"]), str(data["source"]), str(data["side"]), int(data["vp"]),
                   int(data.get("count", 1)), Exit.from_dict(out) if out else None)


@dataclass(frozen=True)
class SpecialRoll:
    """One special roll: in which game turn, which (leclerc, release, brest), the die, and
    whether it came off (a mutiny, a division released, the 2nd FJ released)."""

    turn: int
    kind: str
    die: int
    success: bool

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "kind": self.kind, "die": self.die, "success": self.success}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SpecialRoll:
        return cls(int(data["turn"]), str(data["kind"]), int(data["die"]),
                   bool(data["success"]))


@dataclass(frozen=True)
class Scoresheet:
    awards: tuple[Award, ...] = ()
    rolls: tuple[SpecialRoll, ...] = ()

    def rolled(self, kind: str) -> tuple[SpecialRoll, ...]:
        return tuple(r for r in self.rolls if r.kind == kind)

    def scored(self, source: str) -> tuple[Award, ...]:
        return tuple(a for a in self.awards if a.source == source)

    def to_dict(self) -> dict[str, Any]:
        return {"awards": [a.to_dict() for a in self.awards],
                "rolls": [r.to_dict() for r in self.rolls]}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Scoresheet:
        data = data or {}
        return cls(tuple(Award.from_dict(a) for a in data.get("awards", ())),
                   tuple(SpecialRoll.from_dict(r) for r in data.get("rolls", ())))
