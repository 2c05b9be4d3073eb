"""Tank Game ending and winning (rule 16): the winner of a battle, and the two-battle match.

A side that gives up, or has no pieces left, loses. Playing the battle again with the sides
swapped, each battle's winner scores the figures it had left (a vehicle counts its card's crew
value); the team with the higher total wins the match.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from ..battle import Battle, Piece
from ..card import Kind
from ..errors import RulesError
from ..house import DEFAULT, HouseRules
from ..saved import Data, saved
from ..status import Side

BATTLES = 2


class Team(StrEnum):
    ONE = "team 1"
    TWO = "team 2"

    @property
    def other(self) -> Team:
        return Team.TWO if self is Team.ONE else Team.ONE


TEAMS = (Team.ONE, Team.TWO)


def winner(battle: Battle, gave_up: Side | None = None) -> Side | None:
    """The side that has won, or None while the battle goes on.

    A side that gives up loses. Otherwise a side with pieces in the battle and none of them left
    (every one destroyed, a squad with no figure, a gun with no crew) loses. Pieces waiting off
    the map are still pieces left, and so is an immobilized vehicle, and the crew of a destroyed
    gun: they are figures (`Piece.gone`).
    """
    if gave_up is not None:
        return gave_up.enemy
    out = [side for side in Side if battle.side(side)
           and all(p.gone for p in battle.side(side))]
    return out[0].enemy if len(out) == 1 else None


@dataclass(frozen=True)
class ScoreLine(Data):
    """One piece's figures at the end of a battle."""

    label: str = field(metadata=saved(key="piece"))
    kind: Kind
    figures: int
    why: str


@dataclass(frozen=True)
class Score:
    """A side's figures left: each piece's count and the total."""

    side: Side
    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        return sum(line.figures for line in self.lines)

    # Saved by hand, not by its types (rules/saved.py): its total is written too.
    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side.value, "lines": [line.to_dict() for line in self.lines],
                "total": self.total}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Score:
        return cls(Side(data["side"]),
                   tuple(ScoreLine.from_dict(line) for line in data["lines"]))


def _line(piece: Piece) -> ScoreLine:
    off = " (off the map)" if piece.status.off_map else ""
    if piece.gone:
        if piece.status.destroyed:
            what = "destroyed"
        elif piece.kind is Kind.GUN:
            what = "no crew left: a gun needs a figure to fire"
        elif piece.kind is Kind.OPEN_TOP:
            what = "no crew left: an open-top needs a figure"
        else:
            what = "no figures left"
        return ScoreLine(piece.label, piece.kind, 0, what)
    if piece.crew_only:
        left = piece.figures or 0
        return ScoreLine(piece.label, piece.kind, left, f"gun destroyed: {left} crew left{off}")
    if piece.kind is Kind.FIGURE:
        left = piece.figures or 0
        return ScoreLine(piece.label, piece.kind, left,
                         f"{left} figure{'s' if left != 1 else ''} left{off}")
    if piece.kind is Kind.GUN:
        crew = piece.figures
        if crew is None:
            printed: int | None = piece.card.need("crew")
            crew = printed or 0
        return ScoreLine(piece.label, piece.kind, crew, f"gun crew: {crew} left{off}")
    value: int | None = piece.card.need("crew")
    return ScoreLine(piece.label, piece.kind, value or 0,
                     f"vehicle: Crew {piece.card.printed('crew')} on the card{off}")


def score(battle: Battle, side: Side) -> Score:
    """Every piece of a side and the figures it counts: a squad its figures left, a gun its crew
    left (also when the gun itself is destroyed: its crew are figures), a vehicle not destroyed
    its card's crew value, a piece out of the fight 0 (a gun with no crew too)."""
    return Score(side, tuple(_line(p) for p in battle.side(side)))


def figures_left(battle: Battle, side: Side) -> int:
    return score(battle, side).total


@dataclass(frozen=True)
class BattleResult:
    """How one battle ended: the winner, whether the loser gave up, the winner's figures left
    (and the loser's, which the house rule match_score = both counts)."""

    winner: Side
    gave_up: Side | None
    score: Score
    loser_figures: int = 0

    @property
    def figures(self) -> int:
        return self.score.total

    # Saved by hand, not by its types (rules/saved.py): its figures are written too.
    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner.value,
                "gave_up": None if self.gave_up is None else self.gave_up.value,
                "figures": self.figures, "score": self.score.to_dict(),
                "loser_figures": self.loser_figures}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleResult:
        gave_up = data.get("gave_up")
        # a battle saved before the loser's figures were kept: 0, the rules' reading
        return cls(Side(data["winner"]), None if gave_up is None else Side(gave_up),
                   Score.from_dict(data["score"]), int(data.get("loser_figures", 0)))


