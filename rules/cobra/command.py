"""Cobra's headquarters and the Allied command limits (8.3.3, 9.0, 9.1, 11.3).

An HQ is active or inactive (its counter's two sides), or eliminated. The rules flip it to
its inactive side when it has used its command benefit (8.3.3 Important), when it moves in a
Mechanized Movement Phase (9.1a, 4.0 G5d and A5d) and when it is displaced (9.1b); displaced a
second time in one phase, it is eliminated instead (9.1b Important). Every friendly
Replacement Phase flips it back (8.3.3 Important, 9.1a). An inactive HQ gives no shift (9.1i).

The Allied command limits (11.3): each game turn the US and the British may each make as many
attacks, and as many overruns, as the command level the turn record track prints for them
(one number, for "attacks of each type", 11.3a); supplied or not (11.3b), an overrun made when
advancing after combat excepted (11.3 Important). None on game turns 1 and 2 (17.3e).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..english import Word
from ..errors import RulesError
from ..saved import Data
from .combat import ALLIED_HQ_DOUBLE_FROM, SHIFT_LIMITS, Nation, OverrunWhen, ShiftKind

LEVEL_MAX = 20          # the command levels the box dials (the track prints single figures)
NO_LIMITS_UNTIL = 2     # no command limits on game turns 1 and 2 (17.3e)


class Army(StrEnum):
    """Whose HQ, and whose command limit: the US and the British are counted apart (11.2,
    11.3a), and an HQ benefits only its own army's units (8.3.3d, 8.3.3e)."""

    US = "us"
    BRITISH = "british"
    GERMAN = "german"

    @property
    def nation(self) -> Nation:
        return Nation.GERMAN if self is Army.GERMAN else Nation.ALLIED


ALLIED_ARMIES = (Army.US, Army.BRITISH)
ARMY_NAMES = {Army.US: "US", Army.BRITISH: "British", Army.GERMAN: "German"}


class HQState(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"
    ELIMINATED = "eliminated"


class HQEvent(StrEnum):
    """What happens to an HQ on the map, each with its rule."""

    MOVED = "moved"               # in the Mechanized Movement Phase (9.1a)
    DISPLACED = "displaced"       # an enemy unit entered its hex (9.1b)
    ELIMINATED = "eliminated"     # a step lost in combat (9.1e), or displaced twice (9.1b)


EVENT_RULES = {HQEvent.MOVED: "9.1a", HQEvent.DISPLACED: "9.1b", HQEvent.ELIMINATED: "9.1e"}


@dataclass(frozen=True)
class HQ:
    """An HQ counter: its corps designation, short as the counter prints it, and its army."""

    key: str
    name: str
    army: Army


# The HQs the rules name: the set-up chart of 17.1.1 (German, British and US corps), the
# 15th Army's corps released by 15.2f, and Patton (8.3.3g). Two VIII Corps: the army tells
# them apart. Patton gives his own shifts (8.3.3g), never an HQ's.
HQS = (
    HQ("vii", "VII", Army.US), HQ("viii_us", "VIII US", Army.US), HQ("v", "V", Army.US),
    HQ("xix", "XIX", Army.US), HQ("patton", "Patton", Army.US),
    HQ("i", "I", Army.BRITISH), HQ("ii_can", "II Can", Army.BRITISH),
    HQ("viii_br", "VIII Br", Army.BRITISH), HQ("xii", "XII", Army.BRITISH),
    HQ("xxx", "XXX", Army.BRITISH),
    HQ("ii_para", "II Para", Army.GERMAN), HQ("xlvii", "XLVII Pz", Army.GERMAN),
    HQ("lxxxiv", "LXXXIV", Army.GERMAN), HQ("lxxxvi", "LXXXVI", Army.GERMAN),
    HQ("i_ss", "I SS Pz", Army.GERMAN), HQ("ii_ss", "II SS Pz", Army.GERMAN),
    HQ("lxxxii", "LXXXII", Army.GERMAN), HQ("lxxxix", "LXXXIX", Army.GERMAN),
)
BY_KEY = {hq.key: hq for hq in HQS}
PATTON = BY_KEY["patton"]
# Patton's columns as `cobra odds` refuses another (8.3.3g): the same words from either command.
PATTON_ALLOWED = tuple(f"{a:+d}" for a in SHIFT_LIMITS[ShiftKind.PATTON][0])


def hq(key: str) -> HQ:
    """The HQ `key` (or its name, as the counter prints it, any case)."""
    wanted = key.strip().lower()
    for one in HQS:
        if wanted in (one.key, one.name.lower(), one.name.lower().replace(" ", "_")):
            return one
    raise RulesError(CobraRefusal.UNKNOWN_HQ, hq=key, choices=tuple(h.key for h in HQS))


def hqs_of(nation: Nation) -> tuple[HQ, ...]:
    return tuple(h for h in HQS if h.army.nation is nation)


@dataclass(frozen=True)
class HQStatus(Data):
    """An HQ's side up, the columns it has given since it was last flipped active (8.3.3a:
    an Allied HQ may give two from game turn 17), and the phase it was last displaced in."""

    state: HQState = HQState.ACTIVE
    given: int = 0
    displaced: tuple[int, int] | None = None       # (game turn, step of the sequence)


def capacity(one: HQ, offensive: bool, turn: int) -> int:
    """The columns an HQ may give before it flips: one; two for an Allied HQ's attacks from
    game turn 17, never for a defence (8.3.3a); Patton two to US attacks (8.3.3g)."""
    if one is PATTON:
        return 2
    if offensive and one.army is not Army.GERMAN and turn >= ALLIED_HQ_DOUBLE_FROM:
        return 2
    return 1


@dataclass(frozen=True)
class HQChange:
    """What happened to one HQ, and the side it shows now: the trace of a flip."""

    hq: HQ
    event: str                  # an HQEvent, "used" (8.3.3) or "reactivated" (9.1a)
    before: HQState
    after: HQState
    rule: str
    given: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"hq": self.hq.key, "name": self.hq.name, "army": self.hq.army.value,
                "event": self.event, "before": self.before.value, "after": self.after.value,
                "given": self.given, "rule": self.rule}


