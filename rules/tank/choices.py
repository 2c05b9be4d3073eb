"""What an active piece may do now, asked before a menu offers it (Tank Game): each action of
the turn, each weapon, and whether a main gun may be aimed at a piece.

Every answer is the rules' own check, made without recording anything: the refusal the action
would meet (a menu leaves the action out, or shows it dimmed with that reason), or None.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from cobi_companion.rules.tank.refusals import TankRefusal

from ..battle import Battle, Piece
from ..card import Weapon
from ..errors import Refusal, RulesError
from ..house import DEFAULT, HouseRules
from ..shot import check_firer
from . import overrun, soft_fire, turns
from .hard_fire import check_hard_target
from .turns import Action, Turn


def refused(check: Callable[[], object]) -> RulesError | None:
    """The refusal `check` raises, or None when it passes."""
    try:
        check()
    except RulesError as exc:
        return exc
    return None


def action(turn: Turn, battle: Battle, label: str, act: Action,
           house: HouseRules = DEFAULT) -> RulesError | None:
    """May the active piece take this action now? Fire also needs a weapon it can fire now
    with a shot left in the activation (rule 10: each weapon once, a squad's once a figure)."""
    checks: dict[Action, Callable[[], object]] = {
        Action.FIRE: lambda: _fire(turn, battle, label, house),
        Action.MOVE: lambda: turns.move(turn, battle, label, house=house),
        Action.HIDE: lambda: turns.hide(turn, battle, label, cover=True),
        Action.TAKE_COVER: lambda: turns.take_cover(turn, battle, label),
        Action.RELOAD: lambda: turns.reload(turn, battle, label),
        Action.LEAVE: lambda: turns.leave(turn, battle, label),
    }
    return refused(checks[act])


def _fire(turn: Turn, battle: Battle, label: str, house: HouseRules) -> None:
    """A shot of some weapon the piece could fire now is allowed (its first is its fire
    action; a later one, of a squad's next figure or another weapon, while it has not moved)."""
    piece = battle.get(label)
    shots = [refused(partial(turns.check_shot, turn, battle, label, name, house))
             for name in turns.weapons_now(piece)]
    if any(no is None for no in shots):
        return
    for no in shots:
        if no is not None:
            raise no                                 # the first weapon's reason
    current = turn.current
    if current is None or not current.did(label, Action.FIRE):
        turns.fire(turn, battle, label)              # its own refusal says why first
    status = piece.status
    if turns.has_gun(piece) and not status.gun_destroyed and not status.loaded:
        raise RulesError(Refusal.UNLOADED, name=piece.label)
    raise RulesError(TankRefusal.NOTHING_TO_FIRE, label=piece.label)


def weapon(turn: Turn, battle: Battle, label: str, fired: Weapon | None,
           house: HouseRules = DEFAULT) -> RulesError | None:
    """May the active piece fire this weapon now (None: its main gun's AP; HE is the main
    gun's too, and a gun without HE fired at a figure)? One more shot of it in the activation
    (`turns.check_shot`), and the weapon itself: the gun loaded and not lost, a coaxial
    machine gun not once the gun is lost, an external one only with the commander out in the
    turret."""
    piece = battle.get(label)
    # the main gun is one weapon whatever it fires (AP, HE, or at a figure without HE)
    name = turns.GUN if fired is None or soft_fire.main_gun(fired) else fired.name

    def check() -> None:
        turns.check_shot(turn, battle, label, name, house)
        if fired is None:
            check_firer(piece.card, piece.status, needs_loaded=True, name=piece.label)
        else:
            soft_fire.check_soft_firer(piece, fired)
    return refused(check)


def main_gun_target(target: Piece) -> RulesError | None:
    """May a main gun's AP be aimed at this piece? Not at a piece out of the fight or hidden
    (rule 12: a hidden piece cannot be fired at), and only at a tank (AP at hard targets)."""
    def check() -> None:
        soft_fire.check_in_sight(target)
        check_hard_target(target.card, name=target.label)
    return refused(check)


def run_over(turn: Turn, battle: Battle, label: str,
             house: HouseRules = DEFAULT) -> RulesError | None:
    """May the active tank run over figures and guns now: its move, by a tank that can."""
    def check() -> None:
        turns.move(turn, battle, label, house=house)
        overrun.check_tank(battle.get(label))
    return refused(check)
