"""Cobra's movement allowance: a unit's MA in a Movement Phase from its printed MA, the weather
(German units only), supply, the turn after the first Allied exit, a replacement received, the
landing turns and the Mechanized Movement Phase (5.2, 5.3b, 5.3c, 10.6, 12.1b, 17.3.3b); and
the German MA increase with its air-attack roll (5.3d).

Each change is a step of the trace, in the rules' order, rounded up as 5.3b and 2.6 say: out
of supply halved first, then the weather's thirds (5.3b "the unit's MA is first halved, then the
adjustments noted above are applied"), then the half of a unit that received a replacement
("half their current MA", 12.1b), the MA all the other changes have left.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..dice import Aim, Dice, Need, Roller
from ..errors import RulesError
from ..saved import Data
from .supply import check_in_supply
from .tables import Weather

ARMIES = ("german", "us", "british")      # British includes the Canadian and Polish (5.2c)
PHASES = ("initial", "mechanized")        # the Initial and the Mechanized Movement Phase
PRINTED_MAX = 20                          # the largest printed MA dialled (flak: 12, 5.2a)
# The thirds of its MA a German unit loses in each weather (5.3b), and after the first Allied
# exit off a map edge (5.3c): storms and overcast full, clear one third.
THIRDS_OFF = {Weather.STORM: 0, Weather.OVERCAST: 1, Weather.CLEAR: 2}
INCREASES = {"third": 1, "two_thirds": 2}           # the MA increase in thirds (5.3d)
AIR_RISK = {1: 2, 2: 4}                   # a step lost on a die of 1..n (5.3d2, 5.3d3)
LANDING_TURNS = 2                         # Allied printed MA halved on GT 1 and 2 (17.3.3b)
LANDED_LAST = 14                          # units landing with half MA on GT 1-14 (17.3.9)
NO_OVERRUN_TURN = 1                       # no overruns on GT 1 (17.3.3c; overrun.py's too)


def thirds(ma: int, kept: int) -> int:
    """`kept` thirds of `ma`, rounded up (5.3b "always round up")."""
    return math.ceil(ma * kept / 3)


def half(ma: int) -> int:
    return math.ceil(ma / 2)


@dataclass(frozen=True)
class MaStep(Data):
    """One change of the MA: what changed it, the MA after it, its rule; `applied` False for a
    change named and not made (why in `text`)."""

    key: str
    ma: int
    rule: str
    text: str
    applied: bool = True


@dataclass(frozen=True)
class Allowance:
    """A unit's MA in one Movement Phase, every step of it, and what the German may still
    add (5.3d): `increase_most` thirds; `risk` the air attack's faces of a step lost when the
    MA was increased (0: not increased)."""

    printed: int
    army: str
    phase: str
    mechanized: bool
    weather: Weather | None
    out_of_supply: bool
    after_exit: bool
    replaced: bool
    increase: int
    turn: int | None
    steps: tuple[MaStep, ...]
    increase_most: int
    risk: int
    hq: bool = False            # an HQ: moves as a mechanized unit, never overruns (5.4)
    landed: bool = False

    @property
    def ma(self) -> int:
        return self.steps[-1].ma

    @property
    def may_overrun(self) -> bool:
        """Overruns: "Only armored, panzer or panzer-grenadier and US truck mechanized units
        may conduct overruns" (5.4 Important: `mechanized`, the players' to know; an HQ moves as
        one, 5.2a, b, but is none of those units), in the Initial Movement Phase (5.4), in
        supply (10.6c), without an MA increase (5.3d), not on game turn 1 (17.3.3c)."""
        return self.mechanized and not self.hq and self.phase == "initial" and \
            not self.out_of_supply and not self.increase and self.turn != NO_OVERRUN_TURN

    def to_dict(self) -> dict[str, Any]:
        return {"printed": self.printed, "army": self.army, "phase": self.phase,
                "mechanized": self.mechanized, "hq": self.hq,
                "weather": self.weather.value if self.weather else None,
                "out_of_supply": self.out_of_supply, "after_exit": self.after_exit,
                "replaced": self.replaced, "landed": self.landed,
                "increase_thirds": self.increase, "turn": self.turn,
                "ma": self.ma, "steps": [s.to_dict() for s in self.steps],
                "increase_most_thirds": self.increase_most,
                "air_attack_loses_on": list(range(1, self.risk + 1)),
                "may_overrun": self.may_overrun,
                "one_hex": "a unit may always move one hex, unless in an EZOC (5.0)"}


def check_unit(printed: int, army: str, phase: str) -> None:
    for name, value, allowed in (("army", army, ARMIES), ("phase", phase, PHASES)):
        if value not in allowed:
            raise RulesError(CobraRefusal.UNKNOWN_MOVEMENT, field=name, value=value,
                             choices=allowed)
    if not 1 <= printed <= PRINTED_MAX:
        raise RulesError(CobraRefusal.MA_PRINTED, printed=printed, most=PRINTED_MAX)


def phase_step(printed: int, army: str, phase: str, mechanized: bool,
               turn: int | None, division: bool = True) -> MaStep:
    """The printed MA as the phase and the turn allow it: only mechanized units move in the
    Mechanized Movement Phase (4.0, 5.2), British and Canadian infantry divisions two thirds
    of it (5.2c: "British and Canadian infantry divisions ... may move up to two-thirds"), no
    other British infantry (`division` False: a brigade, commandos, 5.2g); on GT 1 and 2 the
    Allies' printed MA halved, their infantry divisions one third in it (17.3.3b)."""
    british_infantry = army == "british" and not mechanized and division
    if phase == "mechanized" and not mechanized and army == "british" and not division:
        raise RulesError(CobraRefusal.NOT_A_DIVISION)
    if phase == "mechanized" and not mechanized and not british_infantry:
        raise RulesError(CobraRefusal.NOT_MECHANIZED)
    landing = army != "german" and turn is not None and turn <= LANDING_TURNS
    if landing and phase == "mechanized" and british_infantry:
        return MaStep("landing_infantry", thirds(printed, 1), "17.3.3b",
                      "British and Canadian infantry divisions move one third of their printed "
                      "MA in the Mechanized Movement Phase of GT 1 and 2")
    if landing:
        return MaStep("landing", half(printed), "17.3.3b",
                      "the Allies' printed MA is halved on GT 1 and 2")
    if phase == "mechanized" and british_infantry:
        return MaStep("british_infantry", thirds(printed, 2), "5.2c",
                      "British and Canadian infantry divisions move up to two thirds of their "
                      "printed MA in the Allied Mechanized Movement Phase")
    return MaStep("printed", printed, "", "the printed MA")