class Attempt(StrEnum):
    """The two kinds of Allied combat a command limit counts (11.3a)."""

    ATTACK = "attack"
    OVERRUN = "overrun"


@dataclass(frozen=True)
class Tally:
    """One army's attacks and overruns made this game turn."""

    attacks: int = 0
    overruns: int = 0

    def of(self, attempt: Attempt) -> int:
        return self.attacks if attempt is Attempt.ATTACK else self.overruns


@dataclass(frozen=True)
class LimitCheck:
    """Whether one more Allied attack or overrun is within the command limit (11.3): the
    trace of the answer."""

    army: Army
    attempt: Attempt
    level: int | None           # None: no limit (17.3e), or none dialled this turn
    made: int
    counted: bool               # an overrun when advancing after combat is not (11.3)
    rule: str

    @property
    def allowed(self) -> bool:
        return not self.counted or self.level is None or self.made < self.level

    @property
    def left(self) -> int | None:
        return None if self.level is None else max(0, self.level - self.made)

    def to_dict(self) -> dict[str, Any]:
        return {"army": self.army.value, "kind": self.attempt.value, "level": self.level,
                "made": self.made, "left": self.left, "counted": self.counted,
                "allowed": self.allowed, "rule": self.rule}


def limits_apply(turn: int, landing: bool) -> bool:
    """Whether the Allied command limits count this game turn: not on game turns 1 and 2 of
    the scenarios that start with the landing (17.3e)."""
    return not (landing and turn <= NO_LIMITS_UNTIL)


def counted(attempt: Attempt, when: OverrunWhen | None) -> bool:
    """Overruns due to advance after combat do not count against the limits (11.3)."""
    return not (attempt is Attempt.OVERRUN and when is OverrunWhen.ADVANCE)


def check_limit(army: Army, attempt: Attempt, level: int | None, made: int,
                when: OverrunWhen | None = None) -> LimitCheck:
    """The answer for one more attack or overrun of `army` with `made` made this game turn
    against the command level `level` (11.3, 11.3a)."""
    if army is Army.GERMAN:
        raise RulesError(CobraRefusal.NO_GERMAN_LIMITS)
    rule = "11.3" if counted(attempt, when) else "11.3 Important"
    return LimitCheck(army, attempt, level, made, counted(attempt, when), rule)


