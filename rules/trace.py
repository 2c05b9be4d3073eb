"""The trace every resolution returns: each roll, modifier, card value, total and the outcome.

The screens, the command line's JSON and the tests all read these records; nothing is worked
out again outside the rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .card import DieRange, Facing, InfoCard
from .dice import Dice, Need
from .modifier import Modifier as Modifier  # a trace's modifiers: imported from here too
from .saved import Data
from .status import Effect, Status


def card_ref(card: InfoCard) -> int | str:
    return card.set_number if card.set_number is not None else card.key


@dataclass(frozen=True)
class CardValue(Data):
    """A card value a rule used, as printed."""

    card: int | str          # the set number, or the id of a card without one
    field: str
    value: str


@dataclass(frozen=True)
class DieCheck:
    """One D6 against a card range: to hit, or reload."""

    roll: int
    modifiers: tuple[Modifier, ...]
    modified: int
    needed: DieRange
    success: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "roll": self.roll,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "modified": self.modified,
            "needed": self.needed.low,
            "range": str(self.needed),
        }


@dataclass(frozen=True)
class DamageRoll:
    """Damage: Easy is card damage + the firer's D6+; the Tank Game sums its damage dice."""

    rolls: tuple[int, ...]
    base: int          # Easy: the card's damage value; Tank Game: 0
    dice: int          # Tank Game: the card's number of dice; Easy: 0
    extra: int         # Tank Game: extra dice earned by sixes
    rolled: int        # what the dice scored (D6+ value, or damage points)
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"rolls": list(self.rolls), "base": self.base, "dice": self.dice,
                "extra": self.extra, "rolled": self.rolled, "total": self.total}


@dataclass(frozen=True)
class ArmourRoll:
    """The target's armour against the shot: the facing's value, and its roll where the level
    has one."""

    facing: Facing
    value: int
    rolls: tuple[int, ...]  # Easy: the target player's D6+; Tank Game: none
    rolled: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"facing": self.facing.value, "value": self.value, "rolls": list(self.rolls),
                "rolled": self.rolled, "total": self.total}


@dataclass(frozen=True)
class Shot:
    """One shot at a hard target, as resolved: every roll and modifier, and what it did."""

    level: str
    attacker: InfoCard
    target: InfoCard
    facing: Facing
    to_hit: DieCheck
    reload: DieCheck | None
    damage: DamageRoll | None
    armour: ArmourRoll | None
    net: int | None
    effect: Effect
    reason: str
    attacker_before: Status
    attacker_after: Status
    target_before: Status
    target_after: Status
    card_values: tuple[CardValue, ...]
    faces: tuple[int, ...]
    house_rules: tuple[tuple[str, str], ...] = ()    # the house rules that changed the shot

    @property
    def hit(self) -> bool:
        return self.to_hit.success

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "attacker": {"set": self.attacker.set_number, "name": self.attacker.name},
            "target": {"set": self.target.set_number, "name": self.target.name},
            "facing": self.facing.value,
            "hit": self.hit,
            "to_hit": self.to_hit.to_dict(),
            "reload": None if self.reload is None else {
                **self.reload.to_dict(), "loaded": self.reload.success},
            "damage": None if self.damage is None else self.damage.to_dict(),
            "armour": None if self.armour is None else self.armour.to_dict(),
            "net": self.net,
            "effect": self.effect.value,
            "reason": self.reason,
            "status_before": self.target_before.words(),
            "status_after": self.target_after.words(),
            "attacker_status_before": self.attacker_before.words(),
            "attacker_status_after": self.attacker_after.words(),
            "card_values": [c.to_dict() for c in self.card_values],
            "dice": list(self.faces),
            "house_rules": dict(self.house_rules),
        }


@dataclass(frozen=True)
class ReloadAction:
    """A vehicle that neither moves nor fires reloads with +2."""

    card: InfoCard
    check: DieCheck
    before: Status
    after: Status
    card_values: tuple[CardValue, ...]
    house_rules: tuple[tuple[str, str], ...] = ()    # the house rules that changed the roll

    def to_dict(self) -> dict[str, Any]:
        return {"card": {"set": self.card.set_number, "name": self.card.name},
                "reload": {**self.check.to_dict(), "loaded": self.check.success},
                "status_before": self.before.words(), "status_after": self.after.words(),
                "card_values": [c.to_dict() for c in self.card_values],
                "house_rules": dict(self.house_rules)}


@dataclass
class Tally:
    """Rolls dice and reads card values for one resolution, keeping a record of both."""

    dice: Dice
    faces: list[int] = field(default_factory=list)
    used: list[CardValue] = field(default_factory=list)

    def roll(self, need: Need) -> int:
        face = self.dice.roll(need)
        self.faces.append(face)
        return face

    def card(self, card: InfoCard, name: str) -> Any:
        value = card.need(name)
        record = card.traced.get(name)
        if record is None:       # made once a card and field: both are frozen
            record = card.traced[name] = CardValue(card_ref(card), name, card.printed(name))
        self.used.append(record)
        return value
