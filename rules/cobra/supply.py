"""Cobra's unit supply as the scenarios set it: on game turns 1 and 2 (played only in the
Battle of the Build-Up and the campaign, which start with the landing) every unit is in
supply. 17.3.6d: "All Allied units are considered in supply throughout GTs 1 and 2, even if
they are surrounded by German units or EZOC"; 17.3.6: "German supply is not determined on GTs 1
and 2. All German units are automatically in supply during those game turns".

A German attack without its supply points is still halved (11.0c, 10.0b): that is the attack's
supply points, not the units' supply, and the box marks it with the same letter; so combat
refuses a unit out of supply on those turns on either defence and on an Allied attack, never
on a German attack.
"""
from __future__ import annotations

from collections.abc import Sequence

from cobi_companion.rules.cobra.refusals import CobraRefusal

from ..errors import RulesError

IN_SUPPLY_UNTIL = 2         # every unit in supply on GT 1 and 2 (17.3.6, 17.3.6d)
OUT_OF_SUPPLY = "s"         # the unit modifier of a unit out of supply (10.6)


def always_in_supply(turn: int | None) -> bool:
    """Whether every unit is in supply on game turn `turn` (17.3.6, 17.3.6d); None: not
    known."""
    return turn is not None and turn <= IN_SUPPLY_UNTIL


def check_in_supply(turn: int | None) -> None:
    """Refuse a unit out of supply on game turns 1 and 2 (17.3.6, 17.3.6d)."""
    if turn is not None and always_in_supply(turn):
        raise RulesError(CobraRefusal.ALWAYS_IN_SUPPLY, turn=turn)


def check_unit_in_supply(letters: Sequence[str], turn: int | None, *,
                         german_attack: bool) -> None:
    """Refuse a unit marked out of supply (`letters`: its modifiers) on game turns 1 and 2,
    Allied or German, attacking or defending (17.3.6, 17.3.6d); except on a German attack (or
    one whose side is not known), where the letter is its attack without supply points (11.0c),
    still halved."""
    if OUT_OF_SUPPLY in letters and not german_attack:
        check_in_supply(turn)