def refuse_beyond(check: LimitCheck) -> None:
    """Refuse the attack or overrun beyond the command limit (11.3)."""
    if check.allowed:
        return
    army, most = army_word(check.army), check.level or 0
    if check.attempt is Attempt.ATTACK:
        raise RulesError(CobraRefusal.ATTACK_LIMIT, army=army, made=check.made, most=most)
    raise RulesError(CobraRefusal.OVERRUN_LIMIT, army=army, made=check.made, most=most)


def army_word(army: Army) -> Word:
    """An army as a refusal names it: its key, in English its name ("US")."""
    return Word(army.value, ARMY_NAMES[army])


def attack_army(track: str | None, one: HQ | None) -> Army | None:
    """Which army an Allied attack is: the supply track it pays from (11.2) or its HQ's
    (8.3.3d, 8.3.3e); None when neither tells. They must agree."""
    paid = Army(track) if track in ("us", "british") else None
    if paid is not None and one is not None and one.army is not paid:
        raise RulesError(CobraRefusal.HQ_OTHER_ARMY, name=one.name, army=army_word(one.army),
                         paid=army_word(paid))
    return paid or (one.army if one is not None and one.army is not Army.GERMAN else None)


@dataclass(frozen=True)
class Command:
    """The HQs' sides and this game turn's Allied command limits, as a game keeps them."""

    status: dict[str, HQStatus] = field(default_factory=dict)    # only HQs changed so far
    turn: int = 0                       # the game turn `made` counts and `levels` limit
    levels: tuple[int, int] = (0, 0)    # US, British command levels, the last ones dialled
    dialled: bool = False                # `levels` dialled for `turn` (else last turn's)
    made: tuple[Tally, Tally] = (Tally(), Tally())

    # -- the HQs --

    def of(self, one: HQ) -> HQStatus:
        return self.status.get(one.key, HQStatus())

    def _with(self, one: HQ, status: HQStatus) -> Command:
        return replace(self, status={**self.status, one.key: status})

    def check_shift(self, one: HQ, columns: int, offensive: bool, turn: int) -> None:
        """Refuse a shift the HQ may not give: Patton's on defence (8.3.3g), eliminated
        (9.1e), inactive (9.1a, 9.1i), or more columns than it has left (8.3.3a, 8.3.3g)."""
        if one is PATTON and not offensive:     # "It may not be used defensively" (8.3.3g)
            raise RulesError(CobraRefusal.SHIFT_NOT_ALLOWED, shift_kind=ShiftKind.PATTON.value,
                             columns=columns, allowed=PATTON_ALLOWED, article="8.3.3g")
        status = self.of(one)
        if status.state is HQState.ELIMINATED:
            raise RulesError(CobraRefusal.HQ_ELIMINATED, name=one.name)
        if status.state is HQState.INACTIVE:
            raise RulesError(CobraRefusal.HQ_INACTIVE, name=one.name)
        most = capacity(one, offensive, turn)
        if abs(columns) > most:             # more than it ever gives to one combat
            raise RulesError(CobraRefusal.HQ_COLUMNS_MOST, name=one.name, most=most)
        if status.given + abs(columns) > most:
            raise RulesError(CobraRefusal.HQ_SHIFTS_GIVEN,
                             name=one.name, given=status.given, most=most)

    def use(self, one: HQ, columns: int, offensive: bool, turn: int
            ) -> tuple[Command, HQChange]:
        """The HQ gives its shift to a combat being resolved: flipped to its inactive side
        once it has given all it may (8.3.3 Important, 8.3.3a)."""
        self.check_shift(one, columns, offensive, turn)
        status = self.of(one)
        given = status.given + abs(columns)
        spent = given >= capacity(one, offensive, turn)
        after = HQState.INACTIVE if spent else HQState.ACTIVE
        return self._with(one, replace(status, state=after, given=given)), HQChange(
            one, "used", status.state, after, "8.3.3", given)

    def flip(self, one: HQ, event: HQEvent, turn: int, step: int) -> tuple[Command, HQChange]:
        """Moved in the Mechanized Movement Phase (9.1a) or displaced (9.1b): inactive;
        displaced twice in one phase (9.1b Important) or eliminated in combat (9.1e): gone."""
        status = self.of(one)
        if status.state is HQState.ELIMINATED:
            raise RulesError(CobraRefusal.HQ_ELIMINATED,
                             name=one.name)
        where = (turn, step)
        rule = EVENT_RULES[event]
        after = HQState.INACTIVE
        if event is HQEvent.ELIMINATED:
            after = HQState.ELIMINATED
        elif event is HQEvent.DISPLACED and status.displaced == where:
            after, rule = HQState.ELIMINATED, "9.1b Important"
        displaced = where if event is HQEvent.DISPLACED else status.displaced
        return self._with(one, replace(status, state=after, displaced=displaced)), HQChange(
            one, event.value, status.state, after, rule, status.given)

    def reactivate(self, nation: Nation) -> Command:
        """The friendly Replacement Phase: every inactive HQ of `nation` flips back to its
        active side (8.3.3 Important, 9.1a), with all its shifts to give again."""
        status = {key: (HQStatus(displaced=s.displaced)
                        if BY_KEY[key].army.nation is nation and s.state is not
                        HQState.ELIMINATED else s) for key, s in self.status.items()}
        return replace(self, status=status)

    # -- the command limits --

    def on(self, turn: int) -> Command:
        """The counts of game turn `turn`: a new game turn starts them again, with the levels
        to dial again (the last ones kept, to start the knob at)."""
        if turn == self.turn:
            return self
        return replace(self, turn=turn, dialled=False, made=(Tally(), Tally()))

    def with_levels(self, turn: int, us: int, british: int) -> Command:
        """The command levels the turn record track prints for this game turn (11.3)."""
        for value in (us, british):
            if not 0 <= value <= LEVEL_MAX:
                raise RulesError(CobraRefusal.COMMAND_LEVEL, level=value, most=LEVEL_MAX)
        return replace(self.on(turn), levels=(us, british), dialled=True)

    def level(self, turn: int, army: Army) -> int | None:
        """This game turn's command level of `army`; None when not dialled this turn."""
        game = self.on(turn)
        return game.levels[ALLIED_ARMIES.index(army)] if game.dialled else None

    def tally(self, turn: int, army: Army) -> Tally:
        return self.on(turn).made[ALLIED_ARMIES.index(army)]

    def check(self, turn: int, army: Army, attempt: Attempt,
              when: OverrunWhen | None = None) -> LimitCheck:
        return check_limit(army, attempt, self.level(turn, army),
                           self.tally(turn, army).of(attempt), when)

    def count(self, turn: int, army: Army, attempt: Attempt,
              when: OverrunWhen | None = None) -> tuple[Command, LimitCheck]:
        """One more attack or overrun of `army` made: refused beyond the limit (11.3); an
        overrun when advancing after combat is not counted (11.3 Important)."""
        checked = self.check(turn, army, attempt, when)
        refuse_beyond(checked)
        game = self.on(turn)
        if not checked.counted:
            return game, checked
        index = ALLIED_ARMIES.index(army)
        tally = game.made[index]
        more = replace(tally, attacks=tally.attacks + 1) if attempt is Attempt.ATTACK else \
            replace(tally, overruns=tally.overruns + 1)
        made = (more, game.made[1]) if index == 0 else (game.made[0], more)
        return replace(game, made=made), checked

    # -- saved with the game --

    # Saved by hand, not by its types (rules/saved.py): tallies as pairs, unknown HQs left out.
    def to_dict(self) -> dict[str, Any]:
        return {"hqs": {key: s.to_dict() for key, s in self.status.items()},
                "turn": self.turn, "levels": list(self.levels), "dialled": self.dialled,
                "made": [[t.attacks, t.overruns] for t in self.made]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Command:
        us, british = (int(n) for n in data.get("levels", (0, 0)))
        made = tuple(Tally(int(a), int(o)) for a, o in data.get("made", ((0, 0), (0, 0))))
        return cls({key: HQStatus.from_dict(s) for key, s in data.get("hqs", {}).items()
                    if key in BY_KEY}, int(data.get("turn", 0)), (us, british),
                   bool(data.get("dialled", False)), (made[0], made[1]))
