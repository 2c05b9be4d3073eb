"""The rule sets the companion knows, by name, each with the same shape for the device: the one
list of the rules levels (the settings, the roster, the command line's titles and the battle
types, device/core/battle_state.py, follow it).

A rule set's functions import their level's module when first called: `cobi-companion odds
--rules tank` imports the Tank Game's odds, and neither the Easy level nor the scoring of a
battle. Each of those modules defines dataclasses, and creating one at import costs about a
millisecond here (fifteen on a Pi Zero 2 W): most of what importing a rule costs.
"""
from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from .card import Facing, Kind
from .errors import Refusal, RulesError

if TYPE_CHECKING:
    from types import ModuleType

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
    called: str            # its short name, as the command line's explanations begin
    fire: Callable[[ShotPlan, Dice], Shot]
    odds: Callable[[ShotPlan], Odds]
    winner: Callable[[Battle], Side | None]
    reloads: bool          # guns must reload after every shot
    modifiers: bool        # hull down, range and crew change the rolls
    facings: tuple[Facing, ...] = tuple(Facing)   # the armour a shot can hit
    # How its rolls read: to hit needs a range of faces ("4-5"), not a face or more; damage is
    # the card's value plus a D6+, not damage dice; a gun turns only so far to aim.
    hit_range: bool = False
    plus_die: bool = False
    turn_limit: bool = False
    soft_fire: bool = False      # fire at soft targets and templates (the Soft Targets Table)
    # A battle's pieces: the kinds of card it plays with, and whether one may wait off the map.
    kinds: tuple[Kind, ...] = tuple(Kind)
    off_map: bool = False


def _later(module: str, name: str) -> Any:
    """The function `name` of the rules module `module`, which is imported at its first call.
    The module is kept once imported (the function is still looked up on it at each call):
    import_module at every call costs about a tenth of a whole shot."""
    imported: list[ModuleType] = []

    def call(*args: Any) -> Any:
        if not imported:
            imported.append(import_module(f"{__package__}.{module}"))
        return getattr(imported[0], name)(*args)
    return call


RULE_SETS = {
    "easy": RuleSet("easy", "COBI Easy level", "Easy level", _later("easy.fire", "fire"),
                    _later("easy.fire", "odds"), _later("easy.fire", "winner"),
                    reloads=False, modifiers=False,
                    # easy.FACINGS: the Polish text's "przodem, bokiem, tyłem"
                    facings=(Facing.FRONT, Facing.SIDE, Facing.REAR),
                    hit_range=True, plus_die=True, turn_limit=True,
                    kinds=(Kind.HARD, Kind.OPEN_TOP)),
    "tank": RuleSet("tank", "Cobi WWII Tank Game", "Tank Game",
                    _later("tank.hard_fire", "fire"), _later("tank.hard_fire", "odds"),
                    _later("tank.scoring", "winner"),
                    reloads=True, modifiers=True, soft_fire=True, off_map=True),
}


def next_rules(name: str) -> str:
    """The rules level after `name`, round the table (a settings row switches it so)."""
    names = list(RULE_SETS)
    return names[(names.index(name) + 1) % len(names)] if name in names else names[0]


def rule_set(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        raise RulesError(Refusal.UNKNOWN_RULES, rules=name, choices=tuple(RULE_SETS)) from None
