"""Cobra's weather: the column, the streak modifiers, the forced turns and what the weather
does (5.3, 11.0, 14.0).

`history` is the weather of the game turns just before the one being determined, oldest
first: its last entry is the turn before. Below a column's lowest row the roll reads as the
lowest row (the rules' example); above its highest, as the highest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..dice import Aim, Dice, Need, Roller
from ..errors import RulesError
from .movement import THIRDS_OFF
from .notes import Note, Why
from .tables import CobraTables, Weather

COLUMN_C_FROM = 20          # column C only, from this game turn (5.3a2)
STREAK = 3                  # three turns in a row start a modifier (5.3a3, 5.3a4)
FORCED_STORM_TURN = 6       # storms, if no storm came before (5.3 exception)


def parse_history(text: str) -> list[Weather]:
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    aliases = {"storms": "storm", "clouds": "overcast", "cloudy": "overcast"}
    try:
        return [Weather(aliases.get(w, w)) for w in words]
    except ValueError:
        bad = next(w for w in words if aliases.get(w, w) not in Weather.__members__.values())
        raise RulesError(CobraRefusal.UNKNOWN_WEATHER, weather=bad) from None


def forced(turn: int, history: list[Weather]) -> tuple[Weather, Note] | None:
    """Weather that is not rolled for, and why."""
    if turn == 1:
        return Weather.CLEAR, Note(Why.TURN_1_CLEAR)
    if turn == 2:
        return Weather.OVERCAST, Note(Why.TURN_2_OVERCAST)
    if len(history) >= STREAK and all(w == Weather.STORM for w in history[-STREAK:]):
        return Weather.OVERCAST, Note(Why.AFTER_THREE_STORMS)
    if turn == FORCED_STORM_TURN and Weather.STORM not in history:
        if len(history) < FORCED_STORM_TURN - 1:
            raise RulesError(CobraRefusal.WEATHER_HISTORY_NEEDED)
        return Weather.STORM, Note(Why.TURN_6_STORMS)
    return None


def column(turn: int, history: list[Weather]) -> tuple[str, str]:
    if turn >= COLUMN_C_FROM:
        return "C", f"from game turn {COLUMN_C_FROM} only column C is used (5.3a2)"
    if len(history) >= 2 and history[-1] == history[-2] == Weather.STORM:
        return "B", "the two turns before were storms: column B (5.3a1)"
    return "A", "column A (5.3a1)"


def modifier(history: list[Weather]) -> tuple[int, str]:
    """The streak DRM: three clear turns in a row give −1, three non-clear +1, growing by one
    each further turn the weather stays that way (5.3a3, 5.3a4)."""
    if not history:
        return 0, "no modifier"
    clear = history[-1] == Weather.CLEAR
    run = 0
    for weather in reversed(history):
        if (weather == Weather.CLEAR) != clear:
            break
        run += 1
    if run < STREAK:
        return 0, "no modifier: fewer than three turns of the same weather"
    size = run - STREAK + 1
    kind = "clear" if clear else "non-clear"
    return (-size if clear else size), f"{run} {kind} turns in a row: {'-' if clear else '+'}" \
        f"{size} ({'5.3a3' if clear else '5.3a4'})"


def read(tables: CobraTables | None, column_name: str, modified: int) -> tuple[int, Weather | None]:
    """The row the modified roll reads on (clamped to the column's rows) and its weather,
    or None where the owner's table has no value there."""
    spans = tables.weather_rows(column_name) if tables else []
    if not spans:
        return modified, None
    low, high = spans[0][0], spans[-1][1]
    row = min(max(modified, low), high)
    for first, last, weather in spans:
        if first <= row <= last:
            return row, weather
    return row, None


@dataclass(frozen=True)
class WeatherRoll:
    """A turn's weather: the column, the roll and its modifier, and the weather it gives."""

    turn: int
    column: str
    column_note: str
    forced_note: str          # why it was not rolled, or ""
    die: int | None
    modifier: int
    modifier_note: str
    modified: int | None
    row: int | None           # the row read (the lowest or highest where the roll is beyond)
    weather: Weather | None   # None: read the printed table and tell the box
    forced: Note | None = None   # why it was not rolled, typed

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "column": self.column, "column_note": self.column_note,
                "forced": self.forced_note or None, "die": self.die,
                "modifier": self.modifier, "modifier_note": self.modifier_note,
                "modified": self.modified, "row": self.row,
                "weather": self.weather.value if self.weather else None,
                "effects": effects(self.weather, self.turn) if self.weather else None}


