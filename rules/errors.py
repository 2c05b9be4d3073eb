"""Errors the rules raise when a request cannot be resolved.

A refusal is a typed reason: a code (`Refusal`, or a game's own: `EasyRefusal`, `TankRefusal`,
`CobraRefusal`) and the values it names (labels, card titles, numbers, card field names,
facings, sides...). Each code's English template is written once, beside its enum (`ENGLISH`):
the rules fill it for the command line and the journal (`str(exc)`, `english.fill`), and
`python3 run.py catalogues` extracts it into the catalogues' template (words/locale/
companion.pot), where a translator translates it and from where the box says it in any
language. A box never reads the English sentence.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Self, TypeVar

from .english import Value as Value
from .english import fill


class Coded(StrEnum):
    """An enum of codes, each member written as its code and then the names of the values it
    comes with (`names`): the refusals here, Cobra's notes in cobra/notes.py."""

    names: tuple[str, ...]
    english: str            # its English template, given by its enum's `ENGLISH`

    def __new__(cls, code: str, *names: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.names = names
        return member


C = TypeVar("C", bound=Coded)


def english(templates: dict[C, str]) -> dict[C, str]:
    """An enum's English templates, one for each code, known from now on by `Coded.english`
    (kept on the member: codes of two enums may be the same string)."""
    for code, template in templates.items():
        code.english = template
    return templates


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


# Each code's English, the one place it is written: the rules' message (`str(exc)`) and
# the catalogues' English (refusal_<code> in words/locale/companion.pot, extracted by
# `python3 run.py catalogues`) are both made from it.
ENGLISH: dict[Refusal, str] = english({
    Refusal.SQUAD_NEEDS_FIGURE: "a squad of {name} needs at least one figure",
    Refusal.NO_SUCH_PIECE: "no piece called '{label}' in this battle",
    Refusal.NO_SUCH_WEAPON: "{name} has no weapon '{weapon}'; it carries: {weapons}",
    Refusal.NO_CARD_VALUE: (
        "card {name}{source} has no value for {field:key} ({field}): add it from the printed "
        "card"),
    Refusal.UNKNOWN_RULES: "unknown rules '{rules}': choose {choices}",
    Refusal.UNKNOWN_CARD: "unknown card '{card}': the known cards are {choices}",
    Refusal.UNKNOWN_HOUSE_RULE: "unknown house rule '{rule:key}': choose {choices}",
    Refusal.HOUSE_RULE_VALUE: "house rule {rule:key}: '{value}' is not allowed: choose {choices}",
    Refusal.DESTROYED: "{name} is destroyed",
    Refusal.FIRER_DESTROYED: "{name} is destroyed and cannot fire",
    Refusal.GUN_LOST: "{name} has lost its gun and cannot fire",
    Refusal.NO_GUN: "{name} has no gun: its card says none",
    Refusal.UNLOADED: "{name} is unloaded: it must reload before it can fire",
    Refusal.TARGET_DESTROYED: "{name} is already destroyed",
    Refusal.IMMOBILIZED_FOR_GOOD: "{name} is immobilized: it cannot move for the rest of the game",
    Refusal.NEGATIVE_MOVE: "turns and distance moved cannot be negative",
    Refusal.ROAD_AND_ROUGH: (
        "the road bonus needs the whole move on road: a move across rough ground is not all on "
        "road"),
    Refusal.MOVING_NEEDS_NO_DICE: "moving needs no dice",
})


class RulesError(Exception):
    """The rules refuse: `code` and `values` say why, as a typed reason for a box to put in
    its own words; the message is the code's English filled with the values, one line a
    player can read."""

    def __init__(self, code: Coded, **values: Value) -> None:
        super().__init__(fill(code.english, values))
        self.code = code
        self.values = values
