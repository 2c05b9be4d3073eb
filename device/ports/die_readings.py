"""What a smart die says, whatever its maker: the readings each protocol module
(`godice.py`, `pixels.py`) makes of a die's notification bytes, and that the Bluetooth
adapter hands on, with the die's id, as a `DieSaid` event (ports/events.py).

Only `Settled` is a roll. A die picked up, tilted against a model, moved or shaken without
a throw says `NotARoll`: the box never takes its face."""
from __future__ import annotations

from dataclasses import dataclass

# What a die is made by: the `kind` of a found or paired die.
GODICE, PIXELS = "godice", "pixels"
KINDS = (GODICE, PIXELS)


@dataclass(frozen=True)
class Rolling:
    """The die is tumbling (a throw has begun)."""


@dataclass(frozen=True)
class Settled:
    """A throw ended on `face` (1–6 for a D6): a roll."""

    face: int


@dataclass(frozen=True)
class NotARoll:
    """The die came to rest, or was moved, without a throw: `why` is "tilted" (not flat:
    against a model), "moved" (picked up, slid, turned by hand) or "handled" (held)."""

    why: str
    face: int | None = None      # the face up, where the die says it (never used as a roll)


@dataclass(frozen=True)
class Battery:
    """The die's battery, 0–100 %, and whether it is on its charger."""

    percent: int
    charging: bool = False


@dataclass(frozen=True)
class Colour:
    """The die's colour as its maker names it (a key of the box's words: "red", "black",
    "onyx_black", ...)."""

    name: str


Reading = Rolling | Settled | NotARoll | Battery | Colour
