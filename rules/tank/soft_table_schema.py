"""The schema of a Soft Targets Table file: what each value may be.

Pydantic checks a table file's contents against it; the checked values become a plain
`rules.tank.soft_table.SoftTable` through its plain form (`SoftTable.from_plain`), the same way the
box builds a table from its snapshot of checked files. Only checking a file imports this module
(and pydantic); the field descriptions are what a problem with the file says is allowed.
"""
from __future__ import annotations

from itertools import pairwise
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..numbers import digits
from .soft_table import SITUATIONS, SoftTable, span

_MOD = "a whole number from -10 to +10, like -2"
_SOURCE = "text saying where the value comes from, like \"pistol example\""


class EntrySchema(BaseModel):
    """An entry of a table file: a modifier and where it comes from (rules Entry)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    modifier: int = Field(ge=-10, le=10, description=_MOD)
    source: str | None = Field(default=None, max_length=200, description=_SOURCE)

    @field_validator("modifier", mode="before")
    @classmethod
    def _signed(cls, value: Any) -> Any:
        if isinstance(value, str) and digits(value.strip().lstrip("+-")):
            return int(value.strip())
        return value


class RangeBandSchema(EntrySchema):
    """A range band of a weapon (rules RangeBand)."""

    from_cm: float = Field(ge=0, le=1000, description="cm, 0 to 1000")
    to_cm: float = Field(ge=0, le=1000, description="cm, 0 to 1000, not below from_cm")

    @property
    def span(self) -> str:
        return span(self.from_cm, self.to_cm)


class ToHitSchema(BaseModel):
    """A weapon's To hit of the Infantry Weapon Table (rules ToHit): a hand grenade's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    needs: int = Field(ge=1, le=6, description="the lowest face that hits, 1 to 6: 4 is 4-6")
    source: str | None = Field(default=None, max_length=200, description=_SOURCE)


class WeaponRowSchema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ranges: tuple[RangeBandSchema, ...] = Field(
        default=(), description="range bands: from_cm, to_cm, modifier, source")
    template: EntrySchema | None = Field(
        default=None, description="the template's modifier: modifier, source")
    to_hit: ToHitSchema | None = Field(
        default=None, description="a grenade's To hit: needs (1 to 6), source")

    @field_validator("ranges")
    @classmethod
    def _ordered(cls, bands: tuple[RangeBandSchema, ...]) -> tuple[RangeBandSchema, ...]:
        for band in bands:
            if band.to_cm < band.from_cm:
                raise ValueError(f"the band {band.span} ends before it starts")
        ordered = sorted(bands, key=lambda b: b.from_cm)
        for low, high in pairwise(ordered):
            if high.from_cm <= low.to_cm:
                raise ValueError(f"the bands {low.span} and {high.span} overlap")
        return bands


class SoftTableSchema(BaseModel):
    """What a Soft Targets Table file may hold (rules SoftTable)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    weapons: dict[str, WeaponRowSchema] = Field(
        default_factory=dict, description="a table per weapon name, like [weapons.rifle]")
    situations: dict[str, EntrySchema] = Field(
        default_factory=dict,
        description=f"a table per situation: {', '.join(SITUATIONS)}")

    @field_validator("weapons", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return {str(k).strip().lower(): v for k, v in value.items()} \
            if isinstance(value, dict) else value

    @field_validator("situations")
    @classmethod
    def _known(cls, value: dict[str, EntrySchema]) -> dict[str, EntrySchema]:
        for name in value:
            if name not in SITUATIONS:
                raise ValueError(f"{name!r} is not a situation; allowed: {', '.join(SITUATIONS)}")
        return value


def validated_table(data: Any) -> SoftTable:
    """The table of a table file's contents, or pydantic's ValidationError listing its
    problems."""
    dumped = SoftTableSchema.model_validate(data).model_dump(mode="json")
    for row in dumped["weapons"].values():
        if row["to_hit"] is None:        # a row without one is as it was before To hit
            del row["to_hit"]
    return SoftTable.from_plain(dumped)
