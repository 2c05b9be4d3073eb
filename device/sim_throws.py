"""The simulator's smart dice on a key: a die paired to a side thrown on the table, as the
smart-dice port would report it (it tumbles, then settles). The dice of each side take turns;
the face is the one a script gives, else a fair one."""
from __future__ import annotations

import secrets
from collections.abc import Mapping

from cobi_companion.device.ports.die_readings import Rolling, Settled
from cobi_companion.device.ports.events import DieSaid

# The simulator's words that throw a die of a side (a script may give the face: throw_axis 6).
THROWS = {"throw_axis": "axis", "throw_allies": "allies"}


class SimThrows:
    """Each side's next die to throw, round its paired dice."""

    def __init__(self) -> None:
        self.thrown: dict[str, int] = {}

    def throw(self, paired: Mapping[str, Mapping[str, str]], word: str,
              face: int = 0) -> list[DieSaid]:
        """The events of a die of the side `word` names thrown on `face` (0: a fair one);
        none where no die is paired to the side."""
        side = THROWS[word]
        dice = [die for die, of in paired.items() if of.get("side") == side]
        if not dice:
            return []
        n = self.thrown.get(side, 0)
        self.thrown[side] = n + 1
        die = dice[n % len(dice)]
        return [DieSaid(die, Rolling()), DieSaid(die, Settled(face or secrets.randbelow(6) + 1))]
