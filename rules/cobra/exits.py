"""Allied units exiting off a map edge: the record several rules read (5.3c the German MA after
the first exit, 15.2 the 15th Army release after the first US exit, 15.3 Brest without a US
exit off the west edge, 16.1 and 16.2 the victory points for exits)."""
from __future__ import annotations

from dataclasses import dataclass

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError
from ..saved import Data

NATIONS = ("us", "british")               # the Allied nationalities that exit (11.2)
EDGES = ("north", "east", "south", "west")


@dataclass(frozen=True)
class Exit(Data):
    """One Allied unit off the map: in which game turn, whose, by which edge, and what kind
    of unit (the victory points of 16.1 and 16.2 tell kinds apart, like "mech_division")."""

    turn: int
    nation: str
    edge: str
    kind: str = "unit"

    def __post_init__(self) -> None:
        for name, value, allowed in (("nation", self.nation, NATIONS),
                                     ("edge", self.edge, EDGES)):
            if value not in allowed:
                raise RulesError(CobraRefusal.UNKNOWN_EXIT,
                                 field=name, value=value, choices=allowed)


def first_exit(exits: tuple[Exit, ...], nation: str | None = None,
               edge: str | None = None) -> int | None:
    """The game turn of the first exit (of `nation`, by `edge`, when given), or None."""
    turns = [e.turn for e in exits if nation in (None, e.nation) and edge in (None, e.edge)]
    return min(turns, default=None)
