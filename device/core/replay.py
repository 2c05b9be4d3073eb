"""Resolve a rule step by step on the box, one die at a time, without touching the rules.

The rules are pure functions that take a dice source. The box replays the function with the
faces gathered so far; when it runs out, the exception names the next roll ("to hit",
"target D6+", ...), so the box knows whose button to wait for, or which real die to ask for.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cobi_companion.rules.dice import DiceExhausted, ScriptedDice

T = TypeVar("T")


@dataclass
class Replay(Generic[T]):
    run: Callable[[ScriptedDice], T]
    faces: list[int] = field(default_factory=list)
    purposes: list[str] = field(default_factory=list)
    result: T | None = None

    def need(self) -> str | None:
        """The next roll the rule needs, or None once it is resolved (see `result`)."""
        if self.result is not None:
            return None
        try:
            self.result = self.run(ScriptedDice(self.faces))
        except DiceExhausted as exc:
            return exc.purpose
        return None

    def add(self, face: int, purpose: str) -> None:
        self.faces.append(face)
        self.purposes.append(purpose)


def is_target_roll(purpose: str) -> bool:
    """Easy level: the target's player rolls the armour D6+ with their own button."""
    return purpose.startswith("target")
