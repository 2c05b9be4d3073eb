"""The info card of a COBI model: its fields by meaning, and the notations printed on cards.

A field can be in three states, and the difference matters:
- a number, range or band, as printed;
- printed as "none" or "-": the model has no such value (an unarmed tank has no gun to hit);
- absent from the card file: the value is unknown (only part of the card is known). A rule that
  needs an unknown value refuses with `CardValueMissing`, naming the card and the field.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from .errors import Refusal, RulesError
from .numbers import digits


class Facing(StrEnum):
    FRONT = "front"
    SIDE = "side"
    REAR = "rear"
    TOP = "top"

    @property
    def armour_field(self) -> str:
        return f"armour_{self.value}"


class Kind(StrEnum):
    """What a piece is, which decides how it is fired at (Tank Game)."""

    HARD = "hard"              # armoured vehicle, crew inside: fire at hard targets
    OPEN_TOP = "open_top"      # armoured, open top: its crew figures can be hit by HE, grenades
    SOFT = "soft"              # soft vehicle: the Soft Targets Table, then damage dice
    GUN = "gun"                # towed gun with crew figures
    FIGURE = "figure"          # one figure with its weapon

    @property
    def model(self) -> bool:
        """Vehicles and guns are models: at most one in an activation."""
        return self is not Kind.FIGURE

    @property
    def vehicle(self) -> bool:
        return self in (Kind.HARD, Kind.OPEN_TOP, Kind.SOFT)


class Template(StrEnum):
    HE = "he"
    MG = "mg"
    GRENADE = "grenade"


class Weapon(BaseModel):
    """A weapon a figure, gun or vehicle carries besides the card's main gun."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=30,
                      description="the weapon's row in the Soft Targets Table, like rifle")
    template: Template | None = Field(
        default=None, description="he, mg or grenade for a template weapon, or none")
    shots: int = Field(default=1, ge=1, le=10,
                       description="shots at each figure under the template, 1 to 10")
    damage: int | None = Field(
        default=None, ge=0, le=30,
        description="damage dice against hard targets, 0 to 30, or none")
    he_modifier: int | None = Field(
        default=None, ge=-10, le=10, description="a signed number like +2, or none")

    @field_validator("template", "damage", "he_modifier", mode="before")
    @classmethod
    def _none(cls, value: Any) -> Any:
        return None if _is_none(value) else value


@dataclass(frozen=True)
class DieRange:
    """Faces of one D6 that succeed, printed `3-6` (or `3+`, or `6`)."""

    low: int
    high: int = 6

    def __contains__(self, face: object) -> bool:
        return isinstance(face, int) and self.low <= face <= self.high

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Band:
    """Values of a damage result that give one effect, printed `2-3` or `4`."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


NONE_WORDS = {"none", "-", "–", "—", "brak"}
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-|–|to)\s*(\d+)\s*$")
_PLUS = re.compile(r"^\s*(\d+)\s*\+\s*$")
_SIGNED = re.compile(r"^\s*([+-]?)\s*(\d+)\s*(?:cm)?\s*$")


def _is_none(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in NONE_WORDS


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("not a whole number")
    if isinstance(value, int):
        return value
    match = _SIGNED.match(value)
    if not match:
        raise ValueError("not a whole number")
    number = int(match.group(2))
    return -number if match.group(1) == "-" else number


def _pair(value: Any) -> tuple[int, int]:
    """Read `a-b`, `a+` (to 6), `a` or an int into (low, high)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if isinstance(value, str):
        if match := _RANGE.match(value):
            return int(match.group(1)), int(match.group(2))
        if match := _PLUS.match(value):
            return int(match.group(1)), 6
        if digits(value.strip()):
            return int(value), int(value)
    raise ValueError("not a range")


