"""Sides, shot effects and the state marks of a vehicle, shared by every COBI level."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache


class Side(StrEnum):
    AXIS = "axis"
    ALLIES = "allies"

    @property
    def enemy(self) -> Side:
        return Side.ALLIES if self is Side.AXIS else Side.AXIS


class Effect(StrEnum):
    """What a shot did to its target, from nothing to everything."""

    MISS = "miss"
    NONE = "none"
    IMMOBILIZED = "immobilized"
    WEAKENED = "weakened"
    GUN_DESTROYED = "gun_destroyed"
    DESTROYED = "destroyed"


STATUS_WORDS = ("unloaded", "weakened", "gun_destroyed", "immobilized", "destroyed", "hidden",
                "commander_out", "commander_killed", "off_map")


@dataclass(frozen=True)
class Status:
    """The marks a player would put on a model."""

    loaded: bool = True
    weakened: bool = False
    gun_destroyed: bool = False
    immobilized: bool = False
    destroyed: bool = False
    hidden: bool = False               # Tank Game: laid down or in cover, unseen
    commander_out: bool = False        # Tank Game: sits in the turret, a figure to fire at
    commander_killed: bool = False     # Tank Game: may only move off a friendly edge
    off_map: bool = False              # Tank Game: waiting to enter at its side's edge

    @property
    def damaged(self) -> bool:
        """Weakened or gun lost: one more major hit (Easy: any hit) destroys it."""
        return self.weakened or self.gun_destroyed

    def words(self) -> list[str]:
        marks = {
            "unloaded": not self.loaded,
            "weakened": self.weakened,
            "gun_destroyed": self.gun_destroyed,
            "immobilized": self.immobilized,
            "destroyed": self.destroyed,
            "hidden": self.hidden,
            "commander_out": self.commander_out,
            "commander_killed": self.commander_killed,
            "off_map": self.off_map,
        }
        return [word for word in STATUS_WORDS if marks[word]]

    @classmethod
    def from_words(cls, words: list[str] | tuple[str, ...]) -> Status:
        unknown = [w for w in words if w not in STATUS_WORDS]
        if unknown:
            raise ValueError(
                f"unknown status {unknown[0]!r}: allowed are {', '.join(STATUS_WORDS)}")
        return cls(
            loaded="unloaded" not in words,
            weakened="weakened" in words,
            gun_destroyed="gun_destroyed" in words,
            immobilized="immobilized" in words,
            destroyed="destroyed" in words,
            hidden="hidden" in words,
            commander_out="commander_out" in words,
            commander_killed="commander_killed" in words,
            off_map="off_map" in words,
        )

    def hit_by(self, effect: Effect) -> Status:
        """The target's status after a shot with this effect."""
        mark = HIT_MARKS.get(effect)
        return self if mark is None else self.marked(mark, True)

    def marked(self, mark: str, value: bool) -> Status:
        """The status with a mark set or cleared (`loaded` too): itself when already so, else
        a copy made once a status and mark (both frozen)."""
        return self if getattr(self, mark) is value else _marked(self, mark, value)


HIT_MARKS = {Effect.DESTROYED: "destroyed", Effect.GUN_DESTROYED: "gun_destroyed",
             Effect.WEAKENED: "weakened", Effect.IMMOBILIZED: "immobilized"}


@lru_cache(maxsize=256)    # a few statuses and marks: a statistics run fires 10^5 times
def _marked(status: Status, mark: str, value: bool) -> Status:
    return replace(status, **{mark: value})
