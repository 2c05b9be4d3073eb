"""Cobra combat: each unit's strength, the odds column, the column shifts and the result.

Per-unit modifiers come first: the doubling for divisional integrity (6.3e), then the halvings
and quarterings of that final strength (8.3.2c), each unit rounded up once, at the end; then the
units are added (2.6, 8.3.2). The odds are rounded down in the defender's favour to a column
of the CRT (8.4), clamped to 1:5 … 10:1; the shifts are netted attacker minus defender and
counted from the clamped column (8.3.2c). Every step is kept in the trace with its rule.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..dice import Aim, Dice, Need, Roller
from ..english import Word
from ..errors import RulesError
from ..numbers import shortened, whole
from .naval import RULE as NAVAL_RULE
from .naval import NavalRange, check_naval, naval_cost
from .notes import Note, Why
from .supply import check_unit_in_supply
from .tables import COLUMNS, DIE_FACES, CobraTables, Loss, Result, Weather
from .weather import CARPET_FROM, NO_AIR_TURN

MAX_STRENGTH = 99
CARPET_COLUMN = "6:1"
CARPET_AIR_POINTS = 3       # "Carpet bombing requires three AP" (14.3e)
# The carpet bombing missions of the game (14.3f): one during GT 5-14, "a total of two more"
# from GT 15 to the end; an unflown early mission is not carried over. One a game turn: the
# Allied player "may carpet bomb any one hex" (14.1), and "the remaining three AP" (14.3e).
CARPET_MISSIONS = ((CARPET_FROM, 14, 1), (15, 28, 2))
LAST_TURN = 28


class Nation(StrEnum):
    """The two players of Cobra."""

    GERMAN = "german"
    ALLIED = "allied"


class Role(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"


class OverrunWhen(StrEnum):
    """When an overrun is made: moving in the Initial Movement Phase (5.4a, 5.4.1c), or
    advancing after combat into units that block the path of retreat (5.4b, 5.4.1d)."""

    MOVEMENT = "movement"
    ADVANCE = "advance"


@dataclass(frozen=True)
class UnitModifier:
    """A letter on a unit that changes its strength in combat, with its rule."""

    letter: str
    factor: Fraction
    name: str
    rule: str
    roles: tuple[Role, ...] = (Role.ATTACK, Role.DEFENCE)
    nations: tuple[Nation, ...] = (Nation.GERMAN, Nation.ALLIED)   # whose units it may be on

    def to_dict(self) -> dict[str, Any]:
        return {"letter": self.letter, "name": self.name, "factor": str(self.factor),
                "rule": self.rule}


HALF, QUARTER = Fraction(1, 2), Fraction(1, 4)
UNIT_MODIFIERS = (
    UnitModifier("d", Fraction(2), "divisional integrity", "6.3e"),
    UnitModifier("s", HALF, "out of supply", "10.6"),
    UnitModifier("m", HALF, "mechanized in, into or from marsh", "8.3.2b"),
    UnitModifier("b", HALF, "British armoured brigade without infantry", "8.3.2a",
                 (Role.ATTACK,), (Nation.ALLIED,)),
    UnitModifier("r", HALF, "mechanized across the bridged Dives", "8.3.2c", (Role.ATTACK,)),
    UnitModifier("u", QUARTER, "mechanized across the unbridged Dives", "8.3.2c",
                 (Role.ATTACK,)),
    UnitModifier("x", HALF, "US and British stacked together", "8.8k", (Role.DEFENCE,),
                 (Nation.ALLIED,)),
    UnitModifier("h", HALF, "halved", "8.3.2"),
    UnitModifier("q", QUARTER, "quartered", "8.3.2c"),
)
BY_LETTER = {m.letter: m for m in UNIT_MODIFIERS}
_UNIT = re.compile(r"([0-9]+)([a-z]*)")     # ASCII digits: \d would take '٣' too


@dataclass(frozen=True)
class Unit:
    """A unit's printed combat strength and the modifiers that apply to it in this combat."""

    strength: int
    modifiers: tuple[UnitModifier, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Unit:
        """"12", "6h", "8ds": the printed strength, then a letter per modifier."""
        match = _UNIT.fullmatch(text.strip().lower())
        if not match:
            raise RulesError(CobraRefusal.UNIT_FORMAT, unit=shortened(text))
        # The range is checked with the others (`strength`); thousands of digits are refused
        # here, before int() meets them.
        printed = whole(match.group(1), 0, 1_000_000)
        if printed is None:
            raise RulesError(CobraRefusal.UNIT_STRENGTH, unit=shortened(text), most=MAX_STRENGTH)
        letters = match.group(2)
        unknown = sorted(set(letters) - set(BY_LETTER))
        if unknown:
            raise RulesError(CobraRefusal.UNIT_UNKNOWN_MODIFIER, unit=shortened(text),
                             letter=unknown[0])
        if len(set(letters)) < len(letters):
            raise RulesError(CobraRefusal.UNIT_MODIFIER_TWICE, unit=shortened(text))
        return cls(printed, tuple(BY_LETTER[c] for c in letters))

    def text(self) -> str:
        return f"{self.strength}{''.join(m.letter for m in self.modifiers)}"


def modifier_help() -> str:
    return ", ".join(f"{m.letter} {m.name} ×{m.factor}" for m in UNIT_MODIFIERS)


ORDER_RULE = "6.3e doubling first, then halved or quartered (8.3.2c: the final strength), " \
    "rounded up once (2.6, 8.3.2)"


def applied_order(modifiers: tuple[UnitModifier, ...]) -> tuple[UnitModifier, ...]:
    """The order a unit's modifiers apply in, whatever order they were given: the doubling
    for divisional integrity (6.3e) on the printed strength, then every halving and
    quartering on that "final combat strength" (8.3.2c). Only the divisions make fractions,
    and the unit is rounded up once, after all of them (2.6, 8.3.2): 5, doubled and halved,
    is 5 (10 halved), never 6 (5 halved to 3, then doubled)."""
    return tuple(sorted(modifiers, key=lambda m: m.factor <= 1))


def worked_steps(printed: int, modifiers: tuple[UnitModifier, ...]
                 ) -> list[tuple[UnitModifier, Fraction]]:
    """Each of `modifiers` in the order it applies (`applied_order`), with the unit's exact
    strength after it: the last is the strength the unit fights with, before rounding."""
    value, done = Fraction(printed), []
    for modifier in applied_order(modifiers):
        value *= modifier.factor
        done.append((modifier, value))
    return done


@dataclass(frozen=True)
class UnitStrength:
    """One unit's strength in this combat, worked out on its own (8.3.2a)."""

    unit: Unit
    exact: Fraction        # printed strength × every factor that applies
    strength: int          # rounded up (2.6), never below one (10.6a)
    dropped: tuple[UnitModifier, ...] = ()     # marked, but the rules take it away

    @property
    def rounded(self) -> bool:
        return self.exact != self.strength

    def steps(self) -> list[tuple[UnitModifier, Fraction]]:
        """Each modifier in the order it applies, with the strength after it."""
        kept = tuple(m for m in self.unit.modifiers if m not in self.dropped)
        return worked_steps(self.unit.strength, kept)

    def to_dict(self) -> dict[str, Any]:
        return {"printed": self.unit.strength, "text": self.unit.text(),
                "modifiers": [m.to_dict() for m in self.unit.modifiers],
                "exact": str(self.exact), "strength": self.strength,
                "rounded_up": self.rounded,
                "applied": [{"letter": m.letter, "factor": str(m.factor), "value": str(v)}
                            for m, v in self.steps()],
                "order_rule": ORDER_RULE,
                "not_applied": [{**m.to_dict(), "why": DROPPED_WHY} for m in self.dropped]}


@dataclass(frozen=True)
class SideStrength:
    """One side's units in a combat and their strengths."""

    role: Role
    units: tuple[UnitStrength, ...]

    @property
    def total(self) -> int:
        return sum(u.strength for u in self.units)

    def to_dict(self) -> dict[str, Any]:
        return {"units": [u.to_dict() for u in self.units], "total": self.total,
                "rule": "2.6, 8.3.2: each unit rounded up, then added"}


def strength(units: list[Unit], role: Role, nation: Nation | None = None) -> SideStrength:
    """Each unit's strength and the side's total; `nation`, where known, is whose units
    they are (a British armoured brigade is not German)."""
    if not units:
        raise RulesError(CobraRefusal.NEEDS_A_UNIT, role=role.value)
    worked = []
    for unit in units:
        if not 1 <= unit.strength <= MAX_STRENGTH:
            raise RulesError(CobraRefusal.UNIT_STRENGTH, unit=unit.text(), most=MAX_STRENGTH)
        for modifier in unit.modifiers:
            if role not in modifier.roles:
                raise RulesError(CobraRefusal.MODIFIER_WRONG_ROLE, unit=unit.text(),
                                 modifier=worded(modifier), role=modifier.roles[0].value)
            if nation is not None and nation not in modifier.nations:
                raise RulesError(CobraRefusal.MODIFIER_WRONG_SIDE, unit=unit.text(),
                                 modifier=worded(modifier), nation=modifier.nations[0].value)
        applied, dropped = applying(unit)
        steps = worked_steps(unit.strength, applied)
        exact = steps[-1][1] if steps else Fraction(unit.strength)
        worked.append(UnitStrength(unit, exact, max(1, math.ceil(exact)), dropped))
    return SideStrength(role, tuple(worked))


DROPPED_WHY = "a unit must be in supply to have divisional integrity (6.3)"


def worded(modifier: UnitModifier) -> Word:
    """A modifier as a refusal names it: its letter, in English its name and rule."""
    return Word(modifier.letter, f"{modifier.name} ({modifier.rule})")


def applying(unit: Unit) -> tuple[tuple[UnitModifier, ...], tuple[UnitModifier, ...]]:
    """The unit's modifiers that apply, and those the rules take away: out of supply, a
    unit has no divisional integrity ("A unit must be in supply to have divisional
    integrity", 6.3), so 8ds is 8 × ½ = 4, not 8 × 2 × ½."""
    out, whole_division = BY_LETTER["s"], BY_LETTER["d"]
    if out in unit.modifiers and whole_division in unit.modifiers:
        return tuple(m for m in unit.modifiers if m != whole_division), (whole_division,)
    return unit.modifiers, ()


class ShiftKind(StrEnum):
    TERRAIN = "terrain"
    HQ = "hq"
    PATTON = "patton"
    TIGER = "tiger"
    AIR = "air"
    NAVAL = "naval"
    BEACH = "beach"         # intrinsic beach defence (17.3.10)
    MARKER = "marker"       # a beach shift marker, on Allied attacks from its hex (17.3.2 5f)


SHIFT_RULES = {ShiftKind.TERRAIN: "8.3.2", ShiftKind.HQ: "8.3.3", ShiftKind.PATTON: "8.3.3g",
               ShiftKind.TIGER: "8.3.1", ShiftKind.AIR: "14.2", ShiftKind.NAVAL: "14.4",
               ShiftKind.BEACH: "17.3.10", ShiftKind.MARKER: "17.3.2 step 5f"}


@dataclass(frozen=True)
class Shift:
    """Columns right (+, for the attacker) or left (−, for the defender)."""

    kind: ShiftKind
    columns: int
    name: str = ""          # the terrain's name, where it came from the tables

    @property
    def rule(self) -> str:
        return SHIFT_RULES[self.kind]

    @property
    def label(self) -> str:
        return f"{self.kind.value} ({self.name})" if self.name else self.kind.value

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "name": self.name, "columns": self.columns,
                "for": "attacker" if self.columns > 0 else "defender", "rule": self.rule}