# Field name -> (label printed on the card, unit). Order is the card's order.
PRINTED = {
    "move_forward": ("Move Forward", "cm"),
    "move_backward": ("Move Backward", "cm"),
    "turn_45": ("Turn 45 up to degrees", "cm"),
    "rough": ("Move in Rough", "cm"),
    "road": ("Only on Road", "cm"),
    "gun_to_hit": ("Gun to Hit", ""),
    "reload": ("Reload die Roll", ""),
    "damage": ("Damage / Number of Damage dice", ""),
    "he_modifier": ("Damage HE Modifier (HE Template)", ""),
    "armour_front": ("Front armor", ""),
    "armour_side": ("Side armor", ""),
    "armour_rear": ("Rear armor", ""),
    "armour_top": ("Top armor", ""),
    "destroy": ("Damage to Destroy Target", ""),
    "destroy_gun": ("Damage to Destroy Gun", ""),
    "weaken": ("Damage to Weaken Target", ""),
    "immobilize": ("Damage to Immobilize Target", ""),
    "crew": ("Crew", ""),
    "cost": ("Cost", ""),
    "available": ("Available", ""),
    "special_rules": ("Special rules", ""),
}

_CM = "a whole number of cm from 0 to 100"
_DIE = "a range of D6 faces like 3-6 or 4+ (within 1 to 6), or none"
_BAND = "a damage result like 2 or 2-3 (0 to 30), or - for none"


