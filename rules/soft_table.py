"""The Soft Targets Table: the modifiers of fire at figures, guns and soft vehicles.

The table itself is not printed in the rules; an owner fills it in as a data file. Each value
says where it came from (`source`): the shipped file holds only the values the rules' worked
examples show. A rule that needs a value the table does not hold refuses, naming the table's
file and the entry to add.
"""
from __future__ import annotations

from itertools import pairwise
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from .errors import Refusal, RulesError, Value
from .trace import Modifier

# The situations of a target that change the attacker's roll, and how a screen says them.
SITUATIONS = {
    "soft_vehicle": "in a soft vehicle",
    "soft_cover": "in soft cover",
    "hard_cover": "in hard cover",
}

_MOD = "a whole number from -10 to +10, like -2"
_SOURCE = "text saying where the value comes from, like \"pistol example\""


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    modifier: int = Field(ge=-10, le=10, description=_MOD)
    source: str | None = Field(default=None, max_length=200, description=_SOURCE)

    @field_validator("modifier", mode="before")
    @classmethod
    def _signed(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value.strip())
        return value


class RangeBand(Entry):
    """A modifier for ranges from `from_cm` to `to_cm`, both included."""

    from_cm: float = Field(ge=0, le=1000, description="cm, 0 to 1000")
    to_cm: float = Field(ge=0, le=1000, description="cm, 0 to 1000, not below from_cm")

    def holds(self, cm: float) -> bool:
        return self.from_cm <= cm <= self.to_cm

    @property
    def span(self) -> str:
        low, high = f"{self.from_cm:g}", f"{self.to_cm:g}"
        return f"{low} cm" if low == high else f"{low}-{high} cm"


class WeaponRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ranges: tuple[RangeBand, ...] = Field(
        default=(), description="range bands: from_cm, to_cm, modifier, source")
    template: Entry | None = Field(
        default=None, description="the template's modifier: modifier, source")

    @field_validator("ranges")
    @classmethod
    def _ordered(cls, bands: tuple[RangeBand, ...]) -> tuple[RangeBand, ...]:
        for band in bands:
            if band.to_cm < band.from_cm:
                raise ValueError(f"the band {band.span} ends before it starts")
        ordered = sorted(bands, key=lambda b: b.from_cm)
        for low, high in pairwise(ordered):
            if high.from_cm <= low.to_cm:
                raise ValueError(f"the bands {low.span} and {high.span} overlap")
        return bands


class SoftTable(BaseModel):
    """Weapons by name (lower case) and the target situations."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    weapons: dict[str, WeaponRow] = Field(
        default_factory=dict, description="a table per weapon name, like [weapons.rifle]")
    situations: dict[str, Entry] = Field(
        default_factory=dict,
        description=f"a table per situation: {', '.join(SITUATIONS)}")

    _source: str = PrivateAttr(default="")

    @field_validator("weapons", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return {str(k).strip().lower(): v for k, v in value.items()} \
            if isinstance(value, dict) else value

    @field_validator("situations")
    @classmethod
    def _known(cls, value: dict[str, Entry]) -> dict[str, Entry]:
        for name in value:
            if name not in SITUATIONS:
                raise ValueError(f"{name!r} is not a situation; allowed: {', '.join(SITUATIONS)}")
        return value

    @property
    def source(self) -> str:
        return self._source

    def with_source(self, source: str) -> Self:
        self._source = source
        return self

    def _missing(self, what: str, code: Refusal, **values: Value) -> RulesError:
        where = f" ({self.source})" if self.source else ""
        return RulesError(f"the Soft Targets Table{where} has no {what}: add it from your "
                          f"printed table", code, **values)

    def row(self, weapon: str) -> WeaponRow:
        row = self.weapons.get(weapon.lower())
        if row is None:
            raise self._missing(f"row for {weapon}", Refusal.TABLE_NO_ROW, weapon=weapon,
                                source=self.source)
        return row

    def range_modifier(self, weapon: str, cm: float | None) -> Modifier:
        """A weapon fired without a template: the modifier of the band holding the range."""
        row = self.row(weapon)
        if cm is None:
            raise RulesError(f"a {weapon} shot needs the range in cm for the Soft Targets Table",
                             Refusal.RANGE_NEEDED, weapon=weapon)
        for band in row.ranges:
            if band.holds(cm):
                return Modifier(_reason(f"{weapon} at {cm:g} cm", band), band.modifier)
        if not row.ranges:
            raise self._missing(f"{weapon} value for {cm:g} cm (it has no ranges)",
                                Refusal.TABLE_NO_RANGES, weapon=weapon, cm=cm,
                                source=self.source)
        known = ", ".join(b.span for b in row.ranges)
        raise self._missing(f"{weapon} value for {cm:g} cm (it has {known})",
                            Refusal.TABLE_NO_RANGE, weapon=weapon, cm=cm,
                            bands=tuple(b.span for b in row.ranges), source=self.source)

    def template_modifier(self, weapon: str) -> Modifier:
        entry = self.row(weapon).template
        if entry is None:
            raise self._missing(f"template modifier for {weapon}", Refusal.TABLE_NO_TEMPLATE,
                                weapon=weapon, source=self.source)
        return Modifier(_reason(f"{weapon} template", entry), entry.modifier)

    def situation_modifier(self, situation: str) -> Modifier:
        if situation not in SITUATIONS:
            raise RulesError(f"unknown situation {situation!r}: allowed are "
                             f"{', '.join(SITUATIONS)}",
                             Refusal.UNKNOWN_SITUATION, situation=situation,
                             choices=tuple(SITUATIONS))
        entry = self.situations.get(situation)
        if entry is None:
            raise self._missing(f"value for a target {SITUATIONS[situation]}",
                                Refusal.TABLE_NO_SITUATION, situation=situation,
                                source=self.source)
        return Modifier(_reason(SITUATIONS[situation], entry), entry.modifier)


def _reason(what: str, entry: Entry) -> str:
    return f"{what} ({entry.source})" if entry.source else what