@dataclass(frozen=True)
class ShiftChoice:
    """A column shift a side may take in an attack, and the columns it may be set to, in the
    order a player steps through them (0 first: not taken)."""

    key: str                # "terrain", "att_hq", "def_hq", "tiger", "air", "naval", "patton"
    kind: ShiftKind
    columns: tuple[int, ...]


ALLIED_HQ_DOUBLE_FROM = 17  # from game turn 17 an Allied HQ may give two shifts (8.3.3)


def shift_choices(attacker: Nation, turn: int) -> tuple[ShiftChoice, ...]:
    """The shifts each side may take when `attacker` attacks on game turn `turn`: terrain and
    the defender's HQ shift left; the attacker's HQ shifts right; a Tiger helps the Germans;
    air power, naval gunfire and Patton help the Allies (8.3, 14.2, 14.4)."""
    german = attacker is Nation.GERMAN
    hq = (0, 1, 2) if not german and turn >= ALLIED_HQ_DOUBLE_FROM else (0, 1)
    both = (ShiftChoice("terrain", ShiftKind.TERRAIN, (0, -1, -2, -3, -4, -5)),
            ShiftChoice("att_hq", ShiftKind.HQ, hq), ShiftChoice("def_hq", ShiftKind.HQ, (0, -1)))
    if german:
        return (*both, ShiftChoice("tiger", ShiftKind.TIGER, (0, 1)),
                ShiftChoice("air", ShiftKind.AIR, (0, -1)))
    return (*both, ShiftChoice("tiger", ShiftKind.TIGER, (0, -1)),
            ShiftChoice("air", ShiftKind.AIR, (0, 1)),
            ShiftChoice("naval", ShiftKind.NAVAL, (0, 1, 2)),
            ShiftChoice("patton", ShiftKind.PATTON, (0, 1, 2)))