def determine(turn: int, history: list[Weather], dice: Dice,
              tables: CobraTables | None = None) -> WeatherRoll:
    if not 1 <= turn <= 28:
        raise RulesError(CobraRefusal.TURN_OUT_OF_RANGE, turn=turn, last=28)
    if len(history) >= turn:
        raise RulesError(CobraRefusal.WEATHER_HISTORY_LONG, turn=turn, before=turn - 1,
                         named=len(history))
    name, column_note = column(turn, history)
    drm, drm_note = modifier(history)
    fixed = forced(turn, history)
    if fixed is not None:
        return WeatherRoll(turn, name, column_note, fixed[1].text, None, drm, drm_note, None,
                           None, fixed[0], fixed[1])
    # The German player rolls for the weather at the start of each German player turn.
    die = dice.roll(Need(Roller.AXIS, Aim.WEATHER, f"weather, game turn {turn}"))
    row, weather = read(tables, name, die + drm)
    return WeatherRoll(turn, name, column_note, "", die, drm, drm_note, die + drm, row,
                       weather)


# ---- what the weather does ----

# The German MA in each weather as the weather screen says it; the MA itself: movement.py.
GERMAN_MA = {w: f"-{off}/3" if off else "full" for w, off in THIRDS_OFF.items()}
AIR_POINTS = {Weather.CLEAR: 6, Weather.OVERCAST: 3, Weather.STORM: 0}
GERMAN_SUPPLY = {Weather.CLEAR: 1, Weather.OVERCAST: 2, Weather.STORM: 3}


NO_AIR_TURN = 1             # "The Allied player receives no AP on GT 1" (17.3.10)
CARPET_FROM = 5             # the first game turn of carpet bombing (14.3f)
# The naval support points of each game turn (14.4): GT 1 none, GT 2-3 six, GT 4-10 three,
# GT 11-27 two. The list ends at 27: the campaign's GT 28 (17.3a) is read as having none,
# one of the turns "most game turns" leaves out.
NAVAL_POINTS = ((1, 0), (2, 6), (4, 3), (11, 2), (28, 0))


def air_points(weather: Weather | None, turn: int | None = None) -> int:
    """The Allied air points of a game turn: 6 clear, 3 overcast, none in storms (14.0);
    none on game turn 1 (17.3.10); none while the weather is not known."""
    if weather is None or turn == NO_AIR_TURN:
        return 0
    return AIR_POINTS[weather]


def naval_points(turn: int, weather: Weather | None = None) -> int:
    """The naval support points of game turn `turn` (14.4), at most one used in storms."""
    points = [n for first, n in NAVAL_POINTS if first <= turn][-1]
    return min(points, 1) if weather == Weather.STORM else points


def effects(weather: Weather, turn: int | None = None) -> dict[str, Any]:
    """What the weather of game turn `turn` (where known) does: the German movement, the
    Allied air and naval points, the German supply points, carpet bombing."""
    carpet = weather == Weather.CLEAR and (turn is None or turn >= CARPET_FROM)
    return {"german_ma": GERMAN_MA[weather], "german_ma_rule": "5.3b",
            "allied_air_points": air_points(weather, turn),
            "air_rule": "17.3.10" if turn == NO_AIR_TURN else "14.0",
            "german_supply_points": GERMAN_SUPPLY[weather], "supply_rule": "11.0d",
            "naval_points_max": 1 if weather == Weather.STORM else None,
            "naval_points": naval_points(turn, weather) if turn is not None else None,
            "carpet_bombing": carpet}

