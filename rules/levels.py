"""The rule sets the companion knows, by name, each with the same shape for the device."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import easy, scoring, tank_game
from .battle import Battle
from .dice import Dice
from .errors import Refusal, RulesError
from .odds import Odds
from .shot import ShotPlan
from .status import Side
from .trace import Shot


@dataclass(frozen=True)
class RuleSet:
    """A rules level as the box uses it: how it fires, its odds, its winner and what it changes."""

    name: str
    title: str
    fire: Callable[[ShotPlan, Dice], Shot]
    odds: Callable[[ShotPlan], Odds]
    winner: Callable[[Battle], Side | None]
    reloads: bool          # guns must reload after every shot
    modifiers: bool        # hull down, range and crew change the rolls


RULE_SETS = {
    "easy": RuleSet("easy", "COBI Easy level", easy.fire, easy.odds, easy.winner,
                    reloads=False, modifiers=False),
    "tank": RuleSet("tank", "Cobi WWII Tank Game", tank_game.fire, tank_game.odds,
                    scoring.winner, reloads=True, modifiers=True),
}


def rule_set(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        raise RulesError(f"unknown rules {name!r}: choose {' or '.join(RULE_SETS)}",
                         Refusal.UNKNOWN_RULES, rules=name, choices=tuple(RULE_SETS)) from None
