"""The info card of a COBI model: its fields by meaning, and the notations printed on cards.

A field can be in three states, and the difference matters:
- a number, range or band, as printed;
- printed as "none" or "-": the model has no such value (an unarmed tank has no gun to hit);
- absent from the card file: the value is unknown (only part of the card is known). A rule that
  needs an unknown value refuses with `CardValueMissing`, naming the card and the field.

The card is plain data: a card file's table is checked by the schema in `card_schema.py`
(pydantic, imported only to check a file: `card_schema.validated_card`), whose checked values
become the card through its plain form (`from_plain`, the inverse of `to_plain`). The box's
snapshot of checked cards (cards/book.py) keeps that plain form, so a card restored from it is
built the same way, without pydantic.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from .english import Word
from .errors import Refusal, RulesError


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


class Mount(StrEnum):
    """Where a vehicle carries a weapon, which decides who fires it and what takes it out
    (Tank Game rules 10 and 11). A weapon without a mount is fired as any other."""

    COAXIAL = "coaxial"     # the turret machine gun: lost with the main gun (Destroy Gun)
    HULL = "hull"           # a hull machine gun: kept when the main gun is lost
    EXTERNAL = "external"   # on the turret roof: fired only by the commander sitting out


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A weapon a figure, gun or vehicle carries besides the card's main gun."""

    name: str                          # its row in the Soft Targets Table, like "rifle"
    template: Template | None = None
    shots: int = 1                     # shots at each figure under the template
    damage: int | None = None          # damage dice against hard targets
    he_modifier: int | None = None
    mount: Mount | None = None         # a vehicle's machine gun: coaxial, hull or external
    # The fields its card file gives (None: made in code, every field is given).
    given: frozenset[str] | None = field(default=None, repr=False, compare=False)

    def to_plain(self) -> dict[str, Any]:
        """The weapon as JSON data: the fields its file gives."""
        return _plain_fields(self)

    def known(self, field: str) -> bool:
        """Whether its card file gives the field (a value, or none): an absent `damage` is
        not known, not none (the shipped medium MG's)."""
        return self.given is None or field in self.given

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> Weapon:
        template, mount = data.get("template"), data.get("mount")
        return cls(**{**data, "template": None if template is None else Template(template),
                      "mount": None if mount is None else Mount(mount)},
                   given=frozenset(data))


class Gender(StrEnum):
    """The grammatical gender of a name in Polish: the voice's adjectives agree with it."""

    MASCULINE = "m"
    FEMININE = "f"
    NEUTER = "n"


@dataclass(frozen=True, kw_only=True)
class CardSpeech:
    """How the box's voice says a card's pieces (the card's optional `speech` table): its
    name in each language as a child says it, by language code, and the name's grammatical
    gender, which a language's words may agree with (Polish "zniszczona"): `gender` for every
    language, `gender_<code>` where one language's name has another. The rules know no
    language: the codes are the file's, checked against the box's languages where the file
    is read (cards/loader.py)."""

    said: tuple[tuple[str, str], ...] = ()     # (language code, the name as said), in order
    gender: Gender | None = None
    genders: tuple[tuple[str, Gender], ...] = ()   # (language code, its own gender)

    def name(self, language: str) -> str | None:
        """The name said in `language`, or None where the table gives none."""
        return next((name for code, name in self.said if code == language), None)

    def gender_in(self, language: str) -> Gender | None:
        """The grammatical gender of the name in `language`: its own, else the card's."""
        return next((gender for code, gender in self.genders if code == language), self.gender)

    def to_plain(self) -> dict[str, Any]:
        plain: dict[str, Any] = dict(self.said)
        if self.gender is not None:
            plain["gender"] = self.gender.value
        plain |= {f"{GENDER_OF}{code}": gender.value for code, gender in self.genders}
        return plain

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> CardSpeech:
        # Every key but the genders is a language's: an old snapshot's {en, pl, gender} too.
        gender = data.get("gender")
        return cls(said=tuple((code, name) for code, name in data.items()
                              if code != "gender" and not code.startswith(GENDER_OF)
                              and name is not None),
                   gender=None if gender is None else Gender(gender),
                   genders=tuple((code.removeprefix(GENDER_OF), Gender(value))
                                 for code, value in data.items()
                                 if code.startswith(GENDER_OF) and value is not None))


