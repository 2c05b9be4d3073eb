"""Cobra's special rolls: Leclerc and Paris (15.1), the 15th Army's release (15.2) and the
2nd Fallschirmjäger Division from Brest (15.3). Each takes the die it is given and returns a
trace with its rule; the `*_on` functions check the game's record and keep the roll."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from .exits import Exit, first_exit
from .scoresheet import SpecialRoll
from .turns import CobraGame
from .victory_points import award, score

LECLERC, RELEASE, BREST = "leclerc", "release", "brest"
MUTINY = 1                                  # 15.1b "if the result is a one"
RELEASED_ON = (1, 2)                        # 15.2d, 15.3c
RELEASE_BY = 22                             # 15.2 "or GT 22, whichever comes first"
DIVISIONS = ((49, 3), (347, 2), (348, 2), (245, 3))   # 15.2e: infantry divisions, in order
HQS = ("LXXXII", "LXXXIX")                  # 15.2f, one for every two divisions
BREST_FROM = 26                             # 15.3a
BREST_EXIT_BY = 25                          # 15.3 "by GT 25"
BREST_MINUS_ON = 27                         # 15.3b
FJ_UNITS = 2


def _die(die: int) -> int:
    if not 1 <= die <= 6:
        raise RulesError(CobraRefusal.NOT_A_DIE_FACE, die=die,
                         faces=6)
    return die


# ---- 15.1 Leclerc ----

@dataclass(frozen=True)
class LeclercRoll:
    die: int
    mutiny: bool
    rule: str = "15.1b"

    def to_dict(self) -> dict[str, Any]:
        return {"roll": LECLERC, "die": self.die, "mutiny": self.mutiny, "rule": self.rule}


def leclerc(die: int) -> LeclercRoll:
    """At the beginning of an Allied Initial Movement Phase with a clear path off the east
    edge (15.1a, which the players see): a one, and the 2nd FF Armored Division heads for
    Paris, moving toward the east edge to exit as soon as possible (15.1b)."""
    return LeclercRoll(_die(die), die == MUTINY)


def leclerc_on(game: CobraGame, die: int) -> tuple[CobraGame, LeclercRoll]:
    rolled = game.scoresheet.rolled(LECLERC)
    gone = next((r for r in rolled if r.success), None)
    if gone is not None:
        raise RulesError(CobraRefusal.LECLERC_MUTINIED, turn=gone.turn)
    _once(rolled, game.turn)
    result = leclerc(die)
    return _kept(game, LECLERC, die, result.mutiny), result


# ---- 15.2 the 15th Army ----

@dataclass(frozen=True)
class ReleaseRoll:
    turn: int
    die: int
    released: bool
    division: int | None        # the division released (49th...), next in 15.2e's order
    units: int
    hq: bool                    # a corps HQ with it: the second and the fourth (15.2f)
    german_vp: int = -1         # 15.2b: each attempt costs the German player one VP
    rule: str = "15.2"

    def to_dict(self) -> dict[str, Any]:
        return {"roll": RELEASE, "turn": self.turn, "die": self.die,
                "released": self.released, "division": self.division, "units": self.units,
                "hq": self.hq, "hqs": list(HQS) if self.hq else [],
                "german_vp": self.german_vp, "rule": self.rule}


def release_from(first_us_exit: int | None) -> int:
    """The first game turn of the attempts: the one after the first US exit, or GT 22,
    whichever comes first (15.2)."""
    return RELEASE_BY if first_us_exit is None else min(first_us_exit + 1, RELEASE_BY)


def release(turn: int, first_us_exit: int | None, released: int, die: int,
            attempted: tuple[int, ...] = ()) -> ReleaseRoll:
    """One attempt in the German Initial Movement Phase of game turn `turn` (15.2c), with
    `released` divisions out before: 1 or 2 releases the next division (15.2d, e)."""
    first = release_from(first_us_exit)
    if turn < first:
        raise RulesError(CobraRefusal.RELEASE_NOT_YET, turn=turn, first=first)
    if turn in attempted:
        raise RulesError(CobraRefusal.RELEASE_ONCE_A_TURN, turn=turn)
    if released >= len(DIVISIONS):
        raise RulesError(CobraRefusal.RELEASE_ALL_OUT)
    if _die(die) not in RELEASED_ON:
        return ReleaseRoll(turn, die, False, None, 0, False)
    name, units = DIVISIONS[released]
    return ReleaseRoll(turn, die, True, name, units, (released + 1) % 2 == 0)


def release_on(game: CobraGame, die: int) -> tuple[CobraGame, ReleaseRoll]:
    """The attempt made: the die kept and the German VP lost (15.2b; counted once, on the
    German track: docs/rules-notes.md)."""
    rolled = game.scoresheet.rolled(RELEASE)
    result = release(game.turn, first_exit(game.exits, nation="us"),
                     sum(r.success for r in rolled), die, tuple(r.turn for r in rolled))
    game = _kept(game, RELEASE, die, result.released)
    cost = score(game.scenario, game.turn, "release_attempt", awards=game.scoresheet.awards)
    return award(game, cost), result


def next_division(game: CobraGame) -> int | None:
    """The division the next successful attempt releases (15.2e), None when all are out."""
    released = sum(r.success for r in game.scoresheet.rolled(RELEASE))
    return DIVISIONS[released][0] if released < len(DIVISIONS) else None


def may_release(game: CobraGame) -> bool:
    """Whether the 15th Army may be asked in this game turn (the box's hub offers it)."""
    rolled = game.scoresheet.rolled(RELEASE)
    return game.turn >= release_from(first_exit(game.exits, nation="us")) and \
        all(r.turn != game.turn for r in rolled) and \
        sum(r.success for r in rolled) < len(DIVISIONS)


# ---- 15.3 Brest ----

@dataclass(frozen=True)
class BrestRoll:
    turn: int
    die: int
    modifier: int
    modified: int
    released: bool
    units: int = FJ_UNITS
    rule: str = "15.3"

    def to_dict(self) -> dict[str, Any]:
        return {"roll": BREST, "turn": self.turn, "die": self.die, "modifier": self.modifier,
                "modified": self.modified, "released": self.released,
                "units": self.units if self.released else 0, "rule": self.rule}


def brest(turn: int, die: int, exits: tuple[Exit, ...] = (),
          released_on: int | None = None) -> BrestRoll:
    """At the beginning of game turn `turn`, from GT 26, while no US unit has exited off the
    west edge (15.3, 15.3a): the German die, −1 on GT 27 (15.3b), 1 or 2 brings the two units
    of the 2nd FJ Division in on the west edge (15.3c)."""
    if turn < BREST_FROM:
        raise RulesError(CobraRefusal.BREST_NOT_YET, turn=turn)
    out = first_exit(exits, nation="us", edge="west")
    if out is not None and out < turn:
        raise RulesError(CobraRefusal.BREST_US_EXITED, turn=out)
    if released_on is not None:
        raise RulesError(CobraRefusal.BREST_RELEASED, turn=released_on)
    modifier = -1 if turn == BREST_MINUS_ON else 0
    modified = _die(die) + modifier
    return BrestRoll(turn, die, modifier, modified, modified in RELEASED_ON or modified < 1)


def brest_released(game: CobraGame) -> int | None:
    """The game turn the 2nd FJ came in: released from Brest (15.3c), or its optional entry
    on GT 19."""
    rolled = [r.turn for r in game.scoresheet.rolled(BREST) if r.success]
    entered = [a.turn for a in game.scoresheet.scored("brest_entry")]
    return min(rolled + entered, default=None)


def brest_on(game: CobraGame, die: int) -> tuple[CobraGame, BrestRoll]:
    _once(game.scoresheet.rolled(BREST), game.turn)
    result = brest(game.turn, die, game.exits, brest_released(game))
    return _kept(game, BREST, die, result.released), result


def may_roll_brest(game: CobraGame) -> bool:
    out = first_exit(game.exits, nation="us", edge="west")
    return game.turn >= BREST_FROM and (out is None or out >= game.turn) and \
        brest_released(game) is None and \
        all(r.turn != game.turn for r in game.scoresheet.rolled(BREST))


def may_roll_leclerc(game: CobraGame) -> bool:
    rolled = game.scoresheet.rolled(LECLERC)
    return not any(r.success for r in rolled) and all(r.turn != game.turn for r in rolled)


# ---- the record ----

def _once(rolled: tuple[SpecialRoll, ...], turn: int) -> None:
    if any(r.turn == turn for r in rolled):
        raise RulesError(CobraRefusal.SPECIAL_ONCE_A_TURN, turn=turn)


def _kept(game: CobraGame, kind: str, die: int, success: bool) -> CobraGame:
    roll = SpecialRoll(game.turn, kind, die, success)
    return replace(game, scoresheet=replace(game.scoresheet,
                                            rolls=(*game.scoresheet.rolls, roll)))