def out_of_supply(unit: Unit) -> Unit:
    """An attack without supply points: every attacking unit is out of supply and its strength
    halved (10.0b); a unit already marked out of supply is not halved twice."""
    out = BY_LETTER["s"]
    return unit if out in unit.modifiers else Unit(unit.strength, (*unit.modifiers, out))


def parse_shift(text: str, tables: CobraTables | None = None) -> Shift:
    """"terrain:-1", "hq:+1", or a terrain named in the owner's tables ("town")."""
    kind, _, value = text.strip().lower().partition(":")
    if kind in ShiftKind.__members__.values() and value:
        # any size here: each kind's own range is checked with the others (check_shifts)
        columns = whole(value, -1_000_000, 1_000_000)
        if columns is None:
            raise RulesError(CobraRefusal.SHIFT_COLUMNS, shift=shortened(text))
        return Shift(ShiftKind(kind), columns)
    if not value and tables is not None and kind:
        return Shift(ShiftKind.TERRAIN, tables.terrain_shift(kind), kind)
    raise RulesError(CobraRefusal.SHIFT_FORMAT, shift=shortened(text))


def _implied_attacker(shift: Shift) -> tuple[Nation | None, str]:
    """Which side attacks, as this shift tells it (a Tiger's shift is always German)."""
    c, k = shift.columns, shift.kind
    if k == ShiftKind.TIGER:
        return (Nation.GERMAN if c > 0 else Nation.ALLIED), "Tiger battalions are German"
    if k == ShiftKind.AIR:
        return (Nation.ALLIED if c > 0 else Nation.GERMAN), "air points are Allied"
    if k in (ShiftKind.PATTON, ShiftKind.NAVAL):
        return Nation.ALLIED, f"{k.value} support is for Allied attacks"
    if k == ShiftKind.HQ and c == 2:
        return Nation.ALLIED, "two HQ shifts are an Allied attack's (8.3.3a)"
    if k == ShiftKind.BEACH:
        return Nation.GERMAN, "the beach shift is against a German attack (17.3.10)"
    if k == ShiftKind.MARKER:
        return Nation.ALLIED, "a beach shift marker is on Allied attacks (17.3.2 step 5f)"
    return None, ""