class InfoCard(BaseModel):
    """One COBI model's info card. See cards/README.md for the file format."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    set_number: int | None = Field(
        default=None, ge=1, le=999_999, description="the COBI set number, like 2477")
    id: str | None = Field(
        default=None, pattern=r"^[a-z][a-z0-9-]{0,29}$",
        description="a name for a card without a set number: lowercase letters, digits and -, "
                    "like rifleman")
    kind: Kind = Field(default=Kind.HARD,
                       description="hard, open_top, soft, gun or figure")
    name: str = Field(min_length=1, max_length=60, description="the model's name, like Tiger I")
    label: str | None = Field(
        default=None, min_length=1, max_length=10,
        description="a short name for the small screen, up to 10 letters, like Tiger")
    other_names: list[str] = Field(
        default_factory=list, description="a list of other printed names, like [\"M1A1\"]")
    move_forward: int | None = Field(default=None, ge=0, le=100, description=_CM)
    move_backward: int | None = Field(default=None, ge=0, le=100, description=_CM)
    turn_45: int | None = Field(
        default=None, ge=0, le=100,
        description="the cm lost per turn of up to 45°, printed like -5 cm (0 to 100)")
    rough: int | None = Field(
        default=None, ge=0, le=100,
        description="the cm lost when moving in rough ground, printed like -5 cm (0 to 100)")
    road: int | None = Field(
        default=None, ge=0, le=100,
        description="the cm gained moving only on road, printed like +10 cm (0 to 100)")
    gun_to_hit: DieRange | None = Field(default=None, description=_DIE)
    reload: DieRange | None = Field(default=None, description=_DIE)
    damage: int | None = Field(
        default=None, ge=0, le=30,
        description="the damage value (Easy) or number of damage dice (Tank Game): "
                    "a whole number from 0 to 30, or none")
    he_modifier: int | None = Field(
        default=None, ge=-10, le=10,
        description="a signed number like +2 (also printed 2+), from -10 to +10, or none")
    armour_front: int | None = Field(default=None, ge=0, le=30,
                                     description="a whole number from 0 to 30")
    armour_side: int | None = Field(default=None, ge=0, le=30,
                                    description="a whole number from 0 to 30")
    armour_rear: int | None = Field(default=None, ge=0, le=30,
                                    description="a whole number from 0 to 30")
    armour_top: int | None = Field(default=None, ge=0, le=30,
                                   description="a whole number from 0 to 30")
    destroy: int | None = Field(
        default=None, ge=0, le=30,
        description="the result that destroys (that value or more): a whole number from 0 to 30")
    destroy_gun: Band | None = Field(default=None, description=_BAND)
    weaken: Band | None = Field(default=None, description=_BAND)
    immobilize: Band | None = Field(default=None, description=_BAND)
    crew: int | None = Field(default=None, ge=0, le=50,
                             description="a whole number of figures from 0 to 50")
    cost: int | None = Field(default=None, ge=0, le=10_000,
                             description="a whole number from 0 to 10000")
    available: int | None = Field(default=None, ge=1900, le=1960,
                                  description="a year from 1900 to 1960")
    special_rules: str | None = Field(default=None, max_length=500,
                                      description="text, up to 500 characters")
    weapons: tuple[Weapon, ...] = Field(
        default=(), description="a list of weapon tables: name, template, shots, damage, "
                                "he_modifier")

    _source: str = PrivateAttr(default="")

    @field_validator("turn_45", "rough", "road", mode="before")
    @classmethod
    def _cost_or_bonus(cls, value: Any) -> Any:
        # Printed "-5 cm" is a cost of 5; "+10 cm" a bonus of 10: the sign is the card's way of
        # saying which, the meaning is in the field.
        if value is None or _is_none(value):
            return 0
        return abs(_whole(value))

    @field_validator("move_forward", "move_backward", "damage", "he_modifier", "armour_front",
                     "armour_side", "armour_rear", "armour_top", "destroy", "crew", "cost",
                     "available", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if value is None or _is_none(value):
            return None
        if isinstance(value, str) and _PLUS.match(value):
            return int(value.strip().rstrip("+").strip())  # "2+" on the M1A1 card means +2
        return _whole(value)

    @field_validator("gun_to_hit", "reload", mode="before")
    @classmethod
    def _die_range(cls, value: Any) -> Any:
        if isinstance(value, DieRange):
            return value
        if value is None or _is_none(value):
            return None
        low, high = _pair(value)
        if not 1 <= low <= high <= 6:
            raise ValueError("not a range of D6 faces")
        return DieRange(low, high)

    @field_validator("destroy_gun", "weaken", "immobilize", mode="before")
    @classmethod
    def _band(cls, value: Any) -> Any:
        if isinstance(value, Band):
            return value
        if value is None or _is_none(value):
            return None
        low, high = _pair(value)
        if not 0 <= low <= high <= 30:
            raise ValueError("not a damage result band")
        return Band(low, high)

    @model_validator(mode="after")
    def _named(self) -> InfoCard:
        if self.set_number is None and self.id is None:
            raise ValueError("a card needs a set_number or an id")
        return self

    # --- reading values as the rules need them ---

    @property
    def key(self) -> str:
        """How the card is looked up: its set number, or its id when it has none."""
        return str(self.set_number) if self.set_number is not None else str(self.id)

    @property
    def source(self) -> str:
        """The file this card was read from ('' if built in code)."""
        return self._source

    def with_source(self, source: str) -> InfoCard:
        self._source = source
        return self

    @property
    def title(self) -> str:
        return self.name if self.set_number is None else f"{self.set_number} {self.name}"

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        carried = ", ".join(w.name for w in self.weapons) or "none"
        raise RulesError(f"{self.title} has no weapon {name!r}; it carries: {carried}",
                         Refusal.NO_SUCH_WEAPON, name=self.title, weapon=name,
                         weapons=tuple(w.name for w in self.weapons))

    @property
    def short(self) -> str:
        return self.label or self.name.split()[0][:10]

    def known(self, field: str) -> bool:
        return field in self.model_fields_set

    def need(self, field: str) -> Any:
        """The field's value for a rule that needs it; None means printed as none."""
        if field not in type(self).model_fields:
            raise KeyError(field)
        if not self.known(field):
            raise CardValueMissing(self, field)
        return getattr(self, field)

    def printed(self, field: str) -> str:
        """The field as it reads on the card; '?' when unknown."""
        if not self.known(field):
            return "?"
        value = getattr(self, field)
        unit = PRINTED.get(field, ("", ""))[1]
        if value is None:
            return "-" if field in ("destroy_gun", "weaken", "immobilize") else "none"
        if field in ("turn_45", "rough"):
            return f"-{value} {unit}"
        if field == "road":
            return f"+{value} {unit}"
        if field == "he_modifier":
            return f"{value:+d}"
        return f"{value} {unit}".strip()


class CardValueMissing(RulesError):
    """A rule needs a card value that is not known (not on the card file)."""

    def __init__(self, card: InfoCard, field: str) -> None:
        self.card = card
        self.field = field
        label = PRINTED.get(field, (field, ""))[0]
        where = f" ({card.source})" if card.source else ""
        super().__init__(
            f"card {card.title}{where} has no value for {field} ({label}): "
            f"add it from the printed card", Refusal.NO_CARD_VALUE, name=card.title, field=field,
            source=card.source
        )


def facing_armour(card: InfoCard, facing: Facing,
                  read: Callable[[InfoCard, str], Any] | None = None) -> int:
    """The armour for the facing hit; `read` records the value where a trace is kept."""
    armour: int | None = (read or InfoCard.need)(card, facing.armour_field)
    if armour is None:
        raise CardValueMissing(card, facing.armour_field)
    return armour