# A speech table's key of one language's own gender: "gender_fr".
GENDER_OF = "gender_"


@dataclass(frozen=True, kw_only=True)
class CardNames:
    """A card's name and label in another language (the card's optional table named by the
    language's code: `pl`, `de`), for the screens in that language; what it leaves out is the
    card's own."""

    name: str | None = None
    label: str | None = None

    def to_plain(self) -> dict[str, Any]:
        return {key: value for key, value in (("name", self.name), ("label", self.label))
                if value is not None}

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> CardNames:
        return cls(name=data.get("name"), label=data.get("label"))


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


# The plain (JSON) form of a card's values that are not plain numbers or text.
def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, DieRange | Band):
        return {"low": value.low, "high": value.high}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Weapon | CardSpeech | CardNames):
        return value.to_plain()
    return value


# A card's attributes that are no field of its file: its names by language are tables of
# their own (`InfoCard.to_plain`).
_NOT_PLAIN = ("given", "source", "names")


def _plain_fields(data: InfoCard | Weapon) -> dict[str, Any]:
    """The given fields of a card or weapon, in their order, as JSON data."""
    given = data.given
    return {f.name: _plain(getattr(data, f.name)) for f in fields(data)
            if f.name not in _NOT_PLAIN and (given is None or f.name in given)}


def _die_range(value: Any) -> DieRange | None:
    return None if value is None else DieRange(value["low"], value["high"])


def _band(value: Any) -> Band | None:
    return None if value is None else Band(value["low"], value["high"])


_FROM_PLAIN: dict[str, Callable[[Any], Any]] = {
    "kind": Kind,
    "other_names": tuple,
    "gun_to_hit": _die_range, "reload": _die_range,
    "destroy_gun": _band, "weaken": _band, "immobilize": _band,
    "weapons": lambda weapons: tuple(Weapon.from_plain(w) for w in weapons),
    "speech": CardSpeech.from_plain,
}


