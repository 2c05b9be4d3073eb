"""A modifier to a roll, with its reason: what the trace of a resolution, the odds and the Soft
Targets Table all say about a roll.

A module of its own, so that the odds and the table import it without the trace (a dozen
dataclasses, each of which costs about a millisecond to create at import here, and fifteen on a
Pi Zero 2 W): `cobi-companion odds` never rolls a die.
"""
from __future__ import annotations

from dataclasses import dataclass

from .saved import Data


@dataclass(frozen=True)
class Modifier(Data):
    """A change to a roll and the rule (or card, or table) that makes it."""

    reason: str
    value: int


