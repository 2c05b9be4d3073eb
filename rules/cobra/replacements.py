"""Cobra's replacements: the steps each side may take in its Replacement Phase, the German
replacement tracks by game turn, the British infantry limit from GT 20, and the German VP for
every 10 Allied steps (12.0, 12.2, 16.1).

The German tracks count mechanized steps in halves (12.2b gives "one half a mechanized step"
a turn): a whole step is taken once two halves are on the track. What is left at the end of a
turn is carried on, one step of each at most (12.2d), and a turn uses one mechanized and two
infantry steps at most (12.2d). The tracks are worked out from the steps taken in each game
turn of the game (`Replacement`, saved on the game), so nothing else needs saving.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from .notes import Note, Why
from .replacement_step import ALLIED as ALLIED
from .replacement_step import KINDS as KINDS
from .replacement_step import SIDES as SIDES
from .replacement_step import Replacement as Replacement

if TYPE_CHECKING:
    from .turns import CobraGame

CARRIED_MOST = {"mech": 2, "inf": 1}      # one step of each carried on (12.2d), mech in halves
USED_MOST = {"mech": 1, "inf": 2}         # steps a turn at most (12.2d)
BRITISH_LIMIT_FROM = 20                   # the British infantry limit's first game turn (12.2)
BRITISH_INFANTRY_MOST = 2
VP_STEPS = 10                             # 1 German VP for every 10 Allied steps (16.1)


def received(turn: int) -> dict[str, int]:
    """The German replacements of game turn `turn`, mechanized in halves: GT 2-9 one
    mechanized and two infantry steps (12.2a), GT 10-20 half a mechanized and two infantry
    (12.2b), from GT 21 one infantry step (12.2c); none on GT 1."""
    if 2 <= turn <= 9:
        return {"mech": 2, "inf": 2}
    if 10 <= turn <= 20:
        return {"mech": 1, "inf": 2}
    return {"mech": 0, "inf": 1 if turn >= 21 else 0}


def steps_text(kind: str, amount: int) -> str:
    """An amount on a track as steps: mechanized in halves ("1½"), infantry whole."""
    if kind == "inf":
        return str(amount)
    whole, halfway = divmod(amount, 2)
    return (str(whole) if whole or not halfway else "") + ("½" if halfway else "")


@dataclass(frozen=True)
class Allowance:
    """What `side` may take in the Replacement Phase of game turn `turn`: the German tracks
    (mechanized in halves) after this turn's receipt, the steps used, and the whole steps left
    of each kind (None: as many as the player wishes, 12.2)."""

    turn: int
    side: str
    carried: dict[str, int]
    received: dict[str, int]
    used: dict[str, int]
    left: dict[str, int | None]
    allied_steps: int               # every Allied step taken in the game so far (16.1)

    @property
    def on_track(self) -> dict[str, int]:
        return {k: self.carried[k] + self.received[k] - self.used[k] * (2 if k == "mech" else 1)
                for k in KINDS}

    @property
    def german_vp(self) -> int:
        """The German VP the Allied steps have given so far (16.1)."""
        return self.allied_steps // VP_STEPS

    def to_dict(self) -> dict[str, Any]:
        german = self.side == "german"
        return {"turn": self.turn, "side": self.side,
                "carried": {k: steps_text(k, v) for k, v in self.carried.items()}
                if german else None,
                "received": {k: steps_text(k, v) for k, v in self.received.items()}
                if german else None,
                "on_track": {k: steps_text(k, v) for k, v in self.on_track.items()}
                if german else None,
                "used": self.used, "left": self.left, "allied_steps": self.allied_steps,
                "german_vp_from_allied_steps": self.german_vp,
                "next_vp_at": (self.german_vp + 1) * VP_STEPS}


def allowance(side: str, turn: int, carried: dict[str, int], used: dict[str, int],
              allied_steps: int = 0) -> Allowance:
    """The steps `side` may still take this game turn, having used `used`; the German with
    `carried` on his tracks from the turns before (mechanized in halves, 12.2d)."""
    Replacement(turn, side, "inf")          # a side the rules know
    if side != "german":
        british = side == "british" and turn >= BRITISH_LIMIT_FROM
        left: dict[str, int | None] = {
            "mech": None, "inf": max(0, BRITISH_INFANTRY_MOST - used["inf"]) if british
            else None}
        return Allowance(turn, side, {k: 0 for k in KINDS}, {k: 0 for k in KINDS}, used, left,
                         allied_steps)
    got = received(turn)
    kept = {k: min(carried[k], CARRIED_MOST[k]) for k in KINDS}
    track = {"mech": (kept["mech"] + got["mech"]) // 2 - used["mech"],
             "inf": kept["inf"] + got["inf"] - used["inf"]}
    left = {k: max(0, min(track[k], USED_MOST[k] - used[k])) for k in KINDS}
    return Allowance(turn, side, kept, got, used, left, allied_steps)


def check_take(allowed: Allowance, kind: str) -> None:
    """Refuse a step the turn does not allow, with the rule that says so."""
    Replacement(allowed.turn, allowed.side, kind)
    if allowed.left[kind] is None or allowed.left[kind]:
        return
    if allowed.side != "german":
        raise RulesError(CobraRefusal.BRITISH_INFANTRY_LIMIT, first=BRITISH_LIMIT_FROM,
                         most=BRITISH_INFANTRY_MOST)
    if allowed.used[kind] >= USED_MOST[kind]:
        raise RulesError(CobraRefusal.REPLACEMENT_TURN_LIMIT)
    on_track = steps_text(kind, allowed.on_track[kind])
    raise RulesError(CobraRefusal.NO_REPLACEMENT_STEP, turn=allowed.turn, step_kind=kind,
                     on_track=on_track)


def used_in(taken: tuple[Replacement, ...], turn: int, side: str) -> dict[str, int]:
    return {k: sum(1 for r in taken if (r.turn, r.side, r.kind) == (turn, side, k))
            for k in KINDS}


def german_carried(first: int, turn: int, taken: tuple[Replacement, ...]) -> dict[str, int]:
    """What the German tracks carry into game turn `turn`, from the scenario's first turn
    (the tracks start empty) and the steps taken in each turn before."""
    track = {k: 0 for k in KINDS}
    for before in range(first, turn):
        got = received(before)
        used = used_in(taken, before, "german")
        track = {k: min(track[k], CARRIED_MOST[k]) + got[k] -
                 used[k] * (2 if k == "mech" else 1) for k in KINDS}
    return track


def of_game(game: CobraGame, side: str) -> Allowance:
    """What `side` may still take in this game turn of `game`."""
    allied = sum(1 for r in game.replacements if r.side in ALLIED)
    carried = german_carried(game.first_turn, game.turn, game.replacements) \
        if side == "german" else {k: 0 for k in KINDS}
    return allowance(side, game.turn, carried, used_in(game.replacements, game.turn, side),
                     allied)


@dataclass(frozen=True)
class Taken:
    """A step taken: what is left after it, and the German VP it gave (16.1), if any."""

    step: Replacement
    left: Allowance
    vp: Note | None

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step.to_dict(), "left": self.left.to_dict(),
                "german_vp_added": 1 if self.vp else 0,
                "note": self.vp.text if self.vp else None}


def take(game: CobraGame, side: str, kind: str) -> tuple[CobraGame, Taken]:
    """One replacement step for `side` in its Replacement Phase (12.0); every tenth Allied
    step gives the German player 1 VP (16.1)."""
    phase = game.phase
    if phase.name != "replacement" or (phase.player.value == "german") != (side == "german"):
        raise RulesError(CobraRefusal.REPLACEMENT_PHASE_ONLY)
    check_take(of_game(game, side), kind)
    step = Replacement(game.turn, side, kind)
    game = replace(game, replacements=(*game.replacements, step))
    vp = None
    allied = sum(1 for r in game.replacements if r.side in ALLIED)
    if side in ALLIED and allied % VP_STEPS == 0:
        game = game.adjust("german_vp", 1)
        vp = Note(Why.REPLACEMENT_VP, {"steps": allied})
    return game, Taken(step, of_game(game, side), vp)


def last_taken(game: CobraGame) -> Replacement | None:
    """The last step taken in this Replacement Phase (its side's, this game turn), if any."""
    german = game.phase.player.value == "german"
    mine = [r for r in game.replacements
            if r.turn == game.turn and (r.side == "german") == german]
    return mine[-1] if mine and game.phase.name == "replacement" else None


def take_back(game: CobraGame) -> tuple[CobraGame, Replacement, bool]:
    """The last step of this Replacement Phase taken back (a press too many), with the German
    VP it gave if it was a tenth Allied step (16.1); whether a VP was taken off."""
    step = last_taken(game)
    if step is None:
        raise RulesError(CobraRefusal.NO_STEP_TO_TAKE_BACK)
    allied = sum(1 for r in game.replacements if r.side in ALLIED)
    at = len(game.replacements) - 1 - game.replacements[::-1].index(step)
    game = replace(game, replacements=game.replacements[:at] + game.replacements[at + 1:])
    gave_vp = step.side in ALLIED and allied % VP_STEPS == 0
    if gave_vp:
        game = game.adjust("german_vp", -1)
    return game, step, gave_vp