# The columns each kind of shift may give, and the rule that says so: terrain favours the
# defender; an HQ gives +1 attacking, -1 defending, +2 for an Allied attack from game turn 17;
# Patton +1 or +2 attacking only; a Tiger battalion or air points one column at most; naval
# support +1 or +2 for Allied attacks only; an Allied unit on a beach hex two columns left
# against a German attack; a beach shift marker one column left for each Allied step its hex
# lost in the landing. The most a hex can hold, and so lose: one division (6.0b) of four steps
# at most (8.5c), with an HQ and two battalions of one step each (6.1a, 8.5a) and an
# independent brigade or regiment of two (6.1b, 6.1c) stacked free: 4 + 1 + 2 + 2 = 9.
MARKER_MOST = 9
SHIFT_LIMITS: dict[ShiftKind, tuple[tuple[int, ...], str]] = {
    ShiftKind.TERRAIN: ((0, -1, -2, -3, -4, -5), "8.3.2"),
    ShiftKind.HQ: ((-1, 1, 2), "8.3.3"),
    ShiftKind.PATTON: ((1, 2), "8.3.3g"),
    ShiftKind.TIGER: ((-1, 1), "8.3.1"),
    ShiftKind.AIR: ((-1, 1), "14.2d"),
    ShiftKind.NAVAL: ((1, 2), "14.4b"),
    ShiftKind.BEACH: ((-2,), "17.3.10"),
    ShiftKind.MARKER: (tuple(range(-1, -MARKER_MOST - 1, -1)), "17.3.2 step 5f"),
}


