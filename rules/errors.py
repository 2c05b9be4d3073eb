"""Errors the rules raise when a request cannot be resolved.

A refusal says why twice: in one English sentence (the command line prints it), and as a typed
reason a box can put in its own words in any language: a code (`Refusal`, or a game's own:
`EasyRefusal`, `TankRefusal`, `CobraRefusal`) and the values the
sentence names (labels, card titles, numbers, card field names, facings, sides...). A box never
reads the sentence.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Self

# A value a refusal names: a label or a title, a number, a word the rules use (a card field,
# a facing, a side, an action...), or several labels or names. A `source` is the file a card or
# table came from ("" when it was built in code).
Value = str | int | float | tuple[str, ...]


class Coded(StrEnum):
    """An enum of codes, each member written as its code and then the names of the values it
    comes with (`names`): the refusals here, Cobra's notes in cobra/notes.py."""

    names: tuple[str, ...]

    def __new__(cls, code: str, *names: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.names = names
        return member


class Refusal(Coded):
    """Every kind of refusal the levels share, one member each: its code, then the names of
    the values every refusal of that kind comes with (`names`). A game's own refusals are in
    an enum of its own beside its rules: `EasyRefusal` (rules/easy/refusals.py), `TankRefusal`
    (rules/tank/refusals.py), `CobraRefusal`
    (rules/cobra/refusals.py)."""

    # the battle, the cards and the rules levels
    SQUAD_NEEDS_FIGURE = "squad_needs_figure", "name"  # the card's name
    NO_SUCH_PIECE = "no_such_piece", "label"
    NO_SUCH_WEAPON = "no_such_weapon", "name", "weapon", "weapons"
    NO_CARD_VALUE = "no_card_value", "name", "field", "source"
    UNKNOWN_RULES = "unknown_rules", "rules", "choices"
    UNKNOWN_CARD = "unknown_card", "card", "choices"
    UNKNOWN_HOUSE_RULE = "unknown_house_rule", "rule", "choices"
    HOUSE_RULE_VALUE = "house_rule_value", "rule", "value", "choices"

    # firing at hard targets, reloading, moving (both levels)
    DESTROYED = "destroyed", "name"
    FIRER_DESTROYED = "firer_destroyed", "name"
    GUN_LOST = "gun_lost", "name"
    NO_GUN = "no_gun", "name"
    UNLOADED = "unloaded", "name"
    TARGET_DESTROYED = "target_destroyed", "name"
    IMMOBILIZED_FOR_GOOD = "immobilized_for_good", "name"
    NEGATIVE_MOVE = "negative_move"
    ROAD_AND_ROUGH = "road_and_rough"
    MOVING_NEEDS_NO_DICE = "moving_needs_no_dice"


class RulesError(Exception):
    """The rules refuse: the message says why, in one line a player can read; `code` and
    `values` say it as a typed reason, for a box to put in its own words."""

    def __init__(self, message: str, code: Coded, **values: Value) -> None:
        super().__init__(message)
        self.code = code
        self.values = values