def weather_steps(ma: int, weather: Weather | None, after_exit: bool,
                  increase: int) -> tuple[list[MaStep], int]:
    """The German weather's thirds (5.3b, 5.3c) and the increase (5.3d) on `ma`: the steps,
    and the thirds the increase may still give."""
    if weather is None:
        raise RulesError(CobraRefusal.MA_NEEDS_WEATHER)
    off = THIRDS_OFF[weather]
    steps = [MaStep("weather", thirds(ma, 3 - off), "5.3b",
                    f"{weather.value}: " + ("the full MA" if not off else
                                            f"less {off} third{'s' if off > 1 else ''}, "
                                            f"rounded up"))]
    if after_exit:
        off = max(0, off - 1)
        steps.append(MaStep("after_exit", thirds(ma, 3 - off), "5.3c",
                            "the first German player turn after an Allied unit exited a map "
                            "edge: " + ("the full MA" if not off else "less one third")))
    if increase and not off:        # storms, or overcast in the turn after an exit (5.3c)
        raise RulesError(CobraRefusal.MA_ALREADY_FULL)
    if increase > off:
        raise RulesError(CobraRefusal.MA_INCREASE_TOO_MUCH, increase=increase, most=off)
    if increase:
        steps.append(MaStep("increase", thirds(ma, 3 - off + increase), "5.3d",
                            f"increased by {increase} third{'s' if increase > 1 else ''}: "
                            f"an air attack takes a step on 1-{AIR_RISK[increase]}, no "
                            f"overrun"))
    return steps, off - increase