def _check_one(shift: Shift, turn: int | None, weather: Weather | None,
               naval_range: NavalRange = NavalRange.NEAR) -> None:
    c, k = shift.columns, shift.kind
    allowed, article = SHIFT_LIMITS[k]
    if c not in allowed:
        raise RulesError(CobraRefusal.SHIFT_NOT_ALLOWED, shift_kind=k.value, columns=c,
                         allowed=tuple(f"{a:+d}" if a else "0" for a in allowed),
                         article=article)
    if k == ShiftKind.HQ and c == 2 and turn is not None and turn < 17:
        raise RulesError(CobraRefusal.HQ_SHIFTS_TOO_EARLY, turn=turn, first=17)
    if weather == Weather.STORM and k == ShiftKind.AIR:
        raise RulesError(CobraRefusal.NO_AIR_IN_STORMS)
    if turn == NO_AIR_TURN and k == ShiftKind.AIR:
        raise RulesError(CobraRefusal.NO_AIR_ON_TURN_1)
    if k == ShiftKind.NAVAL:        # the range of the target from the sea (14.4b-d)
        check_naval(c, naval_range, turn, weather)


def check_shifts(shifts: list[Shift], attacker: Nation | None = None, turn: int | None = None,
                 weather: Weather | None = None,
                 naval_range: NavalRange = NavalRange.NEAR) -> Nation | None:
    """Refuse shifts the rules do not allow together; the attacking side, where known.
    `naval_range`: how far the target hex is from the sea, for a naval shift (14.4c, 14.4d)."""
    seen: dict[tuple[ShiftKind, bool], Shift] = {}
    said: tuple[Nation, str] | None = (attacker, "--attacker") if attacker else None
    for shift in shifts:
        _check_one(shift, turn, weather, naval_range)
        key = (shift.kind, shift.columns > 0)
        if shift.kind != ShiftKind.TERRAIN and key in seen:
            raise RulesError(CobraRefusal.SHIFT_TWICE, shift_kind=shift.kind.value)
        seen[key] = shift
        side, _ = _implied_attacker(shift)
        if side is None:
            continue
        if said is not None and said[0] != side:
            raise RulesError(CobraRefusal.SHIFTS_DISAGREE, shift_kind=shift.kind.value,
                             columns=shift.columns, nation=side.value, said=said[0].value)
        said = said or (side, f"shift {shift.kind.value}:{shift.columns:+d}")
    return said[0] if said else None


