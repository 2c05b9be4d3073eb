"""Cobra's Allied Landing Phase (17.3.2) and what the landings leave behind: the paratroop
drops and their scatter, the German beach defence, landing attrition from its starting
columns, the beaches abandoned, the 3:1 attack on a unit withdrawn from a beach in an EZOC
(17.3.4) and the two columns an Allied unit on a beach hex gets against a German attack
(17.3.10).

The box does not know the map: the players say which beach or division, how many steps were
committed, the terrain; these functions do the columns, the dice and the bookkeeping. The
Scatter Diagram and the CRT are printed on map B; their values come from the owner's tables
file, and where a cell is empty the trace names the die for the player's own printed table.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..dice import Aim, Dice, Need, Roller
from ..errors import RulesError
from ..saved import Data
from .combat import MARKER_MOST, Nation, Shift, ShiftKind
from .notes import Note, Why
from .tables import COLUMNS, DIE_FACES, CobraTables, Direction, Result

PARATROOPS = 9               # "his nine paratroop units" (17.3.2 step 1a)
COMMIT_FROM = 5              # a German unit may commit steps on a 5 or 6 (17.3.2 step 4a2)
WITHDRAWAL_COLUMN = "3:1"    # "an unmodified 3:1 attack" (17.3.4)
BEACH_SHIFT = -2             # "two column shifts to the left" (17.3.10)
ABANDONED_VP = 10            # German VP for each beach abandoned (17.3.2 step 5e)
BOCAGE = "bocage"            # no shift for bocage in landing attrition (17.3.2 step 4b3)


class Target(StrEnum):
    """What landing attrition is made against: a beach, or a paratroop division."""

    UTAH = "utah"
    OMAHA = "omaha"
    GOLD = "gold"
    JUNO = "juno"
    SWORD = "sword"
    BRITISH_6 = "6th"        # British 6th Airborne Division
    US_82 = "82nd"           # US 82nd Airborne Division
    US_101 = "101st"         # US 101st Airborne Division

    @property
    def beach(self) -> bool:
        return self in BEACHES


BEACHES = (Target.UTAH, Target.OMAHA, Target.GOLD, Target.JUNO, Target.SWORD)
DIVISIONS = (Target.BRITISH_6, Target.US_82, Target.US_101)
# The lowest die that scatters a unit of each division (17.3.2 step 2a, 2b).
SCATTER_FROM = {Target.BRITISH_6: 6, Target.US_101: 6, Target.US_82: 5}
# Landing attrition's starting columns (17.3.2 step 4b2).
START_COLUMN = {Target.OMAHA: "4:1", Target.UTAH: "1:1", Target.GOLD: "1:2",
                Target.JUNO: "1:2", Target.US_82: "1:2", Target.SWORD: "1:3",
                Target.BRITISH_6: "1:3", Target.US_101: "1:3"}


def target(name: str) -> Target:
    try:
        return Target(name.strip().lower())
    except ValueError:
        raise RulesError(CobraRefusal.UNKNOWN_LANDING_TARGET, landing=name,
                         choices=tuple(t.value for t in Target)) from None


def _die(need: Need, dice: Dice) -> int:
    die = dice.roll(need)
    if not 1 <= die <= DIE_FACES:
        raise RulesError(CobraRefusal.NOT_A_DIE_FACE, die=die, faces=DIE_FACES)
    return die


def _division(division: Target) -> Target:
    if division.beach:
        raise RulesError(CobraRefusal.NOT_A_PARATROOP_DIVISION, landing=division.value)
    return division


# ---- step 2: airborne scatter ----

def scatters(division: Target, die: int) -> bool:
    """Does a unit of `division` scatter on `die`? British and 101st on a 6, 82nd on a 5 or 6
    (17.3.2 step 2a, 2b)."""
    return die >= SCATTER_FROM[_division(division)]


@dataclass(frozen=True)
class Scatter:
    """One paratroop unit's drop: the die, and where it scattered the second die."""

    division: Target
    die: int
    scatters_from: int
    direction_die: int | None
    direction: Direction | None       # None: not scattered, or the owner's diagram is empty
    notes: tuple[Note, ...]
    diagram: str                      # the tables file the direction came from ('' for none)

    @property
    def scattered(self) -> bool:
        return self.direction_die is not None

    def to_dict(self) -> dict[str, Any]:
        return {"division": self.division.value, "die": self.die,
                "scatters_on": list(range(self.scatters_from, DIE_FACES + 1)),
                "scattered": self.scattered, "direction_die": self.direction_die,
                "direction": self.direction.value if self.direction else None,
                "diagram": self.diagram, "explanation": [n.text for n in self.notes],
                "rule": "17.3.2 step 2, step 3"}