def allowance(printed: int, army: str, *, phase: str = "initial", mechanized: bool = False,
              weather: Weather | None = None, out_of_supply: bool = False,
              after_exit: bool = False, replaced: bool = False, increase: int = 0,
              turn: int | None = None, division: bool = True, hq: bool = False,
              landed: bool = False) -> Allowance:
    """The MA of one unit in a Movement Phase. German units: the weather (5.3b), the first
    German player turn after an Allied exit (5.3c, `after_exit`), an increase of `increase`
    thirds (5.3d). Any unit: out of supply halved first (10.6, 5.3b), a replacement received
    halves it in the Initial Movement Phase (12.1b, 4.0). `division`: a British infantry unit
    is an infantry division (5.2c); False for another (a brigade, commandos). `hq`: an HQ,
    which moves in the Mechanized Movement Phase as a mechanized unit but never overruns
    (5.4). `landed`: an Allied unit landed this game turn, GT 1-14 of the campaign and the
    Build-Up (17.3.9)."""
    check_unit(printed, army, phase)
    mechanized = mechanized or hq
    german = army == "german"
    if increase and not german:
        raise RulesError(CobraRefusal.MA_INCREASE_GERMAN_ONLY)
    steps = [phase_step(printed, army, phase, mechanized, turn, division)]
    if landed:
        steps.append(landed_step(steps[-1].ma, army, turn))
    if out_of_supply:
        check_in_supply(turn)       # every unit in supply on GT 1 and 2 (17.3.6, 17.3.6d)
        steps.append(MaStep("out_of_supply", half(steps[-1].ma), "10.6, 5.3b",
                            "out of supply: halved first, rounded up"))
    most = 0
    if german:
        more, most = weather_steps(steps[-1].ma, weather, after_exit, increase)
        steps += more
    if replaced:
        steps.append(replaced_step(steps[-1].ma, phase))
    return Allowance(printed, army, phase, mechanized, weather, out_of_supply,
                     after_exit and german, replaced, increase, turn, tuple(steps), most,
                     AIR_RISK.get(increase, 0), hq, landed)


def landed_step(ma: int, army: str, turn: int | None) -> MaStep:
    """17.3.9 "From GT 1 through 14, Allied units land with only half of their MA available
    for use that turn": half the MA the phase gives, so on GT 1 and 2, where 17.3.3b has
    halved the printed MA already, a quarter of it (ceil(ceil(p/2)/2) is ceil(p/4): the same
    as rounding once). Only Allied units land, only on GT 1-14."""
    if army == "german" or (turn is not None and turn > LANDED_LAST):
        raise RulesError(CobraRefusal.LANDED_TURNS, last=LANDED_LAST)
    return MaStep("landed", half(ma), "17.3.9",
                  "landed this turn: half the MA, rounded up" +
                  (" (a quarter of the printed MA on GT 1 and 2)"
                   if turn is not None and turn <= LANDING_TURNS else ""))


def replaced_step(ma: int, phase: str) -> MaStep:
    """A unit that received a replacement moves half its current MA (12.1b) in the Initial
    Movement Phase that follows (4.0: "halve their MA in following Initial Movement Phase");
    not in the Mechanized Movement Phase."""
    if phase == "initial":
        return MaStep("replaced", half(ma), "12.1b",
                      "received a replacement: half the current MA, rounded up")
    return MaStep("replaced", ma, "12.1b, 4.0", "received a replacement: halved only in the "
                  "Initial Movement Phase", applied=False)


# ---- the air attack after an MA increase (5.3d) ----


@dataclass(frozen=True)
class AirAttack:
    """The die rolled when a unit that increased its MA completes its move (5.3d1)."""

    increase: int
    die: int
    risk: int
    lost: bool

    def to_dict(self) -> dict[str, Any]:
        return {"increase_thirds": self.increase, "die": self.die,
                "loses_on": list(range(1, self.risk + 1)), "step_lost": self.lost,
                "rule": "5.3d"}


def air_attack(increase: int, dice: Dice) -> AirAttack:
    """The German player's die for a unit that increased its MA by `increase` thirds: a step
    lost on 1-2 for one third (5.3d2), on 1-4 for two (5.3d3)."""
    if increase not in AIR_RISK:
        raise RulesError(CobraRefusal.MA_INCREASE_THIRDS, increase=increase)
    risk = AIR_RISK[increase]
    die = dice.roll(Need(Roller.AXIS, Aim.AIR_ATTACK, f"air attack, MA +{increase}/3"))
    return AirAttack(increase, die, risk, die <= risk)
