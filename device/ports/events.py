"""What the main loop reacts to. Input callbacks and reader threads only put these on a queue."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:      # a box without range sensors never loads their parsers
    from cobi_companion.device.ports.die_readings import Reading as DieReading
    from cobi_companion.device.ports.range_sensor import Reading


class Key(StrEnum):
    CW = "cw"            # knob one detent clockwise
    CCW = "ccw"          # knob one detent counter-clockwise
    OK = "ok"            # short press of the knob
    BACK = "back"        # long press of the knob
    AXIS = "axis"        # the Axis dice button
    ALLIES = "allies"    # the Allies dice button
    AXIS_LONG = "axis_long"      # a dice button held down (D6+ on the quick dice screen)
    ALLIES_LONG = "allies_long"


@dataclass(frozen=True)
class Press:
    """A key: a tap or hold of a dice button, a knob's detent or its push."""

    key: Key


@dataclass(frozen=True)
class Wake:
    """A button or the knob has something to be timed (it went down: its hold; it bounced:
    the level it will settle at). The main loop's wait asks the inputs again; the tap or the
    hold itself comes as a Press. Nothing on the screen changes."""


@dataclass(frozen=True)
class Tick:
    """Time passes: animations step, the screen dims when idle."""

    now: float


@dataclass(frozen=True)
class Stop:
    """End the main loop (SIGTERM, SIGINT, end of a script)."""

    reason: str


@dataclass(frozen=True)
class Reload:
    """Read the config files and the cards again (SIGHUP, `systemctl reload`)."""


@dataclass(frozen=True)
class Done:
    """Work done off the main loop (the settings and cards read again), to be used on it:
    the loop owns the app's state, so `use` runs there."""

    use: Callable[[], None]


@dataclass(frozen=True)
class Signalled:
    """A signal the box does not act on (SIGUSR1, SIGUSR2): the loop logs it. A signal
    handler must not log itself: the logging lock may be held by the code it interrupted."""

    name: str


@dataclass(frozen=True)
class SensorReading:
    """A complete reading (or a named condition) from the range sensor called `sensor`."""

    sensor: str
    reading: Reading


@dataclass(frozen=True)
class SensorState:
    """A range sensor's port opened (online) or went away (offline)."""

    sensor: str
    online: bool


@dataclass(frozen=True)
class DieFound:
    """A scan for smart dice saw a die: its id (its Bluetooth address), its maker (`kind`,
    ports/die_readings.py KINDS) and the name it advertises."""

    die: str
    kind: str
    name: str


@dataclass(frozen=True)
class ScanDone:
    """A scan for smart dice ended; `problem` says why it could not scan ("" when it could)."""

    problem: str = ""


@dataclass(frozen=True)
class DieSaid:
    """A paired smart die said something: a roll, not a roll, its battery or its colour."""

    die: str
    reading: DieReading


@dataclass(frozen=True)
class DieLink:
    """A paired smart die connected (online) or went quiet: asleep, out of reach, or its
    connection lost (`why`, for the journal)."""

    die: str
    online: bool
    why: str = ""


DieEvent = DieFound | ScanDone | DieSaid | DieLink

Event = (Press | Wake | Tick | Stop | Reload | Done | Signalled | SensorReading | SensorState
         | DieFound | ScanDone | DieSaid | DieLink)
