"""Cobra's overrun (5.4): combat made while moving, in the Initial Movement Phase or when
advancing after combat, at the overrunning units' printed strength (5.4.1).

The odds, the column and the result are an attack's (combat.py); what differs is checked here:
the strength the overrunning units may take (5.4.1a, 5.4.1b, 5.4e), the shifts each kind of
overrun may take (5.4.1c, 5.4.1d, 14.2c) and the game turn (17.3.3c). The defenders are as in
any combat: doubled for divisional integrity (6.3e), halved out of supply (10.6).
"""
from __future__ import annotations

from dataclasses import replace

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from .combat import (
    BY_LETTER,
    Nation,
    Odds,
    OverrunWhen,
    Shift,
    ShiftChoice,
    ShiftKind,
    Unit,
    UnitModifier,
    check_turn,
    odds,
    shift_choices,
    worded,
)
from .movement import NO_OVERRUN_TURN  # no overruns on game turn 1 (17.3.3c)
from .naval import NavalRange
from .tables import Weather

# The only strength change an overrunning unit takes is marsh (5.4.1b); "h" and "q" are the
# players' own halving and quartering, named by no rule, and kept for what the box cannot name.
OVERRUN_MODIFIERS = frozenset("mhq")
# The shifts each kind of overrun may take. Air never (14.2c, see overrun_shift); in the
# Initial Movement Phase terrain, HQ, Patton and naval (5.4.1c); advancing after combat terrain
# only (5.4.1d). Tiger battalions in both: 8.3.1 names overruns ("including overruns"). The
# beach's -2 in both: a scenario rule (17.3.10) takes precedence over the standard ones (17.3.1b).
# A beach shift marker on a moving overrun conducted from its hex (5.4f: "conduct an overrun
# from a hex"; 17.3.2 step 5f1, a scenario rule, 17.3.1b); never advancing: the units have left
# the hex, which removes the marker (5f2).
OVERRUN_SHIFTS = {
    OverrunWhen.MOVEMENT: frozenset({ShiftKind.TERRAIN, ShiftKind.HQ, ShiftKind.PATTON,
                                     ShiftKind.NAVAL, ShiftKind.TIGER, ShiftKind.BEACH,
                                     ShiftKind.MARKER}),
    OverrunWhen.ADVANCE: frozenset({ShiftKind.TERRAIN, ShiftKind.TIGER, ShiftKind.BEACH}),
}


def overruns_allowed(turn: int) -> bool:
    """Overruns are made from game turn 2 (17.3.3c)."""
    return turn != NO_OVERRUN_TURN


def check_overrun_turn(turn: int | None) -> None:
    check_turn(turn)
    if turn is not None and not overruns_allowed(turn):
        raise RulesError(CobraRefusal.OVERRUN_TURN_1)


def check_overrunning(unit: Unit) -> None:
    """An overrunning unit fights at its printed strength (5.4.1): never doubled (5.4.1a), never
    out of supply (5.4e), halved only into marsh (5.4.1b)."""
    for modifier in unit.modifiers:
        if modifier.letter in OVERRUN_MODIFIERS:
            continue
        if modifier is BY_LETTER["d"]:
            raise RulesError(CobraRefusal.OVERRUN_DOUBLED, unit=unit.text())
        if modifier is BY_LETTER["s"]:
            raise RulesError(CobraRefusal.OVERRUN_UNSUPPLIED, unit=unit.text())
        raise _not_for_overrun(unit, modifier)


def _not_for_overrun(unit: Unit, modifier: UnitModifier) -> RulesError:
    return RulesError(CobraRefusal.OVERRUN_MODIFIER, unit=unit.text(),
                      modifier=worded(modifier))


def overrun_modifier(letter: str) -> bool:
    """Whether an overrunning unit may take the modifier `letter` (5.4.1)."""
    return letter in OVERRUN_MODIFIERS


def check_overrun_shift(shift: Shift, when: OverrunWhen) -> None:
    """A shift the overrun may not take. Air: 5.4.1c lists air among the shifts of an overrun
    in the Initial Movement Phase, 14.2c says air points may not aid overruns; 14.2c is read
    (docs/rules-notes.md): air points are only committed in the Combat Phases (14.1a, 14.1b),
    after the Initial Movement Phase, and the advance's overrun takes none either (5.4.1d)."""
    if shift.kind is ShiftKind.AIR:
        raise RulesError(CobraRefusal.OVERRUN_NO_AIR)
    if shift.kind not in OVERRUN_SHIFTS[when]:
        if when is OverrunWhen.MOVEMENT:
            raise RulesError(CobraRefusal.OVERRUN_MOVEMENT_SHIFT, shift_kind=shift.kind.value)
        if shift.kind is ShiftKind.MARKER:
            raise RulesError(CobraRefusal.OVERRUN_MARKER_ADVANCE)
        raise RulesError(CobraRefusal.OVERRUN_ADVANCE_SHIFT, shift_kind=shift.kind.value)
    if shift.kind is ShiftKind.HQ and abs(shift.columns) > 1:
        raise RulesError(CobraRefusal.OVERRUN_ONE_HQ_SHIFT)


def overrun_shift_choices(attacker: Nation, turn: int,
                          when: OverrunWhen) -> tuple[ShiftChoice, ...]:
    """The shifts each side may take in this overrun, as an attack's (`shift_choices`) less
    those the overrun may not take, an HQ one column at most (5.4.1c3)."""
    allowed = OVERRUN_SHIFTS[when]
    return tuple(ShiftChoice(c.key, c.kind, tuple(n for n in c.columns if abs(n) <= 1)
                             if c.kind is ShiftKind.HQ else c.columns)
                 for c in shift_choices(attacker, turn) if c.kind in allowed)


def overrun_odds(attack: list[Unit], defence: list[Unit], shifts: list[Shift] | None = None, *,
                 when: OverrunWhen, attacker: Nation | None = None, turn: int | None = None,
                 weather: Weather | None = None,
                 naval_range: NavalRange = NavalRange.NEAR) -> Odds:
    """The column an overrun is resolved on: an attack's odds (8.4, 8.3.2c) with the
    overrunning units at printed strength and only the shifts this overrun may take."""
    shifts = list(shifts or [])
    check_overrun_turn(turn)
    for unit in attack:
        check_overrunning(unit)
    for shift in shifts:
        check_overrun_shift(shift, when)
    return replace(odds(attack, defence, shifts, attacker=attacker, turn=turn,
                        weather=weather, naval_range=naval_range), overrun=when)
