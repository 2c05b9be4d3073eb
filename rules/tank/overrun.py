"""Tank Game overrun (rule 9): a tank moving over figures and guns.

The move counts as moving in rough ground. Each visible figure run over rolls a D6: 5-6 and it
is eliminated, otherwise it is placed just beside the tank (a dug-in figure stays where it is and
pops up after the tank has passed). Hidden figures always survive without a roll: vehicles
cannot see them. A gun in the open or in soft cover is eliminated without a roll, and each of
its crew figures then rolls as a figure run over (a hidden gun's crew survive without one); the
crew of a gun destroyed before are figures like any other. Hard cover blocks the tank.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from ..battle import Battle, Piece
from ..card import DieRange, Kind
from ..dice import Aim, Dice, Need, Roller
from ..errors import Refusal, RulesError
from ..saved import Data

ELIMINATED = DieRange(5)  # the defender's D6 for a figure run over: 5-6 eliminates it


class Cover(StrEnum):
    OPEN = "open"
    SOFT = "soft"   # bushes, long grass, a wooden fence: no stop for a tank
    HARD = "hard"   # buildings, stone walls: blocks the tank


@dataclass(frozen=True)
class Under:
    """A piece the tank moves over: how many of its figures, and the cover it is in."""

    piece: Piece
    figures: int | None = None    # a squad's figures under the tank; None: all of them
    cover: Cover = Cover.OPEN
    dug_in: bool = False          # survivors stay in place instead of beside the tank


@dataclass(frozen=True)
class FigureRoll(Data):
    """One figure's roll against a tank running it over."""

    figure: int       # 1, 2, ... in the order rolled
    roll: int
    eliminated: bool


@dataclass(frozen=True)
class RunOver:
    """What happened to one piece under the tank."""

    label: str
    kind: Kind
    cover: Cover
    hidden: bool
    dug_in: bool
    figures: int                    # figures under the tank (a gun: its crew)
    rolls: tuple[FigureRoll, ...]
    eliminated: int                 # figures eliminated by their rolls (a gun: of its crew)
    outcome: str
    before: Piece
    after: Piece
    gun_eliminated: bool = False    # the gun itself, eliminated without a roll

    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.label, "kind": self.kind.value, "cover": self.cover.value,
                "hidden": self.hidden, "dug_in": self.dug_in, "figures": self.figures,
                "rolls": [r.to_dict() for r in self.rolls], "eliminated": self.eliminated,
                "outcome": self.outcome,
                "figures_before": self.before.figures, "figures_after": self.after.figures,
                "status_before": self.before.status.words(),
                "status_after": self.after.status.words(),
                "gun_eliminated": self.gun_eliminated,
                "crew_fights_on": self.after.crew_only, "out": self.after.gone}


@dataclass(frozen=True)
class Overrun:
    """A tank's overrun, as resolved: the pieces it ran over, their rolls, and its move."""

    tank: str
    card: str
    pieces: tuple[RunOver, ...]
    rough: str                      # the move counts as rough ground: the card's rough cost
    faces: tuple[int, ...]          # every D6 rolled, in order

    @property
    def rolled(self) -> int:
        return len(self.faces)

    @property
    def eliminated(self) -> int:
        """Figures eliminated by their rolls: a squad's, and a gun's crew."""
        return sum(p.eliminated for p in self.pieces)

    @property
    def guns_eliminated(self) -> int:
        return sum(1 for p in self.pieces if p.gun_eliminated)

    @property
    def after(self) -> tuple[Piece, ...]:
        return tuple(p.after for p in self.pieces)

    @property
    def run_over(self) -> int:
        """Figures under the tank (a gun's crew too), and each gun itself once."""
        return sum(p.figures + p.gun_eliminated for p in self.pieces)

    @property
    def down(self) -> int:
        """Figures and guns eliminated."""
        return self.eliminated + self.guns_eliminated

    @property
    def summary(self) -> str:
        text = f"rolled {self.rolled}, eliminated {self.eliminated}"
        if self.guns_eliminated:
            guns = self.guns_eliminated
            text += f", {guns} gun{'s' if guns > 1 else ''} eliminated"
        return text

    def apply(self, battle: Battle) -> Battle:
        """The battle with every piece run over as it is after the overrun."""
        for piece in self.after:
            battle = battle.replace_piece(piece)
        return battle

    def to_dict(self) -> dict[str, Any]:
        return {"tank": self.tank, "card": self.card, "rough": self.rough,
                "pieces": [p.to_dict() for p in self.pieces], "dice": list(self.faces),
                "rolled": self.rolled, "eliminated": self.eliminated,
                "guns_eliminated": self.guns_eliminated, "summary": self.summary}


def candidates(battle: Battle, tank: Piece) -> list[Piece]:
    """The enemy figures and guns on the map, but riders (their vehicle blocks the tank):
    what the tank might run over."""
    return [p for p in battle.side(tank.side.enemy)
            if p.kind in (Kind.FIGURE, Kind.GUN) and not p.gone and not p.status.off_map
            and p.riding is None]


def check_tank(tank: Piece) -> None:
    if tank.kind not in (Kind.HARD, Kind.OPEN_TOP):
        raise RulesError(TankRefusal.NOT_A_TANK, label=tank.label)
    if tank.status.destroyed:
        raise RulesError(Refusal.DESTROYED, name=tank.label)
    if tank.status.immobilized:
        raise RulesError(TankRefusal.IMMOBILIZED, label=tank.label)
    if tank.status.off_map:
        raise RulesError(TankRefusal.OFF_MAP, label=tank.label)
    if tank.status.commander_killed:
        raise RulesError(TankRefusal.COMMANDER_LOST, label=tank.label)


