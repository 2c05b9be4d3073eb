"""The Soft Targets Table: the modifiers of fire at figures, guns and soft vehicles.

The table itself is not printed in the rules; an owner fills it in as a data file. Each value
says where it came from (`source`): the shipped file holds only the values the rules' worked
examples show. A rule that needs a value the table does not hold refuses, naming the table's
file and the entry to add; the refusal carries the value wanted (`Wanted`), so that a box can
ask the players for it instead.

Values the players read from their printed table at the table are a second table *under* the
owner's (`with_learned`): they fill only what the owner's table lacks, range by range, and a
value of the owner's always wins.

The companion's own estimate of the whole table ("our table", `with_estimate`) is a third
table, read only when the players chose it (house rule soft_table = estimate, `reading`): then
a value comes from the owner's table, else the estimate, else the values learned at the table
(which the estimate leaves to weapons it does not name). With "your table" the estimate is not
read at all.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from cobi_companion.rules.tank.refusals import TankRefusal

from ..card import DieRange
from ..english import Word
from ..errors import RulesError, Value
from ..modifier import Modifier
from .situations import SITUATIONS as SITUATIONS  # the table's rows: imported from here too


class Lack(StrEnum):
    """The kinds of value a shot may need from the table."""

    RANGE = "range"            # a weapon without a template: the band holding the range
    TEMPLATE = "template"      # a template weapon's modifier at each piece it covers
    SITUATION = "situation"    # the target's situation (soft cover, ...)
    TO_HIT = "to_hit"          # a grenade's To hit (the Infantry Weapon Table's, not printed)


@dataclass(frozen=True)
class Wanted:
    """A value a shot needs that the table does not hold: what to ask the players for."""

    lack: Lack
    weapon: str = ""            # RANGE and TEMPLATE: the weapon, as its card names it
    cm: float | None = None     # RANGE: the shot's range
    situation: str = ""         # SITUATION: one of SITUATIONS

    @property
    def words(self) -> str:
        if self.lack is Lack.RANGE:
            return f"{self.weapon} value for {self.cm:g} cm"
        if self.lack is Lack.TEMPLATE:
            return f"template modifier for {self.weapon}"
        if self.lack is Lack.TO_HIT:
            return f"To hit for {self.weapon}"
        return f"value for a target {SITUATIONS[self.situation]}"


class MissingValue(RulesError):
    """The table has no value the shot needs: `wanted` says which, for a box to ask for."""

    def __init__(self, code: TankRefusal, wanted: Wanted, **values: Value) -> None:
        super().__init__(code, **values)
        self.wanted = wanted


class BandOverlap(RulesError):
    """A new range band would overlap `band`, one the weapon already has."""

    def __init__(self, code: TankRefusal, band: RangeBand, **values: Value) -> None:
        super().__init__(code, **values)
        self.band = band


def span(from_cm: float, to_cm: float) -> str:
    """A range band as a screen says it: "20-40 cm", or "30 cm" for a single range."""
    low, high = f"{from_cm:g}", f"{to_cm:g}"
    return f"{low} cm" if low == high else f"{low}-{high} cm"


@dataclass(frozen=True, kw_only=True)
class Entry:
    """A modifier, and where it comes from (like "pistol example")."""

    modifier: int
    source: str | None = None

    def to_plain(self) -> dict[str, Any]:
        return {"modifier": self.modifier, "source": self.source}


@dataclass(frozen=True, kw_only=True)
class RangeBand(Entry):
    """A modifier for ranges from `from_cm` to `to_cm`, both included."""

    from_cm: float
    to_cm: float

    def holds(self, cm: float) -> bool:
        return self.from_cm <= cm <= self.to_cm

    @property
    def span(self) -> str:
        return span(self.from_cm, self.to_cm)

    def to_plain(self) -> dict[str, Any]:
        return {**super().to_plain(), "from_cm": self.from_cm, "to_cm": self.to_cm}


@dataclass(frozen=True, kw_only=True)
class ToHit:
    """A weapon's "To hit" of the Infantry Weapon Table (a hand grenade's): the lowest face
    of a D6 that hits, and where it comes from. The rules name that table and never print
    it; a table file keeps it in the weapon's row."""

    needs: int
    source: str | None = None

    @property
    def faces(self) -> DieRange:
        return DieRange(self.needs)

    def to_plain(self) -> dict[str, Any]:
        return {"needs": self.needs, "source": self.source}


