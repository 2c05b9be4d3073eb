"""Resolve a rule step by step on the box, one die at a time, without touching the rules.

The rules are pure functions that take a dice source. The box replays the function with the
faces gathered so far; when it runs out, the exception carries the next roll the rule needs
as a typed `Need` (who rolls it, what for, the piece, figure and shot), so the box knows whose
button to wait for, or which real die to ask for.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cobi_companion.rules.dice import Aim, DiceExhausted, Need, ScriptedDice

T = TypeVar("T")
SKETCH_FILL = 99         # more dice than any rule still needs after the faces so far


@dataclass
class Replay(Generic[T]):
    """A rule run again with the faces rolled so far, until it needs no more dice."""

    run: Callable[[ScriptedDice], T]
    faces: list[int] = field(default_factory=list)
    needs: list[Need] = field(default_factory=list)
    result: T | None = None

    def need(self) -> Need | None:
        """The next roll the rule needs, or None once it is resolved (see `result`)."""
        if self.result is not None:
            return None
        try:
            self.result = self.run(ScriptedDice(self.faces))
        except DiceExhausted as exc:
            return exc.need
        return None

    def sketch(self) -> T:
        """The rule run with the faces so far and a 1 for every die still to come: the
        parts of its trace already rolled are exact (to show them while the other player's
        roll is awaited); the rest is not real and not shown. A 1 ends every D6+ chain."""
        return self.run(ScriptedDice([*self.faces, *[1] * SKETCH_FILL]))

    def add(self, face: int, need: Need) -> None:
        self.faces.append(face)
        self.needs.append(need)

    def face(self, aim: Aim) -> int:
        """The face rolled for the first die of `aim` (e.g. the HE shot's to-hit)."""
        return next(f for f, n in zip(self.faces, self.needs, strict=True) if n.aim is aim)

    def rolled(self, aim: Aim) -> bool:
        return any(n.aim is aim for n in self.needs)
