"""The schema of a Cobra tables file (cobra/tables.toml in a cards folder): what each section may
hold.

Pydantic checks a file's contents against it; the checked values become plain
`rules.cobra.tables.CobraTables` through their plain form, the same way the box builds them
from its snapshot of checked files. Only checking a file imports this module (and pydantic).
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .tables import (
    CELL_HELP,
    COLUMNS,
    DIE_FACES,
    SCATTER_HELP,
    WEATHER_COLUMNS,
    CobraTables,
    column_problems,
    named,
    scatter_problems,
    weather_spans,
)

TERRAIN_NAME = 40        # letters of a terrain's name at most


class TablesSchema(BaseModel):
    """What a Cobra tables file may hold (rules CobraTables)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    crt: dict[str, list[str]] = Field(default_factory=dict, description=(
        f"one entry per odds column ({', '.join(COLUMNS)}), each a list of {DIE_FACES} "
        f"cells for die 1 to {DIE_FACES}; a cell is {CELL_HELP}"))
    weather: dict[str, dict[str, str]] = Field(default_factory=dict, description=(
        "columns A, B and C, each with rows: modified die roll (\"3\" or \"1-2\") → "
        "clear, overcast, storm, or \"\" while not filled in"))
    terrain: dict[str, int] = Field(default_factory=dict, description=(
        "terrain name (at most 40 letters) → its column shift for the defender, 0 to -5, "
        "like town = -1"))
    scatter: dict[str, str] = Field(default_factory=dict, description=(
        f"map B's Scatter Diagram (17.3.2 step 2c): {SCATTER_HELP}"))

    @field_validator("scatter")
    @classmethod
    def _scatter(cls, scatter: dict[str, str]) -> dict[str, str]:
        problems = scatter_problems(scatter)
        if problems:
            raise ValueError("; ".join(problems))
        return scatter

    @field_validator("crt")
    @classmethod
    def _crt(cls, crt: dict[str, list[str]]) -> dict[str, list[str]]:
        problems = [p for column, cells in crt.items() for p in column_problems(column, cells)]
        if problems:
            raise ValueError("; ".join(problems))
        return crt

    @field_validator("weather")
    @classmethod
    def _weather(cls, weather: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        problems = []
        for name, rows in weather.items():
            if name not in WEATHER_COLUMNS:
                problems.append(f"weather column {named(name)}; allowed: A, B, C")
                continue
            try:
                weather_spans(name, rows)
            except ValueError as exc:
                problems.append(str(exc))
        if problems:
            raise ValueError("; ".join(problems))
        return weather

    @field_validator("terrain")
    @classmethod
    def _terrain(cls, terrain: dict[str, int]) -> dict[str, int]:
        problems = [f"terrain {named(name)}: {shift}; allowed: a shift from 0 to -5 (defensive "
                    f"benefits shift left, 8.3.2)" for name, shift in terrain.items()
                    if not -5 <= shift <= 0]
        problems += [f"terrain {named(name)}: a name of {len(name)} letters; allowed: a name "
                     f"of at most {TERRAIN_NAME} letters" for name in terrain
                     if len(name) > TERRAIN_NAME]
        if problems:
            raise ValueError("; ".join(problems))
        return terrain


def validated_tables(data: Any) -> CobraTables:
    """The tables of a file's contents, or pydantic's ValidationError listing the problems."""
    return CobraTables.from_plain(TablesSchema.model_validate(data).model_dump(mode="json"))