@dataclass(frozen=True, kw_only=True)
class InfoCard:
    """One COBI model's info card. See cards/README.md for the file format, and
    `card_schema.CardSchema` for what each value may be."""

    set_number: int | None = None
    id: str | None = None
    kind: Kind = Kind.HARD
    name: str
    label: str | None = None
    other_names: tuple[str, ...] = ()
    move_forward: int | None = None
    move_backward: int | None = None
    turn_45: int | None = None          # cm lost per turn of up to 45° (printed -5 cm)
    rough: int | None = None            # cm lost moving in rough ground
    road: int | None = None             # cm gained moving only on road
    gun_to_hit: DieRange | None = None
    reload: DieRange | None = None
    damage: int | None = None
    he_modifier: int | None = None
    armour_front: int | None = None
    armour_side: int | None = None
    armour_rear: int | None = None
    armour_top: int | None = None
    destroy: int | None = None
    destroy_gun: Band | None = None
    weaken: Band | None = None
    immobilize: Band | None = None
    crew: int | None = None
    cost: int | None = None
    available: int | None = None
    special_rules: str | None = None
    weapons: tuple[Weapon, ...] = ()
    speech: CardSpeech | None = None    # how the voice says its pieces (the [speech] table)
    # Its name and label on the screens in other languages, by language code (the file's
    # tables named by code: `pl = { name, label }`), in the file's order.
    names: tuple[tuple[str, CardNames], ...] = ()
    # The fields its card file gives: the others are unknown (`known`). None: a card made in
    # code, which gives every field.
    given: frozenset[str] | None = field(default=None, repr=False, compare=False)
    source: str = ""                    # the file it was read from ('' if built in code)

    def to_plain(self) -> dict[str, Any]:
        """The card as JSON data, as its file writes it: the fields it gives, in the card's
        order (the source is not one of them), then a table of names by language code."""
        plain = _plain_fields(self)
        plain.update((code, names.to_plain()) for code, names in self.names)
        return plain

    @classmethod
    def from_plain(cls, data: Mapping[str, Any], source: str = "") -> InfoCard:
        """The card of `to_plain`'s data, as it was checked: nothing is checked here. A key
        that is no card field is a language's names table (the loader checked its code)."""
        values = {name: _FROM_PLAIN[name](value) if name in _FROM_PLAIN and value is not None
                  else value for name, value in data.items() if name in CARD_FIELDS}
        names = tuple((code, CardNames.from_plain(value)) for code, value in data.items()
                      if code not in CARD_FIELDS and value is not None)
        return cls(**values, names=names, given=frozenset(values), source=source)

    # --- reading values as the rules need them ---

    @property
    def key(self) -> str:
        """How the card is looked up: its set number, or its id when it has none."""
        return str(self.set_number) if self.set_number is not None else str(self.id)

    def with_source(self, source: str) -> InfoCard:
        return replace(self, source=source)

    @property
    def title(self) -> str:
        return self.name if self.set_number is None else f"{self.set_number} {self.name}"

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        raise RulesError(Refusal.NO_SUCH_WEAPON, name=self.title, weapon=name,
                         weapons=tuple(w.name for w in self.weapons))

    @property
    def short(self) -> str:
        return self.label or self.name.split()[0][:10]

    def names_for(self, language: str) -> CardNames | None:
        """The card's table of names in `language`, or None where it gives none."""
        return next((names for code, names in self.names if code == language), None)

    def name_in(self, language: str) -> str:
        """The card's name on the screens in `language`: its own unless it gives one in that
        language (the command line and the rules keep its own)."""
        names = self.names_for(language)
        return names.name if names is not None and names.name else self.name

    def short_in(self, language: str) -> str:
        """The card's label on the screens in `language` (see `name_in`)."""
        names = self.names_for(language)
        return names.label if names is not None and names.label else self.short

    def title_in(self, language: str) -> str:
        name = self.name_in(language)
        return name if self.set_number is None else f"{self.set_number} {name}"

    def known(self, field: str) -> bool:
        """Whether the card file gives the field (a value, or none)."""
        return self.given is None or field in self.given

    def need(self, field: str) -> Any:
        """The field's value for a rule that needs it; None means printed as none."""
        if field not in CARD_FIELDS:
            raise KeyError(field)
        if self.given is not None and field not in self.given:    # `known`, inlined: the
            raise CardValueMissing(self, field)                   # odds read a dozen
        return getattr(self, field)

    def printed(self, field: str) -> str:
        """The field as it reads on the card; '?' when unknown."""
        text = self._printed.get(field)
        if text is None:    # worked out once a card and field: the card is frozen
            text = self._printed[field] = self._print(field)
        return text

    @cached_property
    def _printed(self) -> dict[str, str]:
        """The fields printed so far: every fire's trace prints the card values it read."""
        return {}

    @cached_property
    def traced(self) -> dict[str, Any]:
        """The trace's record of each field read so far (rules.trace's CardValue, frozen),
        kept with the card, which is frozen too: every fire's trace records the values it
        read, a statistics run hundreds of thousands of times."""
        return {}

    def _print(self, field: str) -> str:
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


CARD_FIELDS = frozenset(f.name for f in fields(InfoCard)) - set(_NOT_PLAIN)


class CardValueMissing(RulesError):
    """A rule needs a card value that is not known (not on the card file)."""

    def __init__(self, card: InfoCard, field: str) -> None:
        self.card = card
        self.field = field
        label = PRINTED.get(field, (field, ""))[0]
        super().__init__(Refusal.NO_CARD_VALUE, name=card.title, field=Word(field, label),
                         source=card.source)


def facing_armour(card: InfoCard, facing: Facing,
                  read: Callable[[InfoCard, str], Any] | None = None) -> int:
    """The armour for the facing hit; `read` records the value where a trace is kept."""
    armour: int | None = (read or InfoCard.need)(card, facing.armour_field)
    if armour is None:
        raise CardValueMissing(card, facing.armour_field)
    return armour
