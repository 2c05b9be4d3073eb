"""Resolve a rule step by step on the box, one die at a time, without touching the rules.

The rules are pure functions that take a dice source. The box replays the function with the
faces gathered so far; when it runs out, the exception carries the next roll the rule needs
as a typed `Need` (who rolls it, what for, the piece, figure and shot), so the box knows whose
button to wait for, or which real die to ask for.

Dice the box rolls by itself go on in the same run (`roll_while`): a shot's sixteen damage
dice are one run of the rule, not sixteen runs each one die longer.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cobi_companion.rules.dice import Aim, DiceExhausted, Need, ScriptedDice, check_face

T = TypeVar("T")
SKETCH_FILL = 99         # more dice than any rule still needs after the faces so far
Take = Callable[[Need], "int | None"]


class _Waits(Exception):
    """The run stops at a die the box does not roll now (`Replay.roll_while`). Not a
    DiceExhausted: a scripted dice source of the box's own that runs out inside the run must
    still be an error, as it was when the box rolled outside the rule."""

    def __init__(self, need: Need) -> None:
        super().__init__(need.words)
        self.need = need


class _Rolling(ScriptedDice):
    """The faces so far, then each next face from `take` (added to the replay), until it
    gives None."""

    def __init__(self, replay: Replay[Any], take: Take) -> None:
        super().__init__(replay.faces)
        self.replay, self.take = replay, take

    def roll(self, need: Need) -> int:
        if self.used < len(self.faces):
            return super().roll(need)
        face = self.take(need)
        if face is None:
            raise _Waits(need)
        self.replay.add(check_face(face), need)
        self.used += 1
        return face


@dataclass
class Replay(Generic[T]):
    """A rule run again with the faces rolled so far, until it needs no more dice."""

    run: Callable[[ScriptedDice], T]
    faces: list[int] = field(default_factory=list)
    needs: list[Need] = field(default_factory=list)
    result: T | None = None
    # The need found by the last run, and for how many faces: asked again with no new face,
    # the rule is not run again.
    _waiting: tuple[int, Need] | None = field(default=None, repr=False, compare=False)

    def _waited(self) -> Need | None:
        """The need the last run stopped at, while no face has been added since."""
        if self._waiting is not None and self._waiting[0] == len(self.faces):
            return self._waiting[1]
        return None

    def need(self) -> Need | None:
        """The next roll the rule needs, or None once it is resolved (see `result`)."""
        if self.result is not None:
            return None
        waiting = self._waited()
        if waiting is not None:
            return waiting
        try:
            self.result = self.run(ScriptedDice(self.faces))
        except DiceExhausted as exc:
            self._waiting = (len(self.faces), exc.need)
            return exc.need
        return None

    def roll_while(self, take: Take) -> Need | None:
        """Run the rule once: with the faces so far, then with the face `take(need)` gives
        for each next need (recorded as `add` would), until it gives None. That need is
        returned (the rule waits for it); None once the rule is resolved."""
        if self.result is not None:
            return None
        need = self._waited()
        if need is not None:                 # found by the last run: asked first, not run for
            face = take(need)
            if face is None:
                return need
            self.add(check_face(face), need)
        try:
            self.result = self.run(_Rolling(self, take))
        except _Waits as stop:
            self._waiting = (len(self.faces), stop.need)
            return stop.need
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
