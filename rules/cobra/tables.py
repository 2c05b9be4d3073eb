"""Cobra's printed tables, as the owner copies them from map A: the Combat Results Table, the
Weather Table and the terrain shifts of the Terrain Effects Chart.

The rules booklet does not print these tables' values; the shipped file is an empty template.
A cell left empty is not an error: the box then shows the column (or row) and the die, and the
player reads their own printed table.
"""
from __future__ import annotations

import re
from enum import StrEnum
from itertools import pairwise
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from ..errors import Refusal, RulesError
from ..numbers import digits

# The CRT's odds columns, left to right: 1:5 and 10:1 are the extremes (8.3.2c).
COLUMNS = ("1:5", "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1",
           "9:1", "10:1")
DIE_FACES = 6
WEATHER_COLUMNS = ("A", "B", "C")
_SIDE = r"(-|e|[1-9])"
_CELL = re.compile(rf"^{_SIDE}/{_SIDE}$|^e$")
CELL_HELP = ('"attacker/defender", each side "-" (no effect), "e" (all steps lost) or steps '
             '1 to 9, like "1/2" or "-/3"; a lone "e" is "e/-"; "" while not filled in')
_ROW = re.compile(r"^(-?\d+)(?:\s*(?:-|to)\s*(-?\d+))?$")
ROW_HELP = 'a modified die roll like "3", or a range like "1-2"'


class Weather(StrEnum):
    CLEAR = "clear"
    OVERCAST = "overcast"
    STORM = "storm"


class Loss(BaseModel):
    """One side's part of a CRT result."""

    model_config = ConfigDict(frozen=True)

    text: str                  # as printed: "-", "e" or a number
    eliminated: bool = False   # "e": every step lost, no retreat allowed (8.6a)
    steps: int = 0             # steps to lose and/or hexes to retreat (8.6b)


class Result(BaseModel):
    """A CRT cell: the attacker's result, then the defender's (8.6c)."""

    model_config = ConfigDict(frozen=True)

    text: str
    attacker: Loss
    defender: Loss

    @property
    def split(self) -> bool:
        """Both sides take a result: the attacker takes his first (8.6c)."""
        return _hurts(self.attacker) and _hurts(self.defender)


def _hurts(loss: Loss) -> bool:
    return loss.eliminated or loss.steps > 0


def _loss(text: str) -> Loss:
    return Loss(text=text, eliminated=text == "e", steps=int(text) if digits(text) else 0)


def parse_cell(text: str) -> Result:
    cell = text.strip().lower()
    if not _CELL.match(cell):
        raise ValueError(f"{text!r} is not a CRT result; allowed: {CELL_HELP}")
    attacker, defender = ("e", "-") if cell == "e" else cell.split("/")
    return Result(text=cell, attacker=_loss(attacker), defender=_loss(defender))


def row_range(key: str) -> tuple[int, int]:
    match = _ROW.match(key.strip())
    if not match:
        raise ValueError(f"row {key!r}: allowed: {ROW_HELP}")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if high < low:
        raise ValueError(f"row {key!r}: the range must go from low to high")
    return low, high


def _weather(value: str, where: str) -> Weather | None:
    word = value.strip().lower() if isinstance(value, str) else value
    if not word:
        return None
    try:
        return Weather(word)
    except ValueError:
        raise ValueError(f"{where}: {value!r}; allowed: clear, overcast, storm, or \"\" while "
                         f"not filled in") from None


def _spans(column: str, rows: dict[str, str]) -> list[tuple[int, int, Weather | None]]:
    spans = sorted((*row_range(key), _weather(value, f"column {column}, row {key}"))
                   for key, value in rows.items())
    for (_, high, _), (low, _, _) in pairwise(spans):
        if low <= high:
            raise ValueError(f"column {column}: rows overlap; each modified die roll may "
                             f"appear once")
    return spans


def _column_problems(column: str, cells: list[str]) -> list[str]:
    if column not in COLUMNS:
        return [f"column {column!r} is not a CRT column; allowed: {', '.join(COLUMNS)}"]
    if len(cells) != DIE_FACES:
        return [f"column {column}: {len(cells)} cells; allowed: exactly {DIE_FACES}, for die "
                f"1 to {DIE_FACES}"]
    problems = []
    for die, cell in enumerate(cells, 1):
        try:
            if cell.strip():
                parse_cell(cell)
        except ValueError as exc:
            problems.append(f"column {column}, die {die}: {exc}")
    return problems


class CobraTables(BaseModel):
    """The owner's copy of map A's tables; every section and cell may be left empty."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    crt: dict[str, list[str]] = Field(default_factory=dict, description=(
        f"one entry per odds column ({', '.join(COLUMNS)}), each a list of {DIE_FACES} "
        f"cells for die 1 to {DIE_FACES}; a cell is {CELL_HELP}"))
    weather: dict[str, dict[str, str]] = Field(default_factory=dict, description=(
        "columns A, B and C, each with rows: modified die roll (\"3\" or \"1-2\") → "
        "clear, overcast, storm, or \"\" while not filled in"))
    terrain: dict[str, int] = Field(default_factory=dict, description=(
        "terrain name → its column shift for the defender, 0 to -5, like town = -1"))
    _source: str = PrivateAttr(default="")

    @field_validator("crt")
    @classmethod
    def _crt(cls, crt: dict[str, list[str]]) -> dict[str, list[str]]:
        problems = [p for column, cells in crt.items() for p in _column_problems(column, cells)]
        if problems:
            raise ValueError("; ".join(problems))
        return crt

    @field_validator("weather")
    @classmethod
    def _weather(cls, weather: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        problems = []
        for name, rows in weather.items():
            if name not in WEATHER_COLUMNS:
                problems.append(f"weather column {name!r}; allowed: A, B, C")
                continue
            try:
                _spans(name, rows)
            except ValueError as exc:
                problems.append(str(exc))
        if problems:
            raise ValueError("; ".join(problems))
        return weather

    @field_validator("terrain")
    @classmethod
    def _terrain(cls, terrain: dict[str, int]) -> dict[str, int]:
        problems = [f"terrain {name!r}: {shift}; allowed: a shift from 0 to -5 (defensive "
                    f"benefits shift left, 8.3.2)" for name, shift in terrain.items()
                    if not -5 <= shift <= 0]
        if problems:
            raise ValueError("; ".join(problems))
        return terrain

    def with_source(self, source: str) -> Self:
        self._source = source
        return self

    @property
    def source(self) -> str:
        return self._source or "the Cobra tables file"

    def result(self, column: str, die: int) -> Result | None:
        """The CRT cell, or None while the owner has not filled it in."""
        cells = self.crt.get(column)
        cell = cells[die - 1].strip() if cells else ""
        return parse_cell(cell) if cell else None

    def filled(self) -> int:
        return sum(1 for cells in self.crt.values() for cell in cells if cell.strip())

    def weather_rows(self, column: str) -> list[tuple[int, int, Weather | None]]:
        return _spans(column, self.weather[column]) if column in self.weather else []

    def terrain_shift(self, name: str) -> int:
        key = name.strip().lower().replace(" ", "-").replace("_", "-")
        shifts = {k.lower().replace("_", "-").replace(" ", "-"): v
                  for k, v in self.terrain.items()}
        if key not in shifts:
            known = ", ".join(sorted(shifts)) or "none yet"
            raise RulesError(f"no terrain {name!r} in {self.source}: add it under [terrain] "
                             f"with its shift from your Terrain Effects Chart (known: {known})",
                             Refusal.NO_TERRAIN, terrain=name, known=tuple(sorted(shifts)))
        return shifts[key]
