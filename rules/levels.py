"""The rule sets the companion knows, by name, each with the same shape for the device.

A rule set's functions import their level's module when first called: `cobi-companion odds
--rules tank` imports the Tank Game's odds, and neither the Easy level nor the scoring of a
battle. Each of those modules defines dataclasses, and creating one at import costs about a
millisecond here (fifteen on a Pi Zero 2 W): most of what importing a rule costs.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from .errors import Refusal, RulesError

if TYPE_CHECKING:
    from .battle import Battle
    from .dice import Dice
    from .odds import Odds
    from .shot import ShotPlan
    from .status import Side
    from .trace import Shot


class RuleSet(NamedTuple):
    """A rules level as the box uses it: how it fires, its odds, its winner and what it changes
    (a named tuple, not a dataclass: every command that takes --rules imports this table)."""

    name: str
    title: str
    fire: Callable[[ShotPlan, Dice], Shot]
    odds: Callable[[ShotPlan], Odds]
    winner: Callable[[Battle], Side | None]
    reloads: bool          # guns must reload after every shot
    modifiers: bool        # hull down, range and crew change the rolls


def _easy_fire(plan: ShotPlan, dice: Dice) -> Shot:
    from . import easy

    return easy.fire(plan, dice)


def _easy_odds(plan: ShotPlan) -> Odds:
    from . import easy

    return easy.odds(plan)


def _easy_winner(battle: Battle) -> Side | None:
    from . import easy

    return easy.winner(battle)


def _tank_fire(plan: ShotPlan, dice: Dice) -> Shot:
    from . import tank_game

    return tank_game.fire(plan, dice)


def _tank_odds(plan: ShotPlan) -> Odds:
    from . import tank_game

    return tank_game.odds(plan)


def _tank_winner(battle: Battle) -> Side | None:
    from . import scoring

    return scoring.winner(battle)


RULE_SETS = {
    "easy": RuleSet("easy", "COBI Easy level", _easy_fire, _easy_odds, _easy_winner,
                    reloads=False, modifiers=False),
    "tank": RuleSet("tank", "Cobi WWII Tank Game", _tank_fire, _tank_odds, _tank_winner,
                    reloads=True, modifiers=True),
}


def rule_set(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        raise RulesError(f"unknown rules {name!r}: choose {' or '.join(RULE_SETS)}",
                         Refusal.UNKNOWN_RULES, rules=name, choices=tuple(RULE_SETS)) from None