def scatter(division: Target, dice: Dice, tables: CobraTables | None = None,
            dropped: int = 0) -> Scatter:
    """Roll for one paratroop unit; a scattered unit rolls again for its direction on the
    Scatter Diagram (17.3.2 step 2c). `dropped`: the units already rolled for."""
    if dropped >= PARATROOPS:
        raise RulesError(CobraRefusal.ALL_PARATROOPS_DROPPED, most=PARATROOPS)
    need = Need(Roller.ALLIES, Aim.SCATTER, f"scatter {_division(division).value}")
    die = _die(need, dice)
    shown = "-".join(str(f) for f in sorted({SCATTER_FROM[division], DIE_FACES}))
    if not scatters(division, die):
        return Scatter(division, die, SCATTER_FROM[division], None, None, (Note(
            Why.PARA_LANDED, {"die": die, "span": shown}),), "")
    second = _die(Need(Roller.ALLIES, Aim.SCATTER, f"scatter direction {division.value}"),
                  dice)
    direction = tables.scatter_direction(second) if tables else None
    where = Note(Why.PARA_SCATTERED, {"die": second, "direction": direction.value}) \
        if direction else \
        Note(Why.PARA_READ_DIAGRAM, {"die": second})
    notes = (where,
             Note(Why.PARA_STEP_LOSS),
             Note(Why.PARA_GERMAN_ATTACK))
    return Scatter(division, die, SCATTER_FROM[division], second, direction, notes,
                   tables.source if tables and direction else "")


# ---- step 4a: the German player commits steps to beach defence ----

@dataclass(frozen=True)
class Commitment:
    """One German unit's beach defence roll: may it commit steps?"""

    die: int
    note: Note

    @property
    def may_commit(self) -> bool:
        return self.die >= COMMIT_FROM

    def to_dict(self) -> dict[str, Any]:
        return {"die": self.die, "may_commit": self.may_commit, "explanation": [self.note.text],
                "rule": "17.3.2 step 4a"}


def commitment(dice: Dice) -> Commitment:
    """A German unit within two hexes of an Allied occupied beach hex rolls: on 5 or 6 it may
    commit steps to one beach hex, each shifting that hex's attrition one column right
    (17.3.2 step 4a)."""
    die = _die(Need(Roller.AXIS, Aim.COMBAT, "beach defence"), dice)
    if die < COMMIT_FROM:
        return Commitment(die, Note(Why.COMMIT_NONE, {"die": die}))
    return Commitment(die, Note(
        Why.COMMIT_STEPS, {"die": die}))


# ---- step 4b: landing attrition ----

@dataclass(frozen=True)
class AttritionOdds:
    """The column landing attrition is rolled on: the start column and its shifts right."""

    target: Target
    start: str
    committed: int            # German steps committed to the beach hex (a beach)
    terrain: int              # the terrain's shift for the defender, 0 to -5 (a division)
    terrain_name: str
    shift: int                # columns right
    column: str
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target.value, "beach": self.target.beach,
                "start_column": self.start, "committed_steps": self.committed,
                "terrain_shift": self.terrain, "terrain": self.terrain_name,
                "shift": self.shift, "column": self.column, "explanation": list(self.notes),
                "rule": "17.3.2 step 4b"}


