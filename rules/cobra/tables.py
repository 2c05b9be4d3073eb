"""Cobra's printed tables, as the owner copies them from the maps: the Combat Results Table, the
Weather Table, the terrain shifts of the Terrain Effects Chart and map B's Scatter Diagram.

The rules booklet does not print these tables' values; the shipped file is an empty template.
A cell left empty is not an error: the box then shows the column (or row) and the die, and the
player reads their own printed table.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import pairwise
from typing import Any

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
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


class Direction(StrEnum):
    """The six sides of a hex, as the Scatter Diagram names them (17.3.2 step 2c: "a result of
    4 would require that the unit be moved one hex south")."""

    NORTH = "north"
    NORTHEAST = "northeast"
    SOUTHEAST = "southeast"
    SOUTH = "south"
    SOUTHWEST = "southwest"
    NORTHWEST = "northwest"


SCATTER_HELP = ('die faces "1" to "6", each a direction: ' +
                ", ".join(d.value for d in Direction) +
                ' (each once), or "" while not filled in')


def scatter_problems(diagram: Mapping[str, str]) -> list[str]:
    """What is wrong with a Scatter Diagram: faces 1 to 6, six directions, each once."""
    problems = []
    seen: dict[str, str] = {}
    for face, value in diagram.items():
        word = value.strip().lower()
        if face.strip() not in {str(f) for f in range(1, DIE_FACES + 1)}:
            problems.append(f"scatter die {named(face)}; allowed: {SCATTER_HELP}")
        elif word and word not in Direction.__members__.values():
            problems.append(f"scatter die {face}: {value!r}; allowed: {SCATTER_HELP}")
        elif word in seen:
            problems.append(f"scatter die {face}: {word} is die {seen[word]}'s already; "
                            f"allowed: {SCATTER_HELP}")
        elif word:
            seen[word] = face
    return problems


class Weather(StrEnum):
    CLEAR = "clear"
    OVERCAST = "overcast"
    STORM = "storm"


@dataclass(frozen=True, kw_only=True)
class Loss:
    """One side's part of a CRT result."""

    text: str                  # as printed: "-", "e" or a number
    eliminated: bool = False   # "e": every step lost, no retreat allowed (8.6a)
    steps: int = 0             # steps to lose and/or hexes to retreat (8.6b)


@dataclass(frozen=True, kw_only=True)
class Result:
    """A CRT cell: the attacker's result, then the defender's (8.6c)."""

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


def weather_spans(column: str, rows: dict[str, str]) -> list[tuple[int, int, Weather | None]]:
    spans = sorted((*row_range(key), _weather(value, f"column {column}, row {key}"))
                   for key, value in rows.items())
    for (_, high, _), (low, _, _) in pairwise(spans):
        if low <= high:
            raise ValueError(f"column {column}: rows overlap; each modified die roll may "
                             f"appear once")
    return spans


# A key of a tables file a message names is cut to this many characters (a key may be of any
# length in the file; the message is shown on the panel).
KEY_SHOWN = 40


def named(key: object) -> str:
    """A key of a tables file as a message shows it: quoted, cut to KEY_SHOWN characters."""
    shown = repr(key)
    return shown if len(shown) <= KEY_SHOWN else shown[:KEY_SHOWN - 1] + "…"


def column_problems(column: str, cells: list[str]) -> list[str]:
    if column not in COLUMNS:
        return [f"column {named(column)} is not a CRT column; allowed: {', '.join(COLUMNS)}"]
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


@dataclass(frozen=True, kw_only=True)
class CobraTables:
    """The owner's copy of map A's tables; every section and cell may be left empty.

    Plain data: a tables file is checked by the schema in `tables_schema.py` (pydantic,
    imported only to check a file), and its checked values become the tables through their
    plain form (`from_plain`), as the box's snapshot of checked files builds them."""

    crt: dict[str, list[str]] = field(default_factory=dict)
    weather: dict[str, dict[str, str]] = field(default_factory=dict)
    terrain: dict[str, int] = field(default_factory=dict)
    scatter: dict[str, str] = field(default_factory=dict)     # die face → direction or ""
    file: str = ""                  # where they were read from ('' for none)

    def to_plain(self) -> dict[str, Any]:
        """The tables as JSON data (not the file they came from)."""
        return {"crt": self.crt, "weather": self.weather, "terrain": self.terrain,
                "scatter": self.scatter}

    @classmethod
    def from_plain(cls, data: Mapping[str, Any], source: str = "") -> CobraTables:
        """The tables of `to_plain`'s data, as they were checked: nothing is checked here."""
        # a snapshot of checked files made before the Scatter Diagram was kept has none
        return cls(crt=dict(data["crt"]), weather=dict(data["weather"]),
                   terrain=dict(data["terrain"]), scatter=dict(data.get("scatter", {})),
                   file=source)

    def with_source(self, source: str) -> CobraTables:
        return replace(self, file=source)

    @property
    def source(self) -> str:
        return self.file or "the Cobra tables file"

    def result(self, column: str, die: int) -> Result | None:
        """The CRT cell, or None while the owner has not filled it in."""
        cells = self.crt.get(column)
        cell = cells[die - 1].strip() if cells else ""
        return parse_cell(cell) if cell else None

    def scatter_direction(self, die: int) -> Direction | None:
        """The Scatter Diagram's direction for `die`, or None while the owner has not filled
        it in (17.3.2 step 2c)."""
        word = self.scatter.get(str(die), "").strip().lower()
        return Direction(word) if word else None

    def filled(self) -> int:
        return sum(1 for cells in self.crt.values() for cell in cells if cell.strip())

    def weather_rows(self, column: str) -> list[tuple[int, int, Weather | None]]:
        return weather_spans(column, self.weather[column]) if column in self.weather else []

    def terrain_shift(self, name: str) -> int:
        key = name.strip().lower().replace(" ", "-").replace("_", "-")
        shifts = {k.lower().replace("_", "-").replace(" ", "-"): v
                  for k, v in self.terrain.items()}
        if key not in shifts:
            raise RulesError(CobraRefusal.NO_TERRAIN, terrain=name, known=tuple(sorted(shifts)))
        return shifts[key]