def check_turn(turn: int | None) -> None:
    if turn is not None and not 1 <= turn <= LAST_TURN:
        raise RulesError(CobraRefusal.TURN_OUT_OF_RANGE, turn=turn, last=LAST_TURN)


def base_column(attack: int, defence: int) -> tuple[int, str]:
    """The CRT column of attack:defence rounded down in the defender's favour (8.4),
    clamped to the extreme columns (8.3.2c); and how it was read."""
    if attack >= defence:
        times = attack // defence
        column = f"{min(times, 10)}:1"
        note = f"{attack}:{defence} is {attack / defence:.3g} to 1, " \
               f"rounded down to {times}:1"
        if times > 10:
            note += "; beyond 10:1 the 10:1 column is used"
    else:
        times = math.ceil(Fraction(defence, attack))
        column = f"1:{min(times, 5)}"
        note = f"{attack}:{defence} is 1 to {defence / attack:.3g}, rounded in " \
               f"the defender's favour to 1:{times}"
        if times > 5:
            note += "; below 1:5 the 1:5 column is used"
    return COLUMNS.index(column), note + " (8.4)"


@dataclass(frozen=True)
class Odds:
    """A combat's odds column: both sides' strengths, the column and its shifts."""

    attack: SideStrength | None
    defence: SideStrength | None
    base: str              # the column before shifts
    base_note: str
    shifts: tuple[Shift, ...]
    net: int               # attacker's shifts minus the defender's
    column: str
    column_note: str
    attacker: Nation | None
    carpet: bool = False
    overrun: OverrunWhen | None = None     # an overrun (5.4), and when; None: an attack
    naval_range: NavalRange = NavalRange.NEAR   # the target's range from the sea (14.4c, d)

    @property
    def air_points(self) -> int:
        """The Allied air points this attack spends: 3 for carpet bombing (14.3e), one for
        an air shift, for or against (14.1, 14.2d)."""
        if self.carpet:
            return CARPET_AIR_POINTS
        return sum(1 for s in self.shifts if s.kind == ShiftKind.AIR)

    @property
    def naval_points(self) -> int:
        """The naval support points this attack spends: one a column within three hexes
        (14.4c), two at four to six hexes (14.4d)."""
        return naval_cost(sum(s.columns for s in self.shifts if s.kind == ShiftKind.NAVAL),
                          self.naval_range)

    def to_dict(self) -> dict[str, Any]:
        return {
            "attack": self.attack.to_dict() if self.attack else None,
            "defence": self.defence.to_dict() if self.defence else None,
            "base_column": self.base, "base_note": self.base_note,
            "shifts": [s.to_dict() for s in self.shifts],
            "attacker_shifts": sum(s.columns for s in self.shifts if s.columns > 0),
            "defender_shifts": -sum(s.columns for s in self.shifts if s.columns < 0),
            "net_shift": self.net, "column": self.column, "column_note": self.column_note,
            "attacker": self.attacker.value if self.attacker else None,
            "carpet_bombing": self.carpet,
            "overrun": self.overrun.value if self.overrun else None,
            "air_points": self.air_points, "naval_points": self.naval_points,
            **self._naval_dict(),
        }

    def _naval_dict(self) -> dict[str, Any]:
        """The range a naval shift was given at, and its rule; nothing without one."""
        if not any(s.kind == ShiftKind.NAVAL for s in self.shifts):
            return {}
        return {"naval_range": self.naval_range.value, "naval_rule": NAVAL_RULE[self.naval_range]}