def attrition_odds(where: Target, committed: int | None = None, terrain: int | None = None,
                   terrain_name: str = "") -> AttritionOdds:
    """Start on the target's column (17.3.2 step 4b2); a beach shifts one column right for
    each German step committed to it, a paratroop unit as many right as its terrain would
    shift left, bocage none (17.3.2 step 4b3); the table ends at 1:5 and 10:1 (8.3.2c).
    A beach takes no terrain, a paratroop unit no committed steps: given, they are refused."""
    if (where.beach and (terrain is not None or terrain_name)) or \
            (not where.beach and committed is not None):
        raise _wrong_shift(where)
    committed, terrain = committed or 0, terrain or 0
    if committed < 0 or not -5 <= terrain <= 0:
        raise RulesError(CobraRefusal.LANDING_SHIFT_RANGE)
    start = START_COLUMN[where]
    notes = [f"{where.value}: attrition starts on {start} (17.3.2 step 4b2)"]
    bocage = terrain_name.strip().lower() == BOCAGE
    shift = committed if where.beach else 0 if bocage else -terrain
    if where.beach and committed:
        notes.append(f"{committed} German step{'s' if committed != 1 else ''} committed: "
                     f"+{committed} (17.3.2 step 4b3)")
    elif bocage:
        notes.append("no shift for bocage (17.3.2 step 4b3)")
    elif shift:
        notes.append(f"terrain {terrain_name or terrain} shifts the defender {terrain}: the "
                     f"attrition +{shift} (17.3.2 step 4b3)")
    index = COLUMNS.index(start) + shift
    final = COLUMNS[min(max(index, 0), len(COLUMNS) - 1)]
    if not 0 <= index < len(COLUMNS):
        notes.append(f"the table ends at {final} (8.3.2c)")
    return AttritionOdds(where, start, committed, terrain, terrain_name, shift, final,
                         tuple(notes))


def _wrong_shift(where: Target) -> RulesError:
    return RulesError(CobraRefusal.LANDING_SHIFT_WRONG_TARGET, landing=where.value)


@dataclass(frozen=True)
class Attrition:
    """Landing attrition rolled: the Allied steps lost, never a retreat."""

    odds: AttritionOdds
    die: int
    result: Result | None
    notes: tuple[Note, ...]
    source: str

    @property
    def steps(self) -> int | None:
        """The Allied steps lost; None: all of them ("e"), or not known (no CRT cell)."""
        if self.result is None or self.result.defender.eliminated:
            return None
        return self.result.defender.steps

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"odds": self.odds.to_dict(), "column": self.odds.column, "die": self.die,
                "result": None if r is None else {"text": r.text, "allied": r.defender.text},
                "allied_steps_lost": self.steps,
                "all_steps_lost": bool(r and r.defender.eliminated),
                "explanation": [n.text for n in self.notes], "crt": self.source}


def attrition(planned: AttritionOdds, dice: Dice, tables: CobraTables | None = None
              ) -> Attrition:
    """The German player rolls on the column; the Allied units take the defender's part of
    the result as steps, never retreats, and the German units nothing (17.3.2 step 4b4)."""
    die = _die(Need(Roller.AXIS, Aim.COMBAT, f"landing attrition {planned.column}"), dice)
    result = tables.result(planned.column, die) if tables else None
    beach = planned.target.beach
    if result is None:
        notes: tuple[Note, ...] = (
            Note(Why.READ_PRINTED_CRT, {"column": planned.column, "die": die}),
            Note(Why.ATTRITION_READ))
    else:
        notes = (_allied_loss(result),)
    if beach and (result is None or result.defender.eliminated or result.defender.steps):
        notes += (Note(Why.BEACH_MARKER),)
    return Attrition(planned, die, result, notes, tables.source if tables else "")


def _allied_loss(result: Result) -> Note:
    loss = result.defender
    if loss.eliminated:
        return Note(Why.ATTRITION_ELIMINATED)
    if loss.steps:
        return Note(Why.ATTRITION_STEPS, {"steps": loss.steps})
    return Note(Why.ATTRITION_NO_LOSS)


# ---- step 5: a beach abandoned ----

@dataclass(frozen=True)
class BeachCheck:
    beach: Target
    landed: int
    lost: int
    note: Note

    @property
    def abandoned(self) -> bool:
        return 2 * self.lost > self.landed

    def to_dict(self) -> dict[str, Any]:
        return {"beach": self.beach.value, "landed_steps": self.landed,
                "lost_steps": self.lost, "abandoned": self.abandoned,
                "german_vp": ABANDONED_VP if self.abandoned else 0,
                "explanation": [self.note.text], "rule": "17.3.2 step 5"}


