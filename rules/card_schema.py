"""The schema of a card file: what each value of an info card may be, and the notations printed
on cards read into values (`3-6`, `4+`, `-5 cm`, `none`).

Pydantic checks a card file's table against it; the checked values become a plain
`rules.card.InfoCard` through its plain form (`InfoCard.from_plain`), the same way the box
builds a card from its snapshot of checked cards. Only checking a file imports this module (and
pydantic); the field descriptions here are what a problem with the file says is allowed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator

from .card import Band, DieRange, Gender, InfoCard, Kind, Mount, Template
from .numbers import digits

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


class WeaponSchema(BaseModel):
    """What a weapon table of a card file may hold (rules.card.Weapon)."""

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
    mount: Mount | None = Field(
        default=None,
        description="where a vehicle carries it: coaxial (the turret machine gun, lost with "
                    "the main gun), hull (kept), external (fired only by the commander out in "
                    "the turret), or none")

    @field_validator("template", "damage", "he_modifier", "mount", mode="before")
    @classmethod
    def _none(cls, value: Any) -> Any:
        return None if _is_none(value) else value


class SpeechSchema(BaseModel):
    """What a card file's `speech` table may hold (rules.card.CardSpeech): how the box's voice
    says the card's pieces: `speech_schema` gives it a field for each language the box speaks
    (`CardLanguages.said`), then the gender."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NamesSchema(BaseModel):
    """What a card file's table of names in a language may hold (`pl = { name, label }`,
    rules.card.CardNames): the card's name and label on the box's screens in that language."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = Field(
        default=None, min_length=1, max_length=60,
        description="the model's name in that language, up to 60 letters, like Czołg ciężki "
                    "Tiger I")
    label: str | None = Field(
        default=None, min_length=1, max_length=10,
        description="a short name in that language for the small screen, up to 10 letters, "
                    "like Tygrys")


@dataclass(frozen=True)
class CardLanguages:
    """The language codes a card file may use, given by the code that reads the file (the
    rules know no language; cards/loader.py gives the box's registry): `said`, the keys of its
    `speech` table; `shown`, its tables of names (every language but the cards' own)."""

    said: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()


_CM = "a whole number of cm from 0 to 100"
_DIE = "a range of D6 faces like 3-6 or 4+ (within 1 to 6), or none"
_BAND = "a damage result like 2 or 2-3 (0 to 30), or - for none"


class CardSchema(BaseModel):
    """What a card file may hold (rules.card.InfoCard). See cards/README.md for the format."""

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
    other_names: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(
        default_factory=list, max_length=20,
        description="a list of up to 20 other printed names of up to 60 letters each, like "
                    "[\"M1A1\"]")
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
    weapons: tuple[WeaponSchema, ...] = Field(
        default=(), description="a list of weapon tables: name, template, shots, damage, "
                                "he_modifier, mount")
    speech: SpeechSchema | None = Field(
        default=None, description="a table of how the voice says the card: gender")

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
    def _named(self) -> CardSchema:
        if self.set_number is None and self.id is None:
            raise ValueError("a card needs a set_number or an id")
        return self


@cache
def speech_schema(languages: CardLanguages) -> type[SpeechSchema]:
    """The schema of a card's `speech` table: a name said in each of `languages.said`, and the
    gender. Made once for each set of languages."""
    said: dict[str, Any] = {
        code: (str | None, Field(
            default=None, min_length=1, max_length=30,
            description=f'the name said in the language "{code}", up to 30 letters, like Tiger'))
        for code in languages.said}
    said["gender"] = (Gender | None, Field(
        default=None, description="the name's grammatical gender, which a language's words "
                                  "may agree with: m, f or n"))
    said |= {f"gender_{code}": (Gender | None, Field(
        default=None, description=f'the name\'s gender in the language "{code}", where it is '
                                  f"not `gender`: m, f or n")) for code in languages.said}
    schema: type[SpeechSchema] = create_model("SpeechSchema", __base__=SpeechSchema, **said)
    return schema


@cache
def card_schema(languages: CardLanguages) -> type[CardSchema]:
    """The schema of a card file in `languages`: CardSchema with its `speech_schema` and a
    table of names for each language of `languages.shown`. Made once for each set of
    languages."""
    tables: dict[str, Any] = {
        code: (NamesSchema | None, Field(
            default=None, description=f"a table of the card's name and label in the "
                                      f'language "{code}": name, label'))
        for code in languages.shown}
    keys = ", ".join([*languages.said, "gender", *(f"gender_{code}" for code in languages.said)])
    tables["speech"] = (speech_schema(languages) | None, Field(
        default=None, description=f"a table of how the voice says the card: {keys}"))
    schema: type[CardSchema] = create_model("CardSchema", __base__=CardSchema, **tables)
    return schema


def validated_card(data: Any, languages: CardLanguages = CardLanguages()) -> InfoCard:
    """The card of a card file's table, or pydantic's ValidationError listing its problems;
    its `speech` and names tables may be in `languages` (none given: no such tables)."""
    checked = card_schema(languages).model_validate(data)
    return InfoCard.from_plain(checked.model_dump(mode="json", exclude_unset=True))
