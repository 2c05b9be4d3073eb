"""Cobra's naval support (14.4): the range of the target hex from the sea, what a column
costs at that range, and the refusals of what an attack or a game turn cannot pay.

14.4c: "If the target hex is within three hexes (two intervening) of any all sea hex ... each
NSP assigned enables a one column shift to the right." 14.4d: "If the target hex is within
four to six hexes ... two NSP are required to enable a one column shift to the right."
14.4b: "A maximum of two NSP may be committed to one attack", so a far target takes one
column at most. "During storms weather conditions no more than one NSP may be used" (14.4):
a far target gets none. The box does not see the map: the players say the range.
"""
from __future__ import annotations

from enum import StrEnum

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from .tables import Weather
from .weather import naval_points


class NavalRange(StrEnum):
    """How far the target hex is from an all-sea hex on or west of hex row 4800 (14.4c, d)."""

    NEAR = "near"           # within three hexes (two intervening): one NSP a column (14.4c)
    FAR = "far"             # four to six hexes: two NSP a column (14.4d)


COST = {NavalRange.NEAR: 1, NavalRange.FAR: 2}          # NSP a column
RULE = {NavalRange.NEAR: "14.4c", NavalRange.FAR: "14.4d"}
MOST_AN_ATTACK = 2          # "A maximum of two NSP may be committed to one attack" (14.4b)
STORM_MOST = 1              # "no more than one NSP may be used" in storms (14.4)


def naval_cost(columns: int, at: NavalRange) -> int:
    """The NSP `columns` naval shifts cost at range `at` (14.4c, 14.4d)."""
    return max(0, columns) * COST[at]


def naval_columns(at: NavalRange) -> tuple[int, ...]:
    """The naval shifts an attack may take at range `at`, 0 first: the columns whose cost is
    within one attack's two NSP (14.4b): +1 or +2 near, +1 far."""
    return tuple(n for n in range(MOST_AN_ATTACK + 1) if naval_cost(n, at) <= MOST_AN_ATTACK)


def check_naval(columns: int, at: NavalRange, turn: int | None,
                weather: Weather | None) -> None:
    """Refuse naval shifts one attack may not take at range `at`: more than its two NSP
    (14.4b), more than the game turn has (14.4), more than storms allow (14.4)."""
    need = naval_cost(columns, at)
    if need > MOST_AN_ATTACK:
        raise RulesError(CobraRefusal.NAVAL_FAR_MOST, columns=columns, need=need,
                         most=MOST_AN_ATTACK)
    if turn is not None and need > naval_points(turn):
        raise RulesError(CobraRefusal.NAVAL_POINTS_TURN, turn=turn, most=naval_points(turn))
    if weather == Weather.STORM and need > STORM_MOST:
        if at is NavalRange.FAR:
            raise RulesError(CobraRefusal.NAVAL_FAR_IN_STORMS)
        raise RulesError(CobraRefusal.NAVAL_IN_STORMS)


def check_naval_left(need: int, left: int) -> None:
    """Refuse naval shifts that cost more NSP than this game turn has left (14.4: "They must
    be used on the game turn they are received")."""
    if need > left:
        raise RulesError(CobraRefusal.NAVAL_POINTS_LEFT, left=left, need=need)