def odds(attack: list[Unit], defence: list[Unit], shifts: list[Shift] | None = None, *,
         attacker: Nation | None = None, turn: int | None = None,
         weather: Weather | None = None, naval_range: NavalRange = NavalRange.NEAR) -> Odds:
    """The column an attack is resolved on, with every rounding and shift explained;
    `naval_range`, the target's range from the sea, prices a naval shift (14.4c, 14.4d)."""
    shifts = list(shifts or [])
    check_turn(turn)
    side = check_shifts(shifts, attacker, turn, weather, naval_range)
    defender = None if side is None else \
        Nation.ALLIED if side is Nation.GERMAN else Nation.GERMAN
    for units, german_attack in ((attack, side is not Nation.ALLIED), (defence, False)):
        for unit in units:          # in supply on GT 1 and 2 (17.3.6, 17.3.6d)
            check_unit_in_supply([m.letter for m in unit.modifiers], turn,
                                 german_attack=german_attack)
    att, dfn = strength(attack, Role.ATTACK, side), strength(defence, Role.DEFENCE, defender)
    index, base_note = base_column(att.total, dfn.total)
    net = sum(s.columns for s in shifts)
    final = min(max(index + net, 0), len(COLUMNS) - 1)
    if not shifts:
        note = "no shifts"
    else:
        note = f"net shift {net:+d} (attacker's minus defender's, 8.3.2c) from " \
               f"{COLUMNS[index]}: {COLUMNS[final]}"
        if final != index + net:
            note += f" (the table ends at {COLUMNS[final]})"
    return Odds(att, dfn, COLUMNS[index], base_note, tuple(shifts), net, COLUMNS[final], note,
                side, naval_range=naval_range)


def carpet_odds(shifts: list[Shift] | None = None, *, turn: int | None = None,
                weather: Weather | None = None, flown: Sequence[int] = (),
                planned: bool = True, after_attacks: bool = False) -> Odds:
    """Carpet bombing, an Allied air mission of three air points against one hex, with no
    attacking units and no supply point (14.1, 14.3e): always the 6:1 column, never shifted
    (14.3g). `flown`: the game turns of the missions flown before, counted against 14.3f;
    `planned`: its target hex written down a game turn before (14.3a, 14.3d);
    `after_attacks`: an Allied attack made this Combat Phase already, when it is too late
    (14.3: "resolved in the Allied Combat Phase before any other attacks take place")."""
    if shifts:
        raise RulesError(CobraRefusal.CARPET_SHIFTED)
    check_turn(turn)
    if turn is not None and turn < CARPET_FROM:
        raise RulesError(CobraRefusal.CARPET_TOO_EARLY, first=CARPET_FROM)
    if weather is not None and weather != Weather.CLEAR:
        raise RulesError(CobraRefusal.CARPET_NOT_CLEAR)
    if turn is not None:
        check_carpet_missions(turn, flown)
    if not planned:
        raise RulesError(CobraRefusal.CARPET_NOT_PLANNED)
    if after_attacks:
        raise RulesError(CobraRefusal.CARPET_AFTER_ATTACKS)
    note = "carpet bombing is always resolved on 6:1, never shifted (14.3g)"
    return Odds(None, None, CARPET_COLUMN, note, (), 0, CARPET_COLUMN, note, Nation.ALLIED,
                carpet=True)


def carpet_missions_left(turn: int, flown: Sequence[int]) -> int:
    """The carpet bombing missions the Allied player may still fly on game turn `turn`, the
    missions of the game turns `flown` flown before (14.3f)."""
    if turn in flown:
        return 0                # one a game turn (14.1, 14.3e)
    for first, last, allowed in CARPET_MISSIONS:
        if first <= turn <= last:
            return max(0, allowed - sum(1 for t in flown if first <= t <= last))
    return 0


def check_carpet_missions(turn: int, flown: Sequence[int]) -> None:
    if carpet_missions_left(turn, flown) == 0:
        raise RulesError(CobraRefusal.CARPET_MISSIONS_SPENT, turn=turn)


