"""The battle the box remembers: roster and marks, round, whose turn, and the log.

Saved as a plain dict after every completed action, so a pulled plug resumes at the last one.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.rules.battle import Battle, Piece
from cobi_companion.rules.status import Side, Status


@dataclass
class BattleState:
    level: str
    battle: Battle
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    round: int = 1
    first: Side | None = None          # who acts first this round (initiative / defender)
    active: Side | None = None         # whose action it is now
    acted: list[Side] = field(default_factory=list)
    defender: Side | None = None       # Tank Game: the defender moves first every turn
    winner: Side | None = None
    log: list[str] = field(default_factory=list)

    def alive(self, side: Side) -> list[Piece]:
        return [p for p in self.battle.side(side) if not p.gone]

    def set_status(self, label: str, status: Status) -> None:
        self.battle = self.battle.with_status(label, status)

    def begin_round(self, first: Side) -> None:
        self.first, self.active, self.acted = first, first, []

    def end_action(self) -> bool:
        """The active side has acted: hand over, or end the round. True if the round ended."""
        assert self.active is not None
        self.acted.append(self.active)
        if len(self.acted) < 2:
            self.active = self.active.enemy
            return False
        self.round += 1
        self.active = None
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "level": self.level, "round": self.round,
            "first": _side(self.first), "active": _side(self.active),
            "acted": [s.value for s in self.acted], "defender": _side(self.defender),
            "winner": _side(self.winner), "log": self.log[-200:],
            "pieces": [{"label": p.label, "side": p.side.value, "card": p.card.key,
                        "figures": p.figures, "status": p.status.words()}
                       for p in self.battle.pieces],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], book: CardBook) -> BattleState:
        pieces = tuple(
            Piece(p["label"], Side(p["side"]), card, Status.from_words(p["status"]),
                  p.get("figures", card.crew))
            for p in data.get("pieces", data.get("vehicles", []))
            for card in [book.get(p.get("card", p.get("set")))])
        battle = Battle(data["level"], pieces)
        return cls(
            level=data["level"], battle=battle, id=data["id"], round=data["round"],
            first=_to_side(data["first"]), active=_to_side(data["active"]),
            acted=[Side(s) for s in data["acted"]], defender=_to_side(data["defender"]),
            winner=_to_side(data["winner"]), log=list(data["log"]))


def _side(side: Side | None) -> str | None:
    return None if side is None else side.value


def _to_side(value: str | None) -> Side | None:
    return None if value is None else Side(value)