def beach_check(beach: Target, landed: int, lost: int) -> BeachCheck:
    """More than half the steps landed on a beach eliminated: it is abandoned (17.3.2
    step 5a), its units removed (no VP for them), 10 VP to the German player (5e)."""
    if not beach.beach:
        raise RulesError(CobraRefusal.NOT_A_BEACH, landing=beach.value)
    if landed < 1 or not 0 <= lost <= landed:
        raise RulesError(CobraRefusal.BEACH_STEPS, lost=lost, landed=landed)
    if 2 * lost > landed:
        note = Note(Why.BEACH_ABANDONED, {"lost": lost, "landed": landed})
    else:
        note = Note(Why.BEACH_HELD, {"lost": lost, "landed": landed})
    return BeachCheck(beach, landed, lost, note)


# ---- 17.3.4: the 3:1 attack on a unit withdrawn from a beach hex in an EZOC ----

@dataclass(frozen=True)
class Withdrawal:
    """The German 3:1 attack on a withdrawing unit: its losses are steps, not retreats."""

    die: int
    steps: int | None         # the steps the unit has, where the players said
    result: Result | None
    notes: tuple[Note, ...]
    source: str

    @property
    def lost(self) -> int | None:
        """Steps lost; None: all of them ("e"), or not known (no CRT cell)."""
        if self.result is None or self.result.defender.eliminated:
            return None
        return self.result.defender.steps

    @property
    def destroyed(self) -> bool | None:
        """None while it is not known (no CRT cell, or the unit's steps not given)."""
        if self.result is None:
            return None
        if self.result.defender.eliminated:
            return True
        if self.steps is None:
            return None if self.result.defender.steps else False
        return self.result.defender.steps >= self.steps

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"column": WITHDRAWAL_COLUMN, "unmodified": True, "die": self.die,
                "unit_steps": self.steps,
                "result": None if r is None else {"text": r.text, "allied": r.defender.text},
                "steps_lost": self.lost, "all_steps_lost": bool(r and r.defender.eliminated),
                "destroyed": self.destroyed, "explanation": [n.text for n in self.notes],
                "crt": self.source, "rule": "17.3.4"}


def withdrawal(dice: Dice, tables: CobraTables | None = None, steps: int | None = None
               ) -> Withdrawal:
    """The German player's unmodified 3:1 attack on a unit withdrawn from a beach hex in an
    EZOC, before it goes (17.3.4): no shifts, the German units unaffected, the unit's losses
    steps, not retreats (17.3.4a); destroyed, it counts for VP (b); else it is withdrawn (c)."""
    if steps is not None and steps < 1:
        raise RulesError(CobraRefusal.WITHDRAWAL_STEPS, steps=steps)
    die = _die(Need(Roller.AXIS, Aim.COMBAT, f"withdrawal attack {WITHDRAWAL_COLUMN}"), dice)
    result = tables.result(WITHDRAWAL_COLUMN, die) if tables else None
    trace = Withdrawal(die, steps, result, (), tables.source if tables else "")
    return replace(trace, notes=_withdrawal_notes(trace))


def _withdrawal_notes(trace: Withdrawal) -> tuple[Note, ...]:
    if trace.result is None:
        return (Note(Why.READ_PRINTED_CRT, {"column": WITHDRAWAL_COLUMN, "die": trace.die}),
                Note(Why.WITHDRAWAL_READ))
    notes: list[Note] = []
    if trace.lost:
        notes.append(Note(Why.WITHDRAWAL_STEPS,
                          {"steps": trace.lost}))
    if trace.destroyed:
        notes.append(Note(Why.WITHDRAWAL_DESTROYED))
    elif trace.destroyed is None:
        notes.append(Note(Why.WITHDRAWAL_IF_DESTROYED))
    else:
        notes.append(Note(Why.WITHDRAWAL_SURVIVES))
    return tuple(notes)


# ---- 17.3.10: intrinsic beach defence ----

def beach_shift() -> Shift:
    """A German attack on an Allied unit on a beach hex: two columns left, naval gun support
    that needs no NSP (17.3.10)."""
    return Shift(ShiftKind.BEACH, BEACH_SHIFT)


def beach_shift_offered(attacker: Nation, landing: bool) -> bool:
    """The box offers the beach shift to German attacks in the scenarios with the landing
    (the campaign's rules, 17.3.10; the Build-Up keeps them, 17.4a)."""
    return landing and attacker is Nation.GERMAN