@dataclass(frozen=True)
class Combat:
    """An attack rolled: the column, the die, the result where the tables hold it, and what
    each side must do (`explanation`, and typed: `notes`)."""

    odds: Odds
    die: int
    result: Result | None
    explanation: tuple[str, ...]
    source: str
    notes: tuple[Note, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"odds": self.odds.to_dict(), "die": self.die, "column": self.odds.column,
                "result": _result_dict(self.result), "explanation": list(self.explanation),
                "crt": self.source,
                # carpet bombing's result is the defender's only: no attacking units (14.3)
                "applies_to": "defender" if self.odds.carpet else "both"}


def _result_dict(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"text": result.text, "attacker": result.attacker.text,
            "defender": result.defender.text, "split": result.split}


def roll(odds_: Odds, dice: Dice, tables: CobraTables | None = None) -> Combat:
    die = dice.roll(Need(Roller.ATTACKER, Aim.COMBAT, f"combat on {odds_.column}"))
    if not 1 <= die <= DIE_FACES:
        raise RulesError(CobraRefusal.NOT_A_DIE_FACE, die=die, faces=DIE_FACES)
    result = tables.result(odds_.column, die) if tables else None
    source = tables.source if tables else ""
    notes = explain_notes(result, carpet=odds_.carpet) if result else (
        Note(Why.READ_PRINTED_CRT,
             {"column": odds_.column, "die": die}),)
    if odds_.overrun is not None:
        notes = (*notes, overrun_note(result))
    if odds_.carpet:        # the turn's other three AP, kept off this front (14.3e)
        notes = (*notes, Note(Why.CARPET_OTHER_FRONT))
    return Combat(odds_, die, result, tuple(n.text for n in notes), source, notes)


def explain(result: Result, carpet: bool = False) -> tuple[str, ...]:
    """What each side does with a result: step losses against retreats (8.5, 8.6, 8.7)."""
    return tuple(note.text for note in explain_notes(result, carpet))


def explain_notes(result: Result, carpet: bool = False) -> tuple[Note, ...]:
    if carpet:      # an air mission: no attacker to lose steps, nothing split (14.3g)
        return tuple(_defender_notes(result.defender, carpet))
    notes = []
    if result.split:
        notes.append(Note(Why.SPLIT_RESULT))
    notes += _attacker_notes(result.attacker)
    notes += _defender_notes(result.defender, carpet)
    return tuple(notes)


def _attacker_notes(loss: Loss) -> list[Note]:
    if loss.eliminated:
        return [Note(Why.ATTACKER_ELIMINATED)]
    if loss.steps == 0:
        return [Note(Why.ATTACKER_NO_EFFECT)]
    if loss.steps == 1:
        return [Note(Why.ATTACKER_ONE_STEP)]
    return [Note(Why.ATTACKER_STEPS,
                 {"steps": loss.steps})]


def _defender_notes(loss: Loss, carpet: bool) -> list[Note]:
    if loss.eliminated:
        return [Note(Why.DEFENDER_ELIMINATED)]
    if loss.steps == 0:
        return [Note(Why.DEFENDER_NO_EFFECT)]
    if carpet:
        return [Note(Why.DEFENDER_CARPET, {"steps": loss.steps})]
    notes = [Note(Why.DEFENDER_STEPS,
                  {"steps": loss.steps})]
    if loss.steps > 2:
        notes.append(Note(Why.AT_LEAST_ONE_STEP))
    if loss.steps > 1:
        notes.append(Note(Why.WHOLE_STACK))
    notes.append(Note(Why.NO_RETREAT_IS_A_STEP))
    return notes


def overrun_note(result: Result | None) -> Note:
    """What an overrun's result does to the overrunning units' move (5.4.2, 5.4.3); without
    the owner's CRT, every way it may go."""
    if result is None:
        return Note(Why.OVERRUN_READ)
    if result.split:
        return Note(Why.OVERRUN_SPLIT)
    if result.attacker.eliminated or result.attacker.steps:
        return Note(Why.OVERRUN_HALTED)
    if result.defender.eliminated:
        return Note(Why.OVERRUN_VACATED)
    if result.defender.steps:
        return Note(Why.OVERRUN_IF_VACATED)
    return Note(Why.OVERRUN_FAILED)
