"""The smart dice as the app knows them now: which are connected, their battery, their
colour, and the last thing each said. Kept from the dice's events (ports/events.py) as the
main loop hands them to the app; the paired dice themselves are in the settings."""
from __future__ import annotations

import logging
from dataclasses import dataclass

from cobi_companion.device.ports.die_readings import Battery, Colour, Reading
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, ScanDone

log = logging.getLogger("cobi-companion")

# Under this a die's battery is low (the status board says so): a GoDice still plays some
# hours on it, enough to end the battle, but wants its charger afterwards.
LOW_BATTERY = 20


def _low_now(die: str, before: int | None, battery: Battery) -> None:
    """A journal line when a die's battery goes low (once, not at each reading after)."""
    if battery.percent < LOW_BATTERY <= (100 if before is None else before) \
            and not battery.charging:
        log.warning("smart die %s: battery low (%d%%), charge it after the battle", die,
                    battery.percent)


@dataclass
class DieNow:
    """One die as last heard of."""

    online: bool = False
    battery: int | None = None        # per cent, once the die has said
    charging: bool = False
    colour: str = ""
    last: Reading | None = None


class DiceBoard:
    """Each die by id, as last heard of."""

    def __init__(self) -> None:
        self.dice: dict[str, DieNow] = {}

    def get(self, die: str) -> DieNow:
        return self.dice.setdefault(die, DieNow())

    def online(self, die: str) -> bool:
        return die in self.dice and self.dice[die].online

    def update(self, event: DieFound | ScanDone | DieSaid | DieLink) -> None:
        if isinstance(event, DieLink):
            self.get(event.die).online = event.online
        elif isinstance(event, DieSaid):
            now = self.get(event.die)
            now.online, now.last = True, event.reading
            if isinstance(event.reading, Battery):
                _low_now(event.die, now.battery, event.reading)
                now.battery, now.charging = event.reading.percent, event.reading.charging
            elif isinstance(event.reading, Colour):
                now.colour = event.reading.name