# ---- what the box keeps of the landing ----

@dataclass(frozen=True)
class Landed(Data):
    """One landing attrition rolled, as the box keeps it."""

    target: Target
    column: str
    die: int
    result: str                # the CRT cell, '' where the owner's table has none
    lost: int | None           # Allied steps lost; None: all, or not known


@dataclass(frozen=True)
class Marker(Data):
    """A beach shift marker on a beach hex: one column left for each step the landing units
    lost there, on every Allied attack from the hex (17.3.2 step 5f)."""

    beach: Target
    columns: int               # 1 or more: the shift is -columns


@dataclass(frozen=True)
class Landing(Data):
    """The Allied Landing Phase so far: the drops rolled (a scattered drop whose direction is
    still to roll has `direction` None), the attritions rolled, the beaches abandoned."""

    drops: tuple[tuple[Target, int, int | None], ...] = ()   # division, die, direction die
    attritions: tuple[Landed, ...] = ()
    abandoned: tuple[Target, ...] = ()
    markers: tuple[Marker, ...] = ()       # the beach shift markers on the map (step 5f)

    @property
    def pending(self) -> Target | None:
        """The division of a scattered drop whose direction is not rolled yet."""
        if self.drops:
            division, die, second = self.drops[-1]
            if scatters(division, die) and second is None:
                return division
        return None

    def dropped(self, division: Target, die: int, second: int | None = None) -> Landing:
        """A drop's first die, and its direction die when it is rolled with it."""
        if len(self.drops) >= PARATROOPS:
            raise RulesError(CobraRefusal.ALL_PARATROOPS_DROPPED, most=PARATROOPS)
        return replace(self, drops=(*self.drops, (_division(division), die, second)))

    def directed(self, second: int) -> Landing:
        """The pending drop's direction die (17.3.2 step 2c)."""
        division, die, _ = self.drops[-1]
        return replace(self, drops=(*self.drops[:-1], (division, die, second)))

    def lost_on(self, beach: Target) -> int:
        """The steps the attritions on `beach` took, as far as the box knows them."""
        return sum(a.lost or 0 for a in self.attritions if a.target is beach)

    def abandon(self, check: BeachCheck) -> Landing:
        if check.beach in self.abandoned:
            raise RulesError(CobraRefusal.BEACH_ALREADY_ABANDONED,
                             landing=check.beach.value)
        return replace(self, abandoned=(*self.abandoned, check.beach)) if check.abandoned \
            else self



    def marked(self, beach: Target, lost: int, onto: int | None = None) -> Landing:
        """A beach shift marker for `lost` steps on a hex of `beach` (17.3.2 step 5f): a new
        one, or added to marker `onto` (the same hex: "equal to the number of step losses
        suffered in the beach hex")."""
        if not beach.beach:
            raise RulesError(CobraRefusal.NOT_A_BEACH, landing=beach.value)
        if not 1 <= lost <= MARKER_MOST:
            raise RulesError(CobraRefusal.MARKER_STEPS, lost=lost, most=MARKER_MOST)
        if onto is None:
            return replace(self, markers=(*self.markers, Marker(beach, lost)))
        old = self.markers[onto]
        grown = Marker(old.beach, min(MARKER_MOST, old.columns + lost))
        return replace(self, markers=(*self.markers[:onto], grown, *self.markers[onto + 1:]))

    def unmarked(self, index: int) -> Landing:
        """Marker `index` removed: Allied units advanced after combat out of its hex (17.3.2
        step 5f2)."""
        return replace(self, markers=(*self.markers[:index], *self.markers[index + 1:]))


def marker_columns(landing: Landing, attacker: Nation) -> tuple[int, ...]:
    """The shifts an `attacker`'s attack may take for the beach shift marker of the hex it is
    made from: each marker's, largest last; none for a German attack (17.3.2 step 5f1)."""
    if attacker is not Nation.ALLIED:
        return ()
    return tuple(sorted({-m.columns for m in landing.markers}, reverse=True))


def marker_shift(columns: int) -> Shift:
    """An Allied attack from a hex with a beach shift marker: that many columns left (17.3.2
    step 5f1)."""
    return Shift(ShiftKind.MARKER, -columns)