@dataclass(frozen=True, kw_only=True)
class WeaponRow:
    """A weapon's row of the Soft Targets Table: its range bands, its template's modifier,
    and (a grenade) its To hit."""

    ranges: tuple[RangeBand, ...] = ()
    template: Entry | None = None
    to_hit: ToHit | None = None

    def to_plain(self) -> dict[str, Any]:
        plain = {"ranges": [band.to_plain() for band in self.ranges],
                 "template": None if self.template is None else self.template.to_plain()}
        if self.to_hit is not None:      # kept out otherwise: older snapshots stay the same
            plain["to_hit"] = self.to_hit.to_plain()
        return plain

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> WeaponRow:
        template, to_hit = data["template"], data.get("to_hit")
        return cls(ranges=tuple(RangeBand(**band) for band in data["ranges"]),
                   template=None if template is None else Entry(**template),
                   to_hit=None if to_hit is None else ToHit(**to_hit))


@dataclass(frozen=True, kw_only=True)
class SoftTable:
    """Weapons by name (lower case) and the target situations; the values learned at the table
    under them (`under`, see `with_learned`); the companion's estimate, read only `estimating`
    (see `reading`); the file it was read from (`source`).

    Plain data: a table file is checked by the schema in `soft_table_schema.py` (pydantic,
    imported only to check a file), and its checked values become a table through their plain
    form (`from_plain`), as the box's snapshot of checked files builds it."""

    weapons: dict[str, WeaponRow] = field(default_factory=dict)
    situations: dict[str, Entry] = field(default_factory=dict)
    source: str = ""
    under: SoftTable | None = None
    estimate: SoftTable | None = None      # the companion's estimate ("our table")
    estimating: bool = False               # read the estimate, between own and learned

    def to_plain(self) -> dict[str, Any]:
        """The table's own values as JSON data (not its source, nor the learned values)."""
        return {"weapons": {name: row.to_plain() for name, row in self.weapons.items()},
                "situations": {name: entry.to_plain()
                               for name, entry in self.situations.items()}}

    @classmethod
    def from_plain(cls, data: Mapping[str, Any], source: str = "") -> SoftTable:
        """The table of `to_plain`'s data, as it was checked: nothing is checked here."""
        return cls(weapons={name: WeaponRow.from_plain(row)
                            for name, row in data["weapons"].items()},
                   situations={name: Entry(**entry)
                               for name, entry in data["situations"].items()},
                   source=source)

    def with_source(self, source: str) -> SoftTable:
        return replace(self, source=source)

    @property
    def learned(self) -> SoftTable:
        """The values learned at the table, under this table's own (an empty table if none)."""
        return self.under if self.under is not None else SoftTable()

    def with_learned(self, learned: SoftTable) -> SoftTable:
        """This table with `learned` under it, in place of the learned values it had."""
        return replace(self, under=learned)

    def with_estimate(self, estimate: SoftTable) -> SoftTable:
        """This table with the companion's estimate of the whole table kept beside it."""
        return replace(self, estimate=estimate)

    def reading(self, estimate: bool) -> SoftTable:
        """This table as a fire reads it: with `estimate` (our table) the estimate fills what
        the owner's table lacks, before any value learned at the table; without it (your
        table) only the owner's and the learned values count."""
        return self if self.estimating == estimate else replace(self, estimating=estimate)

    def _layers(self) -> tuple[SoftTable, ...]:
        layers = [self]
        if self.estimating and self.estimate is not None:
            layers.append(self.estimate)
        if self.under is not None:
            layers.append(self.under)
        return tuple(layers)

    def _rows(self, weapon: str) -> list[WeaponRow]:
        return [row for layer in self._layers()
                if (row := layer.weapons.get(weapon.lower())) is not None]

    def bands(self, weapon: str) -> tuple[RangeBand, ...]:
        """The weapon's range bands, its own and learned, by where they start."""
        return tuple(sorted((band for row in self._rows(weapon) for band in row.ranges),
                            key=lambda b: b.from_cm))

    def range_modifier(self, weapon: str, cm: float | None) -> Modifier:
        """A weapon fired without a template: the modifier of the band holding the range (the
        owner's band where there is one, else a learned one)."""
        if cm is None:
            raise RulesError(TankRefusal.RANGE_NEEDED, weapon=weapon)
        wanted = Wanted(Lack.RANGE, weapon, cm)
        rows = self._rows(weapon)
        if not rows:
            raise MissingValue(TankRefusal.TABLE_NO_ROW, wanted, weapon=weapon,
                               source=self.source)
        # compared to 0.001 cm, as every distance is measured (rules/distance.py): a band
        # from 100.001 cm follows one to 100 cm with no range between them
        at = round(cm, 3)
        for row in rows:
            for band in row.ranges:
                if band.holds(at):
                    return Modifier(_reason(f"{weapon} at {cm:g} cm", band), band.modifier)
        bands = self.bands(weapon)
        if not bands:
            raise MissingValue(TankRefusal.TABLE_NO_RANGES, wanted, weapon=weapon, cm=cm,
                               source=self.source)
        raise MissingValue(TankRefusal.TABLE_NO_RANGE, wanted, weapon=weapon, cm=cm,
                           bands=tuple(b.span for b in bands), source=self.source)

    def template_modifier(self, weapon: str) -> Modifier:
        rows = self._rows(weapon)
        wanted = Wanted(Lack.TEMPLATE, weapon)
        if not rows:
            raise MissingValue(TankRefusal.TABLE_NO_ROW, wanted, weapon=weapon,
                               source=self.source)
        entry = next((row.template for row in rows if row.template is not None), None)
        if entry is None:
            raise MissingValue(TankRefusal.TABLE_NO_TEMPLATE, wanted, weapon=weapon,
                               source=self.source)
        return Modifier(_reason(f"{weapon} template", entry), entry.modifier)

    def to_hit(self, weapon: str) -> ToHit:
        """A grenade's To hit: the owner's, else (our table) the estimate's, else learned."""
        rows = self._rows(weapon)
        entry = next((row.to_hit for row in rows if row.to_hit is not None), None)
        if entry is None:
            raise MissingValue(TankRefusal.TABLE_NO_TO_HIT, Wanted(Lack.TO_HIT, weapon),
                               weapon=weapon, source=self.source)
        return entry

    def situation_modifier(self, situation: str) -> Modifier:
        if situation not in SITUATIONS:
            raise RulesError(TankRefusal.UNKNOWN_SITUATION, situation=situation,
                             choices=tuple(SITUATIONS))
        entry = next((found for layer in self._layers()
                      if (found := layer.situations.get(situation)) is not None), None)
        if entry is None:
            raise MissingValue(TankRefusal.TABLE_NO_SITUATION,
                               Wanted(Lack.SITUATION, situation=situation),
                               situation=Word(situation, SITUATIONS[situation]),
                               source=self.source)
        return Modifier(_reason(SITUATIONS[situation], entry), entry.modifier)

    # ---- values read from the printed table at the table ----

    def check_band(self, weapon: str, from_cm: float, to_cm: float) -> None:
        """A new band for the weapon may not overlap one it has, its own or learned."""
        if to_cm < from_cm:
            raise RulesError(TankRefusal.BAND_BACKWARDS, low=from_cm, high=to_cm)
        for band in self.bands(weapon):
            if band.from_cm <= to_cm and from_cm <= band.to_cm:
                raise BandOverlap(TankRefusal.BAND_OVERLAP, band, weapon=weapon, span=band.span,
                                  low=from_cm, high=to_cm)

    def answered(self, wanted: Wanted, modifier: int, source: str,
                 band: tuple[float, float] | None = None) -> SoftTable:
        """This table with a value the players read from their printed table, added to the
        learned values under it. A range value holds for `band` (from cm, to cm), which must
        hold the shot's range and overlap no band of the weapon, else for the shot's range
        alone."""
        learned = self.learned
        if wanted.lack is Lack.SITUATION:
            situations = {**learned.situations, wanted.situation: Entry(
                modifier=modifier, source=source)}
            return self.with_learned(_like(learned, learned.weapons, situations))
        row = learned.weapons.get(wanted.weapon.lower(), WeaponRow())
        if wanted.lack is Lack.TEMPLATE:
            row = replace(row, template=Entry(modifier=modifier, source=source))
        elif wanted.lack is Lack.TO_HIT:      # `modifier` is the lowest face that hits
            row = replace(row, to_hit=ToHit(needs=modifier, source=source))
        else:
            if wanted.cm is None:
                raise RulesError(TankRefusal.RANGE_NEEDED, weapon=wanted.weapon)
            low, high = band if band is not None else (wanted.cm, wanted.cm)
            if not low <= wanted.cm <= high:
                raise RulesError(TankRefusal.BAND_MISSES_RANGE, low=low,
                                 high=high, cm=wanted.cm)
            self.check_band(wanted.weapon, low, high)
            row = replace(row, ranges=(*row.ranges, RangeBand(
                from_cm=low, to_cm=high, modifier=modifier, source=source)))
        weapons = {**learned.weapons, wanted.weapon.lower(): row}
        return self.with_learned(_like(learned, weapons, learned.situations))


def _like(table: SoftTable, weapons: dict[str, WeaponRow],
          situations: dict[str, Entry]) -> SoftTable:
    """A table with these entries, from the same file as `table`."""
    return SoftTable(weapons=weapons, situations=situations, source=table.source)


def _reason(what: str, entry: Entry) -> str:
    return f"{what} ({entry.source})" if entry.source else what