def _count(tank: Piece, under: Under) -> int:
    """Check one piece under the tank before any die is rolled; its figures run over."""
    piece = under.piece
    if piece.side is tank.side:
        raise RulesError(TankRefusal.OWN_SIDE_UNDER, label=piece.label)
    if piece.gone:
        raise RulesError(TankRefusal.ALREADY_OUT, label=piece.label)
    if piece.status.off_map:
        raise RulesError(TankRefusal.OFF_MAP, label=piece.label)
    if piece.kind.vehicle:
        raise RulesError(TankRefusal.VEHICLE_BLOCKS, label=piece.label)
    if piece.riding is not None:
        raise RulesError(TankRefusal.RIDER_BLOCKS, label=piece.label,
                         vehicle=piece.riding.vehicle)
    if under.cover is Cover.HARD:
        raise RulesError(TankRefusal.HARD_COVER_BLOCKS, label=piece.label)
    if piece.model:              # a gun with its gun: the gun and its whole crew
        if under.figures is not None:
            raise RulesError(TankRefusal.GUN_RUN_OVER_WHOLE, label=piece.label)
        return piece.figures or 0
    left = piece.figures or 0
    count = left if under.figures is None else under.figures
    if not 1 <= count <= left:
        raise RulesError(TankRefusal.TOO_MANY_UNDER, label=piece.label, left=left, count=count)
    return count


def check(tank: Piece, under: tuple[Under, ...]) -> list[int]:
    """Refuse what the tank cannot run over; else the figures run over, piece by piece."""
    check_tank(tank)
    if not under:
        raise RulesError(TankRefusal.RUNS_OVER_NOTHING, label=tank.label)
    labels = [u.piece.label for u in under]
    if len(set(labels)) != len(labels):
        raise RulesError(TankRefusal.NAMED_TWICE_UNDER)
    return [_count(tank, u) for u in under]


def overrun(tank: Piece, under: tuple[Under, ...], dice: Dice) -> Overrun:
    """Run a tank over the pieces in `under`, in order; every check comes before any roll."""
    counts = check(tank, under)
    faces: list[int] = []
    results: list[RunOver] = []
    for item, count in zip(under, counts, strict=True):
        results.append(_run_over(tank, item, count, dice, faces))
    rough = (f"moving over pieces counts as rough ground: Move in Rough "
             f"{tank.card.printed('rough')} on {tank.card.title}")
    return Overrun(tank.label, tank.card.title, tuple(results), rough, tuple(faces))


def _run_over(tank: Piece, item: Under, count: int, dice: Dice, faces: list[int]) -> RunOver:
    """One piece under the tank: a gun is eliminated without a roll ("Anti-tank guns and the
    like in the open or soft cover are automatically eliminated"); figures, a gun's crew among
    them, roll ("Figures roll a dice (5-6 and they are eliminated)"), unless hidden."""
    piece = item.piece
    hidden = piece.status.hidden
    gun = piece.model                    # a gun with its gun (a destroyed gun's crew: figures)
    after = piece
    if gun:     # the gun is gone; a hidden gun's crew survive and stay hidden, as figures do
        after = replace(piece, status=replace(piece.status, destroyed=True))
    rolls: tuple[FigureRoll, ...] = ()
    plural = "s" if count != 1 else ""
    if gun and piece.figures is None:     # its card gives no crew: none is known to roll
        outcome = "its card gives no crew"
    elif hidden:
        what = "its crew" if gun else f"{count} figure{plural}"
        outcome = (f"hidden: {what} survive{'' if gun or count != 1 else 's'} without a roll "
                   "(vehicles cannot see hidden figures)")
    else:
        rolls = _rolls(tank, piece, count, dice, faces)
    killed = sum(r.eliminated for r in rolls)
    after = after.lose_figures(killed) if killed else after
    if not hidden and not (gun and piece.figures is None):
        outcome = _survivors(item, count, killed, gun)
    if gun:
        where = "in soft cover" if item.cover is Cover.SOFT else "in the open"
        outcome = f"a gun {where}: eliminated, no roll; " + (
            outcome if count or piece.figures is None else "it has no crew")
    return RunOver(piece.label, piece.kind, item.cover, hidden, item.dug_in, count, rolls,
                   killed, outcome, piece, after, gun_eliminated=gun)


def _rolls(tank: Piece, piece: Piece, count: int, dice: Dice,
           faces: list[int]) -> tuple[FigureRoll, ...]:
    """Each visible figure's D6, rolled by its own player."""
    what = "crew figure" if piece.kind is Kind.GUN else "figure"
    made = []
    for number in range(1, count + 1):
        face = dice.roll(Need(
            Roller.DEFENDER, Aim.OVERRUN, f"defender D6 for {piece.label} {what} "
            f"{number} (run over by {tank.label}: {ELIMINATED} eliminates)",
            piece.label, number))
        faces.append(face)
        made.append(FigureRoll(number, face, eliminates(face)))
    return tuple(made)


def _survivors(item: Under, count: int, killed: int, gun: bool) -> str:
    """'rolled 3, 1 eliminated (5-6); 2 are placed beside the tank'."""
    survivors = count - killed
    one = survivors == 1
    if item.dug_in:
        place = f"{'stays' if one else 'stay'} in place, dug in, and "\
                f"{'pops' if one else 'pop'} up after the tank"
    else:
        place = f"{'is' if one else 'are'} placed beside the tank"
    crew = "crew " if gun else ""
    outcome = f"{crew}rolled {count}, {killed} eliminated ({ELIMINATED})"
    if survivors:
        outcome += f"; {survivors} {place}"
    return outcome


def eliminates(face: int) -> bool:
    """A figure run over by a tank is eliminated on its player's D6 of 5 or 6 (DOWN), and
    survives on 1 to 4 (SAFE)."""
    return face in ELIMINATED