def battle_result(battle: Battle, gave_up: Side | None = None) -> BattleResult:
    """The end of a battle: refuses while neither side has won."""
    won = winner(battle, gave_up)
    if won is None:
        raise RulesError(TankRefusal.BATTLE_NOT_OVER)
    return BattleResult(won, gave_up, score(battle, won), figures_left(battle, won.enemy))


@dataclass(frozen=True)
class MatchBattle(Data):
    """One battle of a match: which team played the Axis, who won, and the figures it scored."""

    number: int = field(metadata=saved(key="battle"))
    axis: Team
    winner: Side
    winner_team: Team
    figures: int


@dataclass(frozen=True)
class MatchResult:
    """A whole match: its battles, each team's total and the winner, with the reason."""

    battles: tuple[MatchBattle, ...]
    totals: dict[Team, int]
    winner: Team | None            # None: a draw
    reason: str

    @property
    def draw(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {"battles": [b.to_dict() for b in self.battles],
                "totals": {team.value: total for team, total in self.totals.items()},
                "winner": None if self.winner is None else self.winner.value,
                "draw": self.draw, "reason": self.reason}


@dataclass(frozen=True)
class Match:
    """Two battles: team 1 plays Axis in battle 1, the sides are swapped for battle 2."""

    battles: tuple[BattleResult, ...] = ()

    @staticmethod
    def team(number: int, side: Side) -> Team:
        """The team playing `side` in battle `number` (1 or 2)."""
        if number not in range(1, BATTLES + 1):
            raise RulesError(TankRefusal.NO_SUCH_BATTLE, number=number, battles=BATTLES)
        axis = Team.ONE if number == 1 else Team.TWO
        return axis if side is Side.AXIS else axis.other

    @staticmethod
    def side(number: int, team: Team) -> Side:
        """The side `team` plays in battle `number`."""
        return Side.AXIS if Match.team(number, Side.AXIS) is team else Side.ALLIES

    @property
    def next_battle(self) -> int | None:
        return len(self.battles) + 1 if len(self.battles) < BATTLES else None

    @property
    def complete(self) -> bool:
        return len(self.battles) == BATTLES

    def record(self, result: BattleResult) -> Match:
        if self.complete:
            raise RulesError(TankRefusal.MATCH_OVER)
        return Match((*self.battles, result))

    def totals(self, house: HouseRules = DEFAULT) -> dict[Team, int]:
        """Each team's figures so far: only a battle's winner scores (rule 16: "the total
        number of figures the winner had left in both battles"), or by the house rule
        match_score = both each team its figures left, won or lost."""
        totals = dict.fromkeys(TEAMS, 0)
        for number, result in enumerate(self.battles, start=1):
            totals[self.team(number, result.winner)] += result.figures
            if house.match_score == "both":
                totals[self.team(number, result.winner.enemy)] += result.loser_figures
        return totals

    def result(self, house: HouseRules = DEFAULT) -> MatchResult:
        if not self.complete:
            raise RulesError(TankRefusal.MATCH_INCOMPLETE, recorded=len(self.battles),
                             battles=BATTLES)
        battles = tuple(
            MatchBattle(n, self.team(n, Side.AXIS), r.winner, self.team(n, r.winner), r.figures)
            for n, r in enumerate(self.battles, start=1))
        both = house.match_score == "both"
        totals = self.totals(house)
        parts = "; ".join(
            f"{team.value}: " + " + ".join(
                str(b.figures if b.winner_team is team else r.loser_figures if both else 0)
                for b, r in zip(battles, self.battles, strict=True))
            + f" = {totals[team]}" for team in TEAMS)
        if both:
            parts += " (house rule match_score = both)"
        one, two = totals[Team.ONE], totals[Team.TWO]
        if one == two:
            return MatchResult(battles, totals, None, f"{parts}: equal totals, a draw")
        best = Team.ONE if one > two else Team.TWO
        return MatchResult(battles, totals, best, f"{parts}: {best.value} wins")

    # Saved by hand, not by its types (rules/saved.py): too many battles are refused.
    def to_dict(self) -> dict[str, Any]:
        return {"battles": [r.to_dict() for r in self.battles]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        battles = tuple(BattleResult.from_dict(r) for r in data.get("battles", []))
        if len(battles) > BATTLES:
            raise RulesError(TankRefusal.TOO_MANY_BATTLES, battles=BATTLES, held=len(battles))
        return cls(battles)
