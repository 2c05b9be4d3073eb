"""Tank Game hiding (rules 5, 8 and 12): who may hide, and when a hidden piece is spotted.

A hidden piece stays hidden until it fires or moves, or an enemy **figure** comes within 30 cm
(40 cm with binoculars). Vehicles and guns do not spot: vehicles cannot see hidden figures. The
one figure a closed vehicle may show is its commander sitting out in the turret, who "may sit in
the turret and act as a figure for spotting" (rule 11): such a vehicle spots as a figure does.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from ..battle import Piece
from ..card import Kind
from ..distance import SPOTTING_CM, Comparison, DistanceCheck, Measurement, check, spotting
from ..errors import RulesError

HIDE_CLEAR_CM = SPOTTING_CM  # a figure hides only when more than 30 cm from every enemy figure
HIDE_CLEAR = "hide_clear"    # the distance question: nearest enemy figure over 30 cm?


def reveal(piece: Piece) -> Piece:
    """The piece, no longer hidden."""
    return piece if not piece.status.hidden else replace(
        piece, status=replace(piece.status, hidden=False))


def conceal(piece: Piece) -> Piece:
    """The piece, hidden (laid down, for a figure)."""
    return piece if piece.status.hidden else replace(
        piece, status=replace(piece.status, hidden=True))


def _called(answer: DistanceCheck) -> bool:
    if answer.answer is None:
        raise RulesError(TankRefusal.MEASURE_WITH_TAPE, cm=answer.cm, limit=answer.threshold_cm)
    return answer.answer


def _check_on_map(piece: Piece) -> None:
    """Refuse a piece out of the fight or off the map."""
    if piece.gone:
        raise RulesError(TankRefusal.OUT_OF_FIGHT, label=piece.label)
    if piece.status.off_map:
        raise RulesError(TankRefusal.OFF_MAP, label=piece.label)


@dataclass(frozen=True)
class HideCheck:
    """A piece allowed to hide, and why."""

    label: str
    kind: Kind
    setup: bool
    cover: bool
    distance: DistanceCheck | None   # the nearest enemy figure (play only; None: none on map)
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"piece": self.label, "kind": self.kind.value, "setup": self.setup,
                "cover": self.cover,
                "distance": None if self.distance is None else self.distance.to_dict(),
                "reason": self.reason}


def can_hide(piece: Piece, cover: bool, *, setup: bool = False,
             nearest_enemy_figure: Measurement | float | None = None,
             enemy_near: bool | None = None) -> HideCheck:
    """May this piece hide here? Refuses with the reason; returns the check when it may.

    `cover` is False in terrain with no cover (like the middle of a road). At set-up figures,
    and guns and vehicles in cover, may start hidden. In play only figures hide, and only more
    than 30 cm from the nearest enemy figure: `nearest_enemy_figure` is the distance, measured
    or entered (None when no enemy figure is on the map); or `enemy_near` is the players' own
    answer, without a measurement, to "is an enemy figure within 30 cm?".
    """
    _check_on_map(piece)
    if piece.status.hidden:
        raise RulesError(TankRefusal.ALREADY_HIDDEN, label=piece.label)
    if not cover:
        raise RulesError(TankRefusal.NO_COVER, label=piece.label)
    if setup:
        what = "figures" if piece.kind is Kind.FIGURE else "a gun or vehicle in cover"
        return HideCheck(piece.label, piece.kind, True, True, None,
                         f"at set-up {what} may start hidden")
    if piece.model:            # a destroyed gun's crew are figures: they hide as figures
        raise RulesError(TankRefusal.HIDE_ONLY_FIGURES, label=piece.label)
    if enemy_near is not None:
        return _called_near(piece, enemy_near)
    if nearest_enemy_figure is None:
        return HideCheck(piece.label, piece.kind, False, True, None,
                         "an active figure in cover, no enemy figure on the map")
    answer = check(HIDE_CLEAR, HIDE_CLEAR_CM, Comparison.OVER, nearest_enemy_figure)
    if not _called(answer):
        raise RulesError(TankRefusal.ENEMY_NEAR, label=piece.label, limit=HIDE_CLEAR_CM,
                         cm=answer.cm)
    return HideCheck(piece.label, piece.kind, False, True, answer,
                     f"an active figure in cover, the nearest enemy figure more than "
                     f"{HIDE_CLEAR_CM} cm away")


def _called_near(piece: Piece, enemy_near: bool) -> HideCheck:
    """The players said whether an enemy figure is within 30 cm."""
    if enemy_near:
        raise RulesError(TankRefusal.ENEMY_NEAR_CALLED, label=piece.label, limit=HIDE_CLEAR_CM)
    return HideCheck(piece.label, piece.kind, False, True, None,
                     f"an active figure in cover, no enemy figure within {HIDE_CLEAR_CM} cm "
                     "(the players' call)")


@dataclass(frozen=True)
class SpotCheck:
    """Did an enemy piece spot a hidden piece? With the distance and the reason."""

    spotter: str
    spotter_kind: Kind
    hidden: str
    binoculars: bool
    distance: DistanceCheck | None   # None: no distance counts (not a figure, or the call)
    spotted: bool
    reason: str
    after: Piece                     # the hidden piece after the check (revealed if spotted)
    commander: bool = False          # the spotter is a vehicle's commander out in the turret

    def to_dict(self) -> dict[str, Any]:
        return {"spotter": self.spotter, "spotter_kind": self.spotter_kind.value,
                "hidden": self.hidden, "binoculars": self.binoculars,
                "distance": None if self.distance is None else self.distance.to_dict(),
                "spotted": self.spotted, "reason": self.reason,
                "status_after": self.after.status.words(), "commander": self.commander}


def can_spot(piece: Piece) -> bool:
    """A figure spots; so does a closed vehicle whose commander sits out in the turret (rule
    11), and so do the crew of a destroyed gun, who fight on as figures. A vehicle with its
    commander inside, or killed, and a gun with its gun do not."""
    return piece.kind is Kind.FIGURE or piece.crew_only or piece.commander_outside


def _spotter_name(spotter: Piece) -> str:
    return f"{spotter.label}'s commander (out in the turret)" if spotter.commander_outside \
        else spotter.label


def _no_spotter(spotter: Piece) -> str:
    """Why a vehicle or gun does not spot."""
    if not spotter.kind.vehicle:
        return f"{spotter.label} is a gun: only an enemy figure spots a hidden piece"
    if spotter.kind is Kind.HARD and spotter.status.commander_killed:
        inside = "its commander was killed"
    elif spotter.kind is Kind.HARD:
        inside = "its commander is inside"
    else:
        inside = "its crew is inside"
    return (f"{spotter.label} is a vehicle and {inside}: only an enemy figure spots a hidden "
            "piece (vehicles cannot see hidden figures)")


def spots(spotter: Piece, hidden: Piece, distance_cm: Measurement | float | None,
          binoculars: bool, *, within: bool | None = None) -> SpotCheck:
    """Is `hidden` revealed by `spotter`? Only an enemy figure spots: within 30 cm, or 40 cm
    with binoculars; exactly on the line is within. A closed vehicle whose commander sits out
    in the turret spots as a figure; other vehicles and guns never spot.

    `distance_cm` is measured or entered; or, with `distance_cm` None, `within` is the players'
    own call that the spotter is within its spotting distance (as the box asks it)."""
    if hidden.side is spotter.side:
        raise RulesError(TankRefusal.SAME_SIDE_SPOTS, label=spotter.label, hidden=hidden.label)
    _check_on_map(hidden)
    if not hidden.status.hidden:
        raise RulesError(TankRefusal.NOT_HIDDEN, label=hidden.label)
    _check_on_map(spotter)

    def result(answer: DistanceCheck | None, spotted: bool, reason: str) -> SpotCheck:
        return SpotCheck(spotter.label, spotter.kind, hidden.label, binoculars, answer, spotted,
                         reason, reveal(hidden) if spotted else hidden,
                         spotter.commander_outside)

    if not can_spot(spotter):
        return result(None, False, _no_spotter(spotter))
    glasses = " (binoculars)" if binoculars else ""
    if distance_cm is None:
        seen = bool(within)
        outcome = "is revealed" if seen else "stays hidden"
        limit = "within" if seen else "not within"
        return result(None, seen, f"{_spotter_name(spotter)}{glasses} is {limit} spotting "
                                  f"distance (the players' call); {hidden.label} {outcome}")
    answer = spotting(distance_cm, binoculars)
    seen = _called(answer)
    outcome = "is revealed" if seen else "stays hidden"
    return result(answer, seen, f"{_spotter_name(spotter)}{glasses} at {answer.explain()}; "
                                f"{hidden.label} {outcome}")
