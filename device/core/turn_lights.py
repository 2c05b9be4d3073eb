"""The smart dice's LEDs in their side's colour while the box awaits their throw, or else
while it is that side's turn in a battle; off otherwise: the children see whose dice to pick
up. Only a change is sent to the dice (the port's `light`, which returns at once), only to a
die connected, and a die that connects again is lit again."""
from __future__ import annotations

import logging
from collections.abc import Collection, Mapping

from cobi_companion.device.core.dice_board import DiceBoard
from cobi_companion.device.ports.events import DieLink, Event
from cobi_companion.device.ports.smart_dice import RGB, SmartDice

log = logging.getLogger("cobi-companion")

# Each side's colour on its dice: far apart, told at a glance on any die's LEDs (a red die of
# the Allies lights blue on their turn).
SIDE_COLOURS: dict[str, RGB] = {"axis": (255, 0, 0), "allies": (0, 0, 255)}


class TurnLights:
    """What each paired die was last asked to show: its side's colour, or off (None)."""

    def __init__(self) -> None:
        self.lit: dict[str, RGB | None] = {}

    def follow(self, event: Event, active: Collection[str],
               paired: Mapping[str, Mapping[str, str]], board: DiceBoard,
               smart: SmartDice) -> None:
        """After an event: each paired die (`paired`, the settings' smart dice) lit in its
        side's colour while its side is one of `active` (whose throw is awaited, or whose
        turn it is), and off otherwise."""
        if isinstance(event, DieLink):
            self.lit.pop(event.die, None)   # connected again (its LEDs off), or gone
        for die in [die for die in self.lit if die not in paired]:
            del self.lit[die]               # forgotten: the port let it go
        for die, row in paired.items():
            if not board.online(die):
                continue                    # lit once it connects (its DieLink)
            wanted = SIDE_COLOURS.get(row["side"]) if row["side"] in active else None
            if self.lit.get(die) != wanted and (die in self.lit or wanted is not None):
                self.lit[die] = wanted
                try:
                    smart.light(die, wanted)
                except Exception:  # the dice's lights are never worth a battle
                    log.exception("smart die %s: could not light it", die)
